import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, int32, objectBytes, runC, valueUnder } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const H = '#include <klee/klee.h>\n';

describe('engine: the klee_* API', () => {
  it('klee_assume narrows the inputs', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); klee_assume(x > 10); klee_assume(x < 13);
  if (x == 11) return 1; if (x == 12) return 2; return 3; }`);
    expect(r.completedPaths).toBe(2);
    expect(r.tests.map((t) => int32(objectBytes(t, 'x'))).sort()).toEqual([11, 12]);
  });

  it('klee_make_symbolic with a NULL name names the object "unnamed", as KLEE does', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, 0); if (x > 3) return 1; return 0; }`);
    expect(r.completedPaths).toBe(2);
    expect(r.tests.map((t) => t.ktest!.objects.map((o) => o.name))).toEqual([['unnamed'], ['unnamed']]);
    expect(r.warnings.join('\n')).toContain('klee_make_symbolic: renamed empty name to "unnamed"');
  });

  it('klee_range, klee_int and unique array names', async () => {
    const r = await runC(`${H}
int main(void) { int a = klee_range(0, 4, "a"); int b = klee_int("b"); int c = klee_range(5, 6, "c");
  char n1, n2; klee_make_symbolic(&n1, 1, "n"); klee_make_symbolic(&n2, 1, "n");
  if (b > 0) return a + c; return a; }`);
    expect(r.completedPaths).toBe(2);
    for (const t of r.tests) {
      expect(t.ktest!.objects.map((o) => o.name)).toEqual(['a', 'b', 'n', 'n']);
      const a = int32(objectBytes(t, 'a'));
      expect(a >= 0 && a < 4).toBe(true);
    }
  });

  it('klee_is_symbolic, klee_get_value, klee_print_expr', async () => {
    const r = await runC(`${H}
int main(void) { int x, y = 3; klee_make_symbolic(&x, sizeof x, "x"); klee_assume(x == 42);
  int v = klee_get_value_i32(x);
  klee_print_expr("x is", x);
  return klee_is_symbolic(x) * 100 + klee_is_symbolic(y) * 10 + (v == 42); }`);
    expect(r.completedPaths).toBe(1);
    expect(valueUnder(r.ends[0]!.exitValue, r.tests[0]!)).toBe(101);
    expect(r.prints[0]).toMatch(/^x is:/);
  });

  it('klee_prefer_cex steers the test values', async () => {
    const r = await runC(`${H}
int main(void) { unsigned char c; klee_make_symbolic(&c, 1, "c"); klee_prefer_cex(&c, c == 'A'); return 0; }`);
    expect(objectBytes(r.tests[0]!, 'c')[0]).toBe(65);
  });

  it('klee_set_forking(0) follows one side only', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); klee_set_forking(0); if (x > 0) return 1; return 0; }`);
    expect(r.completedPaths).toBe(1);
  });

  it('klee_get_obj_size and klee_check_memory_access', async () => {
    const r = await runC(`${H}void *malloc(unsigned long);
int main(void) { char *p = malloc(13); klee_check_memory_access(p, 13); int s = klee_get_obj_size(p);
  klee_check_memory_access(p + 10, 8); return s; }`);
    expect(r.tests.filter((t) => t.err === 'ptr').map((t) => t.errText!.split('\n')[0])).toEqual(['Error: check_memory_access: memory error']);
  });

  it('switch on a symbolic value forks per feasible target', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x");
  switch (x) { case 1: return 10; case 2: case 3: return 20; case 9: return 90; default: return 0; } }`);
    expect(r.completedPaths).toBe(4);
    const outs = r.tests.map((t) => valueUnder(r.ends.find((e) => e.testId === t.id)!.exitValue, t)).sort();
    expect(outs).toEqual([0, 10, 20, 90]);
  });

  it('a symbolic function pointer calls each possible target', async () => {
    const r = await runC(`${H}
int f0(void) { return 10; } int f1(void) { return 11; } int f2(void) { return 12; }
int main(void) { int (*t[3])(void) = { f0, f1, f2 }; unsigned i; klee_make_symbolic(&i, sizeof i, "i"); klee_assume(i < 3); return t[i](); }`);
    expect(r.completedPaths).toBe(3);
    expect(r.ends.map((e) => e.exitValue).sort()).toEqual([10, 11, 12]);
  });

  it('varargs with symbolic values', async () => {
    const r = await runC(`${H}#include <stdarg.h>
static int pick(int n, ...) { va_list ap; va_start(ap, n); int v = 0; for (int i = 0; i <= n; i++) v = va_arg(ap, int); va_end(ap); return v; }
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (pick(2, 1, 2, x) == 77) return 1; return 0; }`);
    expect(r.completedPaths).toBe(2);
    const hit = r.tests.find((t) => r.ends.find((e) => e.testId === t.id)!.exitValue === 1)!;
    expect(int32(objectBytes(hit, 'x'))).toBe(77);
  });
});
