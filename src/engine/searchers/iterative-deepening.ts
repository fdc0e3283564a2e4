/**
 * `--use-iterative-deepening-time-search` (KLEE's IterativeDeepeningTimeSearcher,
 * experimental in KLEE too): a state that ran longer than the current time slice (from
 * selectState() to the following update(), starting at 1 s) is paused — taken out of the base
 * searcher. When the base searcher runs out of states, the slice doubles and every paused
 * state is given back.
 */
import type { Searcher, SearchableState } from './searcher.js';

export interface IterativeDeepeningOptions {
  /** A wall clock in seconds (any origin). */
  nowSeconds(): number;
  /** The first time slice in seconds (KLEE: 1). */
  initialSliceSeconds?: number;
  /** Receives KLEE's "increased time budget" message. */
  onMessage?: (message: string) => void;
}

export class IterativeDeepeningTimeSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  private slice: number;
  private startTime = 0;
  private readonly paused = new Set<S>();

  constructor(
    private readonly base: Searcher<S>,
    private readonly opts: IterativeDeepeningOptions,
  ) {
    this.slice = opts.initialSliceSeconds ?? 1;
    this.name = `iterative-deepening-time(${base.name})`;
  }

  /** The current time slice in seconds. */
  get sliceSeconds(): number {
    return this.slice;
  }

  selectState(): S {
    const s = this.base.selectState();
    this.startTime = this.opts.nowSeconds();
    return s;
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    const elapsed = this.opts.nowSeconds() - this.startTime;
    // Paused states are unknown to the base searcher: filter them out of `removed`.
    const alt = removed.filter((s) => !this.paused.delete(s));
    this.base.update(current, added, alt);
    if (current !== null && !removed.includes(current) && elapsed > this.slice) {
      this.paused.add(current);
      this.base.update(null, [], [current]);
    }
    if (this.base.empty() && this.paused.size > 0) {
      this.slice *= 2;
      this.opts.onMessage?.(`increased time budget to ${this.slice.toFixed(6)}`);
      const back = [...this.paused];
      this.paused.clear();
      this.base.update(null, back, []);
    }
  }

  empty(): boolean {
    return this.base.empty() && this.paused.size === 0;
  }
}
