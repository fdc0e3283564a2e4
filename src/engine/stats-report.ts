/**
 * What a run writes from its statistics at the end, besides run.stats and run.istats: info's
 * "covered instructions" line, coverage.lcov (the program's own source) and info's coverage
 * lines. Shared by the single-worker run (cli/run-statistics.ts) and worker 0 of a parallel
 * exploration (parallel/stats-files.ts), so that both write the same format.
 */
import { formatLcov } from '../output/lcov.js';
import type { EngineOptions } from './options.js';
import { formatCoverageTotals, sourceCoverage } from './stats-source.js';
import type { StatsTracker } from './stats-tracker.js';

/** Whether run.stats / run.istats are written (KLEE: when either of their intervals is set). */
export function statsFilesWanted(o: EngineOptions): { stats: boolean; istats: boolean } {
  return { stats: o.statsWriteInterval > 0 || o.statsWriteAfterInstructions > 0, istats: o.istatsWriteInterval > 0 || o.istatsWriteAfterInstructions > 0 };
}

/**
 * info's "covered instructions = C of T" (read by scripts/bench-merging.mjs): KLEE's
 * CoveredInstructions of CoveredInstructions + UncoveredInstructions, as run.stats says.
 */
export function formatCoveredInstructions(tracker: StatsTracker): string {
  return `KLEE: done: covered instructions = ${tracker.coveredInstructions()} of ${tracker.coverage.coverableCount}\n`;
}

/** coverage.lcov's text (the program's own source) and the `info` lines saying how much of it the run covered. */
export function coverageReport(tracker: StatsTracker, testName: string): { lcov: string; info: string } {
  const c = tracker.counts();
  const program = sourceCoverage(tracker.coverage, c.covered, c.edgeTaken, true);
  let info = formatCoverageTotals('program coverage (runtime excluded)', program.totals);
  if (tracker.coverage.functions.some((f) => f.runtime)) info += formatCoverageTotals('coverage with the runtime', sourceCoverage(tracker.coverage, c.covered, c.edgeTaken, false).totals);
  return { lcov: formatLcov(testName, program.files), info };
}
