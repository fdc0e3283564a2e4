/**
 * Coverage and statistics of `tsklee run --jobs N` (needs `npm run build`): an exhaustive
 * run with two workers covers the same instructions, lines, branch sides and functions as one
 * worker, and its run.stats, run.istats and coverage.lcov say so in the single run's formats
 * (coverage.lcov read by genhtml). Hit counts differ (a handed-over prefix is replayed from the
 * program's start), the covered sets must not.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, tsklee } from '../support/tsklee-cli.js';
import { readRunStats } from '../../src/output/run-stats.js';
import { parseIStats } from '../../src/output/istats.js';
import { parseLcov } from '../../src/output/lcov.js';
import { ENDLESS_PROGRAM } from '../support/endless-program.js';

let dir: string;

// a switch and loops for hand-overs, a helper function, a never-called function and a line no
// path reaches (k > 100 && k < 50)
const PROGRAM = `#include <klee/klee.h>
static int step(int acc, unsigned char b) {
  switch (b & 3) {
  case 0: return acc + 1;
  case 1: return acc - 2;
  case 2: return acc * 3;
  default: return acc;
  }
}
int unused(int x) { return x * 7; }
int main(void) {
  unsigned char b[4];
  int k;
  klee_make_symbolic(b, sizeof b, "b");
  klee_make_symbolic(&k, sizeof k, "k");
  int acc = 0;
  for (int i = 0; i < 4; i++) {
    acc = step(acc, b[i]);
    for (int w = 0; w < 200; w++) acc ^= w;
  }
  if (k > 100 && k < 50) acc = unused(acc);
  if (acc == 7) return 1;
  return 0;
}
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-jobs-stats-'));
  compileProgram(dir, 'prog', PROGRAM);
  for (const [out, jobs] of [['one', '1'], ['two', '2']] as const) {
    // both workers from the start (a short run would otherwise stay on worker 0)
    const r = tsklee(['run', '--search=dfs', `--jobs=${jobs}`, '--jobs-start-after=0', '--stats-write-interval=0.2s', '--istats-write-interval=0.2s', `--output-dir=${out}`, 'prog.bc'], dir);
    if (r.code !== 0) throw new Error(`--jobs=${jobs}: ${r.stderr}`);
  }
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (out: string, name: string): string => readFileSync(join(dir, out, name), 'utf8');

/** What coverage.lcov says was covered: lines, branch sides and functions with a count > 0. */
function lcovSets(out: string): { lines: string[]; branches: string[]; functions: string[]; found: number[] } {
  const files = parseLcov(read(out, 'coverage.lcov'));
  const lines: string[] = [];
  const branches: string[] = [];
  const functions: string[] = [];
  const found = [0, 0, 0];
  for (const f of files) {
    for (const l of f.lines) if (l.hits > 0) lines.push(`${f.path}:${l.line}`);
    for (const b of f.branches) if (b.taken !== null && b.taken > 0) branches.push(`${f.path}:${b.line}.${b.block}.${b.branch}`);
    for (const fn of f.functions) if (fn.hits > 0) functions.push(fn.name);
    found[0] += f.lines.length;
    found[1] += f.branches.length;
    found[2] += f.functions.length;
  }
  return { lines: lines.sort(), branches: branches.sort(), functions: functions.sort(), found };
}

/** What run.istats says per source line: covered instructions (Icov > 0), true / false sides taken. */
function istatsSets(out: string): { covered: string[]; uncovered: string[]; sides: string[] } {
  const p = parseIStats(read(out, 'run.istats'));
  const at = (name: string): number => p.events.indexOf(name);
  const [icov, iuncov, bt, bf] = [at('Icov'), at('Iuncov'), at('Bt'), at('Bf')];
  const covered: string[] = [];
  const uncovered: string[] = [];
  const sides: string[] = [];
  for (const [line, c] of p.byLine) {
    if (c[icov]! > 0) covered.push(line);
    if (c[iuncov]! > 0) uncovered.push(line);
    if (c[bt]! > 0) sides.push(`${line}:T`);
    if (c[bf]! > 0) sides.push(`${line}:F`);
  }
  return { covered: covered.sort(), uncovered: uncovered.sort(), sides: sides.sort() };
}

async function lastRow(out: string): Promise<{ row: Record<string, number>; rows: number }> {
  const s = await readRunStats(join(dir, out, 'run.stats'));
  const last = s.rows[s.rows.length - 1]!;
  return { row: Object.fromEntries(s.columns.map((c, i) => [c, last[i]!])), rows: s.rows.length };
}

const infoNumber = (out: string, re: RegExp): number => Number(re.exec(read(out, 'info'))?.[1]);

describe('tsklee run --jobs: coverage and statistics', () => {
  it('hands states over (the comparison is about a real parallel run)', () => {
    expect(infoNumber('two', /parallel exploration: 2 workers, (\d+) states handed over/)).toBeGreaterThan(0);
    expect(infoNumber('two', /completed paths = (\d+)/)).toBe(infoNumber('one', /completed paths = (\d+)/));
  });

  it('coverage.lcov: the same covered lines, branch sides and functions as one worker, read by genhtml', () => {
    const a = lcovSets('one');
    const b = lcovSets('two');
    expect(b).toEqual(a);
    // not everything: the unreachable line and the unused function are there, uncovered
    expect(a.lines.length).toBeLessThan(a.found[0]!);
    expect(a.functions).toEqual(['main', 'step']);
    const g = spawnSync('genhtml', ['--branch-coverage', '--output-directory', join(dir, 'html'), join(dir, 'two', 'coverage.lcov')], { encoding: 'utf8' });
    expect(g.stderr).not.toMatch(/ERROR/);
    expect(g.status).toBe(0);
    expect(g.stdout).toMatch(/functions\.*: 66\.7% \(2 of 3 functions\)/);
  });

  it('run.istats: the same covered and uncovered instructions and branch sides per line', () => {
    const a = istatsSets('one');
    const b = istatsSets('two');
    expect(b).toEqual(a);
    expect(a.uncovered.length).toBeGreaterThan(0);
  });

  it('run.stats: the last row has the whole run\'s coverage and the sums of the workers\' counters', async () => {
    const a = await lastRow('one');
    const b = await lastRow('two');
    for (const c of ['CoveredInstructions', 'UncoveredInstructions', 'FullBranches', 'PartialBranches', 'NumBranches', 'CoveredLines', 'ProgramCoveredLines', 'ProgramCoveredBranchSides', 'ProgramBranchSides']) {
      expect([c, b.row[c]]).toEqual([c, a.row[c]]);
    }
    // counters: the sum over both workers, as info adds them up
    expect(b.row.Instructions).toBe(infoNumber('two', /total instructions = (\d+)/));
    expect(b.row.NumQueries).toBe(infoNumber('two', /total queries = (\d+)/));
    expect(b.row.TerminationExit).toBe(infoNumber('two', /completed paths = (\d+)/));
    expect(b.row.NumStates).toBe(0);
    // info's covered instructions is run.stats'
    expect(infoNumber('two', /covered instructions = (\d+) of/)).toBe(b.row.CoveredInstructions);
    expect(read('two', 'info')).toContain(/tsklee: program coverage[^\n]*\n/.exec(read('one', 'info'))![0]);
  });

  it('a run stopped by --max-time still writes rows over time and the files, with every worker counted', async () => {
    compileProgram(dir, 'endless', ENDLESS_PROGRAM);
    const r = tsklee(['run', '--search=dfs', '--jobs=2', '--jobs-start-after=0', '--max-time=2s', '--stats-write-interval=0.25s', '--output-dir=timed', 'endless.bc'], dir);
    expect(r.code).toBe(0);
    const s = await readRunStats(join(dir, 'timed', 'run.stats'));
    expect(s.rows.length).toBeGreaterThanOrEqual(4);
    const col = (c: string): number[] => s.rows.map((row) => row[s.columns.indexOf(c)]!);
    // coverage and instructions never go down from one row to the next
    for (const c of ['Instructions', 'CoveredInstructions']) for (let i = 1; i < s.rows.length; i++) expect(col(c)[i]!).toBeGreaterThanOrEqual(col(c)[i - 1]!);
    expect(col('Instructions').at(-1)).toBe(infoNumber('timed', /total instructions = (\d+)/));
    expect(lcovSets('timed').lines.length).toBeGreaterThan(0);
    expect(read('timed', 'run.istats')).toMatch(/^totals: /m);
  });
});
