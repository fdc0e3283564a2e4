import { describe, expect, it } from '@jest/globals';
import { loadModule } from '../../../src/index.js';
import { explore } from '../../../src/engine/explore.js';
import { MemoryOutput } from '../../../src/engine/test-output.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../../../src/solver/solver.js';
import { compileC } from './support/run-c.js';

/** A solver that times out on every validity query and answers the rest trivially. */
const failing: Solver = {
  computeValidity() {
    throw new SolverFailure(SolverFailureKind.Timeout, 'timeout');
  },
  computeTruth() {
    return false;
  },
  computeValue() {
    return 0n;
  },
  computeInitialValues(_q, arrays) {
    return arrays.map((a) => new Uint8Array(a.size));
  },
  stats() {
    return [];
  },
  dispose() {},
};

describe('solver failures', () => {
  it('end the state that asked with a solver error; the run goes on', async () => {
    const bc = compileC(`#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x > 3) return 1; return 0; }`);
    const out = new MemoryOutput();
    const r = await explore(loadModule([bc]), { search: ['dfs'] }, { output: out, solver: failing });
    expect(r.exploredPaths).toBe(1);
    expect(out.tests).toHaveLength(1);
    expect(out.tests[0]!.extras.errKind).toBe('solver');
    expect(out.tests[0]!.extras.errText).toMatch(/^Error: Query timed out \(fork\)\.\n/);
  });
});
