/**
 * Coverage facts for the nurs:* searchers (KLEE's StatsTracker: minDistToUncovered).
 *
 * Distance from a pc to the nearest instruction no state has executed, counting the
 * uncovered instruction as 1, following the control-flow graph inside the function and, when
 * the function can return, continuing in the callers (KLEE also looks into callees; tsklee
 * does not, a documented simplification). Tables are recomputed lazily when coverage changed
 * and at least RECOMPUTE_INTERVAL instructions ran since (KLEE recomputes periodically in
 * time; an instruction count keeps runs deterministic, DESIGN decision 7).
 */
import type { CoverageOracle } from './searchers/searcher.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import { Op, type Edge, type KFunction } from './prepare/kinst.js';
import type { SwitchInfo } from './prepare/kmodule.js';

/** Instructions between two recomputations of one function's table. */
export const RECOMPUTE_INTERVAL = 20000;

interface Table {
  /** Distance from each pc to the nearest uncovered instruction (Infinity: none). */
  dist: Float64Array;
  /** Distance from each pc to a return. */
  toReturn: Float64Array;
  /** ex.coveredCount and ex.instructions when computed. */
  coveredAt: number;
  instructionsAt: number;
}

export class CoverageTracker implements CoverageOracle<ExecutionState> {
  private readonly tables = new Map<KFunction, Table>();

  constructor(private readonly ex: Executor) {}

  minDistToUncovered(st: ExecutionState): number {
    let best = Infinity;
    let prefix = 0;
    let pc = st.pc;
    for (let i = st.stack.length - 1; i >= 0; i--) {
      const f = st.stack[i]!;
      const t = this.table(f.kf);
      const d = t.dist[pc] ?? Infinity;
      if (prefix + d < best) best = prefix + d;
      const r = t.toReturn[pc] ?? Infinity;
      if (r === Infinity) break;
      prefix += r;
      pc = f.callerPc + 1;
    }
    return best;
  }

  instructionCount(_st: ExecutionState): number {
    return 1; // per-instruction counters are not kept (nurs:icnt then behaves like uniform)
  }

  callPathInstructionCount(st: ExecutionState): number {
    return st.steppedInstructions;
  }

  private table(kf: KFunction): Table {
    const ex = this.ex;
    let t = this.tables.get(kf);
    if (t !== undefined && (t.coveredAt === ex.coveredCount || ex.instructions - t.instructionsAt < RECOMPUTE_INTERVAL)) return t;
    t = this.compute(kf);
    this.tables.set(kf, t);
    return t;
  }

  /** Successor pcs of pc (with the phi count of the edge as extra cost, ignored here). */
  private successors(kf: KFunction, pc: number): number[] {
    const ki = kf.insts[pc]!;
    switch (ki.op) {
      case Op.Br:
        return [(ki.aux as Edge).pc];
      case Op.CondBr:
        return (ki.aux as Edge[]).map((e) => e.pc);
      case Op.Switch: {
        const s = ki.aux as SwitchInfo;
        return [s.defaultEdge.pc, ...s.edges.map((e) => e.pc)];
      }
      case Op.IndirectBr:
        return (ki.aux as { edge: Edge }[]).map((d) => d.edge.pc);
      case Op.Ret:
      case Op.Unreachable:
        return [];
      default:
        return [pc + 1];
    }
  }

  private compute(kf: KFunction): Table {
    const n = kf.insts.length;
    const covered = this.ex.covered;
    const dist = new Float64Array(n).fill(Infinity);
    const toReturn = new Float64Array(n).fill(Infinity);
    const succ = kf.insts.map((_, pc) => this.successors(kf, pc));
    // Bellman-Ford style relaxation over the (small) function graph, in reverse order.
    let changed = true;
    for (let pc = 0; pc < n; pc++) {
      const ki = kf.insts[pc]!;
      if (covered[ki.gid] === 0) dist[pc] = 1;
      if (ki.op === Op.Ret) toReturn[pc] = 1;
    }
    for (let iter = 0; changed && iter < n + 1; iter++) {
      changed = false;
      for (let pc = n - 1; pc >= 0; pc--) {
        for (const s of succ[pc]!) {
          const d = dist[s]! + 1;
          if (d < dist[pc]!) {
            dist[pc] = d;
            changed = true;
          }
          const r = toReturn[s]! + 1;
          if (r < toReturn[pc]!) {
            toReturn[pc] = r;
            changed = true;
          }
        }
      }
    }
    return { dist, toReturn, coveredAt: this.ex.coveredCount, instructionsAt: this.ex.instructions };
  }
}
