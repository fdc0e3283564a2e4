/**
 * Source-level coverage from the run's counts: per file, the functions entered, the lines run
 * and the branch sides taken (coverage.lcov), and the totals `info` prints. `programOnly`
 * leaves out the functions of tsklee's runtime (libc, POSIX model), so that the numbers are
 * about the program's own source, as gcov's would be.
 */
import type { BranchCoverage, SourceFileCoverage } from '../output/lcov.js';
import { sideCounts, type CoverageModel } from './stats-coverage.js';
import type { ExecutionState } from './state.js';
import type { KModule } from './prepare/kmodule.js';

export interface CoverageTotals {
  /** Coverable instructions (phis included) run / all. */
  instructions: { covered: number; total: number };
  /** Source lines with an instruction that ran / lines with instructions. */
  lines: { covered: number; total: number };
  /** Branch sides (br: 2, switch: one per target) taken / all. */
  branches: { covered: number; total: number };
  functions: { covered: number; total: number };
}

export interface SourceCoverage {
  files: SourceFileCoverage[];
  totals: CoverageTotals;
}

export function sourceCoverage(model: CoverageModel, covered: Float64Array, edgeTaken: Float64Array, programOnly: boolean): SourceCoverage {
  const totals: CoverageTotals = {
    instructions: { covered: 0, total: 0 },
    lines: { covered: 0, total: 0 },
    branches: { covered: 0, total: 0 },
    functions: { covered: 0, total: 0 },
  };
  const files = new Map<number, { fns: SourceFileCoverage['functions']; lines: Map<number, number>; branches: BranchCoverage[] }>();
  const fileOf = (i: number) => {
    let f = files.get(i);
    if (f === undefined) {
      f = { fns: [], lines: new Map(), branches: [] };
      files.set(i, f);
    }
    return f;
  };
  const included = model.functions.map((f) => !programOnly || !f.runtime);
  model.functions.forEach((fn, fi) => {
    if (!included[fi]) return;
    const hits = fn.end > fn.start ? model.count(covered, fn.start) : 0;
    totals.functions.total++;
    if (hits > 0) totals.functions.covered++;
    if (fn.file >= 0) fileOf(fn.file).fns.push({ name: fn.name, line: fn.line, hits });
    for (let s = fn.start; s < fn.end; s++) {
      const n = model.count(covered, s);
      if (model.siteCoverable[s] === 1) {
        totals.instructions.total++;
        if (n > 0) totals.instructions.covered++;
      }
      const file = model.siteFile[s]!;
      const line = model.siteLine[s]!;
      if (file < 0 || line <= 0) continue;
      const lines = fileOf(file).lines;
      lines.set(line, Math.max(lines.get(line) ?? 0, n));
    }
  });
  // branch blocks are numbered per line, in module order
  const blockAt = new Map<string, number>();
  for (const b of model.branches) {
    if (!included[b.fn]) continue;
    const counts = sideCounts(b, edgeTaken);
    totals.branches.total += counts.length;
    totals.branches.covered += counts.filter((c) => c > 0).length;
    if (b.file < 0 || b.line <= 0) continue;
    const key = `${b.file}:${b.line}`;
    const block = blockAt.get(key) ?? 0;
    blockAt.set(key, block + 1);
    const ran = covered[b.gid]! > 0;
    counts.forEach((c, i) => fileOf(b.file).branches.push({ line: b.line, block, branch: i, taken: ran ? c : null }));
  }
  const out: SourceFileCoverage[] = [];
  for (const [i, f] of [...files].sort((a, b) => model.files[a[0]]!.localeCompare(model.files[b[0]]!))) {
    const lines = [...f.lines].sort((a, b) => a[0] - b[0]).map(([line, hits]) => ({ line, hits }));
    totals.lines.total += lines.length;
    totals.lines.covered += lines.filter((l) => l.hits > 0).length;
    out.push({ path: model.files[i]!, functions: f.fns.sort((a, b) => a.line - b.line), lines, branches: f.branches });
  }
  return { files: out, totals };
}

/**
 * sourceCoverage(model, covered, edgeTaken, false).totals without the per-file tables: the
 * whole module's lines are the model's line ids (CoverageModel.siteLineId), so nothing is
 * built per file or sorted. For `info`'s "coverage with the runtime" line, where the runtime
 * is most of the module.
 */
export function moduleCoverageTotals(model: CoverageModel, covered: Float64Array, edgeTaken: Float64Array): CoverageTotals {
  const totals: CoverageTotals = {
    instructions: { covered: 0, total: 0 },
    lines: { covered: 0, total: model.lineCount },
    branches: { covered: 0, total: 0 },
    functions: { covered: 0, total: model.functions.length },
  };
  for (const fn of model.functions) if (fn.end > fn.start && model.count(covered, fn.start) > 0) totals.functions.covered++;
  const hit = new Uint8Array(model.lineCount);
  for (let s = 0; s < model.siteCountGid.length; s++) {
    const ran = model.count(covered, s) > 0;
    if (model.siteCoverable[s] === 1) {
      totals.instructions.total++;
      if (ran) totals.instructions.covered++;
    }
    const id = model.siteLineId[s]!;
    if (ran && id >= 0 && hit[id] === 0) {
      hit[id] = 1;
      totals.lines.covered++;
    }
  }
  for (const b of model.branches) {
    const counts = sideCounts(b, edgeTaken);
    totals.branches.total += counts.length;
    totals.branches.covered += counts.filter((c) => c > 0).length;
  }
  return totals;
}

/** "12/15 (80.00%)". */
function ratio(c: { covered: number; total: number }): string {
  const pct = c.total > 0 ? ((100 * c.covered) / c.total).toFixed(2) : '100.00';
  return `${c.covered}/${c.total} (${pct}%)`;
}

/** The `info` lines of a coverage summary (tsklee's addition, after KLEE's). */
export function formatCoverageTotals(what: string, t: CoverageTotals): string {
  return (
    `tsklee: ${what}: instructions ${ratio(t.instructions)}, lines ${ratio(t.lines)}, ` +
    `branches ${ratio(t.branches)}, functions ${ratio(t.functions)}\n`
  );
}

/**
 * A test's .cov file (KLEE's --write-cov): the source lines of the instructions its path ran
 * before any other path did (KLEE's ExecutionState::coveredLines), "file:line" per line,
 * sorted by file then line.
 */
export function firstCoveredLines(st: ExecutionState, km: KModule): string {
  const byFile = new Map<string, Set<number>>();
  for (let n = st.firstCovered; n !== null; n = n.next) {
    const ki = km.instructions[n.gid]!;
    if (ki.file === '' || ki.line <= 0) continue;
    let lines = byFile.get(ki.file);
    if (lines === undefined) byFile.set(ki.file, (lines = new Set()));
    lines.add(ki.line);
  }
  let text = '';
  for (const file of [...byFile.keys()].sort()) for (const line of [...byFile.get(file)!].sort((a, b) => a - b)) text += `${file}:${line}\n`;
  return text;
}
