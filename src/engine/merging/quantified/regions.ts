/**
 * Merge regions of quantified merging in the run (--merge-mode=quantified): a state entering
 * a loop region's header from outside (loops.ts) opens a region, a MergeGroup as
 * klee_open_merge makes one, whose states record their branch conditions (state.trace).
 * A state of the region reaching one of the loop's exits in the loop's frame pauses there;
 * one returning out of the frame leaves the region. When no state of the region runs any
 * more, the states paused at each exit merge by pattern (merge.ts) and go on.
 *
 * Regions do not nest: a state already recording a trace opens none (an inner loop is part
 * of the outer region's tree). Steps end at block entries (Executor.blockSteps) so that every
 * arrival at a header or an exit is seen.
 */
import type { ExecutionState } from '../../state.js';
import { StateStatus } from '../../state.js';
import type { Executor } from '../../executor.js';
import { leaveQuantifiedRegion, pauseAtExit } from '../close.js';
import { MergeGroup, type QuantifiedRegion } from '../manual.js';
import { loopRegions } from './loops.js';
import { mergeLeaves, newQuantifiedCounters, type QuantifiedCounters } from './merge.js';
import { IncrementalMerging } from './incremental.js';
import { Termination } from '../../errors.js';

/** Exits of a region that gave up merging (--release-unmerged-early). */
const unmergedExits = new WeakMap<MergeGroup, Set<string>>();

export class QuantifiedRegions {
  readonly counters: QuantifiedCounters = newQuantifiedCounters();
  /** Incremental merging's trees (--use-incremental-merging), or null. */
  readonly incremental: IncrementalMerging | null;
  /** Regions opened and not yet released. */
  private readonly live = new Set<MergeGroup>();

  constructor(private readonly ex: Executor) {
    this.incremental = ex.opts.useIncrementalMerging ? new IncrementalMerging(ex, this.counters) : null;
  }

  /** After a step, the states that moved: incremental merging first (it may end some), then arrivals. */
  arriveAll(moved: readonly ExecutionState[]): void {
    const inc = this.incremental;
    if (inc !== null) {
      const byGroup = new Map<MergeGroup, ExecutionState[]>();
      for (const st of moved) {
        const g = st.openMergeStack[st.openMergeStack.length - 1];
        if (st.status !== StateStatus.Running || st.regionNode === null || g?.quantified === null || g === undefined) continue;
        const list = byGroup.get(g);
        if (list === undefined) byGroup.set(g, [st]);
        else list.push(st);
      }
      for (const [g, list] of byGroup) inc.arrive(g, list);
    }
    for (const st of moved) this.arrive(st);
  }

  /** A new region for st (a loop's, or klee_open_merge's when loop is null). */
  open(st: ExecutionState, loop: QuantifiedRegion['loop']): MergeGroup {
    const g = new MergeGroup(this.ex.newMergeGroupId(), { root: st.constraints.fork(), loop });
    g.running = 1;
    g.open.add(st);
    st.openMergeStack.push(g);
    st.trace = [];
    this.incremental?.open(g, st);
    this.live.add(g);
    this.counters.regions++;
    return g;
  }

  /** After a step: st (which moved) may enter a loop region, reach its exit, or leave it. */
  arrive(st: ExecutionState): void {
    if (st.status !== StateStatus.Running) return;
    const g = st.openMergeStack[st.openMergeStack.length - 1];
    const loop = g?.quantified?.loop ?? null;
    if (g !== undefined && loop !== null) {
      if (st.stack.length < loop.depth || st.stack[loop.depth - 1]!.kf !== loop.kf) {
        st.regionNode = null;
        leaveQuantifiedRegion(this.ex, st, g);
      } else if (st.stack.length === loop.depth && loop.exitPcs.has(st.pc)) {
        const key = `exit:${st.pc}`;
        if (unmergedExits.get(g)?.has(key) === true) {
          // this exit already gave up merging: st goes on at once (and may open the next loop's region)
          st.regionNode = null;
          leaveQuantifiedRegion(this.ex, st, g);
          this.arrive(st);
          return;
        }
        pauseAtExit(this.ex, st, g, key);
        const max = this.ex.opts.maxStatesToMerge;
        const list = g.closed.get(key);
        if (this.ex.opts.releaseUnmergedEarly && max > 0 && list !== undefined && list.length >= max) this.releaseExit(g, key, list);
      }
      return;
    }
    if (st.trace !== null || !this.ex.opts.quantifiedLoops) return;
    const kf = st.top.kf;
    const region = loopRegions(kf).get(st.pc);
    if (region === undefined) return;
    // entered from outside the loop (not along a back edge)
    const from = kf.insts[st.prevPc]?.inst.parent.index ?? -1;
    if (region.loop.blocks.has(from)) return;
    this.open(st, { kf, depth: st.stack.length, exitPcs: region.exitPcs });
  }

  /**
   * At a halt (before the remaining states are dumped): the states paused at an exit of a
   * region that never released are the leaves its release would have merged into one state
   * per exit (per pattern), whose test is a model of their disjunction, i.e. one leaf's
   * inputs. So each exit keeps one paused state (the oldest) for its test and the others end
   * without one; returns how many ended. (KLEE dumps every state; a region's leaves are not
   * paths the run would have gone on with one by one, and there can be hundreds of
   * thousands: writing their tests took tens of seconds past the budget.)
   */
  endPausedAtHalt(): number {
    let ended = 0;
    for (const g of this.live) {
      for (const list of g.closed.values()) {
        let kept = false;
        for (const s of list) {
          if (s.status !== StateStatus.Running) continue;
          if (!kept) {
            kept = true;
            continue;
          }
          this.ex.terminateSilently(s, Termination.Interrupted);
          ended++;
        }
      }
    }
    return ended;
  }

  /**
   * An exit reached --max-states-to-merge leaves while its region still runs: they would go on
   * unmerged at the release anyway, so they go on now, and later arrivals pass the exit
   * without pausing (--release-unmerged-early). Held back until the release, 2^17 leaves of
   * apr_collapse_spaces at N = 16 stayed alive (memory and GC) with nothing to gain.
   */
  private releaseExit(g: MergeGroup, key: string, list: ExecutionState[]): void {
    let keys = unmergedExits.get(g);
    if (keys === undefined) unmergedExits.set(g, (keys = new Set()));
    keys.add(key);
    g.closed.delete(key);
    this.counters.tooManyLeaves++;
    this.counters.releasedEarly++;
    this.counters.leaves += list.length;
    const out: ExecutionState[] = [];
    for (const s of list) {
      if (s.status !== StateStatus.Running) continue;
      s.trace = null;
      s.regionNode = null;
      this.ex.resumed.push(s);
      out.push(s);
    }
    for (const s of out) this.arrive(s);
  }

  /** Every state of the region arrived or ended: each exit's leaves merge and go on. */
  release(g: MergeGroup): ExecutionState[] {
    const q = g.quantified!;
    this.live.delete(g);
    // the leaves' traces are their tree paths: the tree has done its work
    this.incremental?.close(g);
    const out: ExecutionState[] = [];
    for (const list of g.closed.values()) {
      const live = list.filter((s) => s.status === StateStatus.Running);
      // after a halt the leaves are being dumped: no merging (its queries could outlast the budget)
      const max = this.ex.opts.maxStatesToMerge;
      if (max > 0 && live.length >= max) {
        this.counters.tooManyLeaves++;
        this.counters.leaves += live.length;
      }
      const survivors = live.length > 1 && this.ex.haltReason === null && (max === 0 || live.length < max) ? mergeLeaves(this.ex, live, q.root, { maxPatterns: this.ex.opts.maxPatterns, iteFallback: this.ex.opts.quantifiedIteFallback, validate: this.ex.opts.validateQuantifiedMerges }, this.counters) : live;
      for (const s of survivors) {
        s.trace = null;
        out.push(s);
      }
    }
    g.closed.clear();
    // an exit may be the header of the next loop: the survivors enter it from here
    for (const s of out) this.arrive(s);
    return out;
  }
}
