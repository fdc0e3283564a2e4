/** A scripted state and coverage oracle for the searcher tests. */
import type { CoverageOracle, PTreeNode, SearchableState } from '../../../../src/engine/searchers/searcher.js';

export class FakeState implements SearchableState {
  depth = 0;
  queryCostMs = 0;
  instsSinceCovNew = 0;
  ptreeNode: PTreeNode | null = null;
  /** Oracle inputs. */
  md2u = Infinity;
  icnt = 1;
  cpicnt = 1;
  constructor(
    readonly id: number,
    init: Partial<Pick<FakeState, 'depth' | 'queryCostMs' | 'instsSinceCovNew' | 'md2u' | 'icnt' | 'cpicnt'>> = {},
  ) {
    Object.assign(this, init);
  }
}

export const fakeOracle: CoverageOracle<FakeState> = {
  minDistToUncovered: (s) => s.md2u,
  instructionCount: (s) => s.icnt,
  callPathInstructionCount: (s) => s.cpicnt,
};

/** Fresh states with ids from..from+n-1. */
export function states(n: number, from = 0): FakeState[] {
  return Array.from({ length: n }, (_, i) => new FakeState(from + i));
}

/** How often each state is selected in `n` draws. */
export function frequencies<S>(n: number, select: () => S): Map<S, number> {
  const m = new Map<S, number>();
  for (let i = 0; i < n; i++) {
    const s = select();
    m.set(s, (m.get(s) ?? 0) + 1);
  }
  return m;
}
