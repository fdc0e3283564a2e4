/**
 * The searcher of incremental merging (paper 000 §4; the artifact's IncrementalMergingSearcher):
 * while states of an incremental merge region run, they run breadth-first, ahead of every other
 * state; the rest wait in the base searcher. Breadth-first, the sibling subtrees of a region
 * grow side by side, so a leaf meets its merge partner before either has a deep subtree to
 * throw away (depth-first, the first subtree would be explored to the region's end, then
 * discarded by the merge and explored again).
 */
import type { Searcher, SearchableState } from './searcher.js';
import { BFSSearcher } from './bfs.js';

export class IncrementalMergingSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  private readonly inner = new BFSSearcher<S>();
  /** States held by the inner (breadth-first) searcher. */
  private readonly held = new Set<S>();

  constructor(
    private readonly base: Searcher<S>,
    /** Whether a state runs inside an incremental merge region. */
    private readonly inRegion: (s: S) => boolean,
  ) {
    this.name = base.name;
  }

  selectState(): S {
    while (this.held.size > 0) {
      const s = this.inner.selectState();
      if (this.inRegion(s)) return s;
      // its region gave up incremental merging (incremental.ts): back to the base searcher
      this.held.delete(s);
      this.inner.update(null, [], [s]);
      this.base.update(null, [s], []);
    }
    return this.base.selectState();
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    const toInner: S[] = [];
    const toBase: S[] = [];
    const fromInner: S[] = [];
    const fromBase: S[] = [];
    // a state added and removed in one step (forked straight into a pause) never ran
    const both = removed.length > 0 && added.length > 0 ? new Set(added.filter((s) => removed.includes(s))) : null;
    for (const s of removed) if (both === null || !both.has(s)) (this.held.has(s) ? fromInner : fromBase).push(s);
    for (const s of fromInner) this.held.delete(s);
    for (const s of added) if (both === null || !both.has(s)) (this.inRegion(s) ? toInner : toBase).push(s);
    let innerCurrent: S | null = null;
    let baseCurrent: S | null = null;
    if (current !== null && !removed.includes(current) && !added.includes(current)) {
      const inner = this.held.has(current);
      const wants = this.inRegion(current);
      if (inner && !wants) {
        // left its region: back to the base searcher
        fromInner.push(current);
        this.held.delete(current);
        toBase.push(current);
      } else if (!inner && wants) {
        fromBase.push(current);
        toInner.push(current);
      } else if (inner) innerCurrent = current;
      else baseCurrent = current;
    }
    for (const s of toInner) this.held.add(s);
    this.inner.update(innerCurrent, toInner, fromInner);
    this.base.update(baseCurrent, toBase, fromBase);
  }

  empty(): boolean {
    return this.held.size === 0 && this.base.empty();
  }
}
