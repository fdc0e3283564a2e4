/**
 * instsSinceCovNew (nurs:covnew's input, KLEE's convention): 0 while a state has never covered
 * new code; 1 at the instruction that covers something new, then +1 per instruction. The
 * executor's steps are driven by hand here with small budgets, including a step of one
 * instruction that covers something new (it once came out as 0: "never covered new").
 */
import { describe, expect, it } from '@jest/globals';
import { loadModule } from '../../../../src/load.js';
import { Executor } from '../../../../src/engine/executor.js';
import { MemoryOutput } from '../../../../src/engine/test-output.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../../../../src/solver/solver.js';
import { compileC } from '../support/run-c.js';

const never = (): never => {
  throw new SolverFailure(SolverFailureKind.Unknown, 'no query expected');
};
const noSolver: Solver = { computeTruth: never, computeValidity: never, computeValue: never, computeInitialValues: never, stats: () => [], dispose: () => {} };

const PROG = `
int main(void) {
  volatile int s = 0;
  for (int i = 0; i < 1000; i++)
    s += i;
  return 0;
}`;

describe('instsSinceCovNew', () => {
  it('is 1 after a one-instruction step that covers something new, and counts on over covered code', () => {
    const ex = new Executor(loadModule([compileC(PROG)]), noSolver, new MemoryOutput(), { search: ['dfs'] });
    const st = ex.createInitialState();
    expect(st.instsSinceCovNew).toBe(0);
    ex.step(st, 1);
    expect(st.instsSinceCovNew).toBe(1);
    // well into the loop: the last new instruction was covered in its first iteration
    ex.step(st, 500);
    const before = st.instsSinceCovNew;
    expect(before).toBeGreaterThan(100);
    ex.step(st, 7);
    expect(st.instsSinceCovNew).toBe(before + 7);
    // a second state over the same (covered) code never covers anything new
    const other = ex.createInitialState();
    ex.step(other, 50);
    expect(other.instsSinceCovNew).toBe(0);
  });
});
