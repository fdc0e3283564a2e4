/**
 * quantified-debian.mjs's speedups.md: the paper's Tables 2–3 in shape (PAT's CPU-time
 * speed-ups over BASE and CFG per driver and capacity) and two summaries per library.
 */

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ok = (r) => r !== undefined && r.error === undefined;

/**
 * The paper's metric (paper 000, Tables 2/5): per library, over the cells where PAT or the
 * other mode finished (a cell where both stopped is left out, not counted as 1×), the mean and
 * median of other/PAT CPU time, a stopped run counted at exactly the budget. A ratio against a
 * stopped run is a bound (`lower`: the other stopped, so the speed-up is at least that; `upper`:
 * PAT stopped), so the mean and median are too when either count is non-zero.
 * `cells`: [{ lib, other: 'base'|'cfg', pat, run }] with runs as in results.json (cpu, halted, error).
 */
export function paperSummary(cells, budgetS) {
  const byKey = new Map();
  for (const { lib, other, pat, run } of cells) {
    if (!ok(pat) || !ok(run) || (pat.halted && run.halted)) continue;
    const p = pat.halted ? budgetS : pat.cpu;
    const o = run.halted ? budgetS : run.cpu;
    const k = `${lib}\u0000${other}`;
    const e = byKey.get(k) ?? { lib, other, ratios: [], lower: 0, upper: 0 };
    e.ratios.push(o / p);
    if (run.halted) e.lower++;
    if (pat.halted) e.upper++;
    byKey.set(k, e);
  }
  return [...byKey.values()].map((e) => ({ lib: e.lib, other: e.other, cells: e.ratios.length, mean: mean(e.ratios), median: median(e.ratios), lower: e.lower, upper: e.upper }));
}

/** speedups.md: the table, the medians with both-stopped cells as 1×, and paperSummary's lines. */
export function speedups({ drivers, modes, bounds, maxTime, tag, runs }) {
  const budgetS = Number(String(maxTime).replace(/^cpu:/, ''));
  const find = (d, b, m) => runs.find((r) => r.driver === d && r.bound === b && r.mode === m && r.maxTime === maxTime && r.tsklee === tag);
  const cell = (r) => (r === undefined ? '-' : r.error !== undefined ? 'error' : r.halted ? `>${budgetS}` : r.cpu.toFixed(1));
  // a stopped run counts as the budget: a speed-up over it is a lower bound, one of it an upper
  const ratio = (pat, other) => {
    if (!ok(pat) || !ok(other)) return undefined;
    if (pat.halted && other.halted) return { v: 1, mark: '=' };
    const p = pat.halted ? Math.max(pat.cpu, budgetS) : pat.cpu;
    const o = other.halted ? Math.max(other.cpu, budgetS) : other.cpu;
    return { v: o / p, mark: other.halted ? '≥' : pat.halted ? '≤' : '' };
  };
  const fmt = (x) => (x === undefined ? '-' : x.mark === '=' ? 'both >' : `${x.mark}${x.v.toFixed(2)}×`);
  const others = ['base', 'cfg'].filter((m) => modes.includes(m));
  const lines = [`| driver | N | ${modes.map((m) => m.toUpperCase()).join(' | ')} | ${others.map((m) => `PAT/${m.toUpperCase()}`).join(' | ')} |`, `|---|---|${modes.map(() => '---|').join('')}${others.map(() => '---|').join('')}`];
  const byLib = new Map();
  const paperCells = [];
  for (const d of drivers) {
    for (const b of bounds) {
      // a driver run at some of the bounds only (the paper's capacity differs per library)
      if (modes.every((m) => find(d.name, b, m) === undefined)) continue;
      const pat = find(d.name, b, 'pat');
      const rs = others.map((m) => ratio(pat, find(d.name, b, m)));
      others.forEach((m, i) => {
        paperCells.push({ lib: d.lib, other: m, pat, run: find(d.name, b, m) });
        if (rs[i] === undefined) return;
        const k = `${d.lib} ${m}`;
        byLib.set(k, [...(byLib.get(k) ?? []), rs[i].v]);
      });
      lines.push(`| ${d.name} | ${b} | ${modes.map((m) => cell(find(d.name, b, m))).join(' | ')} | ${rs.map(fmt).join(' | ')} |`);
    }
  }
  lines.push('', `CPU seconds; \`>${budgetS}\`: stopped by the budget (counted as ${budgetS} s). Medians of PAT's speed-ups (both stopped: 1):`, '');
  for (const [k, xs] of byLib) lines.push(`- ${k.replace(' ', ': PAT/').replace(/base$|cfg$/, (m) => m.toUpperCase())} median ${median(xs).toFixed(2)}× over ${xs.length} cells`);
  lines.push('', `The paper's metric: only cells where PAT or the other mode finished, a stopped run counted at ${budgetS} s (a ratio against it is a bound, so the mean and median are bounds too where such cells are counted):`, '');
  for (const s of paperSummary(paperCells, budgetS)) {
    const bound = [s.lower > 0 ? `${s.lower} lower bound${s.lower > 1 ? 's' : ''} (other stopped)` : '', s.upper > 0 ? `${s.upper} upper bound${s.upper > 1 ? 's' : ''} (PAT stopped)` : ''].filter((x) => x !== '').join(', ');
    lines.push(`- ${s.lib}: PAT/${s.other.toUpperCase()} mean ${s.mean.toFixed(2)}×, median ${s.median.toFixed(2)}× over ${s.cells} cells${bound ? `; ${bound}` : ''}`);
  }
  return lines.join('\n') + '\n';
}
