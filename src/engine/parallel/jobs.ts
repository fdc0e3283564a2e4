/**
 * Jobs of a parallel exploration (`tsklee run --jobs N`, Cloud9's scheme): a job is a path
 * prefix, the outcome of every symbolic branch from the program's start: at a two-way branch
 * 1/0 (forked, this side true/false) or FORCED_TRUE/FORCED_FALSE (one side feasible), at an
 * n-way one (a switch) the target's index. Forced outcomes are recorded too so that a replay
 * asks the solver nothing at the branches of its prefix. A worker that runs dry
 * gets jobs from a busy one, which gives away its shallowest state (the largest subtree, likely)
 * as its prefix, with a model of its path condition for the receiver's counterexample cache
 * (solver/layers/model-hints.ts), and ends it without a test; the receiver starts a copy
 * of the initial state for each and replays its prefix: at a fork on the prefix it follows the
 * recorded side only (the other side belongs to someone else), trusting the recorded outcome
 * (the replay re-executes the same deterministic path), and from the prefix's end on it
 * explores as any state does. The engine reaches the workers only through WorkSharing.
 */
import type { ExecutionState, ForkChoice } from '../state.js';

/** A two-way branch whose condition was found always true / always false (no fork). */
export const FORCED_FALSE = 2;
export const FORCED_TRUE = 3;

/** What the executor's run loop asks of a parallel exploration. */
export interface WorkSharing {
  /** Called once the initial state exists: whether this worker explores it (the first does). */
  begin(initial: ExecutionState): boolean;
  /** After every step (`replayed`: the state was on an adopted prefix): hand states over when another worker asked for some. */
  afterStep(replayed: boolean): void;
  /** The worker ran dry: resolves to true once jobs were adopted, false when all work is done. */
  waitForWork(): Promise<boolean>;
}

/** A state's path from the program's start: the choices it took, then what is left of its job. */
export function jobPath(st: ExecutionState): number[] {
  const taken: number[] = [];
  for (let c: ForkChoice | null = st.forkChoices; c !== null; c = c.prev) taken.push(c.choice);
  taken.reverse();
  if (st.jobPrefix !== null) for (let i = st.jobPosition; i < st.jobPrefix.length; i++) taken.push(st.jobPrefix[i]!);
  return taken;
}

/**
 * The next choice of the job a state replays, recorded as taken; the prefix is dropped once
 * used up. `ways`: how many sides the fork has. A choice out of range means the replay left
 * the recorded path (a concretisation answered differently): the prefix is dropped and the
 * state explores every side from there (null).
 */
export function takeJobChoice(st: ExecutionState, ways: number): number | null {
  const prefix = st.jobPrefix!;
  const choice = prefix[st.jobPosition++]!;
  if (st.jobPosition >= prefix.length) st.jobPrefix = null;
  if (choice >= ways) {
    st.jobPrefix = null;
    return null;
  }
  st.forkChoices = { choice, prev: st.forkChoices };
  return choice;
}

/** Records the choices of an n-way fork (a switch): `sides[i]` took choice i. */
export function recordBranchChoices(parent: ForkChoice | null, sides: readonly (ExecutionState | null | undefined)[]): void {
  for (let i = 0; i < sides.length; i++) {
    const s = sides[i];
    if (s !== null && s !== undefined) s.forkChoices = { choice: i, prev: parent };
  }
}
