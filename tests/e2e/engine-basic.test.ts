import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, int32, objectBytes, runC } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

describe('engine: paths and tests', () => {
  it('explores both sides of one symbolic branch', async () => {
    const r = await runC(`#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x > 3) return 1; return 0; }`);
    expect(r.completedPaths).toBe(2);
    expect(r.generatedTests).toBe(2);
    const xs = r.tests.map((t) => int32(objectBytes(t, 'x')));
    expect(xs.some((x) => x > 3)).toBe(true);
    expect(xs.some((x) => x <= 3)).toBe(true);
    expect(r.tests.every((t) => t.ktest!.objects[0]!.bytes.length === 4)).toBe(true);
  });

  it('three independent branches give eight paths', async () => {
    const r = await runC(`#include <klee/klee.h>
int main(void) {
  int a, b, c, n = 0;
  klee_make_symbolic(&a, sizeof a, "a"); klee_make_symbolic(&b, sizeof b, "b"); klee_make_symbolic(&c, sizeof c, "c");
  if (a > 0) n++;
  if (b > 0) n++;
  if (c > 0) n++;
  return n;
}`);
    expect(r.completedPaths).toBe(8);
    expect(r.tests).toHaveLength(8);
    const seen = new Set(r.tests.map((t) => ['a', 'b', 'c'].map((n) => (int32(objectBytes(t, n)) > 0 ? 1 : 0)).join('')));
    expect(seen.size).toBe(8);
    expect(r.tests[0]!.ktest!.objects.map((o) => o.name)).toEqual(['a', 'b', 'c']);
  });

  it('reports division by zero once and continues the other side', async () => {
    const r = await runC(`#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); return 100 / x; }`);
    const errs = r.tests.filter((t) => t.err === 'div');
    expect(errs).toHaveLength(1);
    expect(errorMessage(errs[0]!)).toBe('divide by zero');
    expect(int32(objectBytes(errs[0]!, 'x'))).toBe(0);
    expect(r.completedPaths).toBe(1);
  });
});
