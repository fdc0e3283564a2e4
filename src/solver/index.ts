/**
 * The solver: a chain of layers over one backend (DESIGN.md, "The solver chain").
 *
 * Every query is synchronous. The embedded z3 is compiled and instantiated only when the
 * first query reaches it (z3/z3-module.ts, loadZ3Sync), so runs that never need it skip
 * its start-up.
 */
import type { Solver } from './solver.js';
import { LoggingSolver } from './logging-solver.js';
import { Z3Solver, z3HeapBounds } from './z3/z3-solver.js';
import { assembleChain, type ChainOptions } from './layers/chain.js';
import { HighsIlp } from './ilp/highs-ilp.js';
import type { ConstantArrayEncoding } from './z3/z3-builder.js';
import { isExternalBackend, SmtLibSolver, SOLVER_BACKENDS, SolverSetupError, type SolverBackendName } from './smtlib/index.js';

export * from './solver.js';
export { LoggingSolver, type LoggingSolverOptions } from './logging-solver.js';
export { Z3Solver, z3HeapBounds, type Z3SolverOptions, type Z3Counters } from './z3/z3-solver.js';
export { loadZ3, loadZ3Sync, sharedZ3Module, useSharedZ3Module, Z3Handle, Z3Instance, type Z3WasmModule } from './z3/z3-module.js';
export * from './smtlib/index.js';
export { ArrayAxiomsSolver, type ArrayAxiomsOptions, type AxiomGeneration, type ArrayQueryStats } from './array-axioms.js';
export { IlpPrecheckSolver, type IlpPrecheckOptions } from './ilp-precheck.js';
export { DEFAULT_PRECHECK_BUDGET, type PrecheckBudget } from './ilp/budget.js';
export type { ConstantArrayEncoding } from './z3/z3-builder.js';
export { HighsIlp } from './ilp/highs-ilp.js';
export type { AxiomMode } from './arrays/axiom-pool.js';
export { openSession, type IncrementalSession, type IncrementalSolver } from './incremental.js';

export interface SolverOptions extends ChainOptions {
  /** Per-query time limit of the backend in milliseconds (KLEE's --max-solver-time); none if 0 or absent. */
  timeoutMs?: number;
  /** The backend: 'z3' (default) is the embedded wasm build, the others are SMT-LIB2 processes (smtlib/). */
  backend?: SolverBackendName;
  /** With debugValidateSolver: the oracle's backend (default: the chain's own core). */
  validationBackend?: SolverBackendName;
  /** Write every query that reaches the backend as a .smt2 file into this directory (--write-smt2s). */
  smt2Dir?: string;
  /** The run's memory cap in MB (--max-memory; 0 or absent = none): bounds the embedded z3's heap (z3HeapBounds). */
  maxMemoryMB?: number;
  /** The embedded z3's encoding of constant arrays (--z3-constant-arrays; default 'lambda'). */
  z3ConstantArrays?: ConstantArrayEncoding;
}

/** The backend, wrapped in the layers the options ask for. */
export async function createSolver(opts: SolverOptions = {}): Promise<Solver> {
  const core = await createBackend(opts.backend ?? 'z3', opts.timeoutMs, opts.maxMemoryMB, undefined, { constantArrays: opts.z3ConstantArrays });
  if (opts.ilpPrecheck === true && opts.ilp === undefined) opts = { ...opts, ilp: await HighsIlp.create() };
  if (opts.debugValidateSolver === true && opts.validationBackend !== undefined && opts.validationOracle === undefined) {
    const oracle = await createBackend(opts.validationBackend, opts.timeoutMs, opts.maxMemoryMB);
    return buildChain(core, { ...opts, validationOracle: oracle });
  }
  return buildChain(core, opts);
}

/**
 * One backend without layers; an external one's missing binary is a SolverSetupError.
 * `maxMemoryMB`: the run's --max-memory, of which the embedded z3 gets a share (z3HeapBounds).
 * `stopAt`: Date.now() milliseconds at which the run's --max-time has passed (with a grace).
 * `z3`: the embedded z3's encoding choices (--z3-constant-arrays); external solvers take none.
 */
export async function createBackend(name: SolverBackendName, timeoutMs?: number, maxMemoryMB = 0, stopAt?: number, z3: { constantArrays?: ConstantArrayEncoding; cpuStopAtUs?: number } = {}): Promise<Solver> {
  // stopAt (the run's end, Z3SolverOptions.stopAt) bounds the embedded z3's checks; an external
  // solver process keeps only its per-query limit
  if (name === 'z3') return new Z3Solver({ timeoutMs, stopAt, cpuStopAtUs: z3.cpuStopAtUs, ...z3HeapBounds(maxMemoryMB), constantArrays: z3.constantArrays }); // z3 itself loads on the first query that reaches it
  if (isExternalBackend(name)) return new SmtLibSolver({ backend: name, timeoutMs });
  throw new SolverSetupError(`unknown solver backend '${String(name)}' (${SOLVER_BACKENDS.join(', ')})`);
}

/**
 * Stacks the layers over the backend, innermost first. The query logger sits right above
 * the backend so it records exactly what the backend is asked. The chain's other layers
 * (core encoder, counterexample cache, query cache, independence, quantifiers — see
 * DESIGN.md) go on top of it here, each switchable by an option.
 */
export function buildChain(core: Solver, opts: SolverOptions): Solver {
  let s = core;
  if (opts.smt2Dir !== undefined) s = new LoggingSolver(s, { dir: opts.smt2Dir });
  return assembleChain(s, opts);
}
