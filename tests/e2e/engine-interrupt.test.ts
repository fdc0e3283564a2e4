/**
 * Ctrl-C during `tsklee run` (needs `npm run build`): the run stops promptly, says so in
 * `info`, and every test on disk is complete — including the states dumped at the halt, which
 * replay to the end of a path. And the live progress line, shown only on a terminal.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { readKTestFile } from '../../src/output/ktest.js';
import { ENDLESS_PROGRAM } from '../support/endless-program.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;


beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-int-'));
  writeFileSync(join(dir, 'many.c'), ENDLESS_PROGRAM);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts a run, waits until `ready(out)` (or 20 s), sends SIGINT; returns how long the exit took. */
async function interruptRun(args: string[], out: string, ready: () => boolean): Promise<{ code: number | null; stderr: string; exitMs: number }> {
  const child = spawn(process.execPath, [CLI, 'run', `--output-dir=${out}`, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const t0 = Date.now();
  while (Date.now() - t0 < 20_000 && !ready() && child.exitCode === null) await sleep(100);
  expect(child.exitCode).toBeNull(); // still running: the program has far too many paths to finish
  const sent = Date.now();
  child.kill('SIGINT');
  const code = await exited;
  return { code, stderr, exitMs: Date.now() - sent };
}

function tests(out: string): string[] {
  return existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.ktest')) : [];
}

it('stops at Ctrl-C with complete tests, dumped states included, and says so in info', async () => {
  const out = join(dir, 'dfs');
  const r = await interruptRun(['--search=dfs', 'many.c'], out, () => tests(out).length >= 5);
  expect(r.exitMs).toBeLessThan(5000);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('KLEE: ctrl-c detected, requesting interpreter to halt.\n');
  expect(readFileSync(join(out, 'info'), 'utf8')).toMatch(/^Halted: ctrl-c detected, requesting interpreter to halt\.$/m);
  const files = readdirSync(out);
  expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]); // no half-written file
  const ktests = tests(out).sort();
  for (const f of ktests) {
    const t = readKTestFile(join(out, f));
    expect(t.objects.map((o) => [o.name, o.bytes.length])).toEqual([['v', 96]]);
  }
  // DFS leaves a state per open branch: they are dumped as tests stopped early
  const early = files.filter((f) => f.endsWith('.early')).sort();
  expect(early.length).toBeGreaterThan(0);
  for (const e of early) {
    expect(readFileSync(join(out, e), 'utf8')).toMatch(/halting/i);
    expect(ktests).toContain(e.replace('.early', '.ktest'));
  }
  // a dumped state's inputs are a real path's: replayed, they run to main's return
  const sample = [early[0]!, early[early.length - 1]!].map((e) => join(out, e.replace('.early', '.ktest')));
  const rep = spawnSync(process.execPath, [CLI, 'replay', 'many.c', ...sample], { cwd: dir, encoding: 'utf8' });
  expect(rep.stderr).toBe('');
  expect(rep.stdout).toMatch(/^test\d+\.ktest: exit \d+\ntest\d+\.ktest: exit \d+\n$/);
}, 60_000);

it('stops promptly with thousands of states left, dumping what it can in time', async () => {
  const out = join(dir, 'default');
  // the default searcher (random-path + nurs:covnew) keeps many states alive; wait until it has forked a lot
  const start = Date.now();
  const r = await interruptRun(['many.c'], out, () => Date.now() - start > 6000);
  expect(r.exitMs).toBeLessThan(5000);
  expect(r.code).toBe(0);
  const info = readFileSync(join(out, 'info'), 'utf8');
  expect(info).toMatch(/^Halted: ctrl-c detected/m);
  const completed = Number(/^KLEE: done: completed paths = (\d+)$/m.exec(info)![1]);
  const partial = Number(/^KLEE: done: partially completed paths = (\d+)$/m.exec(info)![1]);
  const generated = Number(/^KLEE: done: generated tests = (\d+)$/m.exec(info)![1]);
  expect(tests(out)).toHaveLength(generated);
  for (const f of tests(out)) expect(readKTestFile(join(out, f)).objects).toHaveLength(1);
  // every state still alive at the interrupt is either dumped (a test) or counted as not dumped
  const dumped = generated - completed;
  const messages = readFileSync(join(out, 'messages.txt'), 'utf8');
  if (dumped < partial) expect(messages).toContain(`KLEE: ${partial - dumped} remaining states ended without a test`);
  else expect(messages).not.toContain('ended without a test');
}, 60_000);

it('shows a live progress line only when stderr is a terminal', () => {
  const args = [CLI, 'run', '--search=dfs', '--max-time=1.5s', '--output-dir', 'OUT', 'many.c'];
  // script(1) gives the run a pseudo-terminal
  const cmd = [process.execPath, ...args].map((a) => `'${a}'`).join(' ');
  const tty = spawnSync('script', ['-qfec', cmd.replace('OUT', 'tty-out'), '/dev/null'], { cwd: dir, encoding: 'utf8' });
  expect(tty.status).toBe(0);
  // each redraw: carriage return, erase line (ESC [K), the status
  const redraw = new RegExp(`\r${'\x1b'}\\[Ktsklee: \\d+s {2}paths \\d+ {2}tests \\d+ {2}errors 0 {2}states \\d+ {2}covered [\\d.]+% \\(\\d+/\\d+ instructions\\) {2}queries \\d+`, 'g');
  const lines = tty.stdout.match(redraw) ?? [];
  expect(lines.length).toBeGreaterThan(1);
  expect(tty.stdout).toMatch(/KLEE: done: generated tests = \d+/);
  const piped = spawnSync(process.execPath, args.map((a) => (a === 'OUT' ? 'pipe-out' : a)), { cwd: dir, encoding: 'utf8' });
  expect(piped.status).toBe(0);
  expect(piped.stderr).toMatch(/KLEE: done: generated tests = \d+/);
  expect(piped.stderr).not.toContain('\r');
}, 60_000);
