/**
 * `--search=random-path`: random path selection (KLEE's RandomPathSearcher, OSDI'08): walk the
 * process tree from the root, choosing left or right with probability 1/2 at every fork, down
 * to a leaf. A state's chance is 2^-(number of two-child forks above it), so states in
 * shallow, sparse subtrees are favoured over the many states of a deep loop.
 *
 * The searcher tracks which states it holds with its own bit in the shared PTree (see
 * ptree.ts), as KLEE does, so it can be interleaved and decorated like any other searcher.
 */
import type { Rng } from '../../util/rng.js';
import type { PTree } from './ptree.js';
import type { Searcher, SearchableState } from './searcher.js';

export class RandomPathSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name = 'random-path';
  private readonly bit: number;
  private readonly members = new Set<S>();

  constructor(
    private readonly ptree: PTree<S>,
    private readonly rng: Rng,
  ) {
    this.bit = ptree.allocateSearcherBit();
  }

  selectState(): S {
    return this.ptree.randomLeaf(this.bit, this.rng);
  }

  update(_current: S | null, added: readonly S[], removed: readonly S[]): void {
    for (const s of added) {
      if (this.members.has(s)) throw new Error(`random-path: state ${s.id} added twice`);
      this.ptree.mark(s, this.bit);
      this.members.add(s);
    }
    for (const s of removed) {
      if (!this.members.delete(s)) throw new Error(`random-path: invalid state removed (state ${s.id} is not in the searcher)`);
      this.ptree.unmark(s, this.bit);
    }
  }

  empty(): boolean {
    return this.members.size === 0;
  }
}
