/**
 * KLEE's --use-incomplete-merge (MergingSearcher::selectState, MergeHandler): with manual
 * merging, states that reached klee_close_merge do not wait for the whole region. While a
 * region has states waiting at its close, the searcher prefers a state of that region that is
 * still running and has run fewer than twice the mean number of instructions the waiting ones
 * took from klee_open_merge (it may still arrive and merge); when there is none, the waiting
 * states are released to run on unmerged. The states that close later wait (and merge) again.
 * --debug-log-incomplete-merge logs each decision.
 */
import type { Searcher } from '../searchers/searcher.js';
import { StateStatus, type ExecutionState } from '../state.js';
import type { MergeGroup } from './manual.js';

/**
 * The instruction counts of opens and closes. A state's count grows when its step ends (and
 * the open and the close both end the step), so they are recorded during the step and
 * settled after it: the open's count, and KLEE's travelling mean of the closes' distances
 * from it (MergeHandler::addClosedState).
 */
export class MergeDistances {
  private pending: { g: MergeGroup; st: ExecutionState; open: boolean }[] = [];

  record(g: MergeGroup, st: ExecutionState, open: boolean): void {
    this.pending.push({ g, st, open });
  }

  settle(): void {
    if (this.pending.length === 0) return;
    for (const { g, st, open } of this.pending) {
      if (open) g.openInstruction = st.steppedInstructions;
      else {
        g.closedCount++;
        g.closedMean += (st.steppedInstructions - g.openInstruction - g.closedMean) / g.closedCount;
      }
    }
    this.pending = [];
  }
}

/** What the searcher needs of the executor. */
export interface IncompleteMergeHost {
  readonly liveMergeGroups: ReadonlySet<MergeGroup>;
  waitingAtClose(st: ExecutionState): boolean;
  releaseEarly(g: MergeGroup): void;
}

/** Does g have states waiting at one of its closes? */
function hasWaiting(g: MergeGroup): boolean {
  for (const list of g.closed.values()) if (list.some((s) => s.status === StateStatus.Running)) return true;
  return false;
}

export class IncompleteMergeSearcher implements Searcher<ExecutionState> {
  constructor(
    private readonly base: Searcher<ExecutionState>,
    private readonly host: IncompleteMergeHost,
    private readonly log: ((line: string) => void) | null,
  ) {}

  get name(): string {
    return this.base.name;
  }

  selectState(): ExecutionState {
    for (const g of this.host.liveMergeGroups) {
      if (!hasWaiting(g)) continue;
      const limit = 2 * g.closedMean;
      for (const s of g.open) {
        if (s.status !== StateStatus.Running || this.host.waitingAtClose(s)) continue;
        if (s.steppedInstructions - g.openInstruction < limit) {
          this.log?.(`incomplete merge: prioritizing state ${s.id} of region ${g.id}`);
          return s;
        }
      }
      this.log?.(`incomplete merge: releasing the states waiting at the close of region ${g.id}`);
      this.host.releaseEarly(g);
    }
    return this.base.selectState();
  }

  update(current: ExecutionState | null, added: readonly ExecutionState[], removed: readonly ExecutionState[]): void {
    this.base.update(current, added, removed);
  }

  empty(): boolean {
    return this.base.empty();
  }
}
