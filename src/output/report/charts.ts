/**
 * The report's charts as SVG text, drawn in Node by Apache ECharts' server-side renderer (no
 * DOM, no browser: the SVG goes into the HTML as it is, so the page needs no script and no
 * network). ECharts is loaded from node_modules only when a report is made (createRequire,
 * kept out of the CLI bundle like sql.js).
 *
 * Charts over a run's time (run.stats rows): coverage (%), states alive, queries to the
 * backend, and solver time.
 */
import { createRequire } from 'node:module';

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

// The part of ECharts' API used here (its own types are not needed for SSR).
interface EChart {
  setOption(o: object): void;
  renderToSVGString(): string;
  dispose(): void;
}
interface ECharts {
  init(dom: null, theme: null, opts: { renderer: 'svg'; ssr: true; width: number; height: number }): EChart;
}

let echarts: ECharts | undefined;

function load(): ECharts {
  if (echarts === undefined) echarts = createRequire(import.meta.url)('echarts') as ECharts;
  return echarts;
}

export function chartSvg(spec: ChartSpec, width = 540, height = 280): string {
  const chart = load().init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      title: { text: spec.title, left: 'center', textStyle: { fontSize: 14 } },
      legend: { bottom: 0 },
      grid: { left: 64, right: 24, top: 40, bottom: 56 },
      xAxis: { type: 'value', name: 'time (s)', nameLocation: 'middle', nameGap: 24 },
      yAxis: { type: 'value', name: spec.yName, ...(spec.percent === true ? { min: 0, max: 100 } : {}) },
      series: spec.series.map((s) => ({ type: 'line', name: s.name, data: s.points, showSymbol: s.points.length < 40 })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
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
