/**
 * A symbolic time_t through the libc's calendar functions (a symbolic file's st_mtime under
 * `ls -l`, `stat`, `pr`): gmtime_r is straight-line arithmetic, so the program's branches on
 * the year, hour and weekday are the only forks, each decided well within the solver's time
 * limit. Before, gmtime_r estimated the year and corrected it in loops: every iteration forked
 * on a 64-bit division chain and the solver timed out (0 of 5 paths completed in 60 s).
 * Every test is replayed natively against glibc (TZ=UTC, as the model's local time).
 * Needs `npm run build`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';

const CLI = resolve('dist/cli/main.js');
const SRC = resolve('fixtures/libc/symbolic_time.c');
const STRFTIME_SRC = resolve('fixtures/libc/symbolic_strftime.c');
const INCLUDE = resolve('runtime/include');
let dir: string;

function tsklee(args: string[], env: NodeJS.ProcessEnv = process.env): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, env, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-symtime-'));
  execFileSync('make', ['-s', '-C', resolve('runtime/replay'), `BUILD=${join(dir, 'build')}`], { stdio: 'pipe' });
  execFileSync('cc', ['-I', INCLUDE, SRC, join(dir, 'build', 'libtskleeRuntest.a'), '-o', join(dir, 'symbolic_time')], { stdio: 'pipe' });
  execFileSync('cc', ['-I', INCLUDE, STRFTIME_SRC, join(dir, 'build', 'libtskleeRuntest.a'), '-o', join(dir, 'symbolic_strftime')], { stdio: 'pipe' });
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('explores every calendar branch of a symbolic time without a solver timeout, and each test replays natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--search=dfs', '--max-solver-time=10s', '--output-dir=out', SRC]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('done: completed paths = 5\n');
  const files = readdirSync(join(dir, 'out'));
  expect(files.filter((f) => f.endsWith('.err'))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.ktest'))).toHaveLength(5);
  const native = tsklee(['replay', '--native', './symbolic_time', 'out'], { ...process.env, TZ: 'UTC' });
  expect(native.stdout).toContain('tsklee: replayed 5 tests natively: 5 as recorded, 0 different, 0 not compared\n');
}, 120_000);

/*
 * The digit loops that print a symbolic time's fields (gnulib's nstrftime in ls -l, pr and
 * stat; the libc's strftime): each iteration asks whether the year, the day of the month or the
 * hour is below 10, 100, ... Before, gmtime_r's fields were chains of 64-bit signed divisions
 * and z3 timed out on the first of these (a year below 10 is a window of ten years in 2^64):
 * 0 paths completed in 120 s. Now: one 64-bit division, comparisons with constants, fields
 * masked to their ranges, and the builder turns `x / 10 / 10 == 0` into `x < 100`.
 */
it('prints the digits of a symbolic time\'s year, day and hour with no solver timeout, and each test replays natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--search=dfs', '--max-solver-time=30s', '--output-dir=out-strftime', STRFTIME_SRC]);
  expect(run.code).toBe(0);
  // overflow, a negative year, 1 to 10 digits (but 4), and for 4 digits: day 1-9 or 10-31 ×
  // hour 0-9 or 10-23 × minute 0-9 or 10-59
  expect(run.stderr).toContain('done: completed paths = 19\n');
  const files = readdirSync(join(dir, 'out-strftime'));
  expect(files.filter((f) => f.endsWith('.err'))).toEqual([]);
  expect(files.filter((f) => f.endsWith('.ktest'))).toHaveLength(19);
  const native = tsklee(['replay', '--native', './symbolic_strftime', 'out-strftime'], { ...process.env, TZ: 'UTC' });
  expect(native.stdout).toContain('tsklee: replayed 19 tests natively: 19 as recorded, 0 different, 0 not compared\n');
}, 600_000);
