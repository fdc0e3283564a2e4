/**
 * runtime/replay (libtskleeRuntest): a program written for KLEE, compiled natively and linked
 * with the library, reads its symbolic inputs from the .ktest named by KTEST_FILE.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { REPLAY_ERROR_EXIT_CODE, writeKTestFile, type KTest } from '../../src/output/ktest.js';

const INCLUDE = resolve('runtime/include');
let dir: string;
let lib: string;
let prog: string;

const PROG_C = `
#include <stdio.h>
#include <string.h>
#include <klee/klee.h>

int main(int argc, char **argv) {
  int x;
  char buf[8];
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(buf, sizeof buf, "buf");
  klee_assume(x != 12345);
  int r = klee_range(0, 10, "r");
  buf[sizeof buf - 1] = 0;
  printf("x=%d buf=%s r=%d replay=%u symbolic=%u\\n", x, buf, r, klee_is_replay(), klee_is_symbolic((uintptr_t)x));
  if (x == 42) klee_silent_exit(7);
  return x > 0 ? 3 : 4;
}
`;

const le32 = (v: number): Uint8Array => new Uint8Array(new Int32Array([v]).buffer);
const buf8 = (s: string): Uint8Array => {
  const b = new Uint8Array(8);
  b.set(new TextEncoder().encode(s));
  return b;
};
const ktest = (objects: KTest['objects']): KTest => ({ version: 3, args: ['prog.bc'], symArgvs: 0, symArgvLen: 0, objects });

function run(objects: KTest['objects'] | null, env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const file = join(dir, `t${Math.random().toString(36).slice(2)}.ktest`);
  if (objects) writeKTestFile(file, ktest(objects));
  const r = spawnSync(prog, [], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', KTEST_FILE: objects ? file : '', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-replay-'));
  const build = join(dir, 'build');
  execFileSync('make', ['-s', '-C', resolve('runtime/replay'), `BUILD=${build}`], { stdio: 'pipe' });
  lib = join(build, 'libtskleeRuntest.a');
  writeFileSync(join(dir, 'prog.c'), PROG_C);
  prog = join(dir, 'prog');
  execFileSync('cc', ['-std=c11', '-Wall', '-Werror', '-I', INCLUDE, join(dir, 'prog.c'), lib, '-o', prog], { stdio: 'pipe' });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the program sees the test\'s values', () => {
  const r = run([
    { name: 'x', bytes: le32(5) },
    { name: 'buf', bytes: buf8('hello') },
    { name: 'r', bytes: le32(9) },
  ]);
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe('x=5 buf=hello r=9 replay=1 symbolic=0\n');
  expect(r.code).toBe(3);
  const neg = run([
    { name: 'x', bytes: le32(-7) },
    { name: 'buf', bytes: buf8('') },
    { name: 'r', bytes: le32(0) },
  ]);
  expect(neg.stdout).toBe('x=-7 buf= r=0 replay=1 symbolic=0\n');
  expect(neg.code).toBe(4);
});

test('klee_silent_exit exits with its status', () => {
  const r = run([
    { name: 'x', bytes: le32(42) },
    { name: 'buf', bytes: buf8('a') },
    { name: 'r', bytes: le32(1) },
  ]);
  expect(r.code).toBe(7);
});

test('model_version objects the program does not ask for are skipped', () => {
  const r = run([
    { name: 'model_version', bytes: le32(1) },
    { name: 'x', bytes: le32(1) },
    { name: 'buf', bytes: buf8('m') },
    { name: 'r', bytes: le32(2) },
  ]);
  expect(r.stdout).toBe('x=1 buf=m r=2 replay=1 symbolic=0\n');
});

describe('mismatches stop the program with a clear message and exit 90', () => {
  const good = { name: 'x', bytes: le32(5) };
  test.each([
    ['a size mismatch', [good, { name: 'buf', bytes: new Uint8Array(4) }], /^tsklee-replay: error: object 1 \('buf'\): the program asks for 8 bytes but the test has 4\n$/],
    ['a name mismatch', [{ name: 'y', bytes: le32(5) }], /^tsklee-replay: error: object 0: the program asks for 'x' but the test has 'y'\n$/],
    ['too few objects', [good], /^tsklee-replay: error: out of inputs: the program asks for object 'buf' \(8 bytes\) but the test has only 1 objects\n$/],
    ['a failed klee_assume', [{ name: 'x', bytes: le32(12345) }, { name: 'buf', bytes: buf8('') }], /klee_assume: the condition is false/],
    ['klee_range out of range', [good, { name: 'buf', bytes: buf8('') }, { name: 'r', bytes: le32(10) }], /klee_range\(0, 10, "r"\): the test's value 10 is outside the range/],
  ] as [string, KTest['objects'], RegExp][])('%s', (_what, objects, message) => {
    const r = run(objects);
    expect(r.code).toBe(REPLAY_ERROR_EXIT_CODE);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  test('KTEST_FILE unset, or not a .ktest', () => {
    const unset = run(null);
    expect(unset.code).toBe(REPLAY_ERROR_EXIT_CODE);
    expect(unset.stderr).toMatch(/KTEST_FILE is not set/);
    const junk = join(dir, 'junk.ktest');
    writeFileSync(junk, 'not a test');
    const r = spawnSync(prog, [], { encoding: 'utf8', env: { KTEST_FILE: junk } });
    expect(r.status).toBe(REPLAY_ERROR_EXIT_CODE);
    expect(r.stderr).toBe(`tsklee-replay: error: ${junk}: not a .ktest file (bad magic)\n`);
  });

  test('KLEE_RUN_TEST_ERRORS_NON_FATAL: warn, zero-fill and go on', () => {
    const r = run([good, { name: 'buf', bytes: new Uint8Array([0x6f, 0x6b]) }, { name: 'r', bytes: le32(3) }], { KLEE_RUN_TEST_ERRORS_NON_FATAL: '1' });
    expect(r.stdout).toBe('x=5 buf=ok r=3 replay=1 symbolic=0\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/the program asks for 8 bytes but the test has 2/);
  });
});

test('the rest of the API links natively: klee_int, klee_choose, klee_get_value*, klee_assert, klee_report_error', () => {
  const src = `
#include <stdio.h>
#include <klee/klee.h>
int main(void) {
  int a = klee_int("a");
  uintptr_t c = klee_choose(4);
  long v = klee_get_valuel(a) + (long)klee_get_value_i64(c) + (long)klee_get_valued(0.5);
  klee_prefer_cex(&a, a > 0);
  klee_set_forking(0);
  klee_open_merge();
  klee_close_merge();
  klee_print_expr("a", a);
  printf("a=%d c=%ju v=%ld\\n", a, (uintmax_t)c, v);
  fflush(stdout);
  if (a == 1) klee_report_error(__FILE__, 99, "custom failure", "mine.err");
  klee_assert(a != 3);
  return 0;
}
`;
  const c = join(dir, 'api.c');
  const exe = join(dir, 'api');
  writeFileSync(c, src);
  execFileSync('cc', ['-std=c11', '-Wall', '-Werror', '-I', INCLUDE, c, lib, '-o', exe], { stdio: 'pipe' });
  const go = (a: number): ReturnType<typeof spawnSync> => {
    const file = join(dir, `api${a}.ktest`);
    writeKTestFile(file, ktest([{ name: 'a', bytes: le32(a) }, { name: 'klee_choose', bytes: new Uint8Array(new BigUint64Array([2n]).buffer) }]));
    return spawnSync(exe, [], { encoding: 'utf8', env: { KTEST_FILE: file } });
  };
  const ok = go(5);
  expect(ok.stdout).toBe('a=5 c=2 v=7\n');
  expect(ok.status).toBe(0);
  const reported = go(1);
  expect(reported.signal).toBe('SIGABRT');
  expect(reported.stderr).toMatch(/tsklee-replay: .*api\.c:99: custom failure \(mine\.err\)/);
  const asserted = go(3);
  expect(asserted.signal).toBe('SIGABRT');
  expect(asserted.stderr).toMatch(/Assertion `a != 3' failed/);
});
