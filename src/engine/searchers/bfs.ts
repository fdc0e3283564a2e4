/**
 * `--search=bfs`: breadth-first search at the level of forks (KLEE's BFSSearcher). The front
 * state runs. When the current state forks (the step added states) and is still alive, it
 * moves to the back of the queue, behind the states waiting there, and the states it forked
 * are appended after it; so every state at fork depth d is run up to its next fork before any
 * state reaches depth d + 1. Branches that do not fork (a constraint added but only one side
 * feasible) do not reorder anything, as in KLEE ("if new states were added, KLEE forked").
 */
import type { Searcher, SearchableState } from './searcher.js';
import { StateList } from './state-list.js';

export class BFSSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name = 'bfs';
  private readonly states = new StateList<S>('bfs');

  selectState(): S {
    return this.states.front();
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    if (added.length > 0 && current !== null && !removed.includes(current)) this.states.moveToBack(current);
    for (const s of added) this.states.pushBack(s);
    for (const s of removed) this.states.remove(s);
  }

  empty(): boolean {
    return this.states.size === 0;
  }

  /** Front (next to run) to back. */
  toArray(): S[] {
    return [...this.states];
  }
}
