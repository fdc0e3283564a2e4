// Forking (KLEE's Executor::fork and Executor::branch): splitting a state at a symbolic branch,
// under the fork limits, seeding, the static limits and a replayed job's prefix.
import { builder } from '../expr/builder.js';
import { TRUE, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { Validity } from '../solver/solver.js';
import { Msg, Termination } from './errors.js';
import type { Executor } from './executor.js';
import { FORCED_FALSE, FORCED_TRUE, recordBranchChoices, takeJobChoice } from './parallel/jobs.js';
import type { ExecutionState } from './state.js';

function branchingPermitted(ex: Executor, st: ExecutionState): boolean {
  if (ex.atMemoryLimit || st.forkDisabled || (ex.opts.maxForks >= 0 && ex.forks >= ex.opts.maxForks)) {
    ex.stats?.onInhibitedFork();
    if (ex.atMemoryLimit) ex.warningOnce('skip-fork-mem', 'skipping fork (memory cap exceeded)');
    else if (st.forkDisabled) ex.warningOnce('skip-fork-disabled', 'skipping fork (fork disabled on current path)');
    else ex.warningOnce('skip-fork-max', 'skipping fork (max-forks reached)');
    return false;
  }
  return true;
}

/**
 * Fork on a width-1 condition (KLEE's Executor::fork). Returns [state where cond holds,
 * state where it does not]; either is null when infeasible. When both are feasible, `st`
 * becomes the true side and a new state (added to the searcher after the step) the false
 * side; both get the condition as a constraint.
 */
export function forkState(ex: Executor, st: ExecutionState, cond: Expr): [ExecutionState | null, ExecutionState | null] {
  if (cond.kind === ExprKind.Constant) return cond === TRUE ? [st, null] : [null, st];
  const seeding = ex.seeding !== null && ex.seeding.has(st) ? ex.seeding : null;
  const limits = ex.staticLimits;
  if (seeding === null && limits !== null && limits.exceeded(st, ex.currentInst(st))) {
    // --max-static-*-pct: a hot branch takes one value the path allows instead of forking
    const ki = ex.currentInst(st);
    const at = ki !== null && ki.file !== '' ? ` at ${ki.file}:${ki.line}` : '';
    ex.warningOnce(`static-pct${at}`, `skipping fork and concretizing condition (MaxStatic*Pct limit reached)${at}`);
    const v = ex.getValue(st, cond);
    st.addConstraint(builder.eq(v, cond));
    return Number(v.value) !== 0 ? [st, null] : [null, st];
  }
  if (st.jobPrefix !== null) {
    // a job from another worker: its prefix says how this branch went, no query needed
    const code = takeJobChoice(st, 4);
    if (code !== null) return replayFork(ex, st, cond, code);
  }
  let res = ex.evaluate(st, cond);
  if (ex.workSharing !== null && res !== Validity.Unknown) st.forkChoices = { choice: res === Validity.True ? FORCED_TRUE : FORCED_FALSE, prev: st.forkChoices };
  if (seeding !== null) {
    // seeded states fork past the fork limits (KLEE); without forking, the seeds pick the side
    if (res === Validity.Unknown && (st.forkDisabled || seeding.opts.onlyReplaySeeds)) {
      const side = seeding.agreedSide(st, cond);
      if (side !== null) {
        if (!ex.constrain(st, side ? cond : builder.not(cond))) return [null, null];
        res = side ? Validity.True : Validity.False;
      }
    }
  } else if (res === Validity.Unknown && !branchingPermitted(ex, st)) {
    // Follow one side at random, as KLEE does when it may not fork.
    if (ex.rng.nextU32() & 1) {
      if (!ex.constrain(st, cond)) return [null, null];
      res = Validity.True;
    } else {
      if (!ex.constrain(st, builder.not(cond))) return [null, null];
      res = Validity.False;
    }
    if (ex.workSharing !== null) st.forkChoices = { choice: res === Validity.True ? 1 : 0, prev: st.forkChoices };
  }
  if (st.trace !== null && res !== Validity.Unknown) {
    // a quantified region's tree has one-sided branches too (paper 000 §4): the path took one
    st.trace.push(res === Validity.True ? cond : builder.not(cond));
  }
  if (res === Validity.True) return [st, null];
  if (res === Validity.False) return [null, st];
  ex.forks++;
  ex.stats?.onFork(st, 1);
  limits?.recordFork(st, ex.currentInst(st));
  const other = st.branch(ex.newStateId());
  ex.added.push(other);
  ex.ptree?.fork(st, other, st);
  if (ex.workSharing !== null) {
    const p = st.forkChoices;
    st.forkChoices = { choice: 1, prev: p };
    other.forkChoices = { choice: 0, prev: p };
  }
  seeding?.split(st, other, cond);
  const okTrue = ex.constrain(st, cond);
  const okFalse = ex.constrain(other, builder.not(cond));
  if (ex.opts.maxDepth > 0 && ex.opts.maxDepth <= st.depth) {
    if (okTrue) ex.terminateEarly(st, Msg.maxDepth, Termination.MaxDepth);
    if (okFalse) ex.terminateEarly(other, Msg.maxDepth, Termination.MaxDepth);
    return [null, null];
  }
  return [okTrue ? st : null, okFalse ? other : null];
}

/** A two-way branch of a replayed job: FORCED_* took the one feasible side, 1/0 forked to the true/false side. */
function replayFork(ex: Executor, st: ExecutionState, cond: Expr, code: number): [ExecutionState | null, ExecutionState | null] {
  if (code === FORCED_TRUE) return [st, null];
  if (code === FORCED_FALSE) return [null, st];
  st.depth++;
  if (!ex.constrain(st, code === 1 ? cond : builder.not(cond))) return [null, null];
  return code === 1 ? [st, null] : [null, st];
}

/**
 * Split `st` into one state per condition (KLEE's Executor::branch, for switch and symbolic
 * function pointers): result[i] is the state that takes conditions[i] (or null).
 */
export function branchState(ex: Executor, st: ExecutionState, conditions: Expr[]): (ExecutionState | null)[] {
  const n = conditions.length;
  const result: (ExecutionState | null)[] = [];
  const chosen = n > 1 && st.jobPrefix !== null ? takeJobChoice(st, n) : null;
  if (chosen !== null) {
    // replaying another worker's job: only the prefix's target is this worker's
    st.depth++;
    for (let i = 0; i < n; i++) result.push(i === chosen ? st : null);
    if (!ex.constrain(st, conditions[chosen]!)) result[chosen] = null;
    return result;
  }
  const parentChoices = st.forkChoices;
  if (!branchingPermitted(ex, st)) {
    const pick = ex.rng.nextU32() % n;
    for (let i = 0; i < n; i++) result.push(i === pick ? st : null);
  } else {
    ex.forks += n - 1;
    ex.stats?.onFork(st, n - 1);
    result.push(st);
    for (let i = 1; i < n; i++) {
      const es = result[ex.rng.nextU32() % i]!;
      const ns = es.branch(ex.newStateId());
      ex.added.push(ns);
      result.push(ns);
      ex.ptree?.fork(es, ns, es);
    }
    if (ex.workSharing !== null) recordBranchChoices(parentChoices, result);
  }
  ex.seeding?.distribute(st, result, conditions);
  for (let i = 0; i < n; i++) {
    const s = result[i];
    if (s !== null && s !== undefined && !ex.constrain(s, conditions[i]!)) result[i] = null;
  }
  return result;
}
