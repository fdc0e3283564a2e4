/**
 * The merge core (src/engine/merging/core.ts) through small programs: what a merged state
 * holds on each of its paths, the objects each path allocated for itself, console output that
 * differs, and the witness tests that keep a merged state's paths covered.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, exitValueOf, int32, objectBytes, runC, valueUnder } from '../support/run-c.js';

afterAll(() => disposeSolver());

describe('merge core', () => {
  it('merges states that each malloc()ed their own object at the same address, contents per path', async () => {
    const r = await runC(`#include <klee/klee.h>
#include <stdlib.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int *p;
  klee_open_merge();
  if (x > 5) { p = malloc(sizeof *p); *p = 10; } else { p = malloc(sizeof *p); *p = 20; }
  klee_close_merge();
  return *p;
}`, { useMerge: true });
    expect(r.merging!.merges).toBe(1);
    expect(r.completedPaths).toBe(1);
    for (const t of r.tests) expect(valueUnder(exitValueOf(r, t.id), t)).toBe(int32(objectBytes(t, 'x')) > 5 ? 10 : 20);
  });

  it('merges states whose console output differs: each test records the output of its own path', async () => {
    const r = await runC(`#include <klee/klee.h>
void __tsklee_write_console(int fd, const void *buf, unsigned long n);
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  klee_open_merge();
  if (x == 7) __tsklee_write_console(1, "seven\\n", 6); else __tsklee_write_console(1, "other\\n", 6);
  klee_close_merge();
  if (x > 100) return 1;
  return 0;
}`, { useMerge: true });
    expect(r.merging!.merges).toBe(1);
    expect(r.tests.length).toBeGreaterThanOrEqual(2);
    for (const t of r.tests) {
      const x = int32(objectBytes(t, 'x'));
      const out = new TextDecoder().decode(t.extras.files!.stdout as Uint8Array);
      expect(out).toBe(x === 7 ? 'seven\n' : 'other\n');
    }
  });

  it('stands for the paths it merged (multiplicity), and forks split it with the multiplicity copied', async () => {
    const r = await runC(`#include <klee/klee.h>
int main(void) {
  unsigned char b[3]; klee_make_symbolic(b, 3, "b");
  int n = 0;
  klee_open_merge();
  if (b[0] & 1) n++;
  if (b[1] & 1) n++;
  klee_close_merge();
  if (b[2] == 9) return n + 10;
  return n;
}`, { useMerge: true });
    expect(r.merging!.merges).toBe(3);
    expect(r.completedPaths).toBe(2);
    expect(r.merging!.pathMultiplicity).toBe(8);
    for (const t of r.tests) {
      const b = objectBytes(t, 'b');
      const n = (b[0]! & 1) + (b[1]! & 1);
      expect(valueUnder(exitValueOf(r, t.id), t)).toBe(b[2] === 9 ? n + 10 : n);
    }
  });

  it('writes witness tests so that every side of the merged diamonds keeps a test', async () => {
    const r = await runC(`#include <klee/klee.h>
int main(void) {
  unsigned char x[6]; klee_make_symbolic(x, 6, "x");
  int cnt = 0, odd = 0;
  for (int i = 0; i < 6; i++) { if (x[i] > 100) cnt++; else odd ^= x[i]; }
  return 0;
}`, { stateMerging: 'static' });
    expect(r.completedPaths).toBe(1);
    expect(r.tests.length).toBeGreaterThan(1);
    const first = r.tests.map((t) => objectBytes(t, 'x')[0]!);
    expect(first.some((v) => v > 100)).toBe(true);
    expect(first.some((v) => v <= 100)).toBe(true);
  });
});
