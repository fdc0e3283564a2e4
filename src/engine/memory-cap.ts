/**
 * --max-memory (KLEE's Executor::checkMemoryUsage), so that a long run keeps exploring
 * inside its cap instead of forking until the process dies or can never fork again.
 *
 * KLEE, every 65 536 instructions: above the cap it inhibits forking (--max-memory-inhibit,
 * default true); above the cap + 100 MB it ends N − N·cap/used of its N states, picked at
 * random (a second pick when the first covered new code), each with a test as
 * --only-output-states-covering-new allows ("Memory limit exceeded.", an `.early` file).
 *
 * Here the same two thresholds sit below the cap instead of above it, so that the cap is
 * what the run stays under: forking is inhibited above cap − margin (margin = 10 % of the
 * cap, at most KLEE's 100 MB), and states are ended above the cap, or after 250 ms of
 * inhibited forking, down to cap − 2·margin: usage is only confirmed every so often
 * (below), and it keeps growing in between, so the kill leaves that much room, and forking,
 * which it allows again, goes on at once. An inhibited fork drops one side's whole subtree:
 * measured on coreutils `cat`, inhibition cut ~8 times more subtrees than the kills, and
 * the runs ran out of states; the kills drop states chosen to lose the least. Which states
 * go is the executor's choice (executor.ts: those that covered nothing new first, then
 * those longest without new coverage). Usage is memoryInUse() (util/memory-use.ts); a
 * reading over a threshold is confirmed after a full garbage collection, since V8's heap
 * counts garbage until it collects. Forced collections are spaced so that they take at most
 * ~10 % of the run (a collection of a 2 GB heap takes about a second).
 */
import { getHeapStatistics } from 'node:v8';
import { collectGarbage, memoryInUse } from '../util/memory-use.js';
import type { Rng } from '../util/rng.js';

const MB = 1024 * 1024;
/** Live states a collection must see before their memory per state is used as an estimate. */
const MIN_STATES_FOR_ESTIMATE = 16;
/**
 * How often the resident size is read (ms; ~25 µs a reading), and how long after a forced
 * collection it is not: V8 gives the pages a collection emptied back from another thread
 * over the next moments (with a compacting collection, tried, a reading at once was 834 MB
 * for coreutils `cat` at --max-memory=500, where it was ~520 MB before and after).
 */
const RESIDENT_EVERY_MS = 1000;
const SETTLE_MS = 500;
/** The longest spell of inhibited forking before states end instead (ms; coreutils `cat` inhibits ~400 forks a second). */
const MAX_INHIBIT_MS = 250;

/** What a check found. */
export interface MemoryCheck {
  /** Bytes in use (after a collection when one ran). */
  used: number;
  /** Forking is inhibited (usage above cap − margin, and inhibiting is on). */
  atLimit: boolean;
  /** How many of the live states to end now (0 under the cap). */
  statesToEnd: number;
}

export interface MemoryCapOptions {
  /** The cap in MB (--max-memory); 0 = none. */
  capMB: number;
  /** Inhibit forking near the cap (KLEE's --max-memory-inhibit, default true). */
  inhibit: boolean;
  /** Bytes in use now (default memoryInUse().total). */
  measure?: () => number;
  /** A full garbage collection (default collectGarbage). */
  collect?: () => boolean;
  /** The resident size in bytes (default process.memoryUsage.rss), read every second at most. */
  resident?: () => number;
  /** The clock in ms (default Date.now). */
  now?: () => number;
}

export class MemoryCap {
  private readonly cap: number;
  private readonly inhibitAbove: number;
  private readonly margin: number;
  /** Where ending states brings usage down to. */
  private readonly endTo: number;
  private readonly measure: () => number;
  private readonly resident: () => number;
  /**
   * What the process holds beyond what is counted (node's code, stacks, V8's heap pages not
   * in use, the allocator's free blocks and per-block overhead): learnt from the resident
   * size (residentOverhead) and added to every reading, so that the resident size is what
   * stays under the cap. At most half the cap.
   */
  private overhead = 0;
  /** When the resident size was last read, and when the last forced collection ended (ms). */
  private residentReadAt = -Infinity;
  private collectedAt = -Infinity;
  /** The resident size when the overhead was last taken whole (residentOverhead). */
  private wholeAt = 0;
  /** The highest resident size read (bytes; statistics). */
  peakResident = 0;
  private readonly collect: () => boolean;
  private readonly now: () => number;
  private atLimit = false;
  /** No forced collection before this time. */
  private nextCollectAt = 0;
  /** Usage before any state (the program loaded), and per state at the last collection (0: no estimate). */
  private readonly base: number;
  private perState = 0;
  /** When usage last went over the inhibiting threshold. */
  private limitSince = 0;
  /** Collections forced so far, and their time (statistics). */
  collections = 0;
  collectMs = 0;
  /** The highest usage a collection confirmed, and the checks that ended states (statistics). */
  peakConfirmed = 0;
  endings = 0;

  constructor(private readonly opts: MemoryCapOptions) {
    this.cap = opts.capMB * MB;
    const margin = Math.min(100 * MB, this.cap / 10);
    this.inhibitAbove = this.cap - margin;
    this.endTo = this.cap - 2 * margin;
    const measure = opts.measure ?? (() => memoryInUse().total);
    this.measure = () => measure() + this.overhead;
    this.resident = opts.resident ?? (() => process.memoryUsage.rss());
    this.margin = margin;
    this.collect = opts.collect ?? collectGarbage;
    this.now = opts.now ?? Date.now;
    this.base = this.enabled ? Math.min(this.measure(), this.cap / 4) : 0;
  }

  get enabled(): boolean {
    return this.opts.capMB > 0;
  }

  /** Checks the usage with `liveStates` states alive. */
  check(liveStates: number): MemoryCheck {
    let used = this.measure();
    if (!this.enabled) return { used, atLimit: false, statesToEnd: 0 };
    const now = this.now();
    if (now - this.residentReadAt >= RESIDENT_EVERY_MS && now - this.collectedAt >= SETTLE_MS) {
      // against what is live (the estimate below, when there is one): the garbage V8 lets
      // build up between its collections is resident too, and not in the estimate the
      // decisions between collections use (counted as usage, the resident size of coreutils
      // `cat` went 200 MB over a 2000 MB cap)
      const counted = used - this.overhead;
      const live = this.perState > 0 ? Math.min(counted, this.base + this.perState * liveStates) : counted;
      this.overhead = this.residentOverhead(live, this.resident());
      used = counted + this.overhead;
      this.residentReadAt = now;
    }
    if (used <= this.inhibitAbove) {
      this.atLimit = false;
      return { used, atLimit: false, statesToEnd: 0 };
    }
    const t0 = this.now();
    if (t0 < this.nextCollectAt) {
      // No collection due: the reading counts garbage, so the last collection's memory per
      // state estimates what is live (states fork by thousands between collections seconds
      // apart, each copying what it writes next; acting only on collections let coreutils
      // `cat` reach 2.6 GB under a 2000 MB cap). Without an estimate, the last decision stands
      // (past a spell of inhibiting, the reading itself, an upper bound, decides).
      if (this.perState > 0) return this.decide(Math.min(used, this.base + this.overhead + this.perState * liveStates), liveStates);
      if (this.inhibiting() && t0 - this.limitSince > MAX_INHIBIT_MS) return this.decide(used, liveStates);
      return { used, atLimit: this.inhibiting(), statesToEnd: 0 };
    }
    if (this.collect()) {
      const ms = this.now() - t0;
      this.collections++;
      this.collectMs += ms;
      this.nextCollectAt = this.now() + Math.max(100, 10 * ms);
      this.collectedAt = this.now();
      used = this.measure();
      const counted = used - this.overhead;
      // states dominate usage near the cap; a handful of them says little about their cost
      this.perState = liveStates >= MIN_STATES_FOR_ESTIMATE ? Math.max(0, counted - this.base) / liveStates : 0;
    }
    if (used > this.peakConfirmed) this.peakConfirmed = used;
    return this.decide(used, liveStates);
  }

  /**
   * The overhead to count from a resident size `rss` read with `counted` bytes in use.
   * Memory freed (states ended, garbage collected) mostly stays resident: glibc keeps freed
   * 4 KiB page buffers in its heap and V8 keeps its emptied pages for a while,
   * and both reuse them before asking the system for more. So rss − counted right after an
   * ending overstates the overhead by what was just freed, and taken as the overhead it
   * would end states again at every check until none is left. Bounding it by the margin
   * prevented that, but let the overhead grow unseen (fragmentation: coreutils `cat` reached
   * 2.79 GB resident under a 2000 MB cap). Here rss − counted is taken whole when the
   * resident size has grown by more than half a margin since it was last taken whole (what
   * was freed has then been reused: the growth is real), else only when it is lower.
   */
  private residentOverhead(counted: number, rss: number): number {
    const o = Math.min(this.cap / 2, Math.max(0, rss - counted));
    if (rss > this.peakResident) this.peakResident = rss;
    if (rss <= this.wholeAt + this.margin / 2) return Math.min(this.overhead, o);
    this.wholeAt = rss;
    return o;
  }

  private decide(used: number, liveStates: number): MemoryCheck {
    const now = this.now();
    if (used > this.inhibitAbove && !this.atLimit) this.limitSince = now;
    this.atLimit = used > this.inhibitAbove;
    // Inhibiting is for a short spell (states that end may free enough); a longer one makes
    // every state run its one path to the end, large subtrees included, which ended coreutils
    // runs with no state left: past it, states end as over the cap, and forking goes on.
    const tooLong = this.inhibiting() && now - this.limitSince > MAX_INHIBIT_MS;
    if ((used <= this.cap && !tooLong) || liveStates === 0) return { used, atLimit: this.inhibiting(), statesToEnd: 0 };
    // as KLEE, keep the share of states that fits (N·cap/used), here under cap − 2·margin, of
    // the usage states make: what is there without them (the program loaded, the resident
    // overhead) does not shrink when they end (counted in, a 350 MB overhead under a 500 MB cap
    // ended every state of coreutils `cat` in a few checks). The states that stay may fork
    // again: after the kill, usage is expected under the threshold.
    const fixed = Math.min(this.base + this.overhead, this.endTo / 2);
    const keep = Math.floor((liveStates * (this.endTo - fixed)) / Math.max(1, used - fixed));
    this.atLimit = false;
    this.endings++;
    return { used, atLimit: false, statesToEnd: Math.max(1, liveStates - keep) };
  }

  /**
   * A warning when V8's heap limit is below the cap: V8 would then run out of heap (and end
   * the process) before the cap is reached. bin/tsklee starts node with a heap to fit the cap
   * (cli/launch.cts); a library user's own node may not have one.
   */
  heapLimitWarning(): string | null {
    const limitMB = Math.floor(getHeapStatistics().heap_size_limit / MB);
    if (!this.enabled || limitMB >= this.opts.capMB) return null;
    return `--max-memory=${this.opts.capMB} is above the JavaScript heap limit (${limitMB} MB): node may run out of memory before the cap (start node with --max-old-space-size=${this.opts.capMB + 512})`;
  }

  /** The run's line about the cap (messages.txt), or null when it never came near it. */
  summary(statesEnded: number): string | null {
    if (!this.enabled || this.collections === 0) return null;
    const mb = (b: number): number => Math.round(b / MB);
    return `memory cap ${this.opts.capMB} MB: ${statesEnded} states ended at ${this.endings} ${this.endings === 1 ? 'check' : 'checks'}, highest usage after a collection ${mb(this.peakConfirmed)} MB, highest resident size ${mb(this.peakResident)} MB, ${this.collections} forced collections (${(this.collectMs / 1000).toFixed(1)} s)`;
  }

  private inhibiting(): boolean {
    return this.opts.inhibit && this.atLimit;
  }
}

/** What the choice of states to end looks at. */
export interface CappedState {
  /** Covered code no state had run before: its test is one --only-output-states-covering-new keeps. */
  coveredNew: boolean;
  /** Instructions since it last covered new code (0: it just did). */
  instsSinceCovNew: number;
}

/**
 * The `n` states to end at the cap, in order: KLEE picks at random, drawing twice to avoid a
 * state that covered new code; here every state that covered nothing new goes before any
 * that did (their tests are the ones worth keeping), and within each group the state that
 * has gone longest without new coverage goes first (the least promising), ties at random.
 */
export function statesToEnd<S extends CappedState>(states: Iterable<S>, n: number, rng: Rng): S[] {
  const ranked = [...states].map((s) => ({ s, tie: rng.nextU32() }));
  ranked.sort((a, b) => Number(a.s.coveredNew) - Number(b.s.coveredNew) || b.s.instsSinceCovNew - a.s.instsSinceCovNew || a.tie - b.tie);
  return ranked.slice(0, n).map((r) => r.s);
}
