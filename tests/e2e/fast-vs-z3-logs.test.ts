/**
 * The fast solver layer against z3 on the query log of a real run (issue 12, item 5; needs
 * `npm run build`): the coreutils-style echo (fixtures/coreutils/echo.c) under the POSIX
 * model with symbolic arguments, logged with --write-smt2s and the fast layer and the caches
 * off (so every query the engine asks reaches the log, split by the independence layer), then every logged query read back and asked of the
 * fast layer alone and of z3 (scripts/fast-vs-z3-logs.mjs does the same on any directory):
 * no disagreement, and enough questions decided that the check means something.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { replayLogsThroughFast } from '../../src/solver/smtlib/log-replay.js';
import { Z3Solver } from '../../src/solver/z3/z3-solver.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;
let z3: Z3Solver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-fastlogs-'));
  z3 = await Z3Solver.create({ timeoutMs: 30_000 });
});
afterAll(() => {
  z3?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('echo --sym-args: every logged query the fast layer decides, z3 decides the same way', () => {
  const out = join(dir, 'echo-out');
  const run = spawnSync(
    process.execPath,
    [CLI, 'run', '--libc=tsklee', '--posix-runtime', '--write-smt2s', '--use-fast-solver=false', '--use-cex-cache=false', '--use-branch-cache=false', '--max-time=40s', `--output-dir=${out}`, resolve('fixtures/coreutils/echo.c'), '--sym-args', '0', '2', '2'],
    { encoding: 'utf8' },
  );
  expect(run.status).toBe(0);
  const logDir = join(out, 'solver-queries');
  const files = readdirSync(logDir)
    .filter((f) => f.endsWith('.smt2'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(logDir, f), 'utf8') }));
  expect(files.length).toBeGreaterThan(200);
  const t = replayLogsThroughFast(files, z3);
  expect(t.disagreements).toEqual([]);
  expect(t.skipped.filter((s) => !s.why.startsWith('constraints unsatisfiable'))).toEqual([]);
  expect(t.decided).toBeGreaterThan(400);
}, 300_000);

it('the script reports the counts and exits 0', () => {
  const r = spawnSync(process.execPath, ['scripts/fast-vs-z3-logs.mjs', join(dir, 'echo-out', 'solver-queries')], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.stdout).toMatch(/: \d+ files, \d+ questions decided by the fast layer, \d+ passed on, 0 disagreements with z3/);
  expect(r.status).toBe(0);
}, 300_000);
