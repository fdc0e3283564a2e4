/**
 * The statistics the executor reports as it runs (KLEE's StatisticManager with indexed
 * statistics): per instruction, the solver queries, their answers and times, forks and object
 * resolution time it caused; per run, forks by cause, states ended by class, inhibited forks.
 * The executor calls these hooks only where something rare happens (a fork, a query, a
 * symbolic pointer resolution), never per instruction: instruction counts and coverage come
 * from Executor.covered and Executor.edgeTaken.
 *
 * Queries are KLEE's: checks the backend ran (stats::queries), valid = unsat, invalid = sat,
 * attributed to the instruction that asked (KLEE attributes a test's model query to the
 * instruction where its state ended; so does this, at the next hook). Times are kept in ms.
 */
import type { BackendCounters, CountingBackend } from '../solver/solver.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import { Op, type CallTarget, type KInst } from './prepare/kinst.js';
import { Termination } from './errors.js';
import { baseInst } from './prepare/poison.js';

/** KLEE's branch types (BranchTypes.h), in its order: run.stats' Branches<Name> columns count forks by cause. */
export const BRANCH_TYPES = ['NONE', 'ConditionalBranch', 'IndirectBranch', 'Switch', 'Call', 'MemOp', 'ResolvePointer', 'Alloc', 'Realloc', 'Free', 'GetVal'] as const;
export type BranchType = (typeof BRANCH_TYPES)[number];

/** KLEE's termination classes (TerminationTypes.h), in its order: run.stats' Termination<Class> columns. */
export const TERMINATION_CLASSES = ['Exit', 'Early', 'SolverError', 'ProgramError', 'UserError', 'ExecutionError', 'EarlyAlgorithm', 'EarlyUser'] as const;
export type TerminationClass = (typeof TERMINATION_CLASSES)[number];

/** The class of a termination kind, as KLEE files its termination types. */
export function terminationClass(kind: Termination): TerminationClass {
  switch (kind) {
    case Termination.Exit:
      return 'Exit';
    case Termination.Interrupted:
    case Termination.MaxDepth:
    case Termination.OutOfMemory:
    case Termination.OutOfStackMemory:
      return 'Early';
    case Termination.Solver:
      return 'SolverError';
    case Termination.User:
      return 'UserError';
    case Termination.Execution:
    case Termination.External:
      return 'ExecutionError';
    case Termination.Merge:
    case Termination.Replay:
      return 'EarlyAlgorithm';
    case Termination.SilentExit:
      return 'EarlyUser';
    default:
      return 'ProgramError';
  }
}

const ALLOCATORS = new Set(['malloc', 'calloc', 'valloc', 'memalign', 'aligned_alloc', 'posix_memalign', '_Znwm', '_Znam']);
const FREES = new Set(['free', '_ZdlPv', '_ZdaPv']);

/** Why an instruction forks, from what it is (KLEE passes the cause to fork; tsklee reads it off the instruction). */
function branchTypeOf(op: Op, aux: unknown): BranchType {
  switch (op) {
    case Op.CondBr:
    case Op.CondBrSlow: // --write-paths / --replay-path take it through the general path
      return 'ConditionalBranch';
    case Op.Switch:
      return 'Switch';
    case Op.IndirectBr:
      return 'IndirectBranch';
    case Op.CallIndirect:
      return 'Call';
    case Op.Load:
    case Op.Store:
    case Op.CmpXchg:
    case Op.AtomicRMW:
    case Op.VAArg:
      return 'MemOp';
    case Op.Alloca:
      return 'Alloc';
    case Op.CallSpecial:
    case Op.CallDirect: {
      const name = (aux as CallTarget | null)?.name ?? '';
      if (ALLOCATORS.has(name)) return 'Alloc';
      if (name === 'realloc') return 'Realloc';
      if (FREES.has(name)) return 'Free';
      if (name.startsWith('klee_get_value')) return 'GetVal';
      if (name === 'klee_make_symbolic' || name === 'klee_check_memory_access') return 'ResolvePointer';
      return 'MemOp';
    }
    default:
      return 'NONE';
  }
}

export class RunStatistics {
  /** Per instruction (gid): backend checks, of them valid (unsat) and invalid (sat) ones. */
  readonly queries: Float64Array;
  readonly queriesValid: Float64Array;
  readonly queriesInvalid: Float64Array;
  /** Per instruction: ms in the backend (KLEE's QueryTime), in the whole solver chain (SolverTime), resolving pointers. */
  readonly queryTimeMs: Float64Array;
  readonly solverTimeMs: Float64Array;
  readonly resolveTimeMs: Float64Array;
  /** Per instruction: forks (new states) it made. */
  readonly forks: Float64Array;
  /** Forks by cause (BRANCH_TYPES order) and ended states by class (TERMINATION_CLASSES order). */
  readonly forksByType = new Float64Array(BRANCH_TYPES.length);
  readonly terminations = new Float64Array(TERMINATION_CLASSES.length);
  inhibitedForks = 0;
  /** ms in the solver queries of forks (KLEE's ForkTime; the rest of a fork is an O(1) clone). */
  forkTimeMs = 0;
  totalResolveTimeMs = 0;
  private lastChecks = 0;
  private lastValid = 0;
  private lastInvalid = 0;
  private lastBackendMs = 0;

  constructor(
    private readonly ex: Executor,
    /** The solver chain's backend, whose checks are KLEE's queries (null: none is counted). */
    readonly backend: CountingBackend | null,
  ) {
    const n = ex.km.instructions.length;
    this.queries = new Float64Array(n);
    this.queriesValid = new Float64Array(n);
    this.queriesInvalid = new Float64Array(n);
    this.queryTimeMs = new Float64Array(n);
    this.solverTimeMs = new Float64Array(n);
    this.resolveTimeMs = new Float64Array(n);
    this.forks = new Float64Array(n);
    if (backend !== null) this.sync(backend.counters, -1);
  }

  /** A query of st's current instruction took dtMs through the chain (`what`: 'fork' for a fork's). */
  onQuery(st: ExecutionState, dtMs: number, what: string): void {
    const gid = this.currentGid(st);
    if (gid >= 0) this.solverTimeMs[gid] += dtMs;
    if (what === 'fork') this.forkTimeMs += dtMs;
    if (this.backend !== null) this.sync(this.backend.counters, gid);
  }

  /** st's current instruction made `n` new states. */
  onFork(st: ExecutionState, n: number): void {
    const ki = this.currentInst(st);
    if (ki !== null) this.forks[ki.gid] += n;
    const bk = ki !== null ? baseInst(ki) : null;
    this.forksByType[BRANCH_TYPES.indexOf(bk !== null ? branchTypeOf(bk.op, bk.aux) : 'NONE')] += n;
  }

  onInhibitedFork(): void {
    this.inhibitedForks++;
  }

  /** Resolving a symbolic pointer at st's current instruction took dtMs. */
  onResolve(st: ExecutionState, dtMs: number): void {
    const gid = this.currentGid(st);
    if (gid >= 0) this.resolveTimeMs[gid] += dtMs;
    this.totalResolveTimeMs += dtMs;
  }

  onStateEnd(kind: Termination): void {
    this.terminations[TERMINATION_CLASSES.indexOf(terminationClass(kind))]++;
  }

  /** Attributes the backend's work since the last sync to instruction `gid` (-1: to none). */
  private sync(c: BackendCounters, gid: number): void {
    const ms = this.backend!.backendTimeMs();
    if (gid >= 0) {
      this.queries[gid] += c.checks - this.lastChecks;
      this.queriesValid[gid] += c.unsat - this.lastValid;
      this.queriesInvalid[gid] += c.sat - this.lastInvalid;
      this.queryTimeMs[gid] += ms - this.lastBackendMs;
    }
    this.lastChecks = c.checks;
    this.lastValid = c.unsat;
    this.lastInvalid = c.sat;
    this.lastBackendMs = ms;
  }

  private currentInst(st: ExecutionState): KInst | null {
    return this.ex.currentInst(st);
  }

  private currentGid(st: ExecutionState): number {
    return this.ex.currentInst(st)?.gid ?? -1;
  }
}
