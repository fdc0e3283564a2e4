/**
 * `tsklee run`'s statistics options and files (KLEE's StatsTracker options): run.stats rows
 * by time and by instructions, run.istats, per-test .cov files, and, at the end,
 * coverage.lcov and the coverage lines of `info`.
 *
 *   --stats-write-interval=TIME            a run.stats row every TIME (default 1s; 0: none by time)
 *   --stats-write-after-instructions=N     and/or every N instructions (default 0: off)
 *   --stats-commit-after=N                 write the file every N rows (default: at most once a second)
 *   --istats-write-interval=TIME           rewrite run.istats every TIME (default 10s; 0: none by time)
 *   --istats-write-after-instructions=N    and/or every N instructions (default 0: off)
 *   --write-cov                            testNNNNNN.cov: the lines each test covered first
 * As in KLEE, run.stats is written only when one of its two intervals is set, and run.istats
 * likewise; both get a last write at the end.
 */
import type { Options } from 'yargs';
import { parseTimeSpan } from './commands/time-span.js';
import { UsageError } from './errors.js';
import type { EngineOptions } from '../engine/options.js';
import type { StatsSinks, StatsTracker } from '../engine/stats-tracker.js';
import { coverageReport } from '../engine/stats-report.js';
import { writeFileAtomic, type OutputDir } from '../output/index.js';
import type { RunStatsWriter } from '../output/run-stats.js';

export const STATS_RUN_OPTIONS: Record<string, Options> = {
  'stats-write-interval': { type: 'string', describe: 'write a run.stats row every this long (default 1s; 0 = not by time)' },
  'stats-write-after-instructions': { type: 'number', describe: 'write a run.stats row every N instructions (default 0 = off)' },
  'stats-commit-after': { type: 'number', describe: 'write run.stats to disk every N rows (default: at most once a second)' },
  'istats-write-interval': { type: 'string', describe: 'rewrite run.istats every this long (default 10s; 0 = not by time)' },
  'istats-write-after-instructions': { type: 'number', describe: 'rewrite run.istats every N instructions (default 0 = off)' },
  'write-cov': { type: 'boolean', describe: 'write testNNNNNN.cov: the source lines each test covered first' },
};

export interface StatsRunArgs {
  statsWriteInterval?: string;
  statsWriteAfterInstructions?: number;
  statsCommitAfter?: number;
  istatsWriteInterval?: string;
  istatsWriteAfterInstructions?: number;
  writeCov?: boolean;
}

function count(v: number | undefined, option: string): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0) throw new UsageError(`--${option}=${v}: expected a whole number ≥ 0`);
  return v;
}

/** The engine options these flags set. */
export function statsEngineOptions(a: StatsRunArgs): Partial<EngineOptions> {
  count(a.statsCommitAfter, 'stats-commit-after');
  return {
    statsWriteInterval: a.statsWriteInterval !== undefined ? parseTimeSpan(a.statsWriteInterval, 'stats-write-interval') : undefined,
    statsWriteAfterInstructions: count(a.statsWriteAfterInstructions, 'stats-write-after-instructions'),
    istatsWriteInterval: a.istatsWriteInterval !== undefined ? parseTimeSpan(a.istatsWriteInterval, 'istats-write-interval') : undefined,
    istatsWriteAfterInstructions: count(a.istatsWriteAfterInstructions, 'istats-write-after-instructions'),
    writeCov: a.writeCov,
  };
}

export { statsFilesWanted, formatCoveredInstructions } from '../engine/stats-report.js';

/** Where the tracker writes: run.stats through its writer (null: not written), run.istats as a whole file each time. */
export function statsSinks(out: OutputDir, runStats: RunStatsWriter | null, istats: boolean, cmd: string): StatsSinks {
  return {
    runStats,
    istats: istats ? (text) => writeFileAtomic(out.file('run.istats'), text) : null,
    istatsHeader: { cmd },
    assemblyLines: true,
  };
}

/** coverage.lcov (the program's own source) and the `info` lines saying how much of it the run covered. */
export function writeCoverage(out: OutputDir, tracker: StatsTracker, testName: string): string {
  const r = coverageReport(tracker, testName);
  writeFileAtomic(out.file('coverage.lcov'), r.lcov);
  return r.info;
}
