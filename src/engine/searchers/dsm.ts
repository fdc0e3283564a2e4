/**
 * Dynamic state merging (paper 001 §4, Algorithm 2): a decorator over any searcher. Each state
 * keeps its last δ history entries (one per basic block: where it stood and a hash of its hot
 * variables, every symbolic value hashed as one mark — the paper's §4.3 hashing, stricter than
 * its similarity relation). A state whose current entry equals an entry of another state's
 * recent history is lagging behind that state on the same route: it goes into the forwarding
 * set F. While F is not empty, the topologically first state of F runs (so the one furthest
 * behind catches up first); otherwise the driving searcher picks. F follows every step: a
 * forwarded state that diverges matches no history any more and leaves F. The merge itself
 * happens where the states meet (merging/auto.ts), after the full similarity check; two
 * states that met there and did not merge are not fast-forwarded towards each other again.
 *
 * Entries are indexed by location and hash, so whether a state is in F is a map lookup, not
 * a comparison with every state's history at its location (thousands of states standing at
 * one location made that quadratic).
 */
import { comparePositions, type LocationOracle, type MergeSignature, type Searcher, type SearchableState } from './searcher.js';

export interface DsmCounters {
  /** Steps whose state came from F. */
  forwardSteps: number;
  /** States picked from F at least once. */
  forwardedStates: number;
  /** Of those, the ones that then merged into another state. */
  forwardedMerged: number;
}

/** Per location, per hash: the states with such an entry in their history, and how many times. */
type Index<S> = Map<string, Map<number, Map<S, number>>>;

export class DynamicMergingSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  readonly counters: DsmCounters = { forwardSteps: 0, forwardedStates: 0, forwardedMerged: 0 };
  private readonly history: Index<S> = new Map();
  private readonly ring = new Map<S, MergeSignature[]>();
  /** Each state's current entry, and the states standing at each entry. */
  private readonly current = new Map<S, MergeSignature>();
  private readonly standingAt = new Map<string, Map<number, Set<S>>>();
  /** The forwarding set F. */
  private readonly forwardable = new Set<S>();
  private readonly forwarded = new Set<S>();
  /**
   * Pairs that met at a merge point and did not merge: a's entry matching b's history no
   * longer puts a into F. Without it two states the full check refuses (a pointer differs,
   * an ite-hot variable, other objects) overtake each other block after block, each lagging
   * behind the other in turn, and DSM's topological choice replaces the driving searcher's.
   */
  private readonly apartFrom = new Map<S, Set<S>>();

  constructor(
    private readonly base: Searcher<S>,
    private readonly oracle: LocationOracle<S>,
    private readonly delta: number,
  ) {
    this.name = `dsm(${base.name})`;
  }

  selectState(): S {
    if (this.forwardable.size === 0) return this.base.selectState();
    let best: S | null = null;
    let bestPos: readonly number[] = [];
    for (const s of this.forwardable) {
      const p = this.oracle.topologicalPosition(s);
      const c = best === null ? -1 : comparePositions(p, bestPos);
      if (c < 0 || (c === 0 && s.id < best!.id)) {
        best = s;
        bestPos = p;
      }
    }
    this.counters.forwardSteps++;
    if (!this.forwarded.has(best!)) {
      this.forwarded.add(best!);
      this.counters.forwardedStates++;
    }
    return best!;
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    this.base.update(current, added, removed);
    const gone = new Set(removed);
    for (const s of removed) this.forget(s);
    // states forked in this step share the history of the state that ran (pred follows ancestry)
    const inherited = current !== null ? (this.ring.get(current) ?? []).slice() : [];
    if (current !== null && !gone.has(current)) this.record(current);
    for (const s of added) {
      if (gone.has(s)) continue;
      if (!this.ring.has(s) && inherited.length > 0) {
        this.ring.set(s, inherited.slice());
        for (const e of inherited) this.addEntry(e, s);
      }
      this.record(s);
    }
  }

  empty(): boolean {
    return this.base.empty();
  }

  /** a and b met and did not merge: neither is fast-forwarded towards the other again. */
  apart(a: S, b: S): void {
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      if (!this.ring.has(x)) continue;
      let set = this.apartFrom.get(x);
      if (set === undefined) this.apartFrom.set(x, (set = new Set()));
      set.add(y);
      if (this.forwardable.has(x)) this.recheck(x);
    }
  }

  /** Whether s is in F (tests). */
  isForwardable(s: S): boolean {
    return this.forwardable.has(s);
  }

  /** s stands at a new entry: push it on s's history and re-check F around it. */
  private record(s: S): void {
    const sig = this.oracle.signature(s);
    const old = this.current.get(s);
    if (old !== undefined) this.unstand(old, s);
    this.current.set(s, sig);
    let byHash = this.standingAt.get(sig.location);
    if (byHash === undefined) this.standingAt.set(sig.location, (byHash = new Map()));
    let here = byHash.get(sig.hash);
    if (here === undefined) byHash.set(sig.hash, (here = new Set()));
    here.add(s);
    let ring = this.ring.get(s);
    if (ring === undefined) this.ring.set(s, (ring = []));
    ring.push(sig);
    this.addEntry(sig, s);
    if (ring.length > this.delta) this.removeEntry(ring.shift()!, s);
    this.recheck(s);
    if (!this.forwardable.has(s)) this.forwarded.delete(s); // diverged: a later forwarding is a new attempt
  }

  private unstand(e: MergeSignature, s: S): void {
    const byHash = this.standingAt.get(e.location);
    const here = byHash?.get(e.hash);
    if (here === undefined) return;
    here.delete(s);
    if (here.size > 0) return;
    byHash!.delete(e.hash);
    if (byHash!.size === 0) this.standingAt.delete(e.location);
  }

  private forget(s: S): void {
    if (this.forwarded.delete(s) && this.oracle.endedByMerge(s)) this.counters.forwardedMerged++;
    // off its location first, so that removing its history cannot put it back into F
    const cur = this.current.get(s);
    if (cur !== undefined) {
      this.unstand(cur, s);
      this.current.delete(s);
    }
    const ring = this.ring.get(s);
    if (ring !== undefined) for (const e of ring) this.removeEntry(e, s);
    this.ring.delete(s);
    this.forwardable.delete(s);
    const apart = this.apartFrom.get(s);
    if (apart !== undefined) for (const o of apart) this.apartFrom.get(o)?.delete(s);
    this.apartFrom.delete(s);
  }

  private addEntry(e: MergeSignature, s: S): void {
    let byHash = this.history.get(e.location);
    if (byHash === undefined) this.history.set(e.location, (byHash = new Map()));
    let at = byHash.get(e.hash);
    if (at === undefined) byHash.set(e.hash, (at = new Map()));
    at.set(s, (at.get(s) ?? 0) + 1);
    const standing = this.standingAt.get(e.location)?.get(e.hash);
    if (standing === undefined) return;
    for (const a of standing) if (a !== s && this.apartFrom.get(a)?.has(s) !== true) this.forwardable.add(a);
  }

  private removeEntry(e: MergeSignature, s: S): void {
    const byHash = this.history.get(e.location);
    const at = byHash?.get(e.hash);
    const n = at?.get(s);
    if (at === undefined || n === undefined) return;
    if (n > 1) {
      at.set(s, n - 1);
      return;
    }
    at.delete(s);
    if (at.size === 0) {
      byHash!.delete(e.hash);
      if (byHash!.size === 0) this.history.delete(e.location);
    }
    // only a state in F can leave it because s's entry went
    const standing = this.standingAt.get(e.location)?.get(e.hash);
    if (standing !== undefined) for (const a of standing) if (this.forwardable.has(a)) this.recheck(a);
  }

  /** a ∈ F ⇔ a's current entry is in the recent history of another state it has not been kept apart from. */
  private recheck(a: S): void {
    const cur = this.current.get(a);
    const at = cur === undefined ? undefined : this.history.get(cur.location)?.get(cur.hash);
    let lagging = false;
    if (at !== undefined) {
      const apart = this.apartFrom.get(a);
      for (const s of at.keys()) {
        if (s !== a && apart?.has(s) !== true) {
          lagging = true;
          break;
        }
      }
    }
    if (lagging) this.forwardable.add(a);
    else this.forwardable.delete(a);
  }
}
