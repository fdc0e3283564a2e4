/**
 * Manual merging at klee_open_merge / klee_close_merge (KLEE's MergeHandler), with
 * --use-merge; the merge itself is the merge core's (core.ts).
 *
 * klee_open_merge starts a merge region: the state and every state forked from it inside the
 * region share one MergeGroup. A state reaching klee_close_merge pauses there (it leaves the
 * searcher) and is merged into an already paused state at the same instruction when the two
 * are compatible; the merged-away state ends without a test. When no running state of the
 * group is left, the paused states continue.
 */
import type { ExecutionState } from '../state.js';
import type { ConstraintSet } from '../../solver/layers/constraint-set.js';
import type { KFunction } from '../prepare/kinst.js';

/** A region merged with quantifiers (--merge-mode=quantified; merging/quantified/). */
export interface QuantifiedRegion {
  /** The path condition at the region's entry (the leaves' traces start here). */
  readonly root: ConstraintSet;
  /** For a loop region: its frame (function and stack depth) and exit pcs; null for klee_open_merge. */
  readonly loop: { readonly kf: KFunction; readonly depth: number; readonly exitPcs: ReadonlySet<number> } | null;
}

export class MergeGroup {
  /** Live, running states whose innermost open region is this one. */
  running = 0;
  /** Those states (for --use-incomplete-merge, which picks among them). */
  readonly open = new Set<ExecutionState>();
  /** Paused states, by the pc (function name + index) of their klee_close_merge (or the loop exit). */
  readonly closed = new Map<string, ExecutionState[]>();
  /** The opening state's instruction count at klee_open_merge (KLEE's MergeHandler::openInstruction). */
  openInstruction = 0;
  /** States that reached klee_close_merge, and the mean of their instruction distances from the open. */
  closedCount = 0;
  closedMean = 0;

  constructor(
    readonly id: number,
    /** Set when the region's leaves merge with quantifiers. */
    readonly quantified: QuantifiedRegion | null = null,
  ) {}
}

/** Paused states merge only with states paused at the same klee_close_merge call. */
export function closeKey(st: ExecutionState): string {
  return `${st.stack.length}:${st.top.kf.name}:${st.prevPc}`;
}
