/**
 * Dynamic state merging (paper 001 §4, Algorithm 2): a decorator over any searcher. Each state
 * keeps its last δ history entries (one per basic block: where it stood and a hash of its hot
 * variables). A state whose current entry appears in another state's recent history is
 * lagging behind that state on the same route: it goes into the forwarding set F. While F is
 * not empty, the topologically first state of F runs (so the one furthest behind catches up
 * first); otherwise the driving searcher picks. F follows every step: a forwarded state that
 * diverges matches no history any more and leaves F. The merge itself happens where the
 * states meet (merging/auto.ts), after the full similarity check.
 */
import { comparePositions, type LocationOracle, type Searcher, type SearchableState } from './searcher.js';

export interface DsmCounters {
  /** Steps whose state came from F. */
  forwardSteps: number;
  /** States picked from F at least once. */
  forwardedStates: number;
  /** Of those, the ones that then merged into another state. */
  forwardedMerged: number;
}

export class DynamicMergingSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  readonly counters: DsmCounters = { forwardSteps: 0, forwardedStates: 0, forwardedMerged: 0 };
  /** History entries → the states that passed there recently (with multiplicity). */
  private readonly history = new Map<string, Map<S, number>>();
  private readonly ring = new Map<S, string[]>();
  /** Each state's current entry, and the states standing at each entry. */
  private readonly current = new Map<S, string>();
  private readonly standingAt = new Map<string, Set<S>>();
  /** The forwarding set F. */
  private readonly forwardable = new Set<S>();
  private readonly forwarded = new Set<S>();

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
        for (const k of inherited) this.addEntry(k, s);
      }
      this.record(s);
    }
  }

  empty(): boolean {
    return this.base.empty();
  }

  /** s stands at a new entry: push it on s's history and re-check F around it. */
  private record(s: S): void {
    const key = this.oracle.similarityKey(s);
    const old = this.current.get(s);
    if (old !== key) {
      if (old !== undefined) this.standingAt.get(old)?.delete(s);
      this.current.set(s, key);
      let here = this.standingAt.get(key);
      if (here === undefined) this.standingAt.set(key, (here = new Set()));
      here.add(s);
    }
    let ring = this.ring.get(s);
    if (ring === undefined) this.ring.set(s, (ring = []));
    ring.push(key);
    this.addEntry(key, s);
    if (ring.length > this.delta) this.removeEntry(ring.shift()!, s);
    this.recheck(s);
    if (!this.forwardable.has(s)) this.forwarded.delete(s); // diverged: a later forwarding is a new attempt
  }

  private forget(s: S): void {
    if (this.forwarded.delete(s) && this.oracle.endedByMerge(s)) this.counters.forwardedMerged++;
    // off its entry first, so that removing its history cannot put it back into F
    const cur = this.current.get(s);
    if (cur !== undefined) {
      const here = this.standingAt.get(cur)!;
      here.delete(s);
      if (here.size === 0) this.standingAt.delete(cur);
      this.current.delete(s);
    }
    const ring = this.ring.get(s);
    if (ring !== undefined) for (const k of ring) this.removeEntry(k, s);
    this.ring.delete(s);
    this.forwardable.delete(s);
  }

  private addEntry(key: string, s: S): void {
    let m = this.history.get(key);
    if (m === undefined) this.history.set(key, (m = new Map()));
    m.set(s, (m.get(s) ?? 0) + 1);
    for (const a of this.standingAt.get(key) ?? []) if (a !== s) this.forwardable.add(a);
  }

  private removeEntry(key: string, s: S): void {
    const m = this.history.get(key);
    if (m === undefined) return;
    const n = (m.get(s) ?? 0) - 1;
    if (n > 0) m.set(s, n);
    else m.delete(s);
    if (m.size === 0) this.history.delete(key);
    for (const a of this.standingAt.get(key) ?? []) this.recheck(a);
  }

  /** a ∈ F ⇔ a's current entry is in the recent history of another state. */
  private recheck(a: S): void {
    const key = this.current.get(a);
    const m = key === undefined ? undefined : this.history.get(key);
    let lagging = false;
    if (m !== undefined) for (const s of m.keys()) if (s !== a) lagging = true;
    if (lagging) this.forwardable.add(a);
    else this.forwardable.delete(a);
  }
}
