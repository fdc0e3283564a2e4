/**
 * The merging statistics as `KLEE: done:`-style lines for the info file and the end of a run
 * (tsklee's additions; KLEE prints none for merging).
 */
import type { Executor, MergingSummary } from '../executor.js';

export function formatMergingSummary(m: MergingSummary): string {
  const lines = [
    `merged states = ${m.merges}`,
    `path multiplicity = ${m.pathMultiplicity}`,
    `merges refused by QCE = ${m.refusedBySimilarity} (by its ite term: ${m.refusedByIte})`,
    `merges refused for differing pointers = ${m.refusedByPointer}`,
    `incompatible states at a merge point = ${m.incompatible}`,
    `queries of merged states = ${m.mergedStateQueries}`,
  ];
  if (m.refusedByMultiplicity > 0) lines.push(`merges refused at --max-state-multiplicity = ${m.refusedByMultiplicity}`);
  if (m.forwardedStates > 0 || m.forwardSteps > 0) {
    const rate = m.forwardedStates > 0 ? ((100 * m.forwardedMerged) / m.forwardedStates).toFixed(0) : '0';
    lines.push(`fast-forwarded states = ${m.forwardedStates} (${m.forwardedMerged} merged, ${rate}%), fast-forward steps = ${m.forwardSteps}`);
  }
  const q = m.quantified;
  if (q !== null) {
    lines.push(`quantified regions = ${q.regions}, leaves = ${q.leaves}, quantified merges = ${q.quantifiedMerges} (${q.quantifiedMergedStates} states merged away)`);
    lines.push(`merged values: linear in k = ${q.linearValues}, ite on k = ${q.iteValues}; standard-merge fallbacks: hash ${q.fallbackHash}, patterns ${q.fallbackPatterns}, synthesis ${q.fallbackSynthesis}${q.tooManyLeaves > 0 ? `; exits not merged (--max-states-to-merge): ${q.tooManyLeaves}${q.releasedEarly > 0 ? ` (${q.releasedEarly} before their region's end)` : ''}` : ''}`);
    if (q.theoremChecks > 0) lines.push(`Theorem 3.7 checks = ${q.theoremChecks}`);
    if (q.incrementalNodes > 0) lines.push(`incremental merging: tree nodes = ${q.incrementalNodes}, join-point snapshots = ${q.incrementalSnapshots}, merges = ${q.incrementalMerges}, joins = ${q.incrementalJoins}, states ended with a merged-away subtree = ${q.incrementalDiscarded}${q.incrementalGaveUp > 0 ? `, regions that gave up = ${q.incrementalGaveUp}` : ''}`);
  }
  return lines.map((l) => `KLEE: done: ${l}\n`).join('');
}

/** Merging's statistics so far (null when merging is off and nothing merged). */
export function collectMergingSummary(ex: Executor): MergingSummary | null {
  if (ex.mergePoints === null && ex.mergeCounters.merges === 0 && ex.quantified === null) return null;
  const mp = ex.mergePoints?.counters;
  const d = ex.dsmCounters;
  return {
    merges: ex.mergeCounters.merges,
    itesCreated: ex.mergeCounters.itesCreated,
    refusedBySimilarity: mp?.refusedBySimilarity ?? 0,
    refusedByIte: mp?.refusedByIte ?? 0,
    refusedByPointer: mp?.refusedByPointer ?? 0,
    incompatible: mp?.incompatible ?? 0,
    refusedByMultiplicity: mp?.refusedByMultiplicity ?? 0,
    pathMultiplicity: ex.endedMultiplicity,
    forwardSteps: d?.forwardSteps ?? 0,
    forwardedStates: d?.forwardedStates ?? 0,
    forwardedMerged: d?.forwardedMerged ?? 0,
    mergedStateQueries: ex.mergedStateQueries,
    quantified: ex.quantified?.counters ?? null,
  };
}
