import { SolverFailure } from '../../src/solver/solver.js';

/** The SolverFailure that `f` throws; any other error is rethrown, and returning is an error. */
export function failureOf(f: () => unknown): SolverFailure {
  try {
    f();
  } catch (e) {
    if (e instanceof SolverFailure) return e;
    throw e;
  }
  throw new Error('expected a SolverFailure');
}
