/**
 * `tsklee experiment table`: one row per program (and size), one column per configuration,
 * each the median over the repetitions with its range, then each configuration's ratio to the
 * baseline's median. Markdown (the papers' tables, for a README) or CSV (one line per program
 * × configuration, for a spreadsheet or a plotting script).
 */
import type { CellMetrics, CellResult } from './cell.js';
import type { Experiment } from './experiment-file.js';
import { cells, programInstances, type ProgramInstance } from './matrix.js';
import { readCellResult } from './results.js';

export interface MetricDef {
  title: string;
  unit: string;
  /** Digits after the point. */
  digits: number;
  value: (r: CellResult) => number | null;
}

const m = (f: (x: CellMetrics) => number | null) => (r: CellResult): number | null => (r.metrics === null ? null : f(r.metrics));

export const METRICS: Record<string, MetricDef> = {
  time: { title: 'wall time', unit: 's', digits: 2, value: (r) => r.wallSeconds },
  cpu: { title: 'user CPU time', unit: 's', digits: 2, value: m((x) => x.cpuSeconds) },
  paths: { title: 'completed paths', unit: '', digits: 0, value: m((x) => x.completedPaths) },
  explored: { title: 'explored paths', unit: '', digits: 0, value: m((x) => x.exploredPaths) },
  tests: { title: 'tests', unit: '', digits: 0, value: m((x) => x.tests) },
  instructions: { title: 'instructions', unit: '', digits: 0, value: m((x) => x.instructions) },
  queries: { title: 'solver queries', unit: '', digits: 0, value: m((x) => x.queries) },
  solver: { title: 'solver time', unit: 's', digits: 2, value: m((x) => x.solverSeconds) },
  icov: { title: 'instruction coverage (ICov)', unit: '%', digits: 1, value: m((x) => x.icov) },
  lines: { title: 'program line coverage', unit: '%', digits: 1, value: m((x) => x.lineCoverage) },
  branches: { title: 'program branch coverage', unit: '%', digits: 1, value: m((x) => x.branchCoverage) },
  errors: { title: 'error reports', unit: '', digits: 0, value: m((x) => x.errors) },
};

export const DEFAULT_TABLE_METRICS = ['time', 'paths', 'queries', 'lines'];

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** One program × configuration: the values over its repetitions. */
export interface Aggregate {
  instance: ProgramInstance;
  config: string;
  values: number[];
  median: number | null;
  min: number | null;
  max: number | null;
  /** Repetitions that ran and did not end ok. */
  missing: number;
  /** Repetitions not run yet (no cell.json). */
  notRun: number;
  /** Some repetition hit its time limit (a time is then a lower bound). */
  unfinished: boolean;
}

/** The results of every cell, grouped by program instance and configuration. */
export function aggregate(x: Experiment, metric: MetricDef): Aggregate[] {
  const out: Aggregate[] = [];
  const all = cells(x);
  for (const inst of programInstances(x)) {
    for (const c of x.configurations) {
      const values: number[] = [];
      let missing = 0;
      let notRun = 0;
      let unfinished = false;
      for (const cell of all) {
        if (cell.instance.key !== inst.key || cell.config.name !== c.name) continue;
        const r = readCellResult(x, cell);
        const v = r !== null && r.status === 'ok' ? metric.value(r) : null;
        if (r === null) notRun++;
        else if (v === null) missing++;
        else values.push(v);
        if (r?.metrics?.finished === false) unfinished = true;
      }
      out.push({
        instance: inst,
        config: c.name,
        values,
        median: values.length > 0 ? median(values) : null,
        min: values.length > 0 ? Math.min(...values) : null,
        max: values.length > 0 ? Math.max(...values) : null,
        missing,
        notRun,
        unfinished,
      });
    }
  }
  return out;
}

function fmt(v: number, digits: number): string {
  return v.toFixed(digits);
}

function ratio(a: Aggregate, base: Aggregate | undefined): number | null {
  if (base === undefined || a.median === null || base.median === null || base.median === 0) return null;
  return a.median / base.median;
}

function cellText(a: Aggregate, def: MetricDef): string {
  if (a.median === null) return a.missing > 0 ? 'failed' : a.notRun > 0 ? 'not run' : '';
  const mark = a.unfinished && def.unit === 's' ? '+' : '';
  const range = a.values.length > 1 ? ` (${fmt(a.min!, def.digits)}–${fmt(a.max!, def.digits)})` : '';
  const lost = (a.missing > 0 ? ` [${a.missing} failed]` : '') + (a.notRun > 0 ? ` [${a.notRun} not run]` : '');
  return `${fmt(a.median, def.digits)}${mark}${range}${lost}`;
}

/** Two significant digits below 1 (0.0027, not 0.00), two decimals above. */
export function ratioText(r: number): string {
  return r >= 1 || r === 0 ? r.toFixed(2) : r.toPrecision(2);
}

/** The Markdown table of one metric. */
export function markdownTable(x: Experiment, metricName: string): string {
  const def = METRICS[metricName]!;
  const aggs = aggregate(x, def);
  const configs = x.configurations.map((c) => c.name);
  const others = configs.filter((c) => c !== x.baseline);
  const sized = programInstances(x).some((i) => i.size !== undefined);
  const head = ['program', ...(sized ? ['size'] : []), ...configs.map((c) => (c === x.baseline ? `${c} (baseline)` : c)), ...others.map((c) => `${c} ÷ ${x.baseline}`)];
  const lines = [`**${def.title}${def.unit !== '' ? ` (${def.unit})` : ''}**: median over ${x.repetitions} repetition${x.repetitions > 1 ? 's' : ''} (min–max)`, '', `| ${head.join(' | ')} |`, `|${head.map(() => ' --- |').join('')}`];
  for (const inst of programInstances(x)) {
    const row = aggs.filter((a) => a.instance.key === inst.key);
    const by = (c: string): Aggregate => row.find((a) => a.config === c)!;
    const base = by(x.baseline);
    const ratios = others.map((c) => {
      const r = ratio(by(c), base);
      return r === null ? '' : `${ratioText(r)}×`;
    });
    lines.push(`| ${[inst.program, ...(sized ? [inst.size === undefined ? '' : String(inst.size)] : []), ...configs.map((c) => cellText(by(c), def)), ...ratios].join(' | ')} |`);
  }
  if (def.unit === 's' && aggs.some((a) => a.unfinished)) lines.push('', 'A time with + includes a run that hit its time limit (a lower bound).');
  return lines.join('\n');
}

const csvField = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** CSV: one line per program × configuration × metric. */
export function csvTable(x: Experiment, metricNames: string[]): string {
  const lines = ['program,size,configuration,metric,unit,median,min,max,repetitions,failed,not_run,unfinished,ratio_to_baseline'];
  for (const name of metricNames) {
    const def = METRICS[name]!;
    const aggs = aggregate(x, def);
    for (const a of aggs) {
      const base = aggs.find((b) => b.instance.key === a.instance.key && b.config === x.baseline);
      const r = ratio(a, base);
      const num = (v: number | null): string => (v === null ? '' : String(Number(v.toFixed(6))));
      lines.push([a.instance.program, a.instance.size === undefined ? '' : String(a.instance.size), a.config, name, def.unit, num(a.median), num(a.min), num(a.max), String(a.values.length), String(a.missing), String(a.notRun), String(a.unfinished), num(r)].map(csvField).join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}
