/**
 * `coverage.lcov`: line, function and branch coverage as an lcov tracefile (the format of
 * lcov's `geninfo`, read by `genhtml` and by code-coverage services):
 *
 *   TN:<test name>
 *   SF:<source file, absolute>
 *   FN:<first line>,<function>          FNDA:<times entered>,<function>    FNF:/FNH: found/hit
 *   BRDA:<line>,<block>,<branch>,<times taken, or - when the branch never ran>
 *   BRF:/BRH:                           branch sides found / taken
 *   DA:<line>,<times run>               LF:/LH: lines found / hit
 *   end_of_record
 *
 * A line's count is the largest count of its instructions (a `for` line's condition, not its
 * initialisation); `block` numbers the branching instructions of one line.
 */

export interface FunctionCoverage {
  name: string;
  line: number;
  hits: number;
}

export interface BranchCoverage {
  line: number;
  block: number;
  branch: number;
  /** Times this side was taken; null when the branching instruction never ran. */
  taken: number | null;
}

export interface SourceFileCoverage {
  path: string;
  functions: FunctionCoverage[];
  /** Sorted by line. */
  lines: { line: number; hits: number }[];
  branches: BranchCoverage[];
}

/** lcov's test names are word characters only. */
function testName(name: string): string {
  return name.replace(/\W/g, '_');
}

export function formatLcov(name: string, files: readonly SourceFileCoverage[]): string {
  const out: string[] = [];
  for (const f of files) {
    out.push(`TN:${testName(name)}`, `SF:${f.path}`);
    for (const fn of f.functions) out.push(`FN:${fn.line},${fn.name}`);
    for (const fn of f.functions) out.push(`FNDA:${fn.hits},${fn.name}`);
    out.push(`FNF:${f.functions.length}`, `FNH:${f.functions.filter((fn) => fn.hits > 0).length}`);
    for (const b of f.branches) out.push(`BRDA:${b.line},${b.block},${b.branch},${b.taken === null ? '-' : b.taken}`);
    out.push(`BRF:${f.branches.length}`, `BRH:${f.branches.filter((b) => b.taken !== null && b.taken > 0).length}`);
    for (const l of f.lines) out.push(`DA:${l.line},${l.hits}`);
    out.push(`LF:${f.lines.length}`, `LH:${f.lines.filter((l) => l.hits > 0).length}`, 'end_of_record');
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

/** Reads an lcov tracefile (records of several tests for one file are kept apart). */
export function parseLcov(text: string): SourceFileCoverage[] {
  const files: SourceFileCoverage[] = [];
  let cur: SourceFileCoverage | null = null;
  const fnLines = new Map<string, number>();
  for (const raw of text.split('\n')) {
    const l = raw.trim();
    const colon = l.indexOf(':');
    const key = colon < 0 ? l : l.slice(0, colon);
    const v = l.slice(colon + 1);
    if (key === 'SF') {
      cur = { path: v, functions: [], lines: [], branches: [] };
      fnLines.clear();
      files.push(cur);
    } else if (cur === null) continue;
    else if (key === 'FN') {
      const [line, ...name] = v.split(',');
      fnLines.set(name.join(','), Number(line));
    } else if (key === 'FNDA') {
      const [hits, ...name] = v.split(',');
      const n = name.join(',');
      cur.functions.push({ name: n, line: fnLines.get(n) ?? 0, hits: Number(hits) });
    } else if (key === 'DA') {
      const [line, hits] = v.split(',');
      cur.lines.push({ line: Number(line), hits: Number(hits) });
    } else if (key === 'BRDA') {
      const [line, block, branch, taken] = v.split(',');
      cur.branches.push({ line: Number(line), block: Number(block), branch: Number(branch), taken: taken === '-' ? null : Number(taken) });
    } else if (key === 'end_of_record') cur = null;
  }
  return files;
}
