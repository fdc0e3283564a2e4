/**
 * Dynamic state merging (paper 001 §4, Algorithm 2): a decorator over any searcher. Each state
 * keeps its last δ history entries (one per basic block: where it stood and the values of its
 * hot variables, symbolic ones as a wildcard — the paper hashes them, which is stricter than
 * its similarity relation: a value symbolic in one state and concrete in the other is similar).
 * A state whose current entry matches an entry of another state's recent history is lagging
 * behind that state on the same route: it goes into the forwarding set F. While F is
 * not empty, the topologically first state of F runs (so the one furthest behind catches up
 * first); otherwise the driving searcher picks. F follows every step: a forwarded state that
 * diverges matches no history any more and leaves F. The merge itself happens where the
 * states meet (merging/auto.ts), after the full similarity check.
 */
import { compatibleSignatures, comparePositions, type LocationOracle, type MergeSignature, type Searcher, type SearchableState } from './searcher.js';

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
  /** History entries by location → by state (a state may have passed a location more than once within δ). */
  private readonly history = new Map<string, Map<S, MergeSignature[]>>();
  private readonly ring = new Map<S, MergeSignature[]>();
  /** Each state's current entry, and the states standing at each location. */
  private readonly current = new Map<S, MergeSignature>();
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
        for (const e of inherited) this.addEntry(e, s);
      }
      this.record(s);
    }
  }

  empty(): boolean {
    return this.base.empty();
  }

  /** s stands at a new entry: push it on s's history and re-check F around it. */
  private record(s: S): void {
    const sig = this.oracle.signature(s);
    const old = this.current.get(s);
    if (old !== undefined) this.standingAt.get(old.location)?.delete(s);
    this.current.set(s, sig);
    let here = this.standingAt.get(sig.location);
    if (here === undefined) this.standingAt.set(sig.location, (here = new Set()));
    here.add(s);
    let ring = this.ring.get(s);
    if (ring === undefined) this.ring.set(s, (ring = []));
    ring.push(sig);
    this.addEntry(sig, s);
    if (ring.length > this.delta) this.removeEntry(ring.shift()!, s);
    this.recheck(s);
    if (!this.forwardable.has(s)) this.forwarded.delete(s); // diverged: a later forwarding is a new attempt
  }

  private forget(s: S): void {
    if (this.forwarded.delete(s) && this.oracle.endedByMerge(s)) this.counters.forwardedMerged++;
    // off its location first, so that removing its history cannot put it back into F
    const cur = this.current.get(s);
    if (cur !== undefined) {
      const here = this.standingAt.get(cur.location)!;
      here.delete(s);
      if (here.size === 0) this.standingAt.delete(cur.location);
      this.current.delete(s);
    }
    const ring = this.ring.get(s);
    if (ring !== undefined) for (const e of ring) this.removeEntry(e, s);
    this.ring.delete(s);
    this.forwardable.delete(s);
  }

  private addEntry(e: MergeSignature, s: S): void {
    let at = this.history.get(e.location);
    if (at === undefined) this.history.set(e.location, (at = new Map()));
    const list = at.get(s);
    if (list === undefined) at.set(s, [e]);
    else list.push(e);
    for (const a of this.standingAt.get(e.location) ?? []) if (a !== s && compatibleSignatures(this.current.get(a)!, e)) this.forwardable.add(a);
  }

  private removeEntry(e: MergeSignature, s: S): void {
    const at = this.history.get(e.location);
    const list = at?.get(s);
    if (at === undefined || list === undefined) return;
    const i = list.indexOf(e);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) at.delete(s);
    if (at.size === 0) this.history.delete(e.location);
    for (const a of this.standingAt.get(e.location) ?? []) this.recheck(a);
  }

  /** a ∈ F ⇔ a's current entry matches an entry in the recent history of another state. */
  private recheck(a: S): void {
    const cur = this.current.get(a);
    const at = cur === undefined ? undefined : this.history.get(cur.location);
    let lagging = false;
    if (at !== undefined) {
      for (const [s, entries] of at) {
        if (s === a) continue;
        if (entries.some((e) => compatibleSignatures(cur!, e))) {
          lagging = true;
          break;
        }
      }
    }
    if (lagging) this.forwardable.add(a);
    else this.forwardable.delete(a);
  }
}
