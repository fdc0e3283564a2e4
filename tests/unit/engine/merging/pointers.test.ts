/**
 * The address rule at run time (src/engine/merging/pointers.ts, --merge-pointer-rule): states
 * whose live pointers differ — here a cursor stored in a heap object, which QCE's static
 * analysis does not track — stay apart; integers stored there still merge; without the rule
 * the cursor becomes an ite and the writes through it symbolic-address writes.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, exitValueOf, objectBytes, runC, valueUnder } from '../support/run-c.js';

afterAll(() => disposeSolver());

/** A heap "stream" whose write cursor depends on a branch, written through after the join. */
const CURSOR = `#include <klee/klee.h>
#include <stdlib.h>
struct stream { char *pos; long n; char buf[16]; };
int main(void) {
  unsigned char x; klee_make_symbolic(&x, 1, "x");
  struct stream *s = malloc(sizeof *s);
  s->pos = s->buf; s->n = 0;
  if (x > 100) { *s->pos++ = 'a'; *s->pos++ = 'b'; } else { *s->pos++ = 'c'; }
  *s->pos++ = '!';
  return s->buf[1];
}`;

/** The same branch changing only a count stored in the heap object. */
const COUNT = `#include <klee/klee.h>
#include <stdlib.h>
struct stream { char *pos; long n; char buf[16]; };
int main(void) {
  unsigned char x; klee_make_symbolic(&x, 1, "x");
  struct stream *s = malloc(sizeof *s);
  s->pos = s->buf; s->n = 0;
  if (x > 100) s->n += 2; else s->n += 1;
  return (int)s->n;
}`;

describe('the address rule at run time', () => {
  it('keeps apart states whose pointers stored in the heap differ', async () => {
    const r = await runC(CURSOR, { stateMerging: 'static' });
    expect(r.merging!.refusedByPointer).toBeGreaterThanOrEqual(1);
    expect(r.merging!.merges).toBe(0);
    expect(r.completedPaths).toBe(2);
    for (const t of r.tests) expect(valueUnder(exitValueOf(r, t.id), t)).toBe(objectBytes(t, 'x')[0]! > 100 ? 'b'.charCodeAt(0) : '!'.charCodeAt(0));
  });

  it('merges them without the rule (the cursor becomes an ite), with the same results', async () => {
    const r = await runC(CURSOR, { stateMerging: 'static', mergePointerRule: false });
    expect(r.merging!.refusedByPointer).toBe(0);
    expect(r.merging!.merges).toBe(1);
    expect(r.completedPaths).toBe(1);
    for (const t of r.tests) expect(valueUnder(exitValueOf(r, t.id), t)).toBe(objectBytes(t, 'x')[0]! > 100 ? 'b'.charCodeAt(0) : '!'.charCodeAt(0));
  });

  it('still merges states whose heap integers differ', async () => {
    const r = await runC(COUNT, { stateMerging: 'static' });
    expect(r.merging!.refusedByPointer).toBe(0);
    expect(r.merging!.merges).toBe(1);
    expect(r.completedPaths).toBe(1);
    for (const t of r.tests) expect(valueUnder(exitValueOf(r, t.id), t)).toBe(objectBytes(t, 'x')[0]! > 100 ? 2 : 1);
  });
});
