// Adopting another worker's jobs (--jobs): each job is a path prefix, replayed from a copy of
// the untouched initial state without solver queries (jobs.ts takeJobChoice); with it comes a
// model of the giver's path condition, a hint for the receiver's counterexample cache.
import { collectArraysOf, TRUE } from '../../expr/index.js';
import { isSolverFailure } from '../../solver/solver.js';
import { namedModel, type NamedModel } from '../../solver/layers/model-hints.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';

/** Plants one copy of `pristine` per path, each replaying its path, and hands them to the searcher. */
export function adoptJobPaths(ex: Executor, pristine: ExecutionState, paths: readonly (readonly number[])[]): void {
  for (const path of paths) {
    const st = pristine.branch(ex.newStateId());
    st.depth = 0;
    st.jobPrefix = path.length > 0 ? path : null;
    st.jobPosition = 0;
    st.forkChoices = null;
    ex.ptree?.plant(st);
    ex.added.push(st);
  }
  pristine.depth = 0;
  ex.updateStates(null);
}

/**
 * A model of st's path condition, for the worker it is handed to (null when the solver fails).
 * The giver's cache knows st's path condition (its forks asked about it), so this rarely
 * reaches the backend; the receiver's cache knows nothing of st's subtree.
 */
export function modelOfState(ex: Executor, st: ExecutionState): NamedModel | null {
  const constraints = ex.solverConstraints(st);
  if (constraints.length === 0) return null;
  const arrays = [...collectArraysOf(constraints)].filter((a) => a.constantValues === null);
  try {
    const values = ex.solver.computeInitialValues({ constraints, expr: TRUE }, arrays);
    return values === null ? null : namedModel(arrays, values);
  } catch (e) {
    if (isSolverFailure(e)) return null;
    throw e;
  }
}
