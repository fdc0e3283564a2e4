/**
 * The contents of run.istats from the run's counts: one cost line per instruction (phis
 * included) with KLEE's events, and tsklee's branch and solver-time events after them.
 *
 *   Q Qv Qiv     backend checks the instruction caused; unsat (valid) and sat (invalid) ones
 *   Qtime Rtime  µs in the backend; µs resolving symbolic pointers
 *   I            times the instruction ran
 *   Forks        new states it made
 *   Icov Iuncov  1/0 when it ran, 0/1 when it did not (both 0: it cannot run, KLEE's rule)
 *   States       states whose next instruction it is when the file is written
 *   UCdist       instructions from it to the nearest uncovered one in its function (KLEE
 *                also follows calls and returns; 0 when it is itself uncovered, as KLEE's
 *                UCdist is only defined inside a function here)
 *   Stime        µs in the whole solver chain (tsklee's)
 *   Br Bt Bf     a conditional branch (1), and whether its true / false side was taken
 * KLEE's InstructionTimes and InstructionRealTimes (only with its --track-instruction-time)
 * are not written. Sums over a source line give its line coverage: Icov / (Icov + Iuncov)
 * summed over all lines is run.stats' CoveredInstructions / (Covered + Uncovered), and
 * (Bt + Bf) / (2 Br) its branch coverage.
 */
import type { IStatsEvent, IStatsFunction, IStatsInput } from '../output/istats.js';
import type { Executor } from './executor.js';
import type { RunCounts } from './stats-peers.js';
import { sideCounts, type CoverageModel } from './stats-coverage.js';
import { successorPcs } from './coverage.js';
import type { KFunction } from './prepare/kinst.js';

export const ISTATS_EVENTS: readonly IStatsEvent[] = [
  { short: 'Q', long: 'Queries' },
  { short: 'Qv', long: 'QueriesValid' },
  { short: 'Qiv', long: 'QueriesInvalid' },
  { short: 'Qtime', long: 'QueryTime' },
  { short: 'Rtime', long: 'ResolveTime' },
  { short: 'I', long: 'Instructions' },
  { short: 'Forks', long: 'Forks' },
  { short: 'Icov', long: 'CoveredInstructions' },
  { short: 'Iuncov', long: 'UncoveredInstructions' },
  { short: 'States', long: 'States' },
  { short: 'UCdist', long: 'MinDistToUncovered' },
  { short: 'Stime', long: 'SolverTime' },
  { short: 'Br', long: 'ConditionalBranches' },
  { short: 'Bt', long: 'TrueBranches' },
  { short: 'Bf', long: 'FalseBranches' },
];

export interface IStatsHeader {
  pid: number;
  cmd: string;
  objectFile: string;
  /** Position of a site in objectFile (KLEE: its assembly.ll line). */
  instrOf: (site: number) => number;
}

/** `counts`: the run's (all workers' under --jobs, stats-peers.ts); `ex` gives the module. */
export function buildIStats(ex: Executor, counts: RunCounts, model: CoverageModel, header: IStatsHeader): IStatsInput {
  const covered = counts.covered;
  const stats = counts;
  const statesAt = counts.statesAt;
  const branchAt = new Map<number, number[]>();
  for (const b of model.branches) if (b.conditional) branchAt.set(b.gid, sideCounts(b, counts.edgeTaken));
  const us = (ms: number): number => Math.round(ms * 1000);
  const functions: IStatsFunction[] = [];
  for (const fn of model.functions) {
    const dist = distanceToUncovered(fn.kf, covered);
    // an instruction without a location (allocas, phis) is listed under its function's file
    const fnFile = fn.file >= 0 ? model.files[fn.file]! : '';
    const lines: IStatsFunction['lines'] = [];
    for (let s = fn.start; s < fn.end; s++) {
      const gid = model.siteGid[s]!;
      const count = model.count(covered, s);
      const coverable = model.siteCoverable[s] === 1;
      const file = model.siteFile[s]!;
      const sides = gid >= 0 ? branchAt.get(gid) : undefined;
      const pc = gid >= 0 ? ex.km.instructions[gid]!.index : ex.km.instructions[model.siteCountGid[s]!]?.index;
      const costs =
        gid >= 0
          ? [
              stats.queries[gid]!,
              stats.queriesValid[gid]!,
              stats.queriesInvalid[gid]!,
              us(stats.queryTimeMs[gid]!),
              us(stats.resolveTimeMs[gid]!),
              count,
              stats.forks[gid]!,
              coverable && count > 0 ? 1 : 0,
              coverable && count === 0 ? 1 : 0,
              statesAt.get(gid) ?? 0,
              pc !== undefined ? dist[pc]! : 0,
              us(stats.solverTimeMs[gid]!),
              sides !== undefined ? 1 : 0,
              sides !== undefined && sides[0]! > 0 ? 1 : 0,
              sides !== undefined && sides[1]! > 0 ? 1 : 0,
            ]
          : // a phi: runs when its block is entered, costs nothing else
            [0, 0, 0, 0, 0, count, 0, coverable && count > 0 ? 1 : 0, coverable && count === 0 ? 1 : 0, 0, pc !== undefined ? dist[pc]! : 0, 0, 0, 0, 0];
      lines.push({ file: file >= 0 ? model.files[file]! : fnFile, instr: header.instrOf(s), line: model.siteLine[s]!, costs });
    }
    functions.push({ name: fn.name, file: fnFile, lines });
  }
  return { pid: header.pid, cmd: header.cmd, objectFile: header.objectFile, events: ISTATS_EVENTS, functions };
}

/**
 * Per pc of kf, the fewest instructions to run from it to reach one that never ran (an
 * uncovered pc itself is 0); 0 too where none can be reached (KLEE's value when unknown).
 */
function distanceToUncovered(kf: KFunction, covered: Float64Array): Float64Array {
  const n = kf.insts.length;
  const dist = new Float64Array(n).fill(Infinity);
  const preds: number[][] = kf.insts.map(() => []);
  const queue: number[] = [];
  for (let pc = 0; pc < n; pc++) {
    for (const s of successorPcs(kf, pc)) if (s < n) preds[s]!.push(pc);
    if (covered[kf.insts[pc]!.gid] === 0) {
      dist[pc] = 0;
      queue.push(pc);
    }
  }
  for (let q = 0; q < queue.length; q++) {
    const pc = queue[q]!;
    for (const p of preds[pc]!) {
      if (dist[p]! <= dist[pc]! + 1) continue;
      dist[p] = dist[pc]! + 1;
      queue.push(p);
    }
  }
  for (let pc = 0; pc < n; pc++) if (dist[pc] === Infinity) dist[pc] = 0;
  return dist;
}
