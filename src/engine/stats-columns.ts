/**
 * Which run.stats columns tsklee adds to KLEE's, and which columns are computed from coverage
 * counts rather than counted: stats-tracker.ts writes them, and a parallel exploration
 * (stats-peers.ts) recomputes those from the summed counts instead of adding the workers' values.
 */
import { RELOCATION_COLUMNS } from '../memory/index.js';
import { solverStatsColumns } from '../output/run-stats.js';
import type { SolverStats } from '../solver/solver.js';

/** KLEE's own coverage columns of run.stats (instructions and conditional branches). */
export const KLEE_COVERAGE_COLUMNS = ['CoveredInstructions', 'UncoveredInstructions', 'FullBranches', 'PartialBranches', 'NumBranches'] as const;

/**
 * tsklee's coverage columns of run.stats, after KLEE's: source lines (all functions) covered
 * and in all, and the program's own (runtime excluded) covered / all coverable instructions,
 * lines and branch sides (br: two, switch: one per target) — coverage over time.
 */
export const COVERAGE_COLUMNS = [
  'CoveredLines',
  'NumLines',
  'ProgramCoveredInstructions',
  'ProgramInstructions',
  'ProgramCoveredLines',
  'ProgramLines',
  'ProgramCoveredBranchSides',
  'ProgramBranchSides',
] as const;

/**
 * tsklee's state-merging columns of run.stats (paper 001; engine/merging/): merges done and
 * refused, the paths the ended states stood for, dynamic merging's fast-forwarding, queries of
 * merged states. 0 when merging is off.
 */
export const MERGING_COLUMNS = [
  'MergedStates',
  'MergesRefusedByQce',
  'MergesRefusedByQceIte',
  'MergesRefusedByPointer',
  'IncompatibleAtMergePoint',
  'PathMultiplicity',
  'FastForwardSteps',
  'FastForwardedStates',
  'FastForwardedMerged',
  'MergedStateQueries',
] as const;

/** tsklee's columns about memory: the expression intern table (live nodes, lookups, lookups that found a node). */
export const MEMORY_COLUMNS = ['ExprInternEntries', 'ExprInternLookups', 'ExprInternHits'] as const;

/** The columns tsklee adds after KLEE's, in order: the solver layers', coverage, merging, memory, relocation (--addressing=relocatable). */
export function tskleeColumns(solverLayers: readonly SolverStats[], relocation: boolean): string[] {
  return [...solverStatsColumns(solverLayers), ...COVERAGE_COLUMNS, ...MERGING_COLUMNS, ...MEMORY_COLUMNS, ...(relocation ? RELOCATION_COLUMNS : [])];
}

/**
 * run.stats columns that are not sums over the workers of a parallel exploration: the
 * process's CPU and the run's wall time (the first worker's stand for all), and every coverage
 * column (computed from the summed per-instruction and per-edge counts).
 */
export const NOT_ADDITIVE: ReadonlySet<string> = new Set<string>(['UserTime', 'WallTime', ...KLEE_COVERAGE_COLUMNS, ...COVERAGE_COLUMNS]);
