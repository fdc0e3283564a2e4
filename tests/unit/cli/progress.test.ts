/**
 * The live progress line's state count (src/cli/progress.ts) through a run that merges
 * states: merged-away states are counted once, as ended states.
 */
import { afterAll, expect, it } from '@jest/globals';
import { explore } from '../../../src/engine/explore.js';
import type { Executor } from '../../../src/engine/executor.js';
import { MemoryOutput } from '../../../src/engine/test-output.js';
import { loadModule } from '../../../src/load.js';
import { ProgressLine } from '../../../src/cli/progress.js';
import { compileC, disposeSolver, sharedSolver } from '../engine/support/run-c.js';

afterAll(() => disposeSolver());

it('counts live states without subtracting merged states twice', async () => {
  const bc = compileC(`#include <klee/klee.h>
int main(void) {
  int x, y = 0; klee_make_symbolic(&x, sizeof x, "x");
  klee_open_merge();
  if (x > 10) y = 1; else y = 2;
  if (x & 1) y += 10;
  klee_close_merge();
  return y == 11;
}`);
  let ex: Executor | null = null;
  const seen: number[] = [];
  await explore(loadModule([bc]), { search: ['dfs'], useMerge: true, maxMemory: 0 }, {
    output: new MemoryOutput(),
    solver: await sharedSolver(),
    onStart: (e) => (ex = e),
    events: { onStateEnd: () => seen.push(ex!.liveStateCount) },
  });
  // 4 paths reach the close; 3 merge away; the merged state forks into 2 paths
  expect(ex!.mergedStates).toBe(3);
  expect(seen.every((n) => n >= 0)).toBe(true);
  expect(ex!.liveStateCount).toBe(0);
  const line = new ProgressLine(process.stderr);
  line.start(ex!);
  expect(line.text()).toMatch(/ states 0 /);
  line.stop();
});
