/**
 * Assembles the layers over a core solver, in DESIGN.md's order (outermost first):
 *
 *   [validating] → fast-top → independence → query cache → counterexample cache → fast → core
 *
 * which is KLEE's (ConstructSolverChain.cpp: cex cache over the core, then the branch cache,
 * then the independent solver, and the validating solver outermost, checking the whole chain
 * against the raw core). Option names and defaults are KLEE's (SolverCmdLine.cpp,
 * CexCachingSolver.cpp, Constraints.cpp):
 *
 * | option                | KLEE flag                   | default |
 * |-----------------------|-----------------------------|---------|
 * | useIndependentSolver  | --use-independent-solver    | true    |
 * | useBranchCache        | --use-branch-cache          | true    |
 * | useCexCache           | --use-cex-cache             | true    |
 * | cexCacheTryAll        | --cex-cache-try-all         | false   |
 * | cexCacheSuperset      | --cex-cache-superset        | false   |
 * | cexCacheExp           | --cex-cache-exp             | false   |
 * | rewriteEqualities     | --rewrite-equalities        | true    |
 * | debugValidateSolver   | --debug-validate-solver     | false   |
 * | useFastSolver         | (tsklee) --use-fast-solver  | true    |
 *
 * The fast layer (fast-solver.ts, not in KLEE) answers simple questions exactly without the
 * backend; it sits below the counterexample cache so the cache stores its models. A copy
 * without search (fast-top) heads the chain: on a fork-heavy run (paths.c, 4096 paths) it
 * answers every query, skipping the slicing and caching below (~40 µs a query instead of ~80).
 *
 * `useQueryCache` is an alias of useBranchCache (the layer is the "query cache" in
 * DESIGN.md). `rewriteEqualities` is not a solver layer: it belongs to the path condition —
 * pass the options to `newConstraintSet(opts)` (or `new ConstraintSet(opts)`).
 */
import type { Solver } from '../solver.js';
import { CexCachingSolver } from './cex-cache.js';
import { FastSolver } from './fast-solver.js';
import { ConstraintSet } from './constraint-set.js';
import { IndependentSolver } from './independence.js';
import { QueryCacheSolver } from './query-cache.js';
import { ValidatingSolver } from './validating.js';

export interface ChainOptions {
  useIndependentSolver?: boolean;
  useBranchCache?: boolean;
  /** Alias of useBranchCache; useBranchCache wins when both are given. */
  useQueryCache?: boolean;
  useCexCache?: boolean;
  cexCacheTryAll?: boolean;
  cexCacheSuperset?: boolean;
  cexCacheExp?: boolean;
  rewriteEqualities?: boolean;
  debugValidateSolver?: boolean;
  useFastSolver?: boolean;
  /** Most expression-node visits the fast layer spends searching one question. */
  fastSearchBudget?: number;
  /**
   * The oracle for debugValidateSolver; without one the chain's own core is used, as KLEE
   * does. A given oracle is owned by the chain (disposed with it).
   */
  validationOracle?: Solver;
}

export const DEFAULT_CHAIN_OPTIONS = {
  useIndependentSolver: true,
  useBranchCache: true,
  useCexCache: true,
  cexCacheTryAll: false,
  cexCacheSuperset: false,
  cexCacheExp: false,
  rewriteEqualities: true,
  debugValidateSolver: false,
  useFastSolver: true,
} as const satisfies ChainOptions;

const FAST_TOP_BUDGET = 0;

/** The layers over `core`; the result owns `core` (dispose() disposes it). */
export function assembleChain(core: Solver, opts: ChainOptions = {}): Solver {
  const o = { ...DEFAULT_CHAIN_OPTIONS, ...definedOnly(opts) };
  const branchCache = opts.useBranchCache ?? opts.useQueryCache ?? DEFAULT_CHAIN_OPTIONS.useBranchCache;
  let s: Solver = core;
  if (o.useFastSolver) s = new FastSolver(s, { searchBudget: opts.fastSearchBudget });
  if (o.useCexCache) {
    s = new CexCachingSolver(s, { cexCacheTryAll: o.cexCacheTryAll, cexCacheSuperset: o.cexCacheSuperset, cexCacheExp: o.cexCacheExp });
  }
  if (branchCache) s = new QueryCacheSolver(s);
  if (o.useIndependentSolver) s = new IndependentSolver(s);
  // Whole path conditions that are simple are answered before independence and the caches
  // (cheaper than slicing them). No search there: a path condition with complex constraints
  // goes down, to be sliced by independence and searched by the lower fast layer.
  if (o.useFastSolver) s = new FastSolver(s, { name: 'fast-top', searchBudget: FAST_TOP_BUDGET });
  if (o.debugValidateSolver) {
    const oracle = opts.validationOracle ?? core;
    s = new ValidatingSolver(s, oracle, oracle !== core);
  }
  return s;
}

/** A path condition configured by the chain options (rewriteEqualities). */
export function newConstraintSet(opts: ChainOptions = {}): ConstraintSet {
  return new ConstraintSet({ rewriteEqualities: opts.rewriteEqualities ?? DEFAULT_CHAIN_OPTIONS.rewriteEqualities });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
