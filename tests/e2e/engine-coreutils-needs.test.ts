/**
 * setjmp/longjmp, reallocarray and cpuid, which KLEE does not model and coreutils calls (ls sorts
 * under a setjmp, test exits through longjmp; gnulib grows arrays with reallocarray; wc and
 * cksum ask cpuid for AVX2/PCLMUL; factor's longlong.h multiplies and divides in inline asm):
 * src/engine/special/jmp.ts, special/heap.ts, exec-call.ts (execCallAsm), inline-asm.ts.
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

const ASM = `#include <klee/klee.h>
typedef unsigned long long u64;
#define umul_ppmm(w1, w0, u, v) __asm__("mulq %3" : "=a"(w0), "=d"(w1) : "%0"((u64)(u)), "rm"((u64)(v)))
#define udiv_qrnnd(q, r, n1, n0, dx) __asm__("divq %4" : "=a"(q), "=d"(r) : "0"((u64)(n0)), "1"((u64)(n1)), "rm"((u64)(dx)))
#define add_ssaaaa(sh, sl, ah, al, bh, bl) \\
  __asm__("addq %5,%q1\\n\\tadcq %3,%q0" : "=r"(sh), "=&r"(sl) : "0"((u64)(ah)), "rme"((u64)(bh)), "%1"((u64)(al)), "rme"((u64)(bl)))
`;

describe('engine: x86-64 inline assembly (longlong.h)', () => {
  it('mulq and an add/adc chain on symbolic operands equal the 128-bit C arithmetic on every path', async () => {
    // one symbolic byte in each factor keeps z3's 128-bit products quick
    const r = await runC(`${ASM}
int main(void) { unsigned char a, c; u64 hi, lo, sh, sl; klee_make_symbolic(&a, 1, "a"); klee_make_symbolic(&c, 1, "c");
  u64 u = 0xfedcba9876543210ull ^ ((u64)a << 56), v = 0x0123456789abcdefull ^ c;
  umul_ppmm(hi, lo, u, v);
  unsigned __int128 p = (unsigned __int128)u * v;
  klee_assert(hi == (u64)(p >> 64) && lo == (u64)p);
  add_ssaaaa(sh, sl, hi, lo, v, u);
  unsigned __int128 s = p + (((unsigned __int128)v << 64) | u);
  klee_assert(sh == (u64)(s >> 64) && sl == (u64)s);
  if (hi & 1) return 1;
  return 0; }`);
    expect(r.tests.filter((t) => t.err !== undefined)).toEqual([]);
    expect(r.completedPaths).toBe(2);
    for (const t of r.tests) {
      const u = 0xfedcba9876543210n ^ (BigInt(objectBytes(t, 'a')[0]!) << 56n);
      const v = 0x0123456789abcdefn ^ BigInt(objectBytes(t, 'c')[0]!);
      expect(Number(valueUnder(exitValueOf(r, t.id), t))).toBe(Number(((u * v) >> 64n) & 1n));
    }
  });

  it('divq with a symbolic divisor: divide by zero and quotient overflow are errors, the rest divides', async () => {
    const r = await runC(`${ASM}
int main(void) { u64 d, q, rem; klee_make_symbolic(&d, 8, "d");
  udiv_qrnnd(q, rem, 100, 7, d);
  unsigned __int128 n = ((unsigned __int128)100 << 64) | 7;
  klee_assert(q == (u64)(n / d) && rem == (u64)(n % d));
  return 3; }`);
    const errs = r.tests.map(errorMessage).filter((m) => m !== undefined).sort();
    expect(errs).toEqual(['divide by zero', 'divide overflow (the quotient does not fit: x86 #DE)']);
    for (const t of r.tests.filter((x) => x.err === undefined)) {
      const d = objectBytes(t, 'd').reduce((a, x, i) => a + (BigInt(x) << BigInt(8 * i)), 0n);
      expect(d > 100n).toBe(true);
      expect(Number(exitValueOf(r, t.id))).toBe(3);
    }
    expect(r.completedPaths).toBe(1);
  });

  it('an instruction outside the lifted set is still reported as unsupported inline assembly', async () => {
    const r = await runC(`int main(void) { unsigned lo, hi; __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi)); return lo == hi; }`);
    expect(r.tests.map(errorMessage)).toEqual(['inline assembly is unsupported']);
  });
});
