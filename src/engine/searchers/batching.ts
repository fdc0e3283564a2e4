/**
 * `--use-batching-search` (KLEE's BatchingSearcher): keep selecting the state the base
 * searcher last chose until it has run for more than `--batch-instructions` instructions or
 * `--batch-time` seconds, then ask the base searcher again. A budget of 0 disables that limit
 * (both 0: the state runs until it ends). If the state ran past the time budget by more than
 * 10 % (a long solver query, say), the time budget grows to that duration, with a message.
 * A chosen state that is removed is forgotten at once.
 */
import type { Searcher, SearchableState } from './searcher.js';

/** KLEE's defaults: --batch-instructions=10000, --batch-time=5s. */
export const BATCH_DEFAULTS = { instructions: 10000, timeSeconds: 5 } as const;

/** What the batching searcher measures; the executor provides it. */
export interface BatchingCounters {
  /** Instructions executed so far in the run (KLEE's stats::instructions). */
  instructions(): number;
  /** A wall clock in seconds (any origin). */
  nowSeconds(): number;
}

export interface BatchingOptions {
  counters: BatchingCounters;
  /** --batch-instructions (default 10000; 0 = no instruction budget). */
  instructions?: number;
  /** --batch-time in seconds (default 5; 0 = no time budget). */
  timeSeconds?: number;
  /** Receives KLEE's "increased time budget" message. */
  onMessage?: (message: string) => void;
}

export class BatchingSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name: string;
  private readonly counters: BatchingCounters;
  private readonly instructionBudget: number;
  private timeBudget: number;
  private readonly onMessage: ((message: string) => void) | undefined;
  private lastState: S | null = null;
  private lastStartTime = 0;
  private lastStartInstructions = 0;

  constructor(
    private readonly base: Searcher<S>,
    opts: BatchingOptions,
  ) {
    this.counters = opts.counters;
    this.instructionBudget = opts.instructions ?? BATCH_DEFAULTS.instructions;
    this.timeBudget = opts.timeSeconds ?? BATCH_DEFAULTS.timeSeconds;
    if (!(this.instructionBudget >= 0) || !(this.timeBudget >= 0)) {
      throw new RangeError('batching searcher: the budgets must be >= 0');
    }
    this.onMessage = opts.onMessage;
    this.name = `batching(${base.name})`;
  }

  /** The current time budget in seconds (it may have grown). */
  get timeBudgetSeconds(): number {
    return this.timeBudget;
  }

  selectState(): S {
    if (this.lastState !== null && this.withinTimeBudget() && this.withinInstructionBudget()) return this.lastState;
    if (this.lastState !== null && this.timeBudget > 0) {
      const delta = this.counters.nowSeconds() - this.lastStartTime;
      if (delta > this.timeBudget * 1.1) {
        this.onMessage?.(`increased time budget from ${this.timeBudget.toFixed(6)} to ${delta.toFixed(6)}`);
        this.timeBudget = delta;
      }
    }
    const s = this.base.selectState();
    this.lastState = s;
    if (this.timeBudget > 0) this.lastStartTime = this.counters.nowSeconds();
    if (this.instructionBudget > 0) this.lastStartInstructions = this.counters.instructions();
    return s;
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    if (this.lastState !== null && removed.includes(this.lastState)) this.lastState = null;
    this.base.update(current, added, removed);
  }

  empty(): boolean {
    return this.base.empty();
  }

  private withinTimeBudget(): boolean {
    return this.timeBudget === 0 || this.counters.nowSeconds() - this.lastStartTime <= this.timeBudget;
  }

  private withinInstructionBudget(): boolean {
    return this.instructionBudget === 0 || this.counters.instructions() - this.lastStartInstructions <= this.instructionBudget;
  }
}
