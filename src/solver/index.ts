/**
 * The solver: a chain of layers over one backend (DESIGN.md, "The solver chain").
 *
 * `createSolver` is the one asynchronous step (it loads the z3 wasm module); every query
 * after that is synchronous.
 */
import type { Solver } from './solver.js';
import { LoggingSolver } from './logging-solver.js';
import { Z3Solver } from './z3/z3-solver.js';
import { assembleChain, type ChainOptions } from './layers/chain.js';

export * from './solver.js';
export { LoggingSolver, type LoggingSolverOptions } from './logging-solver.js';
export { Z3Solver, type Z3SolverOptions, type Z3Counters } from './z3/z3-solver.js';
export { loadZ3, Z3Handle, Z3Instance } from './z3/z3-module.js';

export interface SolverOptions extends ChainOptions {
  /** Per-query time limit of the backend in milliseconds (KLEE's --max-solver-time); none if 0 or absent. */
  timeoutMs?: number;
  /** The backend; only the z3 wasm build so far (external SMT-LIB2 processes come with the chain). */
  backend?: 'z3';
  /** Write every query that reaches the backend as a .smt2 file into this directory (--write-smt2s). */
  smt2Dir?: string;
}

/** The backend, wrapped in the layers the options ask for. */
export async function createSolver(opts: SolverOptions = {}): Promise<Solver> {
  const backend = opts.backend ?? 'z3';
  if (backend !== 'z3') throw new Error(`unknown solver backend '${String(backend)}'`);
  const core = await Z3Solver.create({ timeoutMs: opts.timeoutMs });
  return buildChain(core, opts);
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
