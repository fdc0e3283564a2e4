/**
 * `tsklee experiment run FILE`: the matrix on this machine's cores. At most `jobs` cells run
 * at once, each its own tsklee process; cells already done (cell.json ok, same command) are
 * skipped, so an interrupted or extended experiment resumes where it stopped.
 */
import { availableParallelism } from 'node:os';
import type { Experiment } from './experiment-file.js';
import { buildPrograms } from './build.js';
import { runCell } from './cell.js';
import { cellDir, cells, type Cell } from './matrix.js';
import { MatrixProgress } from './progress-bar.js';
import { cellDone, cellSignature, writeCellResult } from './results.js';

export interface RunSummary {
  total: number;
  skipped: number;
  ran: number;
  failed: string[];
  interrupted: boolean;
}

export interface LocalRunOptions {
  jobs?: number;
  /** Polled before each cell: true stops taking new ones (Ctrl-C). */
  stopping?: () => boolean;
  progress?: MatrixProgress;
}

/** The cells still to run, with each program's bitcode (compiled first when needed). */
export function pendingCells(x: Experiment): { all: Cell[]; todo: Cell[]; bitcode: Map<string, string> } {
  const bitcode = buildPrograms(x);
  const all = cells(x);
  const todo = all.filter((c) => !cellDone(x, c, bitcode.get(c.instance.key)!));
  return { all, todo, bitcode };
}

export async function runExperimentLocally(x: Experiment, opts: LocalRunOptions = {}): Promise<RunSummary> {
  const { all, todo, bitcode } = pendingCells(x);
  const jobs = Math.max(1, opts.jobs ?? x.jobs ?? availableParallelism());
  const progress = opts.progress ?? new MatrixProgress(all.length);
  progress.skip(all.length - todo.length);
  const failed: string[] = [];
  let next = 0;
  let ran = 0;
  let interrupted = false;
  // `jobs` loops, each taking the next cell when its last one ends
  const loop = async (): Promise<void> => {
    while (next < todo.length) {
      if (opts.stopping?.() === true) {
        interrupted = true;
        return;
      }
      const cell = todo[next++]!;
      ran++;
      const bc = bitcode.get(cell.instance.key)!;
      progress.started();
      const r = await runCell(cell, bc, cellDir(x, cell));
      // a run cut short by Ctrl-C is no result
      const cut = opts.stopping?.() === true;
      const result = cut ? { ...r, status: 'failed' as const, error: 'interrupted' } : r;
      writeCellResult(x, cell, { ...result, signature: cellSignature(cell, bc) });
      if (result.status !== 'ok') failed.push(`${cell.key}: ${result.error ?? 'failed'}`);
      progress.finished(cell.key, result.status === 'ok', r.wallSeconds, r.metrics !== null ? `${r.metrics.completedPaths} paths` : '');
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(jobs, Math.max(1, todo.length)) }, loop));
  } finally {
    if (opts.progress === undefined) progress.stop();
  }
  return { total: all.length, skipped: all.length - todo.length, ran, failed, interrupted };
}
