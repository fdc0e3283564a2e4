/**
 * The report's charts as SVG text: Vega-Lite specifications rendered by Vega in Node (no DOM,
 * no browser: the SVG goes into the HTML as it is, so the page needs no script and no
 * network). Vega is loaded only when a report is made, through a computed import (Vega is
 * ES modules only; the CLI bundle leaves such imports to the launcher).
 *
 * Charts over a run's time (run.stats rows): coverage (%), states alive, queries to the
 * backend, and solver time.
 */

export interface Series {
  name: string;
  points: [number, number][];
}

export interface ChartSpec {
  title: string;
  yName: string;
  series: Series[];
  /** Fix the y axis to 0..100 (percentages). */
  percent?: boolean;
}

// The part of Vega's and Vega-Lite's APIs used here.
interface VegaView {
  toSVG(): Promise<string>;
  finalize(): void;
}
interface Vega {
  View: new (runtime: unknown, opts: { renderer: 'none' }) => VegaView;
  parse(spec: unknown): unknown;
}
interface VegaLite {
  compile(spec: object): { spec: unknown };
}

let libs: Promise<{ vega: Vega; vl: VegaLite }> | undefined;

function load(): Promise<{ vega: Vega; vl: VegaLite }> {
  if (libs === undefined) {
    const names = ['vega', 'vega-lite'];
    libs = Promise.all(names.map((n) => import(n) as Promise<unknown>)).then(([vega, vl]) => ({ vega: vega as Vega, vl: vl as VegaLite }));
  }
  return libs;
}

export async function chartSvg(spec: ChartSpec, width = 440, height = 200): Promise<string> {
  const values = spec.series.flatMap((s) => s.points.map(([t, v]) => ({ t, v, series: s.name })));
  const lite = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: spec.title,
    width,
    height,
    data: { values },
    mark: { type: 'line', point: values.length < 80 },
    encoding: {
      x: { field: 't', type: 'quantitative', title: 'time (s)' },
      y: { field: 'v', type: 'quantitative', title: spec.yName, ...(spec.percent === true ? { scale: { domain: [0, 100] } } : {}) },
      color: { field: 'series', type: 'nominal', title: null, legend: { orient: 'bottom' } },
    },
  };
  return vegaLiteSvg(lite);
}

/** Any Vega-Lite specification as SVG text (rendered by Vega in Node, no DOM). */
export async function vegaLiteSvg(spec: object): Promise<string> {
  const { vega, vl } = await load();
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** The charts of a run from its run.stats rows (times in µs there). */
export function runCharts(stats: { columns: string[]; rows: number[][] } | null): ChartSpec[] {
  if (stats === null || stats.rows.length === 0) return [];
  const col = (name: string): number[] | null => {
    const i = stats.columns.indexOf(name);
    return i < 0 ? null : stats.rows.map((r) => r[i]!);
  };
  const t = (col('WallTime') ?? stats.rows.map((_, i) => i * 1e6)).map((us) => us / 1e6);
  const series = (name: string, ys: number[] | null): Series[] => (ys === null ? [] : [{ name, points: ys.map((y, i) => [t[i]!, y]) }]);
  const pct = (num: string, den: string): number[] | null => {
    const a = col(num);
    const b = col(den);
    return a === null || b === null ? null : a.map((v, i) => (b[i]! > 0 ? (100 * v) / b[i]! : 0));
  };
  const icov = (() => {
    const c = col('CoveredInstructions');
    const u = col('UncoveredInstructions');
    return c === null || u === null ? null : c.map((v, i) => (v + u[i]! > 0 ? (100 * v) / (v + u[i]!) : 0));
  })();
  const bcov = (() => {
    const f = col('FullBranches');
    const p = col('PartialBranches');
    const n = col('NumBranches');
    return f === null || p === null || n === null ? null : f.map((v, i) => (n[i]! > 0 ? (100 * (2 * v + p[i]!)) / (2 * n[i]!) : 100));
  })();
  const solver = col('SolverTime');
  return [
    {
      title: 'Coverage',
      yName: '%',
      percent: true,
      series: [
        ...series('program lines', pct('ProgramCoveredLines', 'ProgramLines')),
        ...series('program branches', pct('ProgramCoveredBranchSides', 'ProgramBranchSides')),
        ...series('instructions (ICov)', icov),
        ...series('branches (BCov)', bcov),
      ],
    },
    { title: 'States alive', yName: 'states', series: series('states', col('NumStates')) },
    { title: 'Queries to the solver backend', yName: 'queries', series: series('queries', col('NumQueries')) },
    { title: 'Solver time', yName: 's', series: series('solver time', solver === null ? null : solver.map((us) => us / 1e6)) },
  ].filter((c) => c.series.length > 0);
}
