/**
 * A constraint the solver calls feasible but the constraint set simplifies to false
 * (ConstraintSet.add returns false: the solver and the simplifier disagree) must end the
 * state, never be dropped with the state going on without it — that would keep an infeasible
 * path and write a test that does not follow it. A solver that answers "both sides feasible"
 * to every branch plays the faulty side: under x < 3, adding x == 3 rewrites x < 3 to 3 < 3.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { loadModule } from '../../../src/index.js';
import { explore } from '../../../src/engine/explore.js';
import { MemoryOutput } from '../../../src/engine/test-output.js';
import type { StateEndInfo } from '../../../src/engine/executor.js';
import { Validity, type Query, type Solver } from '../../../src/solver/solver.js';
import { compileC, disposeSolver, sharedSolver } from './support/run-c.js';

/** The real solver, except that every branch is "both sides feasible" and nothing is provably true. */
function lying(real: Solver): Solver {
  return {
    computeTruth: () => false,
    computeValidity: () => Validity.Unknown,
    computeValue: (q: Query) => real.computeValue(q),
    computeInitialValues: (q, arrays) => real.computeInitialValues(q, arrays),
    stats: () => real.stats(),
    dispose: () => {},
  };
}

async function run(source: string): Promise<{ ends: StateEndInfo[]; errors: string[] }> {
  const output = new MemoryOutput();
  const ends: StateEndInfo[] = [];
  await explore(loadModule([compileC(source)]), { search: ['dfs'], maxMemory: 0 }, { output, solver: lying(await sharedSolver()), events: { onStateEnd: (i) => ends.push(i) } });
  const errors = output.tests.map((t) => t.extras.errText?.split('\n')[0] ?? '').filter((s) => s !== '');
  return { ends, errors };
}

afterAll(() => disposeSolver());

describe('a constraint that the constraint set finds false', () => {
  it('ends the forking state with a solver error instead of dropping the constraint', async () => {
    const r = await run(`#include <klee/klee.h>
int main(void) {
  int x = klee_int("x");
  if (x < 3) {
    if (x == 3) return 1; /* infeasible: must never complete */
    return 2;
  }
  return 0;
}`);
    const exits = r.ends.filter((e) => e.exitValue !== undefined).map((e) => Number(e.exitValue));
    expect(exits.sort()).toEqual([0, 2]);
    expect(r.errors).toEqual([expect.stringContaining('the path condition became infeasible adding a constraint the solver found feasible')]);
  });

  it('makes klee_assume report its provably-false error', async () => {
    const r = await run(`#include <klee/klee.h>
int main(void) {
  int x = klee_int("x");
  klee_assume(x < 3);
  klee_assume(x == 3);
  return 1; /* infeasible: must never complete */
}`);
    expect(r.ends.filter((e) => e.exitValue !== undefined)).toEqual([]);
    expect(r.errors).toEqual(['Error: invalid klee_assume call (provably false)']);
  });
});
