/**
 * The experiment's matrix: program instances (a program at each of its sizes) × configurations
 * × repetitions. A cell is one `tsklee run`; its key names its directory under the results
 * directory (`cells/echo@3/static/rep-2`), so a rerun finds the cells already done.
 */
import { join } from 'node:path';
import { parseTimeSpan } from '../cli/commands/time-span.js';
import type { ConfigurationEntry, Experiment } from './experiment-file.js';

export interface ProgramInstance {
  /** `echo`, or `echo@3` for size 3: a directory name. */
  key: string;
  program: string;
  size?: number | string;
  source?: string;
  bitcode?: string;
  cflags: string[];
  options: string[];
  args: string[];
}

export interface Cell {
  /** `echo@3/static/rep-2`. */
  key: string;
  instance: ProgramInstance;
  config: ConfigurationEntry;
  /** 1-based. */
  repetition: number;
  /** tsklee run's options for this cell, without --output-dir and the input. */
  options: string[];
  /** The program's arguments. */
  args: string[];
  /** Seconds the runner lets a cell run before it kills it (null: no limit). */
  killAfterSeconds: number | null;
}

const DEFAULT_CFLAGS = ['-O0', '-g', '-Xclang', '-disable-O0-optnone'];

const substitute = (words: string[] | undefined, size: number | string | undefined): string[] =>
  (words ?? []).map((w) => (size === undefined ? w : w.replaceAll('{size}', String(size))));

/** `{rep}` is the repetition's number (`--seed={rep}`: each repetition its own random choices). */
const withRepetition = (words: string[], r: number): string[] => words.map((w) => w.replaceAll('{rep}', String(r)));

export function programInstances(x: Experiment): ProgramInstance[] {
  const out: ProgramInstance[] = [];
  for (const p of x.programs) {
    const sizes: (number | string | undefined)[] = p.sizes ?? [undefined];
    for (const size of sizes) {
      out.push({
        key: size === undefined ? p.name : `${p.name}@${String(size).replace(/[^A-Za-z0-9_.+-]/g, '_')}`,
        program: p.name,
        size,
        source: p.source,
        bitcode: p.bitcode,
        cflags: [...(x.cflags ?? DEFAULT_CFLAGS), ...substitute(p.cflags, size)],
        options: substitute(p.options, size),
        args: substitute(p.args, size),
      });
    }
  }
  return out;
}

/** The timeout in seconds (`timeout:` of the file), or null. */
export function cellTimeout(x: Experiment): number | null {
  if (x.timeout === undefined) return null;
  return typeof x.timeout === 'number' ? x.timeout : parseTimeSpan(x.timeout, 'timeout');
}

export function cells(x: Experiment): Cell[] {
  const timeout = cellTimeout(x);
  const out: Cell[] = [];
  for (const instance of programInstances(x)) {
    for (const config of x.configurations) {
      const options = [...(x.options ?? []), ...instance.options, ...substitute(config.options, instance.size)];
      // the file's timeout is each run's --max-time, unless a configuration sets its own
      if (timeout !== null && !options.some((o) => /^--?max-time(=|$)/.test(o))) options.push(`--max-time=${timeout}s`);
      for (let r = 1; r <= x.repetitions; r++) {
        out.push({
          key: `${instance.key}/${config.name}/rep-${r}`,
          instance,
          config,
          repetition: r,
          options: withRepetition(options, r),
          args: withRepetition(instance.args, r),
          // a run that ignores its --max-time (stuck in one long solver query) is stopped
          killAfterSeconds: timeout === null ? null : 2 * timeout + 30,
        });
      }
    }
  }
  return out;
}

/** Where a cell's files go. */
export function cellDir(x: Experiment, cell: Cell): string {
  return join(x.outputDir, 'cells', ...cell.key.split('/'));
}

/** Where a program instance's bitcode goes (or the file itself when given as bitcode). */
export function instanceBitcode(x: Experiment, inst: ProgramInstance): string {
  return inst.bitcode ?? join(x.outputDir, 'bitcode', `${inst.key}.bc`);
}
