/**
 * setjmp/longjmp, reallocarray and cpuid, which KLEE does not model and coreutils calls (ls sorts
 * under a setjmp, test exits through longjmp; gnulib grows arrays with reallocarray; wc and
 * cksum ask cpuid for AVX2/PCLMUL):
 * src/engine/special/jmp.ts, special/heap.ts, exec-call.ts (execCallAsm).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, exitValueOf, int32, objectBytes, runC, valueUnder } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const H = '#include <klee/klee.h>\n#include <setjmp.h>\n#include <stdlib.h>\n';

describe('engine: setjmp and longjmp', () => {
  it('longjmp from deeper frames resumes after setjmp with the value given (0 becomes 1)', async () => {
    const r = await runC(`${H}
static jmp_buf env;
static void deep(int n, int x) { volatile char pad[8]; pad[0] = 1; if (n == 0) { if (x > 5) longjmp(env, x > 9 ? 0 : x); return; } deep(n - 1, x + pad[0] - 1); }
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x");
  volatile int passes = 0; int r = setjmp(env); passes++;
  if (r != 0) return passes == 2 ? 10 + r : 99;
  deep(3, x); return 0; }`);
    expect(r.completedPaths).toBe(3);
    // exit 10 + x is symbolic: evaluated under each test's x
    const outcomes = r.tests.map((t) => [int32(objectBytes(t, 'x')), Number(valueUnder(exitValueOf(r, t.id), t)) | 0] as const);
    for (const [x, code] of outcomes) expect(code).toBe(x <= 5 ? 0 : x > 9 ? 11 : 10 + x);
  });

  it('a symbolic longjmp value: setjmp returns it, or 1 where it is 0', async () => {
    const r = await runC(`${H}
int main(void) { jmp_buf env; int v; klee_make_symbolic(&v, sizeof v, "v");
  int r = setjmp(env); if (r == 0) longjmp(env, v); if (r == 1) return 1; return 2; }`);
    expect(r.completedPaths).toBe(2);
    for (const t of r.tests) {
      const v = int32(objectBytes(t, 'v'));
      expect(Number(valueUnder(exitValueOf(r, t.id), t))).toBe(v === 0 || v === 1 ? 1 : 2);
    }
  });

  it('sigsetjmp/siglongjmp, and the locals of popped frames are freed', async () => {
    const r = await runC(`${H}
static sigjmp_buf env; static volatile char *leak;
static void f(void) { char mine[4] = {1, 2, 3, 4}; leak = mine; siglongjmp(env, 7); }
int main(void) { if (sigsetjmp(env, 1) == 7) return leak[0]; f(); return 0; }`);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.err).toBe('ptr');
  });

  it('a longjmp into a function that returned, or through a buffer setjmp never filled, is an error', async () => {
    const r = await runC(`${H}
static jmp_buf env;
static int set(void) { return setjmp(env); }
int main(void) { int which; klee_make_symbolic(&which, sizeof which, "which");
  if (which) { jmp_buf blank = {0}; longjmp(blank, 1); }
  set(); longjmp(env, 1); }`);
    const messages = r.tests.map((t) => errorMessage(t)).sort();
    expect(messages).toEqual(['longjmp: the function that called setjmp has returned', 'longjmp: the jmp_buf was not filled by setjmp']);
    expect(r.tests.every((t) => t.err === 'exec')).toBe(true);
  });
});

describe('engine: reallocarray', () => {
  it('grows the block like realloc, and gives NULL when n * size overflows', async () => {
    const r = await runC(`${H}
void *reallocarray(void *, size_t, size_t);
int main(void) { int *p = malloc(2 * sizeof *p); p[0] = 5; p[1] = 6;
  int *q = reallocarray(p, 4, sizeof *q); q[3] = 7;
  if (reallocarray(0, (size_t)1 << 62, 8) != 0) return 1;
  /* as glibc: realloc of NULL is malloc, a block even of size 0 */
  if (reallocarray(0, 0, 8) == 0 || realloc(0, 0) == 0) return 2;
  return q[0] + q[1] + q[3]; }`);
    expect(r.tests).toHaveLength(1);
    expect(Number(exitValueOf(r, r.tests[0]!.id))).toBe(18);
  });
});

describe('engine: cpuid', () => {
  it('<cpuid.h> sees a CPU with no leaves: __get_cpuid fails, the portable code runs', async () => {
    const r = await runC(`#include <cpuid.h>
int main(void) { unsigned a, b, c, d; if (__get_cpuid(1, &a, &b, &c, &d)) return 1;
  __cpuid(0, a, b, c, d); return a == 0 && b == 0 && c == 0 && d == 0 ? 7 : 2; }`);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.err).toBeUndefined();
    expect(Number(exitValueOf(r, r.tests[0]!.id))).toBe(7);
  });
});
