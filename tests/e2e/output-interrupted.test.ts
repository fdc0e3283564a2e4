/**
 * A run cut short leaves a consistent output directory (needs `npm run build`): one
 * exit-status.txt line per .ktest and a .ktest per line, whether the run stops at --max-time
 * (tests are written on a worker thread by then: all must be on disk before `info`) or is
 * killed by a second Ctrl-C (process.exit: the queued tests are still written, checked on the
 * writer itself in the last test: the CLI's directory cannot show a test that went missing).
 * An output directory removed during the run ends it with one line and exit status 1,
 * whichever write fails first: run.stats from its timer (an uncaught ENOENT and a stack trace
 * before) or a test. (KLEE goes on, losing every test with a warning each.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readExitStatuses } from '../../src/output/exit-status.js';
import { readKTestFile } from '../../src/output/ktest.js';
import { ENDLESS_PROGRAM } from '../support/endless-program.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;


// DFS through 1500 branches: a test per backtrack, and ~1500 states left open at any time
const DEEP = `#include <klee/klee.h>
int main(void) {
  unsigned char v[1500]; int n = 0;
  klee_make_symbolic(v, sizeof v, "v");
  for (int i = 0; i < 1500; i++) if (v[i] > 100) n++;
  return n & 255;
}
`;

// one path that runs for minutes: only the statistics' timers write meanwhile
const LONG = `#include <klee/klee.h>
int main(void) {
  unsigned x; klee_make_symbolic(&x, sizeof x, "x");
  volatile unsigned long s = 0;
  for (unsigned long i = 0; i < 4000000000UL; i++) s += i ^ x;
  return (int)(s & 1);
}
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-outint-'));
  writeFileSync(join(dir, 'many.c'), ENDLESS_PROGRAM);
  writeFileSync(join(dir, 'deep.c'), DEEP);
  writeFileSync(join(dir, 'long.c'), LONG);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function ktestStems(out: string): string[] {
  return readdirSync(out)
    .filter((f) => f.endsWith('.ktest'))
    .map((f) => f.slice(0, -'.ktest'.length))
    .sort();
}

/**
 * Every .ktest has a line, every line a .ktest; exited paths' statuses are what the program
 * returns on the test's inputs (`exitOf` computes it from the test's object).
 */
function expectConsistent(out: string, exitOf: (v: Uint8Array) => number): number {
  const stems = ktestStems(out);
  const statuses = readExitStatuses(out);
  expect(readFileSync(join(out, 'exit-status.txt'), 'utf8').endsWith('\n')).toBe(true);
  expect([...statuses.keys()].sort()).toEqual(stems);
  for (const [stem, status] of statuses) {
    if (existsSync(join(out, `${stem}.early`))) expect(status).toBeNull();
    else expect({ stem, status }).toEqual({ stem, status: exitOf(readKTestFile(join(out, `${stem}.ktest`)).objects[0]!.bytes) });
  }
  return stems.length;
}

function start(args: string[], program: string): { done: Promise<number | null>; stderr: () => string; kill: () => void } {
  const child = spawn(process.execPath, [CLI, 'run', ...args, program], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { done, stderr: () => stderr, kill: () => child.kill('SIGINT') };
}

it('--max-time: one exit-status.txt line per .ktest and vice versa', async () => {
  const out = join(dir, 'max-time');
  const run = start(['--search=dfs', '--max-time=3s', `--output-dir=${out}`], 'many.c');
  expect(await run.done).toBe(0);
  expect(readFileSync(join(out, 'info'), 'utf8')).toMatch(/^Halted: HaltTimer invoked$/m);
  // far more tests than are written before the worker thread takes over
  const returns = (b: Uint8Array): number => new Uint32Array(new Uint8Array(b).buffer).reduce((n, x, i) => n + (x > 1000 * (i + 1) ? 1 : 0), 0);
  expect(expectConsistent(out, returns)).toBeGreaterThan(200);
}, 60_000);

it('a second Ctrl-C exits at once, with every queued test written', async () => {
  const out = join(dir, 'double-ctrl-c');
  // ~1500 open states: dumping them at the first Ctrl-C takes its whole time budget
  const run = start(['--search=dfs', `--output-dir=${out}`], 'deep.c');
  const t0 = Date.now();
  while (Date.now() - t0 < 30_000 && (!existsSync(out) || ktestStems(out).length < 300)) await sleep(100);
  run.kill();
  while (Date.now() - t0 < 40_000 && !run.stderr().includes('ctrl-c detected')) await sleep(20);
  run.kill();
  expect(await run.done).toBe(130);
  const returns = (b: Uint8Array): number => b.reduce((n, x) => n + (x > 100 ? 1 : 0), 0) & 255;
  expect(expectConsistent(out, returns)).toBeGreaterThan(200);
}, 60_000);

it('process.exit() with tests queued on the worker thread writes them first', () => {
  const out = join(dir, 'exit-hook');
  const writer = pathToFileURL(resolve('dist/output/test-file-writer.js')).href;
  const script = `
    import { mkdirSync } from 'node:fs';
    const { TestFileWriter } = await import(${JSON.stringify(writer)});
    mkdirSync(process.argv[1]);
    const w = new TestFileWriter(process.argv[1] + '/exit-status.txt');
    for (let i = 1; i <= 3000; i++) {
      const stem = 'test' + String(i).padStart(6, '0');
      w.write([[process.argv[1] + '/' + stem + '.ktest', new Uint8Array(100).fill(i & 255)]], stem + ' ' + (i & 255) + '\\n');
    }
    process.exit(3);
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, out], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(3);
  expect(ktestStems(out)).toHaveLength(3000);
  expect(readExitStatuses(out).size).toBe(3000);
  expect(readExitStatuses(out).get('test003000')).toBe(3000 & 255);
});

describe('the output directory removed during the run', () => {
  // a rename takes the directory away at once (rm -r can race the writers and fail)
  const remove = (out: string): void => {
    renameSync(out, `${out}.gone`);
    rmSync(`${out}.gone`, { recursive: true, force: true });
  };

  it('while only run.stats is written (by its timer): one error line, exit status 1', async () => {
    const out = join(dir, 'gone-stats');
    const run = start(['--stats-write-interval=1s', '--max-time=60s', `--output-dir=${out}`], 'long.c');
    const t0 = Date.now();
    while (Date.now() - t0 < 30_000 && !existsSync(join(out, 'run.stats'))) await sleep(100);
    await sleep(500);
    remove(out);
    expect(await run.done).toBe(1);
    // KLEE's opening line, then the one error line
    expect(run.stderr()).toBe(`KLEE: output directory is "${out}"\ntsklee: error: ${out}: the output directory was removed during the run\n`);
  }, 60_000);

  it('while tests are written: one error line, exit status 1', async () => {
    const out = join(dir, 'gone-tests');
    const run = start(['--search=dfs', '--stats-write-interval=0', '--istats-write-interval=0', '--max-time=60s', `--output-dir=${out}`], 'many.c');
    const t0 = Date.now();
    while (Date.now() - t0 < 30_000 && (!existsSync(out) || ktestStems(out).length < 50)) await sleep(50);
    remove(out);
    expect(await run.done).toBe(1);
    // KLEE's opening line, then the one error line
    expect(run.stderr()).toBe(`KLEE: output directory is "${out}"\ntsklee: error: ${out}: the output directory was removed during the run\n`);
  }, 60_000);
});
