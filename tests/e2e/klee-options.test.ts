/**
 * KLEE's options that change what a run does, each run on a small program and checked for
 * the effect KLEE documents (src/cli/commands/run-klee-options.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';

let dir: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-klee-opts-'));
});

/** Runs `tsklee run OPTIONS prog.bc` into a fresh output directory. */
function run(bc: string, options: string[], expectCode = 0): OutDir & { stderr: string } {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '-search=dfs', `-output-dir=${out}`, ...options, bc], dir);
  if (r.code !== expectCode) throw new Error(`tsklee ${options.join(' ')} ${bc}: exit ${r.code}\n${r.stderr}`);
  return { ...readOutDir(out), stderr: r.stderr };
}

const instructions = (o: OutDir): number => Number(/^KLEE: done: total instructions = (\d+)$/m.exec(o.read('info'))![1]);

describe('--exit-on-error', () => {
  it('stops at the first error with exit status 1, without tests for the other states', () => {
    const bc = compileProgram(dir, 'two_errors', `#include <klee/klee.h>
#include <assert.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int a[2];
  if (x == 1) assert(0);
  if (x == 2) return a[x + 5];
  return 0;
}`);
    const free = run(bc, []);
    expect(free.errors).toEqual(['assert', 'ptr']);
    const stop = run(bc, ['-exit-on-error'], 1);
    expect(stop.errors).toHaveLength(1);
    // the paths that ended before the error keep their tests; the live ones get none
    expect(stop.tests).toBeLessThan(free.tests);
    expect(stop.files.filter((f) => f.endsWith('.early'))).toEqual([]);
    expect(stop.stderr).toMatch(/^KLEE: ERROR: EXITING ON ERROR:\nError: /m);
    expect(stop.read('info')).toMatch(/^Halted: EXITING ON ERROR: /m);
  });
});

describe('--optimize', () => {
  it('runs the -O2 pipeline: far fewer instructions, the same tests and error site', () => {
    const bc = compileProgram(dir, 'opt', `#include <klee/klee.h>
static int square(int v) { return v * v; }
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int table[8]; unsigned sum = 0;
  for (int i = 0; i < 8; i++) table[i] = square(i);
  for (int i = 0; i < 1000; i++) sum += (unsigned)i;
  if (x >= 0 && x < 12) return table[x] + (int)sum;
  return 0;
}`);
    const plain = run(bc, []);
    const opt = run(bc, ['-optimize']);
    // -O2 folds the two range checks into one unsigned comparison: one path fewer, as under KLEE
    expect(plain.done).toEqual({ completed: 3, partial: 1, generated: 4 });
    expect(opt.done).toEqual({ completed: 2, partial: 1, generated: 3 });
    expect(opt.errors).toEqual(['ptr']);
    const line = (o: OutDir): string => /^Line: (\d+)$/m.exec(o.read(o.files.find((f) => f.endsWith('.ptr.err'))!))![1]!;
    expect(line(opt)).toBe(line(plain));
    expect(instructions(opt) * 10).toBeLessThan(instructions(plain));
  });
});

describe('--function-alias', () => {
  it('sends calls of the matching functions to the named one', () => {
    const bc = compileProgram(dir, 'alias', `#include <klee/klee.h>
int check_slow(int v) { return 0; }
int check_fast(int v) { return v > 5; }
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (check_slow(x)) return 1; return 2; }`);
    expect(run(bc, []).done.completed).toBe(1);
    const a = run(bc, ['-function-alias=check_s.*:check_fast']);
    expect(a.done.completed).toBe(2);
    expect(a.read('messages.txt')).toContain('function check_slow aliased to check_fast (--function-alias)');
    const bad = tsklee(['run', '-function-alias=check_slow:nothere', bc], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("tsklee: error: --function-alias=check_slow:nothere: no function named 'nothere' in the program\n");
  });
});

describe('--switch-type', () => {
  it('internal forks once per target block, simple once per case', () => {
    const bc = compileProgram(dir, 'sw', `#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x");
  switch (x) { case 1: case 2: case 3: return 10; case 7: return 7; default: return 0; } }`);
    expect(run(bc, []).done.completed).toBe(3);
    expect(run(bc, ['-switch-type=internal']).done.completed).toBe(3);
    expect(run(bc, ['--switch-type', 'simple']).done.completed).toBe(5);
  });
});

describe('--rewrite-equalities', () => {
  it('substitutes an equality with a constant into the earlier constraints (default), not with =false', () => {
    const bc = compileProgram(dir, 'rewrite', `#include <klee/klee.h>
int main(void) { int x, y; klee_make_symbolic(&x, sizeof x, "x"); klee_make_symbolic(&y, sizeof y, "y");
  klee_assume(x + y == 10); klee_assume(x == 3); return y == 7; }`);
    const on = run(bc, ['-write-kqueries']);
    const off = run(bc, ['-write-kqueries', '-rewrite-equalities=false']);
    const kq = (o: OutDir): string => o.read('test000001.kquery');
    // rewritten: no constraint relates x and y any more
    expect(kq(on)).not.toMatch(/Add/);
    expect(kq(off)).toMatch(/Add/);
    expect(on.done).toEqual(off.done);
  });
});

describe('--external-calls', () => {
  it('none refuses even the modelled functions with KLEE errors; concrete and all run them', () => {
    const bc = compileProgram(dir, 'ext', `#include <klee/klee.h>
#include <math.h>
#include <string.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1) return (int)sqrt(16.0);
  char s[4] = "abc";
  if (x == 2) return (int)strlen(s);
  return 0; }`);
    for (const policy of ['concrete', 'all']) expect(run(bc, [`-external-calls=${policy}`]).errors).toEqual([]);
    const none = run(bc, ['-external-calls=none']);
    expect(none.errors).toEqual(['external', 'user']);
    expect(none.read(none.files.find((f) => f.endsWith('.user.err'))!)).toMatch(/^Error: external calls disallowed$/m);
    expect(none.read('warnings.txt')).toContain('Disallowed call to external function: sqrt');
    expect(none.read(none.files.find((f) => f.endsWith('.external.err'))!)).toMatch(/^Error: failed external call: strlen$/m);
    expect(tsklee(['run', '-external-calls=some', bc], dir).stderr).toBe('tsklee: error: --external-calls=some: expected one of none, concrete, all\n');
  });
});

describe('--max-stack-frames', () => {
  it('ends a deeper call early with KLEE\'s message', () => {
    const bc = compileProgram(dir, 'deep', `int down(int n) { return n == 0 ? 0 : 1 + down(n - 1); }
int main(void) { return down(100) == 100 ? 0 : 1; }`);
    expect(run(bc, []).done).toEqual({ completed: 1, partial: 0, generated: 1 });
    const o = run(bc, ['-max-stack-frames=50']);
    expect(o.done).toEqual({ completed: 0, partial: 1, generated: 1 });
    expect(o.read('test000001.early')).toBe('Maximum stack size reached.\n');
  });
});

describe('--max-sym-array-size', () => {
  it('fixes a symbolic index into a large object to one value', () => {
    const bc = compileProgram(dir, 'symarr', `#include <klee/klee.h>
int main(void) { char a[100]; for (int i = 0; i < 100; i++) a[i] = (char)i;
  unsigned i; klee_make_symbolic(&i, sizeof i, "i"); klee_assume(i < 100);
  if (a[i] == 42) return 1;
  return 0; }`);
    expect(run(bc, []).done.completed).toBe(2);
    expect(run(bc, ['-max-sym-array-size=200']).done.completed).toBe(2);
    const o = run(bc, ['-max-sym-array-size=100']);
    expect(o.done.completed).toBe(1);
    expect(o.read('warnings.txt')).toMatch(/silently concretizing \(reason: max-sym-array-size\)/);
  });
});

describe('--silent-klee-assume', () => {
  it('ends an infeasible klee_assume without an error or a test', () => {
    const bc = compileProgram(dir, 'assume', `#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x");
  if (x > 0) klee_assume(x < 0);
  return 0; }`);
    const loud = run(bc, []);
    expect(loud.errors).toEqual(['user']);
    const quiet = run(bc, ['-silent-klee-assume']);
    expect(quiet.errors).toEqual([]);
    expect(quiet.done).toEqual({ completed: 1, partial: 1, generated: 1 });
  });
});

describe('--make-concrete-symbolic', () => {
  it('makes concrete loads symbolic (constrained to their value)', () => {
    const bc = compileProgram(dir, 'mcs', `#include <klee/klee.h>
int g = 5;
int main(void) { int v = g; if (v == 5) return klee_is_symbolic(v) * 10 + 1; return 0; }`);
    expect(run(bc, []).read('exit-status.txt')).toBe('test000001 1\n');
    const o = run(bc, ['-make-concrete-symbolic=1']);
    // symbolic, yet still 5 on every path (one path: the constraint fixes it)
    expect(o.read('exit-status.txt')).toBe('test000001 11\n');
    expect(o.done.completed).toBe(1);
  });
});

describe('--single-object-resolution', () => {
  it('keeps a symbolic offset in its base object instead of forking into the neighbours', () => {
    const bc = compileProgram(dir, 'single', `#include <klee/klee.h>
int a[4], b[4];
int main(void) { unsigned i; klee_make_symbolic(&i, sizeof i, "i"); klee_assume(i < 12); return a[i]; }`);
    const all = run(bc, []);
    const one = run(bc, ['-single-object-resolution']);
    expect(all.errors).toEqual(['ptr']);
    expect(one.errors).toEqual(['ptr']);
    // a[i] may reach b (KLEE resolves to every object in range): one more path without the option
    expect(all.done.completed).toBe(2);
    expect(one.done.completed).toBe(1);
  });
});

describe('--use-batching-search and --use-iterative-deepening-time-search', () => {
  it('wrap the searcher (info says so) and explore the same paths', () => {
    const bc = compileProgram(dir, 'batch', `#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); int n = 0;
  for (int i = 0; i < 6; i++) if (x & (1 << i)) n++;
  return n; }`);
    const plain = run(bc, []);
    const b = run(bc, ['-use-batching-search', '-batch-instructions=50', '-batch-time=1s']);
    const d = run(bc, ['-use-iterative-deepening-time-search']);
    expect(plain.done.completed).toBe(64);
    expect(b.done).toEqual(plain.done);
    expect(d.done).toEqual(plain.done);
    expect(b.read('info')).toContain('batching(dfs)');
    expect(d.read('info')).toContain('iterative-deepening-time(dfs)');
  });
});

describe('--max-static-fork-pct and friends', () => {
  it('stop a branch that did more than its share of the forks from forking, after the delay', () => {
    const bc = compileProgram(dir, 'hot', `#include <klee/klee.h>
int main(void) { unsigned char x; klee_make_symbolic(&x, sizeof x, "x"); int n = 0;
  for (int i = 0; i < 6; i++) if (x & (1 << i)) n++;
  return n; }`);
    expect(run(bc, []).done.completed).toBe(64);
    // the default delay (1000 s) never passes in this run
    expect(run(bc, ['-max-static-fork-pct=0.5']).done.completed).toBe(64);
    // one branch does every fork: after its first fork it is over 50 % and forks no more
    expect(run(bc, ['-max-static-fork-pct=0.5', '-max-static-pct-check-delay=0']).done.completed).toBe(2);
    // the same through the call path (main's context does every fork)
    expect(run(bc, ['-max-static-cpfork-pct=0.5', '-max-static-pct-check-delay=0s']).done.completed).toBe(2);
    // and through solver time: once the branch has any, it has all there is (the exact count
    // depends on whether the first query's time measures above 0)
    for (const o of ['-max-static-solve-pct=0.5', '-max-static-cpsolve-pct=0.5']) {
      const n = run(bc, [o, '-max-static-pct-check-delay=0']).done.completed;
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThan(64);
    }
    expect(tsklee(['run', '-max-static-fork-pct=2', bc], dir).stderr).toBe('tsklee: error: --max-static-fork-pct=2: expected a fraction between 0 and 1\n');
  });
});

describe('--optimize-array', () => {
  it('value: a symbolic-index read of a constant table reaches the solver as a choice of values, not an array read', () => {
    const bc = compileProgram(dir, 'table', `#include <klee/klee.h>
static const unsigned char sq[8] = {0, 1, 4, 9, 16, 25, 36, 49};
int main(void) { unsigned i; klee_make_symbolic(&i, sizeof i, "i"); klee_assume(i < 8);
  if (sq[i] == 25) return 1;
  if (sq[i] > 30) return 2;
  return 0; }`);
    const queries = (o: OutDir): string =>
      o.files
        .filter((f) => f.endsWith('.smt2'))
        .map((f) => o.read(f))
        .join('\n');
    const plain = run(bc, ['-write-smt2s']);
    const opt = run(bc, ['-write-smt2s', '-optimize-array=value']);
    expect(opt.done).toEqual(plain.done);
    expect(plain.done.completed).toBe(3);
    // the tests' path conditions: array reads of the constant table without, none with the option
    expect(queries(plain)).toMatch(/const_arr/);
    expect(queries(opt)).not.toMatch(/const_arr/);
    // index and all: tests/e2e/klee-array-opt.test.ts
  });
});

describe('--use-incomplete-merge, --debug-log-merge, --debug-log-incomplete-merge', () => {
  it('releases the states waiting at klee_close_merge when the region\'s last state runs far longer than they did', () => {
    const bc = compileProgram(dir, 'incomplete', `#include <klee/klee.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int foo = 0;
  klee_open_merge();
  if (x == 1) foo = 1;
  else if (x == 2) foo = 2;
  else if (x == 3) { for (volatile int i = 0; i < 5000; i++) foo += 1; }
  else foo = 4;
  klee_close_merge();
  return foo;
}`);
    for (const search of ['dfs', 'bfs', 'nurs:covnew']) {
      // complete merging: the four paths end as one state, one test
      const whole = run(bc, [`-search=${search}`, '-use-merge']);
      expect(whole.done).toEqual({ completed: 1, partial: 3, generated: 1 });
      // incomplete: the three short paths merge; the long one (5000 iterations, far over twice
      // their mean distance from the open) finds no one waiting and ends on its own
      const inc = run(bc, [`-search=${search}`, '-use-merge', '-use-incomplete-merge', '-debug-log-incomplete-merge']);
      expect(inc.done).toEqual({ completed: 2, partial: 2, generated: 2 });
      expect(inc.read('exit-status.txt')).toMatch(/^test\d+ 136$/m); // 5000 & 0xff
      const log = inc.read('messages.txt');
      expect(log).toMatch(/incomplete merge: prioritizing state \d+ of region 1/);
      expect(log).toMatch(/incomplete merge: releasing the states waiting at the close of region 1/);
    }
  });

  it("logs every open, close and merge (KLEE's test/Merging/incomplete_merge.c: 2 opens, 5 closes)", () => {
    const bc = compileProgram(dir, 'nested_merge', `#include <klee/klee.h>
int main(void) {
  int x, a, foo = 0;
  klee_make_symbolic(&x, sizeof x, "x"); klee_make_symbolic(&a, sizeof a, "a");
  klee_open_merge();
  if (a == 0) {
    klee_open_merge();
    if (x == 1) foo = 5; else if (x == 2) foo = 6; else foo = 7;
    klee_close_merge();
  }
  klee_close_merge();
  return foo;
}`);
    for (const opts of [['-search=nurs:covnew', '-use-batching-search'], ['-search=bfs'], ['-search=dfs', '-use-batching-search']]) {
      const o = run(bc, [...opts, '-use-merge', '-debug-log-merge', '-use-incomplete-merge', '-debug-log-incomplete-merge']);
      const log = o.read('messages.txt');
      expect(log.match(/open merge: /g)).toHaveLength(2);
      expect(log.match(/close merge: /g)).toHaveLength(5);
      expect(log).toMatch(/merge: state \d+ merged into state \d+/);
    }
    const quiet = run(bc, ['-use-merge']);
    expect(quiet.read('messages.txt')).not.toMatch(/close merge/);
    const noMerge = tsklee(['run', '-use-incomplete-merge', '-output-dir=inc-nomerge', bc], dir);
    expect(noMerge.stderr).toContain('tsklee: warning: --use-incomplete-merge: has no effect without --use-merge');
  });
});

describe('--debug-assignment-validating-solver', () => {
  it('puts the validating layer in the chain (its counters appear in run.stats)', () => {
    const bc = compileProgram(dir, 'validate', `#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x * 3 == 27) return 1; return 0; }`);
    const plain = run(bc, []);
    const checked = run(bc, ['-debug-assignment-validating-solver']);
    expect(checked.done).toEqual(plain.done);
    // run.stats is SQLite: its table's column names are stored as text in the file
    const columns = (o: OutDir): string => o.read('run.stats');
    expect(columns(checked)).toMatch(/SolverLayerValidating/i);
    expect(columns(plain)).not.toMatch(/SolverLayerValidating/i);
  });
});
