/**
 * The numbers of KLEE's `klee-stats` from run.stats (KLEE's or tsklee's): one record per
 * output directory, from a row of its run.stats (the last, or the one --compare-by picks)
 * plus what klee-stats derives:
 *
 *   ICount = CoveredInstructions + UncoveredInstructions
 *   ICov   = 100 · CoveredInstructions / ICount
 *   BCov   = 100 · (2 · FullBranches + PartialBranches) / (2 · NumBranches)   (100 without branches)
 *   AvgQC  = NumQueryConstructs / NumQueries
 *   Rel<T> = 100 · T / WallTime for the user, solver, cex-cache, fork and resolve times
 *   maxStates, avgStates, maxMem, avgMem over the rows up to the chosen one
 * Times become seconds, MallocUsage MiB. The column sets of --print-more, --print-all,
 * --print-rel-times and --print-abs-times, and the header names, are klee-stats'.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { Real, type Cell } from './text-table.js';

export type StatsRecord = Record<string, number>;

/** A run.stats file's columns and rows (readRunStats). */
export interface RunStatsData {
  columns: string[];
  rows: number[][];
}

const TIME_COLUMNS = ['UserTime', 'WallTime', 'QueryTime', 'SolverTime', 'CexCacheTime', 'ForkTime', 'ResolveTime'];
const REL_TIMES = ['SolverTime', 'CexCacheTime', 'ForkTime', 'ResolveTime', 'UserTime'];

/** Header names of klee-stats' table, by record key. */
export const HEADER_NAMES: Record<string, string> = {
  Instructions: 'Instrs',
  WallTime: 'Time(s)',
  ICov: 'ICov(%)',
  BCov: 'BCov(%)',
  ICount: 'ICount',
  RelSolverTime: 'TSolver(%)',
  NumStates: 'States',
  maxStates: 'maxStates',
  avgStates: 'avgStates',
  MallocUsage: 'Mem(MiB)',
  maxMem: 'maxMem(MiB)',
  avgMem: 'avgMem(MiB)',
  NumQueries: 'Queries',
  AvgQC: 'AvgQC',
  RelUserTime: 'TUser(%)',
  RelCexCacheTime: 'Tcex(%)',
  RelForkTime: 'Tfork(%)',
  RelResolveTime: 'TResolve(%)',
  UserTime: 'TUser(s)',
  SolverTime: 'TSolver(s)',
  CexCacheTime: 'Tcex(s)',
  ForkTime: 'Tfork(s)',
  ResolveTime: 'TResolve(s)',
  QueryCexCacheMisses: 'QCexCMisses',
  QueryCexCacheHits: 'QCexCHits',
};

/** Keys printed with decimals whatever their value: percentages, seconds, MiB, averages. */
const REAL_KEYS = new Set(['ICov', 'BCov', ...TIME_COLUMNS, 'MallocUsage', 'maxMem', 'avgMem', 'avgStates']);

export type PrintMode = 'default' | 'more' | 'all' | 'reltime' | 'abstime';

/** Record keys each mode prints, after Path ('all': every key). */
export const MODE_COLUMNS: Record<Exclude<PrintMode, 'all'>, string[]> = {
  default: ['Instructions', 'WallTime', 'ICov', 'BCov', 'ICount', 'RelSolverTime'],
  more: ['Instructions', 'WallTime', 'ICov', 'BCov', 'ICount', 'RelSolverTime', 'NumStates', 'maxStates', 'MallocUsage', 'maxMem'],
  reltime: ['WallTime', 'RelUserTime', 'RelSolverTime', 'RelCexCacheTime', 'RelForkTime', 'RelResolveTime'],
  abstime: ['WallTime', 'UserTime', 'SolverTime', 'CexCacheTime', 'ForkTime', 'ResolveTime'],
};

/** The output directories under the given paths: each path holding `info`, else those found below it (klee-stats' rule). */
export function findOutputDirs(paths: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e);
      let isDir = false;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue;
      }
      if (!isDir) continue;
      if (existsSync(join(p, 'info'))) out.push(p);
      else walk(p);
    }
  };
  for (const p of paths) {
    if (existsSync(join(p, 'info'))) out.push(p);
    else walk(p);
  }
  return out;
}

/** Paths without their common leading directories (klee-stats' stripCommonPathPrefix). */
export function stripCommonPrefix(paths: readonly string[]): string[] {
  const parts = paths.map((p) => normalize(p).split(sep));
  let i = 0;
  while (parts.every((p) => i < p.length - 1 && p[i] === parts[0]![i])) i++;
  return parts.map((p) => p.slice(i).join(sep));
}

/** The record of row `index` (default: the last) with klee-stats' derived values. */
export function statsRecord(data: RunStatsData, index = data.rows.length - 1): StatsRecord {
  const r: StatsRecord = {};
  const row = data.rows[index] ?? [];
  data.columns.forEach((c, i) => (r[c] = row[i] ?? 0));
  const upTo = data.rows.slice(0, index + 1);
  const col = (name: string): number[] => {
    const i = data.columns.indexOf(name);
    return i < 0 ? [] : upTo.map((x) => x[i]!);
  };
  const mem = col('MallocUsage');
  const states = col('NumStates');
  const MiB = 1024 * 1024;
  if (mem.length > 0) {
    r.maxMem = Math.max(...mem) / MiB;
    r.avgMem = mem.reduce((a, b) => a + b, 0) / mem.length / MiB;
  }
  if (states.length > 0) {
    r.maxStates = Math.max(...states);
    r.avgStates = states.reduce((a, b) => a + b, 0) / states.length;
  }
  return derive(r);
}

/** klee-stats' artificial columns, from the raw ones (units: s, MiB, %). */
export function derive(raw: StatsRecord): StatsRecord {
  const r = { ...raw };
  if (r.NumBranches === 0) {
    // straight-line code: 100% branch coverage, as klee-stats reports it
    r.FullBranches = 1;
    r.NumBranches = 1;
  }
  for (const k of TIME_COLUMNS) if (k in r) r[k] = r[k]! / 1e6;
  if ('MallocUsage' in r) r.MallocUsage = r.MallocUsage! / (1024 * 1024);
  if ('NumQueryConstructs' in r && 'NumQueries' in r) r.AvgQC = Math.floor(r.NumQueryConstructs! / Math.max(1, r.NumQueries!));
  if ('CoveredInstructions' in r && 'UncoveredInstructions' in r) {
    r.ICount = r.CoveredInstructions! + r.UncoveredInstructions!;
    r.ICov = r.ICount > 0 ? (100 * r.CoveredInstructions!) / r.ICount : 0;
  }
  if ('FullBranches' in r && 'PartialBranches' in r && 'NumBranches' in r) r.BCov = (100 * (2 * r.FullBranches! + r.PartialBranches!)) / (2 * r.NumBranches!);
  for (const k of REL_TIMES) if ('WallTime' in r && k in r) r[`Rel${k}`] = r.WallTime! > 0 ? (100 * r[k]!) / r.WallTime! : 0;
  return r;
}

/**
 * The "Total (N)" row of several runs: counters and times summed, maxima taken, then the
 * percentages derived again from the sums (so Total's ICov is covered / all over every run).
 */
export function totalRecord(datas: readonly RunStatsData[]): StatsRecord {
  const sums: StatsRecord = {};
  let maxStates = 0;
  let maxMem = 0;
  for (const d of datas) {
    const last = d.rows[d.rows.length - 1] ?? [];
    d.columns.forEach((c, i) => (sums[c] = (sums[c] ?? 0) + (last[i] ?? 0)));
    const rec = statsRecord(d);
    maxStates = Math.max(maxStates, rec.maxStates ?? 0);
    maxMem = Math.max(maxMem, rec.maxMem ?? 0);
  }
  const r = derive(sums);
  r.maxStates = maxStates;
  r.maxMem = maxMem;
  return r;
}

/**
 * The row to compare a run at (klee-stats --compare-by/--compare-at): the last whose `column`
 * is at most `target`, or the first row when none is.
 */
export function rowAtOrBefore(data: RunStatsData, column: string, target: number): number {
  const i = data.columns.indexOf(column);
  if (i < 0) throw new Error(`run.stats has no column ${column}`);
  let pick = 0;
  data.rows.forEach((row, n) => {
    if (row[i]! <= target) pick = n;
  });
  return pick;
}

/** The run.stats column a --compare-by/--sort-by name means (a header such as Instrs or Time(s), or a column name). */
export function columnOfName(name: string, columns: readonly string[]): string {
  const bare = (s: string): string => s.replace(/\(.*\)$/, '').toLowerCase();
  if (columns.includes(name)) return name;
  for (const [key, header] of Object.entries(HEADER_NAMES)) if (bare(header) === bare(name) && columns.includes(key)) return key;
  const found = columns.find((c) => c.toLowerCase() === name.toLowerCase());
  if (found !== undefined) return found;
  throw new Error(`unknown column '${name}' (e.g. Instrs, Time, or a run.stats column such as Instructions)`);
}

/** Headers and cells of the table for `mode`. */
export function tableOf(paths: readonly string[], records: readonly StatsRecord[], mode: PrintMode): { headers: string[]; rows: Cell[][] } {
  let keys: string[];
  if (mode === 'all') {
    keys = [];
    for (const r of records) for (const k of Object.keys(r)) if (!keys.includes(k)) keys.push(k);
  } else keys = MODE_COLUMNS[mode];
  return tableOfKeys(paths, records, keys, keys.map((k) => HEADER_NAMES[k] ?? k));
}

/** klee-stats' short names of the termination-class columns (its --print-columns legend). */
export const TERMINATION_NAMES: Record<string, string> = {
  TermExit: 'TerminationExit',
  TermEarly: 'TerminationEarly',
  TermSolverErr: 'TerminationSolverError',
  TermProgrErr: 'TerminationProgramError',
  TermUserErr: 'TerminationUserError',
  TermExecErr: 'TerminationExecutionError',
  TermEarlyAlgo: 'TerminationEarlyAlgorithm',
  TermEarlyUser: 'TerminationEarlyUser',
};

/**
 * The table of klee-stats --print-columns=A,B,…: Path, then each named column under the name
 * given (a klee-stats header such as Instrs or TermExit, or a run.stats column name).
 */
export function tableOfColumns(paths: readonly string[], records: readonly StatsRecord[], names: readonly string[]): { headers: string[]; rows: Cell[][] } {
  const known = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const keys = names.map((n) => TERMINATION_NAMES[n] ?? columnOfName(n, known));
  return tableOfKeys(paths, records, keys, [...names]);
}

function tableOfKeys(paths: readonly string[], records: readonly StatsRecord[], keys: readonly string[], names: readonly string[]): { headers: string[]; rows: Cell[][] } {
  const headers = ['Path', ...names];
  const rows = records.map((r, i) => [paths[i]!, ...keys.map((k) => (k in r ? (REAL_KEYS.has(k) || k.startsWith('Rel') ? new Real(r[k]!) : r[k]!) : null))]);
  return { headers, rows };
}
