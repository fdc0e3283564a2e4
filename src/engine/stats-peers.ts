/**
 * The counts that run.stats, run.istats and coverage.lcov are computed from, and how the
 * counts of several workers of one exploration (`tsklee run --jobs N`) add up: every worker
 * runs the same prepared module, so an instruction's gid and an edge's index mean the same in
 * all of them, and the whole run's counts are the element-wise sums. A worker other than the
 * first sends its counts (PeerCounts) now and then; the first one's tracker adds them to its
 * own whenever it writes (stats-tracker.ts).
 */
import type { RunStatsRow } from '../output/run-stats.js';
import type { Executor } from './executor.js';
import type { RunStatistics } from './stats.js';
import { NOT_ADDITIVE } from './stats-columns.js';

/** Per instruction (gid) or per edge: what the coverage and per-instruction statistics read. */
export interface RunCounts {
  /** Times each instruction ran (Executor.covered) and each edge was taken (Executor.edgeTaken). */
  covered: Float64Array;
  edgeTaken: Float64Array;
  /** Instructions with a count > 0 (Executor.coveredCount). */
  coveredCount: number;
  queries: Float64Array;
  queriesValid: Float64Array;
  queriesInvalid: Float64Array;
  queryTimeMs: Float64Array;
  solverTimeMs: Float64Array;
  resolveTimeMs: Float64Array;
  forks: Float64Array;
  /** gid → live states whose next instruction it is. */
  statesAt: Map<number, number>;
}

/** A worker's counts as it sends them, with its own run.stats row (its coverage columns unused). */
export interface PeerCounts extends RunCounts {
  row: RunStatsRow;
}

/**
 * The executor's own counts: views on its arrays, not copies. `statesAt` walks every live
 * state, so only what needs it asks for it (run.istats, the counts sent to another worker);
 * without it the map is empty (a run.stats row every second walked 100 000+ states).
 */
export function ownCounts(ex: Executor, stats: RunStatistics, withStates = true): RunCounts {
  const statesAt = new Map<number, number>();
  if (withStates) for (const st of ex.liveStateSet) {
    if (st.stack.length === 0) continue;
    const ki = st.top.kf.insts[st.pc];
    if (ki !== undefined) statesAt.set(ki.gid, (statesAt.get(ki.gid) ?? 0) + 1);
  }
  return {
    covered: ex.covered,
    edgeTaken: ex.edgeTaken,
    coveredCount: ex.coveredCount,
    queries: stats.queries,
    queriesValid: stats.queriesValid,
    queriesInvalid: stats.queriesInvalid,
    queryTimeMs: stats.queryTimeMs,
    solverTimeMs: stats.solverTimeMs,
    resolveTimeMs: stats.resolveTimeMs,
    forks: stats.forks,
    statesAt,
  };
}

const ARRAYS = ['covered', 'edgeTaken', 'queries', 'queriesValid', 'queriesInvalid', 'queryTimeMs', 'solverTimeMs', 'resolveTimeMs', 'forks'] as const;

/** own + every peer's counts, in new arrays (own is left as it is). */
export function sumCounts(own: RunCounts, peers: Iterable<RunCounts>): RunCounts {
  const sum: RunCounts = { ...own, statesAt: new Map(own.statesAt) };
  for (const k of ARRAYS) sum[k] = new Float64Array(own[k]);
  for (const p of peers) {
    for (const k of ARRAYS) {
      const into = sum[k];
      const from = p[k];
      if (from.length !== into.length) throw new Error(`a worker's ${k} has ${from.length} entries, not ${into.length}: the workers prepared different modules`);
      for (let i = 0; i < into.length; i++) into[i] += from[i]!;
    }
    for (const [gid, n] of p.statesAt) sum.statesAt.set(gid, (sum.statesAt.get(gid) ?? 0) + n);
  }
  let n = 0;
  for (let i = 0; i < sum.covered.length; i++) if (sum.covered[i]! > 0) n++;
  sum.coveredCount = n;
  return sum;
}

/** Adds the peers' additive run.stats columns into `row`. */
export function addPeerColumns(row: RunStatsRow, peers: Iterable<PeerCounts>): void {
  for (const p of peers) {
    for (const [k, v] of Object.entries(p.row)) {
      if (v === undefined || NOT_ADDITIVE.has(k)) continue;
      const cur = row[k];
      if (typeof v === 'bigint' || typeof cur === 'bigint') row[k] = BigInt(cur ?? 0) + BigInt(v);
      else row[k] = (cur ?? 0) + v;
    }
  }
}
