import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, int32, objectBytes, runC, valueUnder } from '../unit/engine/support/run-c.js';

afterAll(() => disposeSolver());

const MERGE = `#include <klee/klee.h>
int main(void) {
  int x, y = 0; klee_make_symbolic(&x, sizeof x, "x");
  klee_open_merge();
  if (x > 10) y = 1; else y = 2;
  if (x & 1) y += 10;
  klee_close_merge();
  if (y == 11) return 1;
  return 0;
}`;

describe('engine: klee_open_merge / klee_close_merge', () => {
  it('are ignored without --use-merge (KLEE prints a warning)', async () => {
    const r = await runC(MERGE);
    expect(r.completedPaths).toBe(4 + 0);
    expect(r.warnings.join('\n')).toContain("klee_open_merge ignored, use '-use-merge'");
  });

  it('merge the paths of the region with --use-merge', async () => {
    const r = await runC(MERGE, { useMerge: true });
    // 4 paths reach the close; they merge into one, which then forks on y == 11
    expect(r.completedPaths).toBe(2);
    expect(r.exploredPaths).toBe(2 + 3);
    for (const t of r.tests) {
      const x = int32(objectBytes(t, 'x'));
      const expected = x > 10 && (x & 1) !== 0 ? 1 : 0;
      expect(valueUnder(r.ends.find((e) => e.testId === t.id)!.exitValue, t)).toBe(expected);
    }
  });

  it('merged memory and registers keep the values of each path', async () => {
    const r = await runC(`#include <klee/klee.h>
int g;
int main(void) {
  int x; int a[2] = {0, 0}; klee_make_symbolic(&x, sizeof x, "x");
  klee_open_merge();
  if (x == 3) { g = 30; a[1] = 7; } else { g = 40; a[0] = 9; }
  klee_close_merge();
  return g + a[0] * 100 + a[1] * 1000;
}`, { useMerge: true });
    expect(r.completedPaths).toBe(1);
    const e = r.ends.find((x) => x.testId === r.tests[0]!.id)!;
    const x = int32(objectBytes(r.tests[0]!, 'x'));
    expect(valueUnder(e.exitValue, r.tests[0]!)).toBe(x === 3 ? 30 + 7000 : 40 + 900);
  });
});

describe('engine: merging under the random searchers', () => {
  it('works with random-path and nurs:covnew', async () => {
    for (const search of [['random-path'], ['nurs:covnew'], ['random-path', 'nurs:covnew'], ['bfs']]) {
      const r = await runC(MERGE, { useMerge: true, search });
      expect(r.completedPaths).toBe(2);
    }
  });
});
