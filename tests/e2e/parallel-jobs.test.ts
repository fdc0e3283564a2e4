/**
 * `tsklee run --jobs N` (needs `npm run build`): three worker threads explore one program
 * (two-way branches, a switch, a symbolic index, an error) by handing path prefixes to each
 * other. The run finds the same paths as one worker, in one output directory with tests
 * numbered 1..N once, exit-status.txt complete and in order, and every test replays to the
 * ending recorded for it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, tsklee } from '../support/tsklee-cli.js';

let dir: string;
let bc: string;

const PROGRAM = `#include <klee/klee.h>
int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int main(void) {
  unsigned char b[4];
  int k;
  klee_make_symbolic(b, sizeof b, "b");
  klee_make_symbolic(&k, sizeof k, "k");
  int acc = 0;
  for (int i = 0; i < 4; i++) {
    switch (b[i] & 3) {
    case 0: acc += 1; break;
    case 1: acc -= 2; break;
    case 2: acc *= 3; break;
    default: break;
    }
    for (int w = 0; w < 300; w++) acc ^= w;   /* work on each path, so that workers ask for more */
  }
  if (k >= 0 && k < 8) acc += table[k];
  if (acc == 7) return 100 / (b[0] - b[1]);
  return acc & 3;
}
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-jobs-'));
  bc = compileProgram(dir, 'mix', PROGRAM);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tsklee run --jobs', () => {
  it('explores the same paths with three workers, tests numbered once, each replaying to its ending', () => {
    const one = tsklee(['run', '--search=dfs', '--output-dir=one', bc], dir);
    expect(one.code).toBe(0);
    // every worker at once (beyond the cores too): the hand-overs are what this checks
    const three = tsklee(['run', '--search=dfs', '--jobs', '3', '--jobs-start-after=0', '--output-dir=three', bc], dir);
    expect(three.code).toBe(0);
    const a = readOutDir(join(dir, 'one'));
    const b = readOutDir(join(dir, 'three'));
    expect(b.done.completed).toBe(a.done.completed);
    expect(b.done.partial).toBe(a.done.partial);
    const info = b.read('info');
    const moved = Number(/parallel exploration: 3 workers, (\d+) states handed over/.exec(info)?.[1]);
    expect(moved).toBeGreaterThan(0);
    // each worker's time split: start-up, solver, replay (a worker that adopted jobs replayed steps), idle
    for (let w = 0; w < 3; w++) {
      const t = new RegExp(`worker ${w} time: (?:CPU: start (\\d+) ms, run (\\d+) ms; )?wall: start (\\d+) ms .* run (\\d+) ms: solver (\\d+) ms \\(backend (\\d+) ms\\), replay (\\d+) ms in (\\d+) steps, idle (\\d+) ms, gc (\\d+) ms`).exec(info);
      expect(t).not.toBeNull();
      const [startWall, runWall, solver, backend] = [3, 4, 5, 6].map((k) => Number(t![k]));
      expect(startWall).toBeGreaterThan(0);
      expect(solver).toBeLessThanOrEqual(runWall);
      expect(backend).toBeLessThanOrEqual(solver + 1);
      const adopted = Number(new RegExp(`worker ${w}: .* (\\d+) jobs adopted`).exec(info)![1]);
      if (adopted > 0) expect(Number(t![8])).toBeGreaterThan(0);
    }
    // numbered 1..N without a gap, and exit-status.txt has every test, in order
    const ids = b.files.filter((f) => /^test\d{6}\.ktest$/.test(f)).map((f) => Number(f.slice(4, 10)));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i + 1));
    const statusLines = b.read('exit-status.txt').trim().split('\n');
    expect(statusLines.map((l) => l.split(' ')[0])).toEqual(ids.map((i) => `test${String(i).padStart(6, '0')}`));
    // the same endings as one worker (an error is reported once per worker that meets it): as
    // many exits; not the same exit values: a value depends on the model a path's test gets
    // (acc & 3 after table[k], k free in 0..7; 100 / (b[0] - b[1])), and a worker's cache also
    // holds the other workers' models (each test replays to its recorded value, below)
    const exits = (d: ReturnType<typeof readOutDir>): number => d.read('exit-status.txt').trim().split('\n').filter((l) => l.split(' ')[1] !== '-').length;
    expect(exits(b)).toBe(exits(a));
    expect(a.errors).toEqual(['div']);
    expect(new Set(b.errors)).toEqual(new Set(['div']));
    expect(b.errors.length).toBeLessThanOrEqual(3);
    // every test leads the interpreter where the run said it ends
    const replay = tsklee(['replay', bc, 'three'], dir);
    expect(replay.code).toBe(0);
    const replayed = replay.stdout.trim().split('\n');
    expect(replayed).toHaveLength(ids.length);
    for (const line of statusLines) {
      const [test, status] = line.split(' ');
      const r = replayed.find((x) => x.startsWith(`${test}.ktest:`));
      if (status === '-') expect(r).toMatch(/: error: /);
      else expect(r).toBe(`${test}.ktest: exit ${status}`);
    }
  });

  it('starts one more worker only once the run has lasted long enough, and says so in info', () => {
    // a few paths, well under a second of CPU: worker 0 (in the main thread) does it all
    const small = compileProgram(dir, 'small', '#include <klee/klee.h>\nint main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); return x > 0 ? (x > 9 ? 2 : 1) : (x < -9 ? 3 : 0); }\n');
    const lazy = tsklee(['run', '--jobs', '2', '--output-dir=lazy', small], dir);
    expect(lazy.code).toBe(0);
    const info = readOutDir(join(dir, 'lazy')).read('info');
    const numbered = /parallel exploration: 1 worker \(of --jobs=2: the run ended before it used 1000 ms of CPU\), 0 states handed over, (\d+) tests numbered/.exec(info);
    expect(numbered).not.toBeNull();
    expect(Number(numbered![1])).toBeGreaterThanOrEqual(2);
    expect(info).toContain(`KLEE: done: completed paths = ${numbered![1]}\n`);
    expect(info).not.toMatch(/worker 1:/);
    // a worker started later (after 50 ms of CPU) joins in: the same paths as one worker
    const later = tsklee(['run', '--search=dfs', '--jobs', '2', '--jobs-start-after=50ms', '--output-dir=later', bc], dir);
    expect(later.code).toBe(0);
    const b = readOutDir(join(dir, 'later'));
    expect(b.read('info')).toMatch(/parallel exploration: 2 workers, \d+ states handed over/);
    expect(b.done.completed).toBe(readOutDir(join(dir, 'one')).done.completed);
    const bad = tsklee(['run', '--jobs', '2', '--jobs-start-after=soon', small], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("tsklee: error: --jobs-start-after: invalid time span 'soon' (e.g. 30, 30s, 5min, 1h)\n");
  });

  it('refuses what a parallel exploration cannot do, in one line', () => {
    const r = tsklee(['run', '--jobs', '2', '--state-merging=static', '--output-dir=merged', bc], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tsklee: error: --jobs: --state-merging is not supported in a parallel exploration[^\n]*\n$/);
    // a seed: an empty .ktest (version 3, no arguments, no objects) is enough to be refused
    mkdirSync(join(dir, 'seeds'), { recursive: true });
    const ktest = Buffer.alloc(25); // magic, version, 0 arguments, 0 sym-argvs, 0 sym-argv length, 0 objects
    ktest.write('KTEST');
    ktest.writeUInt32BE(3, 5);
    writeFileSync(join(dir, 'seeds', 'a.ktest'), ktest);
    const seeded = tsklee(['run', '--jobs', '2', '--seed-dir', join(dir, 'seeds'), '--output-dir=seeded', bc], dir);
    expect(seeded.stderr).toBe('tsklee: error: --jobs: seeding (--seed-file/--seed-dir) is not supported in a parallel exploration\n');
    const z = tsklee(['run', '--jobs', '0', bc], dir);
    expect(z.stderr).toBe('tsklee: error: --jobs=0: expected an integer ≥ 1\n');
  });
});
