/**
 * `--search=random-state`: every live state is equally likely to run next (KLEE's
 * RandomSearcher). KLEE draws `getInt32() % n`; tsklee draws an unbiased integer in [0, n)
 * from the run's seeded generator. States are kept in an array with O(1) swap-removal.
 */
import type { Rng } from '../../util/rng.js';
import type { Searcher, SearchableState } from './searcher.js';

export class RandomStateSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name = 'random-state';
  private readonly states: S[] = [];
  private readonly index = new Map<S, number>();

  constructor(private readonly rng: Rng) {}

  selectState(): S {
    if (this.states.length === 0) throw new Error('random-state: selectState() on an empty searcher');
    return this.states[this.rng.nextInt(this.states.length)]!;
  }

  update(_current: S | null, added: readonly S[], removed: readonly S[]): void {
    for (const s of added) {
      if (this.index.has(s)) throw new Error(`random-state: state ${s.id} added twice`);
      this.index.set(s, this.states.length);
      this.states.push(s);
    }
    for (const s of removed) {
      const i = this.index.get(s);
      if (i === undefined) throw new Error(`random-state: invalid state removed (state ${s.id} is not in the searcher)`);
      const last = this.states.pop()!;
      if (last !== s) {
        this.states[i] = last;
        this.index.set(last, i);
      }
      this.index.delete(s);
    }
  }

  empty(): boolean {
    return this.states.length === 0;
  }
}
