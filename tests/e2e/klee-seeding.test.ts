/**
 * KLEE's seeding (--seed-file, --seed-dir and their options; src/engine/seeding/), run on
 * small C programs with the outcomes KLEE's semantics fix: which paths exist, how many tests,
 * which errors, and the user errors and warnings of a seed that does not fit.
 */
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readKTestFile, writeKTestFile } from '../../src/output/ktest.js';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';

let dir: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-seeding-'));
});

type Run = OutDir & { stderr: string; out: string };

/** `tsklee run -search=dfs OPTIONS prog.bc` into a fresh output directory. */
function run(bc: string, options: string[], expectCode = 0): Run {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '-search=dfs', `-output-dir=${out}`, ...options, bc], dir);
  if (r.code !== expectCode) throw new Error(`tsklee ${options.join(' ')} ${bc}: exit ${r.code}\n${r.stderr}`);
  return { ...readOutDir(out), stderr: r.stderr, out };
}

/** A .ktest with these objects (name → bytes), as KLEE's tools write them. */
function seed(name: string, objects: [string, number[] | string][]): string {
  const path = join(dir, `${name}.ktest`);
  writeKTestFile(path, {
    version: 3,
    args: ['prog.bc'],
    symArgvs: 0,
    symArgvLen: 0,
    objects: objects.map(([n, b]) => ({ name: n, bytes: typeof b === 'string' ? new TextEncoder().encode(b) : Uint8Array.from(b) })),
  });
  return path;
}

const le32 = (v: number): number[] => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];

/** The tests' objects, in test order (each test: its objects' bytes by name). */
function testObjects(o: Run): Map<string, number[]>[] {
  return readdirSync(o.out)
    .filter((f) => /^test\d{6}\.ktest$/.test(f))
    .sort()
    .map((f) => new Map(readKTestFile(join(o.out, f)).objects.map((x) => [x.name, [...x.bytes]])));
}

const int32 = (b: number[]): number => (b[0]! | (b[1]! << 8) | (b[2]! << 16) | (b[3]! << 24)) >> 0;

/** The decisions of every test's path (--write-paths), sorted: the set of explored paths. */
function paths(o: Run): string[] {
  return o.files
    .filter((f) => /^test\d{6}\.path$/.test(f))
    .map((f) => o.read(f).split('\n').filter(Boolean).join(''))
    .sort();
}

// A bug behind four checked bytes and a 4-byte magic value: the seed drives straight to it.
const DEEP = `#include <klee/klee.h>
#include <assert.h>
int main(void) {
  unsigned char buf[8];
  klee_make_symbolic(buf, sizeof buf, "buf");
  if (buf[0] == 'S')
    if (buf[1] == 'E')
      if (buf[2] == 'E')
        if (buf[3] == 'D') {
          unsigned magic = buf[4] | buf[5] << 8 | buf[6] << 16 | (unsigned)buf[7] << 24;
          if (magic == 0xdeadbeefu) assert(0 && "deep bug");
        }
  return 0;
}`;

describe('a seed that reaches a deep bug', () => {
  let bc: string;
  let deep: string;
  beforeAll(() => {
    bc = compileProgram(dir, 'deep', DEEP);
    deep = seed('deep', [['buf', 'SEED\xef\xbe\xad\xde'.split('').map((c) => c.charCodeAt(0))]]);
  });

  it('is followed first: the bug is the first test, and the rest of the search still runs', () => {
    const free = run(bc, []);
    const o = run(bc, [`--seed-file=${deep}`]);
    // the seeded path ends first: test 1 is the assertion, before any other path ran
    expect(o.files).toContain('test000001.assert.err');
    expect(free.files).not.toContain('test000001.assert.err');
    // then the normal search explores the 5 paths that left the seed at each check
    expect(o.tests).toBe(free.tests);
    expect(o.tests).toBe(6);
    expect(o.stderr).toMatch(/^KLEE: using 1 seeds$/m);
    expect(o.stderr).toMatch(/^KLEE: seeding done \(5 states remain\)$/m);
  });

  it('--only-replay-seeds: the seeded path is the only one (1 test, the error)', () => {
    const o = run(bc, ['-only-replay-seeds', '-seed-file', deep]);
    expect(o.tests).toBe(1);
    expect(o.errors).toEqual(['assert']);
    expect(o.stderr).toMatch(/^KLEE: seeding done \(0 states remain\)$/m);
  });

  it('--only-seed: no search after the seed; the 5 states that left it end with a test each', () => {
    const o = run(bc, ['--only-seed', '--seed-out', deep]);
    expect(o.errors).toEqual(['assert']);
    expect(o.tests).toBe(6);
    expect(o.files.filter((f) => f.endsWith('.early'))).toHaveLength(5);
    expect(o.read('test000002.early')).toMatch(/^Execution halting\./);
    expect(o.stderr).toMatch(/^KLEE: halting execution, dumping remaining states$/m);
    // both: only the seeded path exists, nothing is left to dump
    const both = run(bc, ['--only-seed', '--only-replay-seeds', `--seed-file=${deep}`]);
    expect(both.tests).toBe(1);
    expect(both.errors).toEqual(['assert']);
  });

  it("--seed-dir with an earlier run's output replays its paths (--only-replay-seeds: exactly those)", () => {
    const first = run(bc, ['-write-paths']);
    const again = run(bc, ['-write-paths', '-only-replay-seeds', `-seed-dir=${first.out}`]);
    expect(again.stderr).toMatch(/^KLEE: using 6 seeds$/m);
    expect(paths(again)).toEqual(paths(first));
    expect(again.errors).toEqual(first.errors);
  });
});

describe('several seeds', () => {
  const PROGRAM = `#include <klee/klee.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  switch (x) {
  case 1: return 10;
  case 2: return 20;
  case 3: return 30;
  case 4: return 40;
  }
  if (x > 100) return 2;
  return 0;
}`;

  it('--seed-dir: each seed keeps its path; only-replay-seeds keeps just those (switch and branch)', () => {
    const bc = compileProgram(dir, 'cases', PROGRAM);
    const seeds = join(dir, 'cases-seeds');
    mkdirSync(seeds);
    for (const [i, v] of [1, 3, 500].entries()) writeKTestFile(join(seeds, `s${i}.ktest`), { version: 3, args: [], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'x', bytes: Uint8Array.from(le32(v)) }] });
    const free = run(bc, ['-write-paths']);
    expect(free.tests).toBe(6);
    const seeded = run(bc, ['-write-paths', `-seed-dir=${seeds}`]);
    expect(paths(seeded)).toEqual(paths(free));
    const only = run(bc, ['-only-replay-seeds', `-seed-dir=${seeds}`]);
    // three seeds, three paths: case 1, case 3, and the default with x > 100
    expect(only.tests).toBe(3);
    const xs = testObjects(only)
      .map((t) => int32(t.get('x')!))
      .sort((a, b) => a - b);
    expect(xs.slice(0, 2)).toEqual([1, 3]);
    expect(xs[2]).toBeGreaterThan(100);
  });

  it('klee_get_value on a seeded state gives each seed its value (one state per value)', () => {
    const bc = compileProgram(
      dir,
      'getvalue',
      `#include <klee/klee.h>
#include <assert.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int v = klee_get_value_i32(x);
  if (v == 7) assert(0 && "seven");
  return v;
}`,
    );
    const free = run(bc, []);
    expect(free.tests).toBe(1);
    const o = run(bc, ['-only-replay-seeds', `-seed-file=${seed('seven', [['x', le32(7)]])}`, `-seed-file=${seed('nine', [['x', le32(9)]])}`]);
    expect(o.tests).toBe(2);
    expect(o.errors).toEqual(['assert']);
  });
});

describe('matching seed objects to symbolic objects', () => {
  // KLEE's test/Feature/NamedSeedMatching.c: the seed was written in the order a, b, c, a
  const PROGRAM = `#include <klee/klee.h>
int main(void) {
  int a, b, c, x;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&x, sizeof x, "a");
  int n = 0;
  if (a == 3) n |= 1;
  if (b == 4) n |= 2;
  if (c == 5) n |= 4;
  if (x == 6) n |= 8;
  return n;
}`;

  it('by position by default, by name with --named-seed-matching', () => {
    const bc = compileProgram(dir, 'named', PROGRAM);
    const s = seed('abca', [
      ['a', le32(3)],
      ['b', le32(4)],
      ['c', le32(5)],
      ['a', le32(6)],
    ]);
    // the one test's objects, in make_symbolic order: a, c, b, a (x)
    const values = (o: Run): number[] => readKTestFile(join(o.out, 'test000001.ktest')).objects.map((x) => int32([...x.bytes]));
    // by position c gets 4 and b gets 5: a == 3 and x == 6 hold, b == 4 and c == 5 do not
    const byPosition = run(bc, ['-only-replay-seeds', `-seed-file=${s}`]);
    expect(byPosition.tests).toBe(1);
    const [a, c, b, x] = values(byPosition);
    expect([a, x]).toEqual([3, 6]);
    expect(b).not.toBe(4);
    expect(c).not.toBe(5);
    // by name every comparison holds
    const byName = run(bc, ['-only-replay-seeds', '-named-seed-matching', `-seed-file=${s}`]);
    expect(byName.tests).toBe(1);
    expect(values(byName)).toEqual([3, 5, 4, 6]);
  });

  it('by name: an unnamed match of the right size is taken with a warning, none is a warning too', () => {
    const bc = compileProgram(dir, 'named2', PROGRAM);
    const s = seed('other-names', [
      ['p', le32(3)],
      ['q', le32(5)],
    ]);
    const o = run(bc, ['-only-replay-seeds', '-named-seed-matching', '-allow-seed-extension', `-seed-file=${s}`]);
    expect(o.stderr).toMatch(/using seed input p\[4\] for: a \(no name match\)/);
    expect(o.stderr).toMatch(/no seed input for: b/);
    expect(o.tests).toBe(1);
  });
});

describe('seed objects of another size', () => {
  const PROGRAM = `#include <klee/klee.h>
int main(void) {
  unsigned char buf[4];
  klee_make_symbolic(buf, sizeof buf, "buf");
  if (buf[0] == 'A' && buf[3] == 'Z') return 1;
  if (buf[2] == 0) return 2;
  return 0;
}`;
  let bc: string;
  beforeAll(() => {
    bc = compileProgram(dir, 'sizes', PROGRAM);
  });

  const only = (s: string, extra: string[] = []): Run => run(bc, ['-only-replay-seeds', `-seed-file=${s}`, ...extra]);

  it('a smaller object is a user error unless --allow-seed-extension or --zero-seed-extension', () => {
    const s = seed('short', [['buf', 'A']]);
    const bad = only(s);
    expect(bad.errors).toEqual(['user']);
    expect(bad.read('test000001.user.err')).toMatch(/^Error: replace size mismatch: buf\[4\] vs buf\[1\] in test$/m);
    const ext = only(s, ['-allow-seed-extension']);
    expect(ext.errors).toEqual([]);
    expect(ext.tests).toBe(1);
    expect(testObjects(ext)[0]!.get('buf')![0]).toBe(0x41);
    // zero extension: 'A' 0 0 0, so buf[2] == 0 is the path taken
    const zero = only(s, ['-zero-seed-extension', '-write-paths']);
    expect(zero.errors).toEqual([]);
    expect(testObjects(zero)[0]!.get('buf')![2]).toBe(0);
  });

  it('a larger object is a user error unless --allow-seed-truncation', () => {
    const s = seed('long', [['buf', 'AxyZextra']]);
    const bad = only(s);
    expect(bad.errors).toEqual(['user']);
    expect(bad.read('test000001.user.err')).toMatch(/^Error: replace size mismatch: buf\[4\] vs buf\[9\] in test$/m);
    // truncated to 'AxyZ': the first branch's path
    const cut = only(s, ['-allow-seed-truncation']);
    expect(cut.errors).toEqual([]);
    const t = testObjects(cut)[0]!.get('buf')!;
    expect([t[0], t[3]]).toEqual([0x41, 0x5a]);
  });

  it('a seed with no object left is a user error unless extension is allowed', () => {
    const s = seed('empty', []);
    const bad = only(s);
    expect(bad.read('test000001.user.err')).toMatch(/^Error: ran out of inputs during seeding$/m);
    expect(only(s, ['-allow-seed-extension']).errors).toEqual([]);
    // zeros: buf[0] is not 'A' and buf[2] == 0 is the path taken
    const zero = only(s, ['-zero-seed-extension']);
    expect(zero.errors).toEqual([]);
    expect(testObjects(zero)[0]!.get('buf')![2]).toBe(0);
  });
});

describe('patching and completeness', () => {
  it('a seed that contradicts klee_assume is patched through the solver and still followed', () => {
    const bc = compileProgram(
      dir,
      'patch',
      `#include <klee/klee.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  klee_assume(x > 100);
  if (x == 5) return 1;
  if ((x & 0xff) == 5) return 2;
  return 0;
}`,
    );
    const o = run(bc, ['-only-replay-seeds', `-seed-file=${seed('five', [['x', le32(5)]])}`]);
    expect(o.stderr).toMatch(/WARNING: seeds patched for violating constraint/);
    // the patched seed keeps its low byte 5: the second branch's path, and no other
    expect(o.tests).toBe(1);
    const x = int32(testObjects(o)[0]!.get('x')!);
    expect(x > 100 && (x & 0xff) === 5).toBe(true);
  });

  it('without --only-seed, seeding never drops a path the unseeded run finds', () => {
    const bc = compileProgram(
      dir,
      'complete',
      `#include <klee/klee.h>
#include <assert.h>
int main(void) {
  unsigned char in[5];
  klee_make_symbolic(in, sizeof in, "in");
  int n = 0;
  for (int i = 0; i < 3; i++) {
    if (in[i] == 'a') n += 1;
    else if (in[i] > 'z') n += 2;
  }
  klee_assume(in[3] != 'q');
  if (n == 4 && in[4] == '!') assert(0 && "four");
  return n;
}`,
    );
    // every error path gets its test (otherwise which one does depends on the order)
    const free = run(bc, ['-write-paths', '-emit-all-errors']);
    const s1 = seed('four', [['in', 'aa{q!']]);
    const s2 = seed('mixed', [['in', 'a{b~?']]);
    const seeded = run(bc, ['-write-paths', '-emit-all-errors', `-seed-file=${s1}`, `-seed-file=${s2}`]);
    expect(paths(seeded)).toEqual(paths(free));
    expect(seeded.errors).toEqual(free.errors);
    // n == 4: the 3 orders of a, a, '{' and the 3 of two bytes above 'z' and one other
    expect(seeded.errors).toEqual(Array(6).fill('assert'));
    // the first seed (patched past the assume) found the bug while only seeds ran: test 1 or 2
    const errTest = Number(/^test(\d{6})\.assert\.err$/m.exec(seeded.files.join('\n'))![1]);
    expect(paths(free)).toHaveLength(free.tests);
    expect(errTest).toBeLessThanOrEqual(2);
    expect(seeded.stderr).toMatch(/WARNING: seeds patched for violating constraint/);
  });
});

describe('--always-output-seeds', () => {
  it('a seeded path that covers nothing new still gets its test under --only-output-states-covering-new', () => {
    const bc = compileProgram(
      dir,
      'covnew',
      `#include <klee/klee.h>
int main(void) {
  char in[2]; klee_make_symbolic(in, sizeof in, "in");
  int y = 0;
  if (in[0] == 'a') y += 1;
  if (in[1] == 'b') y += 2;
  return y;
}`,
    );
    // "zb" runs first and covers the end; then "ax", forked off "ab" (so without its coverage
    // claim), runs only code already covered
    const seeds = [seed('ab', [['in', 'ab']]), seed('ax', [['in', 'ax']]), seed('zb', [['in', 'zb']])].map((f) => `-seed-file=${f}`);
    const options = ['-only-replay-seeds', '-only-output-states-covering-new', ...seeds];
    const off = run(bc, [...options, '-always-output-seeds=false']);
    expect(off.done.completed).toBe(3);
    expect(off.tests).toBe(2);
    const on = run(bc, options);
    expect(on.tests).toBe(3);
  });
});

describe('--seed-time', () => {
  it('ends the seeding phase: the states waiting for it run under the normal search', () => {
    const bc = compileProgram(
      dir,
      'spin',
      `#include <klee/klee.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  if (x == 42) { volatile unsigned n = 0; for (;;) n++; }
  return 1;
}`,
    );
    const s = seed('spin', [['x', le32(42)]]);
    // the seed spins: without a seed time the other path never runs and is dumped at the halt
    const stuck = run(bc, [`-seed-file=${s}`, '-max-time=1500ms']);
    expect(stuck.files.filter((f) => f.endsWith('.early'))).toHaveLength(2);
    const timed = run(bc, [`-seed-file=${s}`, '-seed-time=500ms', '-max-time=1500ms']);
    expect(timed.stderr).toMatch(/WARNING: seed time expired, 1 seeds remain over 1 states/);
    // the other path ran to its end; only the spinning one is dumped
    expect(timed.files.filter((f) => f.endsWith('.early'))).toHaveLength(1);
    expect(timed.done.completed).toBe(1);
  });
});

describe('bad seeds', () => {
  it('are one line and exit 1 before anything is written', () => {
    const bc = compileProgram(dir, 'bad', 'int main(void) { return 0; }');
    const missing = tsklee(['run', '-seed-file=nothere.ktest', bc], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('tsklee: error: --seed-file: unable to open nothere.ktest: no such file');
    mkdirSync(join(dir, 'no-seeds'));
    const empty = tsklee(['run', '-seed-dir=no-seeds', bc], dir);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/seeds directory is empty/);
    const merge = tsklee(['run', '-use-merge', `-seed-file=${seed('m', [])}`, bc], dir);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toMatch(/does not work with state merging/);
  });
});
