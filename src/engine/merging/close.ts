// klee_close_merge (KLEE's MergeHandler): states of a merge region wait at the close for the
// others, merging into a compatible waiting state, and all run on once the region is empty.
import { Termination } from '../errors.js';
import type { Executor } from '../executor.js';
import { StateStatus, type ExecutionState } from '../state.js';
import { mergeBlocker, mergeInto } from './core.js';
import { closeKey, MergeGroup } from './manual.js';

/** klee_close_merge: pause st, merged into a compatible paused state when there is one. */
export function closeMergeRegion(ex: Executor, st: ExecutionState): void {
  const g = st.openMergeStack.pop();
  if (g === undefined) {
    ex.warning(`state ${st.id} ran into a close at ${st.top.kf.name} without a preceding open`);
    return;
  }
  const key = closeKey(st);
  const list = g.closed.get(key) ?? [];
  g.closed.set(key, list);
  st.yieldStep = true;
  g.running--;
  g.open.delete(st);
  ex.mergeDistances.record(g, st, false);
  const log = ex.opts.debugLogMerge ? (l: string): void => ex.message(l) : null;
  log?.(`close merge: state ${st.id} of region ${g.id} at ${st.top.kf.name}`);
  let mergedInto: ExecutionState | null = null;
  // a quantified region's leaves merge together at its release (merging/quantified/)
  if (g.quantified === null) for (const other of list) {
    if (mergeBlocker(other, st) === null) {
      // KLEE's manual merging writes one test per merged state: no witness tests (as KLEE)
      mergeInto(ex, other, st, ex.mergeCounters);
      mergedInto = other;
      log?.(`merge: state ${st.id} merged into state ${other.id}`);
      break;
    }
  }
  if (mergedInto === null) log?.(`merge: state ${st.id} waits (${list.length === 0 ? 'first at this close' : 'no compatible state waiting'})`);
  if (mergedInto !== null) {
    // the merged-away state ends quietly (KLEE: terminateStateEarlyAlgorithm "merged state.")
    st.openMergeStack.push(g); // terminate() leaves the group; undo the decrement first
    g.running++;
    ex.terminateSilently(st, Termination.Merge);
  } else {
    list.push(st);
    ex.paused.push(st);
  }
  if (g.running === 0) releaseMergeGroup(ex, g);
}

/** klee_open_merge: a new region for st (and what it forks); under quantified merging, a quantified region. */
export function openMergeRegion(ex: Executor, st: ExecutionState): void {
  if (ex.quantified !== null && st.trace === null) {
    ex.quantified.open(st, null);
    return;
  }
  const g = new MergeGroup(ex.newMergeGroupId());
  g.running = 1;
  g.open.add(st);
  st.openMergeStack.push(g);
  // the count is known when the step ends, which the open ends under --use-incomplete-merge
  if (ex.opts.useIncompleteMerge) st.yieldStep = true;
  ex.mergeDistances.record(g, st, true);
  ex.liveMergeGroups.add(g);
  if (ex.opts.debugLogMerge) ex.message(`open merge: state ${st.id} opens region ${g.id}`);
}

/** A state of a quantified loop region reached an exit: it waits there for the others. */
export function pauseAtExit(ex: Executor, st: ExecutionState, g: MergeGroup, key: string): void {
  st.openMergeStack.pop();
  g.open.delete(st);
  const list = g.closed.get(key) ?? [];
  g.closed.set(key, list);
  list.push(st);
  st.yieldStep = true;
  ex.paused.push(st);
  g.running--;
  if (g.running === 0) releaseMergeGroup(ex, g);
}

/** st leaves region g without reaching its close (it ended): the region may now be complete. */
export function leaveMergeGroup(ex: Executor, g: MergeGroup, st: ExecutionState): void {
  g.running--;
  g.open.delete(st);
  if (g.running === 0) releaseMergeGroup(ex, g);
}

/** A state left a quantified loop region other than by an exit (it returned from the loop's function). */
export function leaveQuantifiedRegion(ex: Executor, st: ExecutionState, g: MergeGroup): void {
  st.openMergeStack.pop();
  st.trace = null;
  leaveMergeGroup(ex, g, st);
}

/** Every state of the region arrived (or ended): the paused ones run again. */
export function releaseMergeGroup(ex: Executor, g: MergeGroup): void {
  if (g.quantified !== null && ex.quantified !== null) {
    // one at a time: an exit left unmerged can hold 100 000+ states (too many for spread arguments)
    for (const s of ex.quantified.release(g)) ex.resumed.push(s);
    return;
  }
  ex.liveMergeGroups.delete(g);
  releaseEarly(ex, g);
}

/** --use-incomplete-merge (and a region's release): the states waiting at g's closes run on. */
export function releaseEarly(ex: Executor, g: MergeGroup): void {
  for (const list of g.closed.values()) for (const s of list) if (s.status === StateStatus.Running) ex.resumed.push(s);
  g.closed.clear();
}
