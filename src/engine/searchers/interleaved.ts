/**
 * Several `--search` options: KLEE's InterleavedSearcher. Every sub-searcher sees every
 * update; the selection is taken round-robin from one sub-searcher after the other. KLEE's
 * order: the first searcher, then the last, the one before it, …, the second, and around again
 * (`index` starts at 1 and counts down modulo n) — for two searchers simply 1st, 2nd, 1st, …
 * empty() is the first sub-searcher's (all of them hold the same states).
 */
import type { Searcher, SearchableState } from './searcher.js';

export class InterleavedSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  private readonly searchers: readonly Searcher<S>[];
  private index = 1;

  constructor(searchers: readonly Searcher<S>[]) {
    if (searchers.length === 0) throw new Error('interleaved searcher: no sub-searchers');
    this.searchers = [...searchers];
    this.name = `interleaved(${this.searchers.map((s) => s.name).join(', ')})`;
  }

  selectState(): S {
    const s = this.searchers[--this.index]!;
    if (this.index === 0) this.index = this.searchers.length;
    return s.selectState();
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    for (const s of this.searchers) s.update(current, added, removed);
  }

  empty(): boolean {
    return this.searchers[0]!.empty();
  }

  /** The sub-searchers, in the order given. */
  get parts(): readonly Searcher<S>[] {
    return this.searchers;
  }
}
