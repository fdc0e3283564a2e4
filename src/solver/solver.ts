import type { Expr, ExprArray } from '../expr/index.js';

/**
 * The solver interface every layer of the chain implements (DESIGN.md, "The solver chain").
 * All calls are synchronous: the interpreter's hot path never awaits.
 *
 * A query asks about `expr` under the path condition `constraints` (a conjunction of
 * width-1 expressions, assumed satisfiable by the caller, as in KLEE).
 */
export interface Query {
  readonly constraints: readonly Expr[];
  /** A width-1 expression for truth/validity, any width for computeValue. */
  readonly expr: Expr;
  /**
   * Optional: intervals of read index expressions implied by `constraints` (the ILP
   * pre-check passes them to the array encoding below it; other layers ignore them).
   */
  readonly indexIntervals?: ReadonlyMap<Expr, { lo: bigint; hi: bigint }>;
}

export enum Validity {
  /** expr holds in every model of the constraints. */
  True = 1,
  /** expr fails in every model of the constraints. */
  False = -1,
  /** Both are possible. */
  Unknown = 0,
}

/** Why a query got no answer; the engine ends the state with a solver error, the run goes on. */
export enum SolverFailureKind {
  Timeout = 'timeout',
  OutOfMemory = 'out of memory',
  Crash = 'crash',
  Unknown = 'unknown',
}

export class SolverFailure extends Error {
  constructor(
    readonly kind: SolverFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'SolverFailure';
  }
}

/** Concrete bytes for each requested array, in the order requested. */
export type InitialValues = Uint8Array[];

export interface Solver {
  /** Is `query.expr` (width 1) true in every model of the constraints? */
  computeTruth(query: Query): boolean;
  /** Must-be-true / must-be-false / unknown, in one call where the backend can. */
  computeValidity(query: Query): Validity;
  /** Some value `query.expr` can take under the constraints. */
  computeValue(query: Query): bigint;
  /**
   * A model of `constraints ∧ expr` restricted to `arrays`, or null when unsatisfiable.
   * (KLEE asks with expr = false to get a model of the constraints alone: here pass
   * expr = TRUE for that.)
   */
  computeInitialValues(query: Query, arrays: readonly ExprArray[]): InitialValues | null;
  /** Per-layer counters for run.stats and --debug output. */
  stats(): SolverStats[];
  /** Frees native resources (worker processes, wasm contexts). */
  dispose(): void;
}

export interface SolverStats {
  layer: string;
  queries: number;
  /** Answered by this layer without asking the next one. */
  hits: number;
  /** Milliseconds spent in this layer including the layers below it. */
  timeMs: number;
  /** A caching layer's entries now (query cache, counterexample cache, z3's translations). */
  entries?: number;
  /** A caching layer's entries evicted so far. */
  evicted?: number;
  /** Lookups its cache answered, where that is not `hits` (z3: expression translations reused). */
  cacheHits?: number;
  /** A rewriting layer's distinct expressions rewritten (--optimize-array). */
  rewrites?: number;
  /** Reads of constant tables at symbolic indices its rewrites removed from the queries passed down. */
  readsRemoved?: number;
}

/** Failures are exceptions (SolverFailure) so every layer passes them through untouched. */
export function isSolverFailure(e: unknown): e is SolverFailure {
  return e instanceof SolverFailure;
}

/** What a backend (embedded or external) counts beyond the SolverStats every layer reports. */
export interface BackendCounters {
  checks: number;
  sat: number;
  unsat: number;
  timeouts: number;
  unknowns: number;
  crashes: number;
  /** Checks that asked for a model (KLEE's "query cex", stats::queryCounterexamples). */
  cex: number;
  /** Expression nodes translated for the backend (KLEE's query constructs: its builder's constructions). */
  constructs: number;
}

/** A backend the run statistics read from: its counters, and the time spent in it (KLEE's QueryTime). */
export interface CountingBackend {
  readonly counters: BackendCounters;
  backendTimeMs(): number;
}

/** The backend's counters when `s` is a counting backend (z3 embedded or an SMT-LIB process), else null. */
export function countingBackend(s: Solver): CountingBackend | null {
  const c = s as Partial<CountingBackend>;
  return typeof c.backendTimeMs === 'function' && c.counters !== undefined ? (c as CountingBackend) : null;
}
