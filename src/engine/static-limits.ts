/**
 * KLEE's --max-static-fork-pct, --max-static-solve-pct, --max-static-cpfork-pct,
 * --max-static-cpsolve-pct and --max-static-pct-check-delay (Executor::fork): once the run is
 * older than the delay, a branch whose instruction (or calling context) has already done
 * more than the given fraction of all forks (or of all solver time) does not fork — its
 * condition is fixed to one value the path allows, so hot spots stop multiplying states.
 *
 * Statistics are kept only when a limit is set: forks and solver time per instruction and
 * per call path (the chain of functions and call sites, KLEE's CallPathNode).
 */
import type { EngineOptions } from './options.js';
import type { ExecutionState } from './state.js';
import type { KInst } from './prepare/kinst.js';

export interface StaticLimits {
  forkPct: number;
  solvePct: number;
  cpForkPct: number;
  cpSolvePct: number;
  /** Seconds after the start of the run before the limits apply. */
  checkDelay: number;
}

interface Counts {
  forks: number;
  solverMs: number;
}

export class StaticLimitTracker {
  private readonly byInst: Counts[];
  private readonly byCallPath = new Map<string, Counts>();
  private totalForks = 0;
  private totalSolverMs = 0;
  private readonly startMs = Date.now();

  constructor(
    private readonly limits: StaticLimits,
    instructions: number,
  ) {
    this.byInst = Array.from({ length: instructions }, () => ({ forks: 0, solverMs: 0 }));
  }

  /** A tracker when any limit is below 1, else null (nothing to track). */
  static create(opts: EngineOptions, instructions: number): StaticLimitTracker | null {
    const l = opts.staticLimits;
    if (l === undefined || (l.forkPct >= 1 && l.solvePct >= 1 && l.cpForkPct >= 1 && l.cpSolvePct >= 1)) return null;
    return new StaticLimitTracker(l, instructions);
  }

  private callPath(st: ExecutionState): Counts {
    let key = '';
    for (const f of st.stack) key += `${f.kf.name}@${f.callerPc}/`;
    let c = this.byCallPath.get(key);
    if (c === undefined) this.byCallPath.set(key, (c = { forks: 0, solverMs: 0 }));
    return c;
  }

  recordFork(st: ExecutionState, ki: KInst | null): void {
    this.totalForks++;
    if (ki !== null) this.byInst[ki.gid]!.forks++;
    if (this.limits.cpForkPct < 1) this.callPath(st).forks++;
  }

  recordSolverTime(st: ExecutionState, ki: KInst | null, ms: number): void {
    this.totalSolverMs += ms;
    if (ki !== null) this.byInst[ki.gid]!.solverMs += ms;
    if (this.limits.cpSolvePct < 1) this.callPath(st).solverMs += ms;
  }

  /** Whether the branch st is at may not fork (KLEE's test, with its strict comparisons). */
  exceeded(st: ExecutionState, ki: KInst | null): boolean {
    const l = this.limits;
    if ((Date.now() - this.startMs) / 1000 <= l.checkDelay) return false;
    const inst = ki !== null ? this.byInst[ki.gid]! : null;
    if (l.forkPct < 1 && inst !== null && inst.forks > this.totalForks * l.forkPct) return true;
    if (l.solvePct < 1 && inst !== null && inst.solverMs > this.totalSolverMs * l.solvePct) return true;
    if (l.cpForkPct < 1 && this.callPath(st).forks > this.totalForks * l.cpForkPct) return true;
    if (l.cpSolvePct < 1 && this.callPath(st).solverMs > this.totalSolverMs * l.cpSolvePct) return true;
    return false;
  }
}
