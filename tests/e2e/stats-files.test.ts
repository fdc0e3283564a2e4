/**
 * The statistics files of a run, end to end (`tsklee run` as a child process; needs `npm run
 * build`): run.stats against info, against the module's own instructions and branches (read
 * with llvm-dis), and opened with sqlite3; run.istats line by line against `tsklee stats` and
 * coverage.lcov, and read by callgrind_annotate; coverage.lcov read by genhtml; --write-cov;
 * rows by time and by instructions; program-only coverage with the runtime linked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readRunStats } from '../../src/output/run-stats.js';
import { parseIStats } from '../../src/output/istats.js';
import { ENDLESS_PROGRAM } from '../support/endless-program.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

// a switch, a loop, a phi (&&), a line no path reaches (a > 100 && a < 50), and an abort (its
// \`unreachable\` cannot run: KLEE does not count it)
const PROG = `#include <klee/klee.h>
void abort(void) __attribute__((noreturn));
static int classify(int x) {
  switch (x & 3) {
  case 0: return 10;
  case 1: return 20;
  default: return 30;
  }
}
int main(void) {
  int a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  int r = 0;
  if (a > 100) r += classify(b);
  else r -= 1;
  int odd = a > 100 && a < 50;
  if (odd)
    r = 12345;
  for (int i = 0; i < 3; i++) if (b == i * 7) r++;
  if (b == 99) abort();
  return r;
}
`;
const DEAD_LINE = 19;

function run(cmd: string, args: string[], cwd = dir): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tsklee(args: string[]): { code: number | null; stdout: string; stderr: string } {
  return run(process.execPath, [CLI, ...args]);
}

function compile(name: string, source: string): void {
  writeFileSync(join(dir, `${name}.c`), source);
  const cc = run('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${resolve('runtime/include')}`, `${name}.c`, '-o', `${name}.bc`]);
  if (cc.code !== 0) throw new Error(`clang-19 failed: ${cc.stderr}`);
}

async function lastRow(out: string): Promise<Record<string, number>> {
  const { columns, rows } = await readRunStats(join(dir, out, 'run.stats'));
  return Object.fromEntries(columns.map((c, i) => [c, rows[rows.length - 1]![i]!]));
}

function infoNumber(out: string, what: string): number {
  const m = new RegExp(`^KLEE: done: ${what} = (\\d+)$`, 'm').exec(readFileSync(join(dir, out, 'info'), 'utf8'));
  if (m === null) throw new Error(`info has no '${what}'`);
  return Number(m[1]);
}

/**
 * The instructions and conditional branches of a module as llvm-dis prints it (debug records
 * left out), and the `unreachable`s right after a call to abort.
 */
function irCounts(bc: string): { instructions: number; branches: number; afterAbort: number } {
  const ll = run('llvm-dis-19', [bc, '-o', '-']).stdout.split('\n');
  let inBody = false;
  let instructions = 0;
  let branches = 0;
  let afterAbort = 0;
  let previous = '';
  for (const line of ll) {
    if (line.startsWith('define ')) inBody = true;
    else if (line === '}') inBody = false;
    // an instruction starts at column 2 (switch cases and `]` continue one; debug records are not instructions)
    else if (inBody && /^ {2}[^ \]#]/.test(line) && !/call void @llvm\.dbg\./.test(line)) {
      instructions++;
      if (/^\s+br i1 /.test(line)) branches++;
      if (/^\s+unreachable/.test(line) && /call void @abort\(/.test(previous)) afterAbort++;
      previous = line;
    }
  }
  return { instructions, branches, afterAbort };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-stats-'));
  compile('cov', PROG);
  // the backend answers queries (so that they are counted): z3 as a process, the fast layer off
  const r = tsklee(['run', '--search=dfs', '--use-fast-solver=false', '--solver-backend=z3-native', '--write-cov', '--output-dir=out', 'cov.bc']);
  if (r.code !== 0) throw new Error(`tsklee run failed (${r.code}): ${r.stderr}`);
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('run.stats', () => {
  it('measures every KLEE column the run determines', async () => {
    const s = await lastRow('out');
    const ir = irCounts(join(dir, 'cov.bc'));
    expect(s['Instructions']).toBe(infoNumber('out', 'total instructions'));
    // every instruction of the module counts (phis included) but the unreachable after abort, and every conditional br
    expect(ir.afterAbort).toBe(1);
    expect(s['CoveredInstructions']! + s['UncoveredInstructions']!).toBe(ir.instructions - ir.afterAbort);
    expect(s['TerminationProgramError']).toBeGreaterThanOrEqual(1); // abort, on each path that reaches it
    expect(s['NumBranches']).toBe(ir.branches);
    // the dead line's branch went one way only
    expect(s['PartialBranches']).toBeGreaterThanOrEqual(1);
    expect(s['FullBranches']! + s['PartialBranches']!).toBeLessThanOrEqual(s['NumBranches']!);
    expect(s['UncoveredInstructions']).toBeGreaterThan(0);
    // states: all created ones ended, by class; one per explored path
    const paths = infoNumber('out', 'explored paths');
    expect(s['States']).toBe(paths);
    expect(s['NumStates']).toBe(0);
    expect(s['TerminationExit']).toBe(infoNumber('out', 'completed paths'));
    const ended = Object.entries(s).filter(([k]) => k.startsWith('Termination')).reduce((a, [, v]) => a + v, 0);
    expect(ended).toBe(paths);
    const forks = Object.entries(s).filter(([k]) => k.startsWith('Branches')).reduce((a, [, v]) => a + v, 0);
    expect(forks).toBe(paths - 1);
    expect(s['BranchesConditionalBranch']).toBeGreaterThan(0);
    expect(s['BranchesSwitch']).toBeGreaterThan(0);
    // queries are the backend's checks: each valid or invalid, as info says
    expect(s['NumQueries']).toBe(infoNumber('out', 'total queries'));
    expect(s['NumQueries']).toBe(infoNumber('out', 'valid queries') + infoNumber('out', 'invalid queries'));
    expect(s['NumQueries']).toBeGreaterThan(0);
    expect(infoNumber('out', 'query cex')).toBeGreaterThan(0);
    expect(s['NumQueryConstructs']).toBeGreaterThan(0);
    expect(infoNumber('out', 'avg. constructs per query')).toBe(Math.floor(s['NumQueryConstructs']! / s['NumQueries']!));
    expect(s['ForkTime']).toBeGreaterThan(0);
    for (const c of ['UserTime', 'WallTime', 'MallocUsage', 'Allocations', 'QueryTime', 'SolverTime']) expect(s[c]).toBeGreaterThan(0);
  });

  it('is an SQLite database sqlite3 reads, coverage growing row by row', () => {
    const r = run('sqlite3', [join(dir, 'out', 'run.stats'), 'PRAGMA integrity_check; SELECT CoveredInstructions, CoveredInstructions + UncoveredInstructions FROM stats ORDER BY rowid;']);
    expect(r.code).toBe(0);
    const [check, ...rows] = r.stdout.trim().split('\n');
    expect(check).toBe('ok');
    expect(rows.length).toBeGreaterThanOrEqual(2); // when the tracker started, and at the end
    const covered = rows.map((l) => Number(l.split('|')[0]));
    expect(covered[0]).toBe(0);
    for (let i = 1; i < covered.length; i++) expect(covered[i]).toBeGreaterThanOrEqual(covered[i - 1]!);
    expect(new Set(rows.map((l) => l.split('|')[1])).size).toBe(1);
  });

  it('has a row per --stats-write-interval, and per --stats-write-after-instructions', () => {
    writeFileSync(join(dir, 'endless.c'), ENDLESS_PROGRAM);
    compile('endless', ENDLESS_PROGRAM);
    const r = tsklee(['run', '--search=dfs', '--max-time=2s', '--stats-write-interval=0.25s', '--output-dir=timed', 'endless.bc']);
    expect(r.code).toBe(0);
    const q = run('sqlite3', [join(dir, 'timed', 'run.stats'), 'SELECT WallTime FROM stats ORDER BY rowid;']);
    const wall = q.stdout.trim().split('\n').map(Number);
    // a row when starting, one per 0.25 s while running (the run takes 2 s and dumping its states), one at the end
    expect(wall.length).toBeGreaterThanOrEqual(6);
    expect(wall.length).toBeLessThanOrEqual(Math.ceil(wall[wall.length - 1]! / 250_000) + 2);
    // Node re-arms an interval from the event loop's cached clock, so one row after a late one
    // can come a few milliseconds early (238 ms seen on a loaded machine): rows are spaced by
    // the interval, not by 0.24 s exactly
    for (let i = 2; i < wall.length - 1; i++) expect(wall[i]! - wall[i - 1]!).toBeGreaterThanOrEqual(200_000);

    const n = 5000;
    const s = tsklee(['run', '--search=dfs', '--max-instructions=23000', '--stats-write-interval=0', `--stats-write-after-instructions=${n}`, '--output-dir=counted', 'endless.bc']);
    expect(s.code).toBe(0);
    const rows = run('sqlite3', [join(dir, 'counted', 'run.stats'), 'SELECT Instructions FROM stats ORDER BY rowid;']).stdout.trim().split('\n').map(Number);
    const total = rows[rows.length - 1]!;
    expect(rows[0]).toBe(0);
    // one row per multiple of n reached (at it or a few instructions after: a phi copy can overshoot), and the last
    const middle = rows.slice(1, -1);
    expect(middle.length).toBe(Math.floor(total / n));
    middle.forEach((v, i) => {
      expect(v).toBeGreaterThanOrEqual((i + 1) * n);
      expect(v).toBeLessThan((i + 1) * n + 50);
    });
    // --stats-write-interval=0 and no instruction interval: no run.stats, as in KLEE
    const none = tsklee(['run', '--search=dfs', '--stats-write-interval=0', '--output-dir=nostats', 'cov.bc']);
    expect(none.code).toBe(0);
    expect(existsSync(join(dir, 'nostats', 'run.stats'))).toBe(false);
  }, 60_000);

  it('rewrites run.istats every --istats-write-interval while running (default 10 s: only at the end of a 3 s run)', async () => {
    compile('endless', ENDLESS_PROGRAM);
    /** ms from the start until run.istats first exists (null: never while running), and until the run ends. */
    const watch = (out: string, extra: string[]): Promise<{ first: number | null; end: number }> =>
      new Promise((done) => {
        const t0 = Date.now();
        let first: number | null = null;
        const child = spawn(process.execPath, [CLI, 'run', '--search=dfs', '--max-time=3s', `--output-dir=${out}`, ...extra, 'endless.bc'], { cwd: dir, stdio: 'ignore' });
        const poll = setInterval(() => {
          if (first === null && existsSync(join(dir, out, 'run.istats'))) first = Date.now() - t0;
        }, 50);
        child.on('exit', () => {
          clearInterval(poll);
          done({ first, end: Date.now() - t0 });
        });
      });
    const often = await watch('istats-often', ['--istats-write-interval=0.3s']);
    expect(often.first).not.toBeNull();
    // written while the run still had well over a second to go
    expect(often.end - often.first!).toBeGreaterThan(1000);
    const rare = await watch('istats-default', []);
    expect(rare.first === null || rare.end - rare.first < 1000).toBe(true);
    expect(existsSync(join(dir, 'istats-default', 'run.istats'))).toBe(true); // at the end
  }, 60_000);
});

/**
 * run.istats summed over its source lines against run.stats' last row and `tsklee stats`'
 * ICov and BCov; returns the per-line sums and the event index.
 */
async function checkIStatsAgainstTable(out: string): Promise<{ ist: ReturnType<typeof parseIStats>; ev: (name: string) => number }> {
  const ist = parseIStats(readFileSync(join(dir, out, 'run.istats'), 'utf8'));
  const ev = (name: string): number => ist.events.indexOf(name);
  const sum = (name: string): number => [...ist.byLine.values()].reduce((a, c) => a + c[ev(name)]!, 0);
  const s = await lastRow(out);
  expect(sum('Icov')).toBe(s['CoveredInstructions']);
  expect(sum('Iuncov')).toBe(s['UncoveredInstructions']);
  expect(sum('I')).toBe(s['Instructions']);
  expect(sum('Br')).toBe(s['NumBranches']);
  expect(sum('Bt') + sum('Bf')).toBe(2 * s['FullBranches']! + s['PartialBranches']!);
  const csv = tsklee(['stats', '--table-format=csv', '--precision=4', join(dir, out)]);
  expect(csv.code).toBe(0);
  const [head, row] = csv.stdout.trim().split('\n').map((l) => l.split(','));
  const col = (h: string): number => Number(row![head!.indexOf(h)]);
  expect(col('ICov(%)')).toBeCloseTo((100 * sum('Icov')) / (sum('Icov') + sum('Iuncov')), 3);
  expect(col('BCov(%)')).toBeCloseTo((100 * (sum('Bt') + sum('Bf'))) / (2 * sum('Br')), 3);
  expect(col('Instrs')).toBe(sum('I'));
  expect(col('ICount')).toBe(sum('Icov') + sum('Iuncov'));
  return { ist, ev };
}

describe('run.istats and tsklee stats', () => {
  it('agree line by line: the table\'s ICov and BCov are the istats lines summed', async () => {
    const { ist, ev } = await checkIStatsAgainstTable('out');
    const sum = (name: string): number => [...ist.byLine.values()].reduce((a, c) => a + c[ev(name)]!, 0);
    const s = await lastRow('out');
    expect(sum('Q')).toBe(s['NumQueries']);
    expect(sum('Forks')).toBe(s['States']! - 1);
    // the dead line: never covered, in istats as in coverage.lcov; every other line with code was
    const lcov = readFileSync(join(dir, 'out', 'coverage.lcov'), 'utf8');
    const da = new Map([...lcov.matchAll(/^DA:(\d+),(\d+)$/gm)].map((m) => [Number(m[1]), Number(m[2])]));
    for (const [key, costs] of ist.byLine) {
      const line = Number(key.slice(key.lastIndexOf(':') + 1));
      if (!key.endsWith('cov.c:' + line) || line === 0) continue;
      expect([key, costs[ev('Icov')]! > 0]).toEqual([key, (da.get(line) ?? 0) > 0]);
    }
    expect(da.get(DEAD_LINE)).toBe(0);
    expect(ist.byLine.get(`${join(dir, 'cov.c')}:${DEAD_LINE}`)![ev('Iuncov')]).toBeGreaterThan(0);
  });

  it('agree on a coreutils program run with the libc and the POSIX model (basename)', async () => {
    const src = readFileSync(resolve('fixtures/coreutils/basename.c'), 'utf8');
    compile('basename', src);
    const r = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=cu', 'basename.bc', '--sym-args', '0', '2', '2']);
    expect(r.code).toBe(0);
    const { ist, ev } = await checkIStatsAgainstTable('cu');
    // the runtime's lines are in run.istats too (KLEE's ICov counts every function linked)
    expect([...ist.byLine.keys()].some((k) => k.includes('/runtime/libc/'))).toBe(true);
    expect([...ist.byLine.entries()].filter(([k]) => k.endsWith('basename.c:0') === false && k.includes('basename.c:')).every(([, c]) => c[ev('Icov')]! + c[ev('Iuncov')]! > 0)).toBe(true);
  }, 60_000);

  it('is read by callgrind_annotate', async () => {
    const r = run('callgrind_annotate', [join(dir, 'out', 'run.istats')]);
    expect(r.code).toBe(0);
    const s = await lastRow('out');
    const totals = /^(.*)PROGRAM TOTALS$/m.exec(r.stdout);
    expect(totals).not.toBeNull();
    // the I column of the totals line
    const header = r.stdout.split('\n').find((l) => /^Q\s+Qv\s/.test(l))!.trim().split(/\s+/);
    const values = totals![1]!.replace(/\([^)]*\)/g, '').trim().split(/\s+/);
    expect(Number(values[header.indexOf('I')]!.replace(/,/g, ''))).toBe(s['Instructions']);
  });

  it('prints the klee-stats table for several directories, with a total', () => {
    const r = tsklee(['stats', '--print-more', join(dir, 'out'), join(dir, 'counted')]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[1]).toMatch(/^\|\s*Path\s*\|\s*Instrs\|\s*Time\(s\)\|\s*ICov\(%\)\|\s*BCov\(%\)\|\s*ICount\|\s*TSolver\(%\)\|\s*States\|\s*maxStates\|\s*Mem\(MiB\)\|\s*maxMem\(MiB\)\|$/);
    expect(lines.filter((l) => /^\|\s*(out|counted)\s*\|/.test(l))).toHaveLength(2);
    expect(lines.some((l) => /^\|\s*Total \(2\)\s*\|/.test(l))).toBe(true);
    const bad = tsklee(['stats', '--table-format=fancy', join(dir, 'out')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('coverage.lcov and --write-cov', () => {
  it('is read by genhtml', () => {
    const r = run('genhtml', ['--branch-coverage', '--output-directory', join(dir, 'html'), join(dir, 'out', 'coverage.lcov')]);
    expect(r.stderr).not.toMatch(/ERROR/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/lines\.*: \d+\.\d+% \(\d+ of \d+ lines\)/);
    expect(r.stdout).toMatch(/functions\.*: 100\.0% \(2 of 2 functions\)/);
    expect(existsSync(join(dir, 'html', 'index.html'))).toBe(true);
  });

  it('writes the lines each test\'s path covered first: together, every covered line', () => {
    const out = join(dir, 'out');
    const covs = readdirSync(out).filter((f) => f.endsWith('.cov'));
    expect(covs.length).toBe(readdirSync(out).filter((f) => f.endsWith('.ktest')).length);
    const seen: string[] = [];
    for (const f of covs) seen.push(...readFileSync(join(out, f), 'utf8').split('\n').filter((l) => l !== ''));
    const lcov = readFileSync(join(out, 'coverage.lcov'), 'utf8');
    const hit = [...lcov.matchAll(/^DA:(\d+),([1-9]\d*)$/gm)].map((m) => `${join(dir, 'cov.c')}:${m[1]}`);
    // a line covered before a fork is in the .cov of both sides (KLEE copies coveredLines to the fork)
    expect([...new Set(seen)].sort()).toEqual(hit.sort());
    expect(seen.length).toBeGreaterThan(hit.length);
  });

  it('covers only the program\'s own source when the runtime is linked, and says so in info', async () => {
    const r = tsklee(['run', '--search=dfs', '--libc=tsklee', '--posix-runtime', '--output-dir=posix', 'cov.bc']);
    expect(r.code).toBe(0);
    const info = readFileSync(join(dir, 'posix', 'info'), 'utf8');
    expect(info).toMatch(/^tsklee: program coverage \(runtime excluded\): instructions \d+\/\d+ \(\d+\.\d\d%\), lines \d+\/\d+ .*functions 2\/2 \(100\.00%\)$/m);
    expect(info).toMatch(/^tsklee: coverage with the runtime: .*functions \d+\/\d+/m);
    const files = [...readFileSync(join(dir, 'posix', 'coverage.lcov'), 'utf8').matchAll(/^SF:(.*)$/gm)].map((m) => m[1]);
    expect(files).toEqual([join(dir, 'cov.c')]);
    // run.stats' program columns end where info's program line says, and coverage only grows
    const s = await lastRow('posix');
    const m = /program coverage \(runtime excluded\): instructions (\d+)\/(\d+) .*, lines (\d+)\/(\d+) .*, branches (\d+)\/(\d+)/.exec(info)!;
    expect([s['ProgramCoveredInstructions'], s['ProgramInstructions'], s['ProgramCoveredLines'], s['ProgramLines'], s['ProgramCoveredBranchSides'], s['ProgramBranchSides']]).toEqual(m.slice(1).map(Number));
    expect(s['NumLines']).toBeGreaterThan(s['ProgramLines']!);
    const rows = run('sqlite3', [join(dir, 'posix', 'run.stats'), 'SELECT ProgramCoveredLines FROM stats ORDER BY rowid;']).stdout.trim().split('\n').map(Number);
    expect(rows[0]).toBe(0);
    for (let i = 1; i < rows.length; i++) expect(rows[i]).toBeGreaterThanOrEqual(rows[i - 1]!);
  }, 60_000);
});
