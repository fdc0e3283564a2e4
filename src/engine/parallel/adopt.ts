// Adopting another worker's jobs (--jobs): each job is a path prefix, replayed from a copy of
// the untouched initial state without solver queries (jobs.ts takeJobChoice).
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
