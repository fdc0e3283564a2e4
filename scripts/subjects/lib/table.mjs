/**
 * The results table: one row per utility (built, loaded, paths, tests, coverage of src/*.c
 * and of everything linked, errors, externals met, replay mismatches, time), with the
 * average and median of the coverage columns, as Markdown and CSV.
 */

function median(xs) {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function mean(xs) {
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
}

const fmt = (x) => (x === null || x === undefined ? '' : typeof x === 'number' ? String(Math.round(x * 10) / 10) : String(x));

/** One row of plain values per utility. */
export function rows(utilities, { build, runs, coverage }) {
  return utilities.map((u) => {
    const run = runs.get(u);
    const cov = coverage.get(u);
    const bugs = (run?.errors ?? []).filter((e) => e.bug);
    const other = (run?.errors ?? []).filter((e) => !e.bug);
    return {
      utility: u,
      built: `${build.bc.get(u) ? 'bc' : '-'}/${build.gcov.get(u) ? 'gcov' : '-'}`,
      loaded: run === undefined ? '' : run.loaded ? 'yes' : 'no',
      paths: run?.paths ?? '',
      tests: run?.tests ?? '',
      lineSrc: cov?.src.linePct ?? null,
      branchSrc: cov?.src.branchPct ?? null,
      lineAll: cov?.all.linePct ?? null,
      errors: bugs.map((e) => `${e.kind}@${e.place}`).join(' '),
      engineErrors: other.map((e) => `${e.kind}: ${e.message}`.slice(0, 80)).join('; '),
      externals: Object.keys(run?.externals ?? {}).join(' '),
      mismatches: cov === undefined ? '' : cov.replay.failure ? `replay failed: ${cov.replay.failure}` : cov.replay.differ,
      runSeconds: run?.seconds ?? null,
      halted: run?.failure ?? (run === undefined ? '' : `${run.halted ? 'max-time' : 'done'}${run.memoryCapped ? ', memory cap' : ''}`),
    };
  });
}

export function summary(table) {
  const col = (k) => table.map((r) => r[k]).filter((x) => typeof x === 'number');
  return {
    utilities: table.length,
    withCoverage: col('lineSrc').length,
    lineSrc: { mean: mean(col('lineSrc')), median: median(col('lineSrc')) },
    branchSrc: { mean: mean(col('branchSrc')), median: median(col('branchSrc')) },
    lineAll: { mean: mean(col('lineAll')), median: median(col('lineAll')) },
  };
}

const HEAD = ['utility', 'built', 'loaded', 'paths', 'tests', 'line % src', 'branch % src', 'line % linked', 'errors found', 'engine errors', 'externals met', 'replay mismatches', 'run s', 'end'];
const KEYS = ['utility', 'built', 'loaded', 'paths', 'tests', 'lineSrc', 'branchSrc', 'lineAll', 'errors', 'engineErrors', 'externals', 'mismatches', 'runSeconds', 'halted'];

export function markdown(table, s) {
  const esc = (x) => fmt(x).replace(/\|/g, '\\|');
  const lines = [`| ${HEAD.join(' | ')} |`, `|${HEAD.map(() => '---').join('|')}|`];
  for (const r of table) lines.push(`| ${KEYS.map((k) => esc(r[k])).join(' | ')} |`);
  lines.push(`| **average** | | | | | ${fmt(s.lineSrc.mean)} | ${fmt(s.branchSrc.mean)} | ${fmt(s.lineAll.mean)} | | | | | | |`);
  lines.push(`| **median** | | | | | ${fmt(s.lineSrc.median)} | ${fmt(s.branchSrc.median)} | ${fmt(s.lineAll.median)} | | | | | | |`);
  return `${lines.join('\n')}\n`;
}

export function csv(table) {
  const q = (x) => {
    const v = fmt(x);
    return /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  };
  return `${[KEYS.join(','), ...table.map((r) => KEYS.map((k) => q(r[k])).join(','))].join('\n')}\n`;
}
