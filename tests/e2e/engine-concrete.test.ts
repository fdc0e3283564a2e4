/**
 * Concrete programs: tsklee's result (main's return value) against the same C compiled
 * natively (which prints the value). Each program exercises one family of instructions.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, runC, runNative } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const PRELUDE = `
#ifdef NATIVE
#include <stdio.h>
#define RESULT(x) do { printf("%u\\n", (unsigned)(x)); return 0; } while (0)
#else
#define RESULT(x) return (int)(x)
#endif
`;

async function same(body: string): Promise<void> {
  const src = `${PRELUDE}\n${body}`;
  const native = runNative(src, ['-DNATIVE']);
  expect(native.status).toBe(0);
  const expected = Number(native.stdout.trim());
  const r = await runC(src);
  expect(r.tests.filter((t) => t.err !== undefined).map((t) => t.errText)).toEqual([]);
  expect(r.completedPaths).toBe(1);
  const got = r.ends[0]!.exitValue as number;
  expect(got >>> 0).toBe(expected);
}

describe('engine: concrete execution matches native execution', () => {
  it('32-bit arithmetic, shifts, division, comparisons', () =>
    same(`
int main(void) {
  unsigned h = 2166136261u; int s = -7;
  for (int i = 0; i < 300; i++) {
    h = (h ^ (unsigned)i) * 16777619u;
    h += (h << 3) ^ (h >> 5);
    s = s * 3 + i; s = s / 7 - (s % 5); s ^= (s >> 2);
    if ((int)h < 0) h = ~h; else h += 17;
    unsigned char c = (unsigned char)h; short sh = (short)(h >> 7); h += c + sh;
  }
  RESULT(h ^ (unsigned)s);
}`));

  it('64-bit and wide arithmetic', () =>
    same(`
typedef unsigned long long u64; typedef long long i64;
int main(void) {
  u64 a = 0x123456789abcdefULL, b = 0xfedcba9876543210ULL; i64 c = -5;
  for (int i = 0; i < 100; i++) {
    a = a * 6364136223846793005ULL + 1442695040888963407ULL;
    b ^= a >> 13; b = (b << 7) | (b >> 57);
    c = c * -3 + (i64)(a % 1000) - (i64)(b / 3);
    c /= (i % 7) + 1; c = c >> 1;
  }
  __int128 w = (__int128)a * b; u64 hi = (u64)(w >> 64);
  u64 r = a ^ b ^ (u64)c ^ hi;
  RESULT((unsigned)(r ^ (r >> 32)));
}`));

  it('structs, arrays, pointers, globals with relocations', () =>
    same(`
struct P { int x; char tag; long long y; struct P *next; };
int g = 5; int *gp = &g; const char *msg = "hello"; struct P nodes[3] = {{1,'a',10,&nodes[1]},{2,'b',20,&nodes[2]},{3,'c',30,0}};
static int sum(struct P *p) { int s = 0; for (; p; p = p->next) s += p->x * 100 + p->tag + (int)p->y; return s; }
struct P make(int v) { struct P p = { v, 'z', v * 2LL, 0 }; return p; }
int byval(struct P p) { p.x += 1000; return p.x + (int)p.y; }
int main(void) {
  *gp += 3; int len = 0; while (msg[len]) len++;
  struct P q = make(7); int b = byval(q);
  int arr[10]; for (int i = 0; i < 10; i++) arr[i] = i * i; int *e = &arr[9]; int d = (int)(e - arr);
  RESULT(sum(nodes) + g * 1000 + len + q.x + b + d + arr[3] + q.x);
}`));

  it('recursion, switch, function pointers, varargs', () =>
    same(`
#include <stdarg.h>
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int add(int a, int b) { return a + b; } static int mul(int a, int b) { return a * b; }
static long vsum(int n, ...) { va_list ap; va_start(ap, n); long s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, long); va_end(ap); return s; }
static double vdsum(int n, ...) { va_list ap; va_start(ap, n); double s = 0; for (int i = 0; i < n; i++) s += va_arg(ap, double); va_end(ap); return s; }
static int kind(int c) { switch (c) { case 0: return 10; case 1: case 2: return 20; case 7: return 70; default: return -1; } }
int main(void) {
  int (*ops[2])(int, int) = { add, mul };
  int r = fib(15);
  for (int i = 0; i < 8; i++) r += ops[i & 1](i, 3) + kind(i);
  r += (int)vsum(4, 1L, 2L, 3L, 40000000000L % 1000);
  r += (int)(vdsum(3, 1.5, 2.25, 4.0) * 4);
  RESULT(r);
}`));

  it('floating point', () =>
    same(`
int main(void) {
  double d = 1.0; float f = 0.5f; long double ld = 3.0L;
  for (int i = 1; i < 50; i++) { d = d * 1.1 + 1.0 / i; f = f * 1.01f + (float)i / 3.0f; ld = ld / 2 + i; }
  int a = (int)d, b = (int)(f * 100), c = (int)ld; unsigned u = (unsigned)(d * 1000.0);
  double neg = -2.75; int t = (int)neg; long long big = (long long)(d * 1e6);
  int cmp = (d > f) + (f != f) * 2 + (neg < 0) * 4;
  RESULT(a + b + c + u + t + (int)(big % 10007) + cmp);
}`));

  it('builtins, atomics and bit tricks', () =>
    same(`
int abs(int v);
int main(void) {
  unsigned x = 0xf0f0a5u; unsigned long long y = 0x8000000000000001ULL; int r = 0; int ov;
  r += __builtin_popcount(x) + __builtin_clz(x) + __builtin_ctz(x) + __builtin_popcountll(y) + __builtin_clzll(1) + __builtin_ctzll(y << 3);
  r += (int)(__builtin_bswap32(x) & 0xff) + (int)(__builtin_bswap64(y) >> 56);
  int sum; ov = __builtin_add_overflow(0x7fffffff, 1, &sum); r += ov + (sum == (int)0x80000000);
  unsigned m; ov = __builtin_umul_overflow(0x10000u, 0x10000u, &m); r += ov * 2 + m;
  int counter = 5; __atomic_fetch_add(&counter, 3, __ATOMIC_SEQ_CST); __sync_fetch_and_sub(&counter, 1);
  int old = __sync_val_compare_and_swap(&counter, 7, 42); r += counter + old;
  r += __sync_bool_compare_and_swap(&counter, 1, 2);
  r += abs(-3);
  RESULT(r);
}
int abs(int v) { return v < 0 ? -v : v; }`));
});

describe('engine: more value kinds', () => {
  it('long double in memory and arithmetic', () =>
    same(`
long double g = 1.5L;
int main(void) { long double a[3] = { 0.25L, 2.0L, -3.5L }; long double s = g;
  for (int i = 0; i < 3; i++) s = s * 2 + a[i];
  double d = (double)s; float f = (float)s; int n = (int)(s * 4);
  RESULT(n + (int)d + (int)f + (s > 10.0L) + sizeof(long double));
}`));

  it('vectors (GCC vector extension), shuffles and 128-bit integers', () =>
    same(`
typedef int v4 __attribute__((vector_size(16)));
typedef unsigned char v16 __attribute__((vector_size(16)));
int main(void) {
  v4 a = {1, 2, 3, 4}, b = {10, 20, 30, 40};
  v4 c = a * b + (a << 2) - (b >> 1); v4 m = a > (v4){2, 2, 2, 2};
  v4 d = __builtin_shufflevector(a, b, 7, 0, 5, 2);
  v16 bytes = (v16)c; unsigned s = 0; for (int i = 0; i < 16; i++) s = s * 31 + bytes[i];
  unsigned __int128 w = ((unsigned __int128)0xffffffffffffffffULL << 40) / 12345 + 77;
  RESULT(s + c[0] + c[3] + m[0] * 7 + m[3] * 11 + d[0] + d[1] + d[2] + d[3] + (unsigned)(w % 1000003) + (unsigned)(w >> 100));
}`));
});
