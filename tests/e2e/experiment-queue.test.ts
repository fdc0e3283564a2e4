/**
 * `tsklee experiment run --queue` with `tsklee worker`s (needs `npm run build` and Debian's
 * redis-server): a real Redis on loopback, two workers and a small matrix. A worker killed in
 * the middle of a cell (its whole process group, as when its machine dies) loses the cell to
 * the other worker: every cell finishes once. A cell whose workers die twice goes to the
 * dead-letter list.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TSKLEE } from '../support/tsklee-cli.js';

const haveRedis = spawnSync('redis-server', ['--version']).status === 0 && spawnSync('redis-cli', ['--version']).status === 0;
// said once when the suite is skipped, so that a green run without Redis is not mistaken for a tested queue
const SKIPPED = 'SKIPPED: redis-server/redis-cli not installed (apt-get install redis-server, or bash scripts/setup)';
if (!haveRedis) process.stderr.write(`tests/e2e/experiment-queue.test.ts: ${SKIPPED}\n`);
let dir: string;
let redis: ChildProcess | undefined;
let url: string;
const children: ChildProcess[] = [];

const FAST = `#include <klee/klee.h>
int main(void) {
  char c;
  klee_make_symbolic(&c, 1, "c");
  if (c == 'a') return 1;
  if (c == 'b') return 2;
  return 0;
}
`;
// ~40 M concrete instructions before the fork: seconds, long enough to be killed mid-cell
const SLOW = `#include <klee/klee.h>
int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned acc = 0;
  for (unsigned i = 0; i < 8000000u; i++) acc = acc * 31u + i;
  return x > 5 ? (int)(acc & 1) : 2;
}
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(what: string, f: () => T | undefined | null | false, ms = 60000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A worker in its own process group, logging to DIR/NAME.log. */
function startWorker(name: string, extra: string[] = []): ChildProcess {
  const log = openSync(join(dir, `${name}.log`), 'w');
  const w = spawn(TSKLEE, ['worker', '--queue', url, '--concurrency', '1', '--lock-time', '2', '--name', name, ...extra], { cwd: dir, detached: true, stdio: ['ignore', log, log] });
  closeSync(log);
  children.push(w);
  return w;
}

const logOf = (name: string): string => (existsSync(join(dir, `${name}.log`)) ? readFileSync(join(dir, `${name}.log`), 'utf8') : '');

/** Kills a worker and the tsklee run it started, as a machine going down would. */
function killGroup(w: ChildProcess): void {
  try {
    process.kill(-w.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The submitter, to its end: exit status and output. */
function submit(file: string, extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(TSKLEE, ['experiment', 'run', file, '--queue', url, ...extra], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(p);
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const killed = new Set<string>();

beforeAll(async () => {
  if (!haveRedis) return;
  dir = mkdtempSync(join(tmpdir(), 'tsklee-queue-'));
  const port = await freePort();
  url = `redis://127.0.0.1:${port}`;
  redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitFor('redis-server', () => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout?.trim() === 'PONG', 10000);
  writeFileSync(join(dir, 'fast.c'), FAST);
  writeFileSync(join(dir, 'slow.c'), SLOW);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) killGroup(c);
  redis?.kill('SIGKILL');
  if (dir !== undefined && process.env.TSKLEE_KEEP_TEST_DIR === undefined) rmSync(dir, { recursive: true, force: true });
});

const maybe = haveRedis ? describe : describe.skip;

maybe(haveRedis ? 'experiment cells on a Redis queue' : `experiment cells on a Redis queue — ${SKIPPED}`, () => {
  it('finishes every cell once when a worker dies in the middle of one', async () => {
    writeFileSync(
      join(dir, 'dist.yaml'),
      `name: dist
programs:
  - { name: slow, source: slow.c }
  - { name: fast, source: fast.c }
configurations:
  - { name: dfs, options: [--search=dfs] }
  - { name: bfs, options: [--search=bfs] }
`,
    );
    const a = startWorker('A');
    const b = startWorker('B');
    await waitFor('workers', () => logOf('A').includes('serving') && logOf('B').includes('serving'));
    const done = submit('dist.yaml');
    // the first worker to start a slow cell dies with it
    const victim = await waitFor('a slow cell to start', () => (['A', 'B'] as const).find((n) => /slow\/dfs\/rep-1: started/.test(logOf(n))));
    await new Promise((r) => setTimeout(r, 300)); // well inside the cell
    killGroup(victim === 'A' ? a : b);
    killed.add(victim);
    const r = await done;
    expect(r.stderr).toContain('[4/4]');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('4 cells, 0 already done, 4 finished by workers, 0 in the dead-letter list');
    const survivor = victim === 'A' ? 'B' : 'A';
    // every cell ended exactly once over both workers' logs
    const ends = ['A', 'B'].flatMap((n) => [...logOf(n).matchAll(/ dist (\S+): (ok|failed) in /g)].map((m) => m[1]!));
    expect(ends.sort()).toEqual(['fast/bfs/rep-1', 'fast/dfs/rep-1', 'slow/bfs/rep-1', 'slow/dfs/rep-1']);
    const slow = JSON.parse(readFileSync(join(dir, 'dist-results', 'cells', 'slow', 'dfs', 'rep-1', 'cell.json'), 'utf8'));
    expect(slow.status).toBe('ok');
    expect(slow.runner).toBe(survivor);
    expect(slow.attempts).toBe(2);
    expect(slow.metrics.completedPaths).toBe(2);
    // the output directory came back through the queue
    expect(existsSync(join(dir, 'dist-results', 'cells', 'slow', 'dfs', 'rep-1', 'out', 'test000002.ktest'))).toBe(true);
    const fast = JSON.parse(readFileSync(join(dir, 'dist-results', 'cells', 'fast', 'bfs', 'rep-1', 'cell.json'), 'utf8'));
    expect([fast.status, fast.metrics.completedPaths]).toEqual(['ok', 3]);
    // resubmitted: nothing left to do
    const again = await submit('dist.yaml');
    expect(again.stdout).toContain('4 cells, 4 already done, 0 finished by workers');
    // the next test's cell is for its own workers
    killGroup(a);
    killGroup(b);
  });

  it('puts a cell whose worker dies twice on the dead-letter list', async () => {
    writeFileSync(join(dir, 'dead.yaml'), 'name: dead\nprograms: [{ name: slow, source: slow.c }]\nconfigurations: [{ name: dfs, options: [--search=dfs] }]\n');
    const workers = new Map<string, ChildProcess>([['C', startWorker('C')], ['D', startWorker('D')]]);
    await waitFor('workers', () => logOf('C').includes('serving') && logOf('D').includes('serving'));
    const done = submit('dead.yaml');
    for (let round = 1; round <= 2; round++) {
      const victim = await waitFor(`the slow cell's try ${round}`, () => [...workers.keys()].find((n) => !killed.has(n) && / dead slow\/dfs\/rep-1: started/.test(logOf(n))));
      await new Promise((r) => setTimeout(r, 300));
      killGroup(workers.get(victim)!);
      killed.add(victim);
      // a live worker notices the lost lock (BullMQ's stalled-job check runs in workers)
      const next = round === 1 ? 'E' : 'F';
      workers.set(next, startWorker(next));
    }
    const r = await done;
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('1 cells, 0 already done, 0 finished by workers, 1 in the dead-letter list');
    const dead = JSON.parse(readFileSync(join(dir, 'dead-results', 'dead-letter.json'), 'utf8'));
    expect(dead).toHaveLength(1);
    expect(dead[0].key).toBe('slow/dfs/rep-1');
    expect(dead[0].error).toMatch(/stalled/);
    const list = spawnSync('redis-cli', ['-u', url, 'lrange', 'tsklee-cells:dead', '0', '-1'], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(list).toHaveLength(1);
    expect(JSON.parse(list[0]!).key).toBe('slow/dfs/rep-1');
    expect(JSON.parse(readFileSync(join(dir, 'dead-results', 'cells', 'slow', 'dfs', 'rep-1', 'cell.json'), 'utf8')).status).toBe('dead');
    for (const w of workers.values()) killGroup(w);
  });

  it('moves output directories through a shared store', async () => {
    writeFileSync(join(dir, 'stored.yaml'), 'name: stored\nprograms: [{ name: fast, source: fast.c }]\nconfigurations: [{ name: dfs, options: [--search=dfs] }]\n');
    const w = startWorker('G', ['--store', join(dir, 'store')]);
    await waitFor('worker', () => logOf('G').includes('serving'));
    const r = await submit('stored.yaml', ['--store', join(dir, 'store')]);
    killGroup(w);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'store', 'stored', 'fast', 'dfs', 'rep-1', 'out', 'info'))).toBe(true);
    const cell = JSON.parse(readFileSync(join(dir, 'stored-results', 'cells', 'fast', 'dfs', 'rep-1', 'cell.json'), 'utf8'));
    expect([cell.status, cell.runner, cell.metrics.completedPaths]).toEqual(['ok', 'G', 3]);
    expect(readFileSync(join(dir, 'stored-results', 'cells', 'fast', 'dfs', 'rep-1', 'out', 'info'), 'utf8')).toContain('KLEE: done: completed paths = 3');
  });
});
