import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, int32, objectBytes, replay, runC, valueUnder } from '../unit/engine/support/run-c.js';
import { Termination } from '../../src/engine/errors.js';

afterAll(() => disposeSolver());

const H = `#include <klee/klee.h>
void *malloc(unsigned long); void free(void *); void *calloc(unsigned long, unsigned long); void *realloc(void *, unsigned long);
`;

describe('engine: memory errors', () => {
  it('out-of-bounds write with a symbolic index', async () => {
    const r = await runC(`${H}
int main(void) { int a[4]; unsigned i; klee_make_symbolic(&i, sizeof i, "i"); if (i < 100) a[i] = 1; return 0; }`);
    const errs = r.tests.filter((t) => t.err === 'ptr');
    expect(errs).toHaveLength(1);
    expect(errorMessage(errs[0]!)).toBe('memory error: out of bound pointer');
    const i = int32(objectBytes(errs[0]!, 'i'));
    expect(i >= 4 && i < 100).toBe(true);
    // the report has a source location and a stack
    expect(errs[0]!.errText).toMatch(/^File: .*prog\d+\.c$/m);
    expect(errs[0]!.errText).toMatch(/^Line: 4$/m);
    expect(errs[0]!.errText).toMatch(/#0\d{8} in main\(\) at .*prog\d+\.c:4/);
    expect(r.completedPaths).toBeGreaterThanOrEqual(2);
  });

  it('null pointer dereference', async () => {
    const r = await runC(`${H}
int main(void) { int x, y = 0; int *p = 0; klee_make_symbolic(&x, sizeof x, "x"); if (x) p = &y; return *p; }`);
    const errs = r.tests.filter((t) => t.err === 'ptr');
    expect(errs).toHaveLength(1);
    expect(errorMessage(errs[0]!)).toBe('memory error: null page access');
    expect(int32(objectBytes(errs[0]!, 'x'))).toBe(0);
    expect(errs[0]!.errText).toContain('\taddress: 0\n');
  });

  it("use after free and double free: KLEE's default wording, and --kdalloc's", async () => {
    const src = `${H}
int main(void) {
  int c; klee_make_symbolic(&c, sizeof c, "c");
  int *p = malloc(8); p[0] = 1; free(p);
  if (c == 1) return p[0];
  if (c == 2) free(p);
  return 0;
}`;
    const messages = (r: Awaited<ReturnType<typeof runC>>): (string | undefined)[][] => r.tests.filter((t) => t.err !== undefined).map((t) => [t.err, errorMessage(t)]);
    const plain = await runC(src);
    expect(messages(plain)).toContainEqual(['ptr', 'memory error: out of bound pointer']);
    expect(messages(plain)).toContainEqual(['ptr', 'memory error: invalid pointer: free']);
    expect(plain.completedPaths).toBe(1);
    const kd = await runC(src, { kdalloc: true });
    expect(messages(kd)).toContainEqual(['ptr', 'memory error: use after free']);
    expect(messages(kd)).toContainEqual(['ptr', 'memory error: double free']);
    expect(kd.completedPaths).toBe(1);
  });

  it('free of a local and of a global; invalid free', async () => {
    const r = await runC(`${H}
int g;
int main(void) { int c, l; klee_make_symbolic(&c, sizeof c, "c");
  if (c == 0) free(&l); else if (c == 1) free(&g); else if (c == 2) free((char *)malloc(4) + 1); return 0; }`);
    const msgs = r.tests.filter((t) => t.err !== undefined).map((t) => [t.err, errorMessage(t)]);
    expect(msgs).toContainEqual(['free', 'free of alloca']);
    expect(msgs).toContainEqual(['free', 'free of global']);
    expect(msgs).toContainEqual(['ptr', 'memory error: invalid pointer: free']);
  });

  it('writing a constant global is a read-only error', async () => {
    const r = await runC(`${H}
const int k = 3;
int main(void) { *(int *)&k = 4; return 0; }`);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.err).toBe('read_only');
    expect(errorMessage(r.tests[0]!)).toBe('memory error: object read only');
  });

  it('a symbolic pointer resolves to each object it may point to', async () => {
    const r = await runC(`${H}
int main(void) { int a[2] = {1, 2}, b[2] = {3, 4}; int c; klee_make_symbolic(&c, sizeof c, "c");
  int *p = c ? a : b; return p[1]; }`);
    expect(r.completedPaths).toBe(2);
    expect(r.tests.filter((t) => t.err !== undefined)).toHaveLength(0);
    const vals = r.ends.map((e) => e.exitValue).sort();
    expect(vals).toEqual([2, 4]);
  });

  it('symbolic data survives memcpy and calloc/realloc keep contents', async () => {
    const r = await runC(`${H}
void *memcpy(void *, const void *, unsigned long);
int main(void) { char s[4], d[4]; klee_make_symbolic(s, sizeof s, "s");
  memcpy(d, s, 4);
  int *q = calloc(2, sizeof(int)); q[1] = 7; q = realloc(q, 16);
  if (q[0] != 0 || q[1] != 7) return 99;
  if (d[2] == 'x') return 1; return 0; }`);
    expect(r.completedPaths).toBe(2);
    const vals = r.ends.map((e) => e.exitValue).sort();
    expect(vals).toEqual([0, 1]);
    const hit = r.tests.find((t) => r.ends.find((e) => e.testId === t.id)?.exitValue === 1)!;
    expect(objectBytes(hit, 's')[2]).toBe('x'.charCodeAt(0));
  });

  it('a symbolic store then a symbolic load through an update list', async () => {
    const r = await runC(`${H}
int main(void) { int a[8] = {0}; unsigned i, j; klee_make_symbolic(&i, sizeof i, "i"); klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 8); klee_assume(j < 8);
  a[i] = 5; if (a[j] == 5) return 1; return 0; }`);
    expect(r.completedPaths).toBe(2);
    for (const t of r.tests) {
      const i = int32(objectBytes(t, 'i'));
      const j = int32(objectBytes(t, 'j'));
      const v = r.ends.find((e) => e.testId === t.id)!.exitValue;
      expect(v).toBe(i === j ? 1 : 0);
    }
  });

  it('replaying each test reaches the reported outcome', async () => {
    const r = await runC(`${H}
int main(void) { int a[4] = {1,2,3,4}; unsigned i; klee_make_symbolic(&i, sizeof i, "i");
  if (i > 6) return 2; return a[i]; }`);
    for (const t of r.tests) {
      const end = await replay(r.bc, t);
      const orig = r.ends.find((e) => e.testId === t.id)!;
      expect(end.kind).toBe(orig.kind);
      if (orig.kind === Termination.Exit) expect(end.exitValue).toBe(valueUnder(orig.exitValue, t));
      else expect(end.message).toBe(orig.message);
    }
    expect(r.tests.filter((t) => t.err === 'ptr')).toHaveLength(1);
  });
});

describe('engine: memory intrinsics with symbolic lengths (KLEE runs them as byte loops)', () => {
  it('memset with a symbolic length forks once per feasible length', async () => {
    const r = await runC(`${H}void *memset(void *, int, unsigned long);
int main(void) { char buf[8] = {0}; unsigned n = (unsigned)klee_range(0, 9, "n"); memset(buf, 'z', n); return buf[7] == 'z'; }`);
    expect(r.completedPaths).toBe(9);
    const ones = r.tests.filter((t) => r.ends.find((e) => e.testId === t.id)!.exitValue === 1);
    expect(ones.map((t) => int32(objectBytes(t, 'n')))).toEqual([8]);
  });

  it('memcpy past the end with a symbolic length is an out-of-bounds error on the long paths', async () => {
    const r = await runC(`${H}void *memcpy(void *, const void *, unsigned long);
int main(void) { char a[4] = "abc", b[4]; unsigned n = (unsigned)klee_range(0, 7, "n"); memcpy(b, a, n); return 0; }`);
    expect(r.completedPaths).toBe(5);
    const errs = r.tests.filter((t) => t.err === 'ptr');
    expect(errs).toHaveLength(1);
    expect(int32(objectBytes(errs[0]!, 'n'))).toBeGreaterThan(4);
  });
});

describe('engine: more memory behaviour', () => {
  it('a pointer to a dead stack frame is out of bounds', async () => {
    const r = await runC(`${H}
static int *leak(void) { int local = 5; int *volatile p = &local; return p; }
int main(void) { int *p = leak(); return *p; }`);
    expect(r.tests.map((t) => [t.err, errorMessage(t)])).toEqual([['ptr', 'memory error: out of bound pointer']]);
  });

  it('klee_define_fixed_object makes an address usable', async () => {
    const r = await runC(`${H}
int main(void) { klee_define_fixed_object((void *)0x100000, 16); int *p = (int *)0x100000; p[3] = 42; return p[3] + p[0]; }`);
    expect(r.completedPaths).toBe(1);
    expect(r.ends[0]!.exitValue).toBe(42);
  });

  it('malloc of a symbolic size is concretized as KLEE does', async () => {
    const r = await runC(`${H}
int main(void) { unsigned n; klee_make_symbolic(&n, sizeof n, "n"); klee_assume(n > 3); klee_assume(n < 300);
  char *p = malloc(n); p[3] = 1; return p[3]; }`);
    // one path with a small size, and the rest (a concretization error, KLEE's "concretized symbolic size")
    expect(r.completedPaths).toBe(1);
    expect(r.tests.filter((t) => t.err === 'model').map(errorMessage)).toEqual(['concretized symbolic size']);
  });

  it('a concrete huge malloc returns NULL with KLEE\'s "Large alloc" warning', async () => {
    const r = await runC(`${H}
int main(void) { volatile unsigned long n = 1UL << 40; char *p = malloc(n); return p == 0 ? 7 : 1; }`);
    expect(r.ends.map((e) => e.exitValue)).toEqual([7]);
    expect(r.warnings.join('\n')).toContain('Large alloc: 1099511627776 bytes.  KLEE may run out of memory.');
  });

  it('klee_choose forks and ends out-of-range paths silently', async () => {
    const r = await runC(`${H}
int main(void) { unsigned long c = klee_choose(3); if (c == 2) return 7; return 1; }`);
    expect(r.completedPaths).toBe(2);
    expect(r.exploredPaths).toBe(3);
  });
});
