/**
 * `tsklee experiment plot`: the papers' figure types, as Vega-Lite rendered to SVG by Vega in
 * Node (and to PNG by resvg, a Rust SVG renderer shipped as a prebuilt Node addon):
 *
 * - coverage: the program's line coverage over time (run.stats rows), one panel per program,
 *   one colour per configuration, a line per repetition (KLEE's coverage-over-time figures);
 * - speedup: the baseline's median time over each configuration's, against the input size,
 *   a panel per program (paper 001's Fig. 6 and 000's bound sweeps; programs with `sizes`);
 * - scatter: each program's median time under a configuration against the baseline's, log-log
 *   with the diagonal (paper 001's and 002's scatter plots).
 * Times are wall seconds by default, or user CPU / solver seconds (PLOT_TIME_METRICS).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { vegaLiteSvg } from '../output/report/charts.js';
import { readRunStats } from '../output/run-stats.js';
import type { Experiment } from './experiment-file.js';
import { cellDir, cells, programInstances } from './matrix.js';
import { readCellResult } from './results.js';
import { aggregate, METRICS } from './table.js';

export const PLOT_KINDS = ['coverage', 'speedup', 'scatter'] as const;
export type PlotKind = (typeof PLOT_KINDS)[number];

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Instance label in a legend or panel title. */
const label = (program: string, size: number | string | undefined): string => (size === undefined ? program : `${program} (${size})`);

/** Coverage over time of every ok cell, from its run.stats. */
async function coverageSpec(x: Experiment): Promise<object | null> {
  const values: { program: string; configuration: string; repetition: number; t: number; coverage: number }[] = [];
  for (const cell of cells(x)) {
    const r = readCellResult(x, cell);
    const stats = join(cellDir(x, cell), 'out', 'run.stats');
    if (r === null || r.status !== 'ok' || !existsSync(stats)) continue;
    const s = await readRunStats(stats);
    const col = (n: string): number => s.columns.indexOf(n);
    const [t, cl, nl, ci, ui] = ['WallTime', 'ProgramCoveredLines', 'ProgramLines', 'CoveredInstructions', 'UncoveredInstructions'].map(col) as [number, number, number, number, number];
    if (t < 0) continue;
    for (const row of s.rows) {
      const cov = nl >= 0 && row[nl]! > 0 ? (100 * row[cl]!) / row[nl]! : ci >= 0 ? (100 * row[ci]!) / Math.max(1, row[ci]! + row[ui]!) : 0;
      values.push({ program: label(cell.instance.program, cell.instance.size), configuration: cell.config.name, repetition: cell.repetition, t: row[t]! / 1e6, coverage: cov });
    }
  }
  if (values.length === 0) return null;
  return {
    $schema: SCHEMA,
    title: `${x.name}: program line coverage over time`,
    data: { values },
    facet: { field: 'program', type: 'nominal', title: null, sort: [...new Set(values.map((v) => v.program))] },
    columns: 3,
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 220,
      height: 160,
      mark: { type: 'line', interpolate: 'step-after', opacity: 0.8 },
      encoding: {
        x: { field: 't', type: 'quantitative', title: 'time (s)' },
        y: { field: 'coverage', type: 'quantitative', title: 'lines covered (%)', scale: { domain: [0, 100] } },
        color: { field: 'configuration', type: 'nominal', sort: x.configurations.map((c) => c.name) },
        detail: { field: 'repetition', type: 'nominal' },
      },
    },
  };
}

/** The time metrics a speed-up or scatter plot can use (wall time is noisy on a loaded machine). */
export const PLOT_TIME_METRICS = ['time', 'cpu', 'solver'] as const;
export type PlotTimeMetric = (typeof PLOT_TIME_METRICS)[number];

/** Speed-up against the baseline over input sizes, a panel per program (sizes differ in kind). */
function speedupSpec(x: Experiment, metric: PlotTimeMetric): object | null {
  const def = METRICS[metric]!;
  const aggs = aggregate(x, def);
  const values: { program: string; size: number; configuration: string; speedup: number; lowerBound: boolean }[] = [];
  for (const a of aggs) {
    if (a.config === x.baseline || a.instance.size === undefined || typeof a.instance.size !== 'number' || a.median === null) continue;
    const base = aggs.find((b) => b.instance.key === a.instance.key && b.config === x.baseline);
    if (base?.median == null) continue;
    values.push({ program: a.instance.program, size: a.instance.size, configuration: a.config, speedup: base.median / a.median, lowerBound: base.unfinished });
  }
  if (values.length === 0) return null;
  const speedups = values.map((v) => v.speedup);
  // one log scale shared by the panels, always showing 1× (the baseline)
  const domain = [Math.min(1, ...speedups) / 1.3, Math.max(1, ...speedups) * 1.3];
  return {
    $schema: SCHEMA,
    title: `${x.name}: speed-up over ${x.baseline} (median ${def.title}; above 1 = faster)`,
    data: { values },
    facet: { field: 'program', type: 'nominal', title: null, sort: [...new Set(values.map((v) => v.program))] },
    columns: 3,
    resolve: { scale: { x: 'independent' } },
    spec: {
      width: 220,
      height: 180,
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 4], color: 'gray' }, encoding: { y: { datum: 1 } } },
        {
          mark: { type: 'line', point: true },
          encoding: {
            x: { field: 'size', type: 'quantitative', title: 'input size', axis: { tickMinStep: 1 }, scale: { zero: false } },
            y: { field: 'speedup', type: 'quantitative', title: `speed-up over ${x.baseline} (×)`, scale: { type: 'log', domain } },
            color: { field: 'configuration', type: 'nominal', sort: x.configurations.map((c) => c.name) },
            // dashed where the baseline hit its time limit (the speed-up is a lower bound)
            ...(values.some((v) => v.lowerBound) ? { strokeDash: { field: 'lowerBound', type: 'nominal', title: `${x.baseline} timed out` } } : {}),
          },
        },
      ],
    },
  };
}

/** Each configuration's median time against the baseline's, one point per program. */
function scatterSpec(x: Experiment, metric: PlotTimeMetric): object | null {
  const def = METRICS[metric]!;
  const aggs = aggregate(x, def);
  const values: { program: string; instance: string; configuration: string; baseline: number; time: number }[] = [];
  for (const a of aggs) {
    if (a.config === x.baseline || a.median === null) continue;
    const base = aggs.find((b) => b.instance.key === a.instance.key && b.config === x.baseline);
    if (base?.median == null) continue;
    values.push({ program: a.instance.program, instance: label(a.instance.program, a.instance.size), configuration: a.config, baseline: base.median, time: a.median });
  }
  if (values.length === 0) return null;
  // a zero time (a solver that never ran) has no place on a log scale
  const all = values.flatMap((v) => [v.baseline, v.time]).filter((v) => v > 0);
  if (all.length === 0) return null;
  const lo = Math.min(...all) / 1.5;
  const hi = Math.max(...all) * 1.5;
  const domain = [lo, hi];
  return {
    $schema: SCHEMA,
    title: `${x.name}: ${def.title} against ${x.baseline} (medians, s; below the diagonal = faster)`,
    width: 300,
    height: 300,
    layer: [
      {
        data: { values: [{ a: lo, b: lo }, { a: hi, b: hi }] },
        mark: { type: 'line', strokeDash: [4, 4], color: 'gray' },
        encoding: { x: { field: 'a', type: 'quantitative', scale: { type: 'log', domain } }, y: { field: 'b', type: 'quantitative', scale: { type: 'log', domain } } },
      },
      {
        data: { values: values.filter((v) => v.baseline > 0 && v.time > 0) },
        mark: { type: 'point', filled: true, size: 70 },
        encoding: {
          x: { field: 'baseline', type: 'quantitative', title: `${x.baseline} (s)`, scale: { type: 'log', domain } },
          y: { field: 'time', type: 'quantitative', title: 'configuration (s)', scale: { type: 'log', domain } },
          color: { field: 'configuration', type: 'nominal', sort: x.configurations.map((c) => c.name) },
          shape: { field: 'program', type: 'nominal' },
          tooltip: [{ field: 'instance' }],
        },
      },
    ],
  };
}

/** The Vega-Lite specification of a plot, or null when the results hold nothing for it. */
export async function plotSpec(x: Experiment, kind: PlotKind, metric: PlotTimeMetric = 'time'): Promise<object | null> {
  if (kind === 'coverage') return coverageSpec(x);
  if (kind === 'speedup') return speedupSpec(x, metric);
  return scatterSpec(x, metric);
}

export async function plotSvg(x: Experiment, kind: PlotKind, metric: PlotTimeMetric = 'time'): Promise<string | null> {
  const spec = await plotSpec(x, kind, metric);
  return spec === null ? null : vegaLiteSvg({ background: 'white', ...spec });
}

/** SVG to PNG (resvg with the system's fonts), at `scale` times the SVG's size. */
export function svgToPng(svg: string, scale = 2): Buffer {
  const { Resvg } = createRequire(import.meta.url)('@resvg/resvg-js') as typeof import('@resvg/resvg-js');
  const r = new Resvg(svg, { fitTo: { mode: 'zoom', value: scale }, font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' }, background: 'white' });
  return r.render().asPng();
}

/** Which plots make sense for the experiment (speed-up needs numeric sizes). */
export function defaultPlots(x: Experiment): PlotKind[] {
  const sized = programInstances(x).some((i) => typeof i.size === 'number');
  return sized ? ['coverage', 'speedup', 'scatter'] : ['coverage', 'scatter'];
}
