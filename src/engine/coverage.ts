/**
 * Coverage facts for the nurs:* searchers (KLEE's StatsTracker): minDistToUncovered, how often
 * the instruction at a state's pc has run (nurs:icnt; the executor's per-instruction counts),
 * and how many instructions ran in a state's call path (nurs:cpicnt; CallPathCounts below).
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
import type { ExecutionState, StackFrame } from './state.js';
import { Op, type Edge, type KFunction } from './prepare/kinst.js';
import type { SwitchInfo } from './prepare/kmodule.js';
import { baseInst } from './prepare/poison.js';

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

  /** Times the instruction at st's pc has run, in every state (KLEE: stats::instructions of pc). */
  instructionCount(st: ExecutionState): number {
    if (st.stack.length === 0) return 0;
    const ki = st.top.kf.insts[st.pc];
    return ki !== undefined ? this.ex.covered[ki.gid]! : 0;
  }

  /** Instructions run in st's current call path, by every state (needs ex.callPaths). */
  callPathInstructionCount(st: ExecutionState): number {
    const cp = this.ex.callPaths;
    if (cp === null) throw new Error('nurs:cpicnt needs the executor to count call paths (ex.callPaths)');
    return cp.countOf(st);
  }

  private table(kf: KFunction): Table {
    const ex = this.ex;
    let t = this.tables.get(kf);
    if (t !== undefined && (t.coveredAt === ex.coveredCount || ex.instructions - t.instructionsAt < RECOMPUTE_INTERVAL)) return t;
    t = this.compute(kf);
    this.tables.set(kf, t);
    return t;
  }

  private compute(kf: KFunction): Table {
    const n = kf.insts.length;
    const covered = this.ex.covered;
    const dist = new Float64Array(n).fill(Infinity);
    const toReturn = new Float64Array(n).fill(Infinity);
    const succ = kf.insts.map((_, pc) => successorPcs(kf, pc));
    // Bellman-Ford style relaxation over the (small) function graph, in reverse order.
    let changed = true;
    for (let pc = 0; pc < n; pc++) {
      const ki = kf.insts[pc]!;
      if (covered[ki.gid] === 0) dist[pc] = 1;
      if (baseInst(ki).op === Op.Ret) toReturn[pc] = 1;
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

/** The pcs control can go to after pc in kf (none after a return or unreachable). */
export function successorPcs(kf: KFunction, pc: number): number[] {
  const ki = baseInst(kf.insts[pc]!); // a poison check wraps the instruction it guards
  switch (ki.op) {
    case Op.Br:
      return [(ki.aux as Edge).pc];
    case Op.CondBr:
    case Op.CondBrSlow: // --write-paths / --replay-path take it through the general path
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

/** A node of the call-path tree (KLEE's CallPathNode): a function reached through a chain of call sites. */
interface CallPathNode {
  /** Instructions executed in this function through this path (not in its callees). */
  instructions: number;
  /** Children by `callerPc/function`. */
  readonly children: Map<string, CallPathNode>;
}

/**
 * Instruction counts per call path, for nurs:cpicnt (KLEE's CallPathManager with
 * stats::instructions per node). The interpreter reports the instructions of each stretch run
 * in one frame (addInstructions, at calls and returns: both leave the inline loop); a frame's
 * node is cached per StackFrame object and rebuilt from the caller's after a copy-on-write clone.
 */
export class CallPathCounts {
  private readonly root: CallPathNode = { instructions: 0, children: new Map() };
  private readonly nodes = new WeakMap<StackFrame, CallPathNode>();

  /** `n` instructions just ran in st's top frame. */
  addInstructions(st: ExecutionState, n: number): void {
    if (n > 0 && st.stack.length > 0) this.nodeAt(st, st.stack.length - 1).instructions += n;
  }

  countOf(st: ExecutionState): number {
    return st.stack.length > 0 ? this.nodeAt(st, st.stack.length - 1).instructions : 0;
  }

  private nodeAt(st: ExecutionState, i: number): CallPathNode {
    const f = st.stack[i]!;
    let node = this.nodes.get(f);
    if (node !== undefined) return node;
    const parent = i > 0 ? this.nodeAt(st, i - 1) : this.root;
    const key = `${f.callerPc}/${f.kf.name}`;
    node = parent.children.get(key);
    if (node === undefined) {
      node = { instructions: 0, children: new Map() };
      parent.children.set(key, node);
    }
    this.nodes.set(f, node);
    return node;
  }
}
