/** What a finished run reports (RunSummary), read off the executor at the end of Executor.run. */
import type { Executor } from './executor.js';
import type { RunSummary } from './run-types.js';

export function runSummary(ex: Executor, elapsedMs: number): RunSummary {
  return {
    instructions: ex.instructions,
    forks: ex.forks,
    completedPaths: ex.writer.completedPaths,
    exploredPaths: ex.writer.exploredPaths,
    generatedTests: ex.writer.generatedTests,
    testsNumbered: ex.writer.testsNumbered,
    errors: ex.writer.errors,
    queries: ex.queries,
    haltReason: ex.haltReason,
    exitErrorReport: ex.exitErrorReport,
    elapsedMs,
    merging: ex.mergingSummary(),
    coveredInstructions: ex.coveredCount,
    totalInstructions: ex.km.instructions.length,
  };
}
