/**
 * --max-memory as KLEE does it (src/engine/memory-cap.ts): over the cap, states end with
 * "Memory limit exceeded." (an `.early` test each) and exploration goes on instead of
 * forking being refused for the rest of the run; --max-memory-inhibit; and the JavaScript
 * heap that bin/tsklee gives a run whose cap the default heap cannot hold (src/cli/launch.cts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, TSKLEE, type OutDir } from '../support/tsklee-cli.js';

/**
 * 256 paths, each owning a 1 MiB buffer it writes after every fork: ~256 MB in all
 * (breadth-first, all alive at once), then ~10 000 instructions each. The writes touch every
 * 4 KiB page, since forked states share the pages neither wrote (memory/pages.ts).
 */
const MEMORY_HOG = `#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  char *buf = malloc(1 << 20);
  memset(buf, 0, 1 << 20);
  int n = 0;
  for (int i = 0; i < 8; i++) {
    if (in[i] > 'm') n += 1 << i;
    for (int p = 0; p < 256; p++) buf[p * 4096 + i] = (char)n;
  }
  // work after the forks, so that states live long enough for the cap to end some
  for (int j = 0; j < 1000; j++) buf[8 * 4096 + (j & 4095)] += (char)j;
  return buf[n % 4096] == 7;
}`;

let dir: string;
let bc: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-memcap-'));
  bc = compileProgram(dir, 'hog', MEMORY_HOG);
});

function run(options: string[], env: NodeJS.ProcessEnv = {}): OutDir & { stderr: string } {
  const out = join(dir, `out${++outs}`);
  const r = spawnSync(TSKLEE, ['run', '-search=bfs', `-output-dir=${out}`, ...options, bc], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`tsklee ${options.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ...readOutDir(out), stderr: r.stderr };
}

const earlyTests = (o: OutDir): string[] => o.files.filter((f) => f.endsWith('.early'));

describe('--max-memory', () => {
  it('without a cap every path completes', () => {
    const o = run(['-max-memory=0']);
    expect(o.done.completed).toBe(256);
    expect(earlyTests(o)).toEqual([]);
    expect(o.stderr).not.toMatch(/killing|memory cap/);
  });

  it('over the cap, states end with a test each and the run goes on to the end', () => {
    const o = run(['-max-memory=100']);
    expect(o.stderr).toMatch(/^KLEE: WARNING: killing \d+ states \(over memory cap: \d+MB\)$/m);
    // whether a reading fell between cap − 10 % and the cap (forking inhibited) before one over it
    // depends on when V8 collects: the inhibiting itself is unit-tested (tests/unit/engine/memory-cap.test.ts)
    const early = earlyTests(o);
    expect(early.length).toBe(o.done.partial);
    expect(early.length).toBeGreaterThan(0);
    for (const f of early.slice(0, 5)) expect(o.read(f)).toBe('Memory limit exceeded.\n');
    // every ended state got its test (no --only-output-states-covering-new), and some paths completed
    expect(o.done.generated).toBe(o.done.completed + o.done.partial);
    expect(o.done.completed).toBeGreaterThan(0);
    expect(o.read('info')).toMatch(/^KLEE: done: generated tests = \d+$/m);
    // the run's account of the cap, with the number of states it ended
    const m = /^KLEE: memory cap 100 MB: (\d+) states ended at \d+ checks?, highest usage after a collection \d+ MB, highest resident size \d+ MB, \d+ forced collections/m.exec(o.read('messages.txt'));
    expect(Number(m?.[1])).toBe(early.length);
  });

  it('--max-memory-inhibit=false ends states over the cap but never refuses a fork', () => {
    const o = run(['-max-memory=100', '-max-memory-inhibit=false']);
    expect(o.stderr).toMatch(/killing \d+ states/);
    expect(o.stderr).not.toContain('skipping fork');
    expect(earlyTests(o).length).toBeGreaterThan(0);
  });

  it('a cap above the default JavaScript heap gets a heap that holds it', () => {
    // bin/tsklee restarts node with --max-old-space-size for it: no warning
    expect(run(['-max-memory=6000']).stderr).not.toContain('JavaScript heap limit');
    // as if already restarted (TSKLEE_HEAP_MB set): the default heap, and the warning says so
    const o = run(['-max-memory=6000'], { TSKLEE_HEAP_MB: '1' });
    expect(o.stderr).toMatch(/WARNING: --max-memory=6000 is above the JavaScript heap limit \(\d+ MB\)/);
    expect(o.done.completed).toBe(256);
  });
});
