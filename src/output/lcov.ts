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
