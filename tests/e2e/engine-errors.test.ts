import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, int32, objectBytes, runC } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const H = '#include <klee/klee.h>\n';

describe('engine: errors with KLEE kinds and messages', () => {
  it('klee_assert failure', async () => {
    const r = await runC(`${H}#include <assert.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); klee_assert(x != 5); assert(x != 6); return 0; }`);
    const errs = r.tests.filter((t) => t.err === 'assert');
    expect(errs.map(errorMessage).sort()).toEqual(['ASSERTION FAIL: x != 5', 'ASSERTION FAIL: x != 6']);
    expect(int32(objectBytes(errs.find((t) => errorMessage(t)!.includes('5'))!, 'x'))).toBe(5);
    expect(r.completedPaths).toBe(1);
  });

  it('abort, klee_abort and __builtin_trap', async () => {
    const r = await runC(`${H}void abort(void);
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x == 1) abort(); if (x == 2) klee_abort(); if (x == 3) __builtin_trap(); return 0; }`);
    const errs = r.tests.filter((t) => t.err === 'abort');
    expect(errs).toHaveLength(3);
    expect(new Set(errs.map(errorMessage))).toEqual(new Set(['abort failure']));
  });

  it('overshift, unreachable, external call, klee_report_error', async () => {
    const r = await runC(`${H}int puts(const char *);
int main(void) { int x; unsigned s; klee_make_symbolic(&x, sizeof x, "x"); klee_make_symbolic(&s, sizeof s, "s");
  if (x == 1) return 1 << s;
  if (x == 2) __builtin_unreachable();
  if (x == 3) puts("hi");
  if (x == 4) klee_report_error("f.c", 3, "custom", "mine.err");
  return 0; }`);
    const kinds = r.tests.filter((t) => t.err !== undefined).map((t) => [t.err, errorMessage(t)]);
    expect(kinds).toContainEqual(['overshift', 'overshift error']);
    expect(kinds).toContainEqual(['exec', 'reached "unreachable" instruction']);
    expect(kinds).toContainEqual(['external', 'failed external call: puts']);
    expect(kinds).toContainEqual(['mine', 'custom']);
    const over = r.tests.find((t) => t.err === 'overshift')!;
    expect(int32(objectBytes(over, 's')) >>> 0).toBeGreaterThanOrEqual(32);
  });

  it('one error per (instruction, message) unless --emit-all-errors', async () => {
    const src = `${H}
int f(int *p) { return *p; }
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x == 1) return f(0); if (x == 2) return f(0); return 0; }`;
    const once = await runC(src);
    expect(once.tests.filter((t) => t.err === 'ptr')).toHaveLength(1);
    const all = await runC(src, { emitAllErrors: true });
    expect(all.tests.filter((t) => t.err === 'ptr')).toHaveLength(2);
    const rep = once.tests.find((t) => t.err === 'ptr')!.errText!;
    // stack: f (innermost) then main, each with its location
    expect(rep).toMatch(/#0\d{8} in f\(0\) at .*:3\n\t#1\d{8} in main\(\) at .*:4/);
  });

  it('klee_assume on a false condition is a user error', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x > 3) klee_assume(x < 2); return 0; }`);
    const errs = r.tests.filter((t) => t.err === 'user');
    expect(errs.map(errorMessage)).toEqual(['invalid klee_assume call (provably false)']);
  });

  it('klee_silent_exit ends a path without a test', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x > 3) klee_silent_exit(0); return 0; }`);
    expect(r.tests).toHaveLength(1);
    expect(r.exploredPaths).toBe(2);
    expect(r.completedPaths).toBe(1);
  });

  it('an unsupported intrinsic or inline assembly ends only that path', async () => {
    const r = await runC(`${H}
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x == 7) { int y; __asm__ volatile ("rdrand %0" : "=r"(y)); return y; } __asm__ volatile ("" ::: "memory"); return 0; }`);
    const errs = r.tests.filter((t) => t.err === 'exec');
    expect(errs.map(errorMessage)).toEqual(['inline assembly is unsupported']);
    expect(r.completedPaths).toBe(1);
  });
});
