/**
 * The results directory: `cells/<program>/<configuration>/rep-N/cell.json` (the cell's result)
 * beside `out/` (its tsklee output directory), `bitcode/` (the compiled programs) and
 * `dead-letter.json` (cells a queue gave up on). A cell is done when its cell.json says ok
 * for the same command signature: a rerun skips it.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CellResult } from './cell.js';
import type { Experiment } from './experiment-file.js';
import { cellDir, type Cell } from './matrix.js';

export interface StoredCellResult extends CellResult {
  /** What the cell ran (options, arguments, program): a result for other ones is stale. */
  signature: string;
}

export function cellSignature(cell: Cell, bitcode: string): string {
  return JSON.stringify({ options: cell.options, args: cell.args, program: bitcode });
}

export function readCellResult(x: Experiment, cell: Cell): StoredCellResult | null {
  const path = join(cellDir(x, cell), 'cell.json');
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as StoredCellResult;
  } catch {
    return null; // half-written by a killed runner: the cell runs again
  }
}

/** Whether the cell has a result for what it runs now. */
export function cellDone(x: Experiment, cell: Cell, bitcode: string): boolean {
  const r = readCellResult(x, cell);
  return r !== null && r.status === 'ok' && r.signature === cellSignature(cell, bitcode);
}

export function writeCellResult(x: Experiment, cell: Cell, result: StoredCellResult): void {
  const dir = cellDir(x, cell);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `cell.json.tmp-${process.pid}`);
  writeFileSync(tmp, `${JSON.stringify(result, null, 1)}\n`);
  renameSync(tmp, join(dir, 'cell.json'));
}

export interface DeadLetter {
  key: string;
  error: string;
  attempts: number;
  at: string;
}

export function appendDeadLetter(x: Experiment, entry: DeadLetter): void {
  const path = join(x.outputDir, 'dead-letter.json');
  const list: DeadLetter[] = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as DeadLetter[]) : [];
  list.push(entry);
  writeFileSync(path, `${JSON.stringify(list, null, 1)}\n`);
}
