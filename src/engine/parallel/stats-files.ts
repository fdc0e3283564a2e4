/**
 * Worker 0's statistics files in a parallel exploration: run.stats and run.istats, written as
 * a single-worker run writes them but from every worker's counts (the tracker adds the other
 * workers' counts, stats-peers.ts), and at the end coverage.lcov and info's coverage lines.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../../output/ktest.js';
import { RunStatsWriter } from '../../output/run-stats.js';
import type { Solver } from '../../solver/solver.js';
import { resolveOptions, type EngineOptions } from '../options.js';
import { coverageReport, formatCoveredInstructions, statsFilesWanted } from '../stats-report.js';
import type { StatsSinks, StatsTracker } from '../stats-tracker.js';
import { tskleeColumns } from '../stats-columns.js';
import type { WorkerSetup } from './protocol.js';

export interface StatsFiles {
  sinks: StatsSinks;
  runStats: RunStatsWriter | null;
  outDir: string;
  lcovName: string;
}

export async function openStatsFiles(setup: WorkerSetup, solver: Solver): Promise<StatsFiles> {
  const wanted = statsFilesWanted(resolveOptions(setup.engine));
  const s = setup.statsFiles;
  const columns = tskleeColumns(solver.stats(), s.relocationColumns);
  const runStats = wanted.stats ? await RunStatsWriter.open(join(setup.outDir, 'run.stats'), { extraColumns: columns, commitEvery: s.commitEvery }) : null;
  return {
    sinks: {
      runStats,
      istats: wanted.istats ? (text) => writeFileAtomic(join(setup.outDir, 'run.istats'), text) : null,
      istatsHeader: { cmd: s.cmd },
      assemblyLines: true,
    },
    runStats,
    outDir: setup.outDir,
    lcovName: s.lcovName,
  };
}

/**
 * How often (ms) workers 1..N-1 send their counts: as often as worker 0 writes run.stats or
 * run.istats by time (1 s when only by instructions, whose count is worker 0's own); 0: only at the end.
 */
export function peerCountsEvery(o: EngineOptions): number {
  const byTime = [o.statsWriteInterval, o.istatsWriteInterval].filter((s) => s > 0);
  if (byTime.length > 0) return Math.max(100, Math.min(...byTime) * 1000);
  return o.statsWriteAfterInstructions > 0 || o.istatsWriteAfterInstructions > 0 ? 1000 : 0;
}

/** The last run.stats row, run.istats and coverage.lcov, from every worker's last counts; returns info's coverage lines. */
export function writeStatsFiles(files: StatsFiles, tracker: StatsTracker): string {
  tracker.finish();
  files.runStats?.close();
  const cov = coverageReport(tracker, files.lcovName);
  writeFileAtomic(join(files.outDir, 'coverage.lcov'), cov.lcov);
  return formatCoveredInstructions(tracker) + cov.info;
}
