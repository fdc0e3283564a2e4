/**
 * `--search=dfs`: depth-first search (KLEE's DFSSearcher). States are kept in the order they
 * were added; the last one added runs next. When the current state forks, the new state is
 * appended and therefore runs next, so one path is followed to its end before its siblings.
 */
import type { Searcher, SearchableState } from './searcher.js';
import { StateList } from './state-list.js';

export class DFSSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name = 'dfs';
  private readonly states = new StateList<S>('dfs');

  selectState(): S {
    return this.states.back();
  }

  update(_current: S | null, added: readonly S[], removed: readonly S[]): void {
    for (const s of added) this.states.pushBack(s);
    for (const s of removed) this.states.remove(s);
  }

  empty(): boolean {
    return this.states.size === 0;
  }

  /** Front (oldest) to back (next to run). */
  toArray(): S[] {
    return [...this.states];
  }
}
