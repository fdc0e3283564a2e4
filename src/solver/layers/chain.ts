/**
 * Assembles the layers over a core solver, in DESIGN.md's order (outermost first):
 *
 *   [validating] → [array-opt] → [quantifiers] → fast-top → independence → query cache → counterexample cache → fast → core
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
 * | fastSolverSampling    | (tsklee) --fast-solver-sampling | true |
 * | queryCacheCapacity    | (tsklee) --query-cache-size | 50 000 (0 = unbounded, KLEE's) |
 * | cexCacheCapacity      | (tsklee) --cex-cache-size   | 20 000 (0 = unbounded, KLEE's) |
 * | arrayEncoding         | (tsklee) --array-encoding   | backend |
 * | arrayAxioms           | (tsklee) --array-axioms     | typed-interval |
 * | arrayAxiomGeneration  | (tsklee) --array-axiom-generation | lazy |
 * | ilpPrecheck           | (tsklee) --ilp-precheck     | false   |
 * | ilpPrecheckBudget     | (tsklee) --ilp-precheck-max-size, -time, -min-hit-rate | ilp/budget.ts |
 *
 * The fast layer (fast-solver.ts, not in KLEE) answers simple questions exactly without the
 * backend; it sits below the counterexample cache so the cache stores its models. A copy
 * without search (fast-top) heads the chain: on a fork-heavy run (paths.c, 4096 paths) it
 * answers every query, skipping the slicing and caching below (~40 µs a query instead of ~80).
 *
 * Paper 002's layers sit between the fast layer and the core: the ILP pre-check
 * (ilp-precheck.ts) over tsklee's own array encoding (array-axioms.ts) or, with 'backend',
 * directly over the backend's arrays (then it only answers UNSAT early). The pre-check needs the ILP solver loaded
 * (`ilp`, see createSolver); the encoding in 'typed-interval' mode without the pre-check
 * computes its intervals itself by exact propagation.
 *
 * KLEE's --optimize-array=index|all (array-opt.ts, `arrayOptimization`) rewrites every
 * expression of a query first, so the caches and the backend see the rewritten ones; the
 * validating layer above it checks the rewrite against the raw core.
 *
 * Paper 000's quantified-query layer (../quantifiers.ts, `quantifiers`) heads the chain when
 * states may be merged with quantifiers (--merge-mode=quantified): quantifier-free queries
 * pass straight through it; its stage 4 asks `quantifierBackend` (default: the core).
 *
 * `useQueryCache` is an alias of useBranchCache (the layer is the "query cache" in
 * DESIGN.md). `rewriteEqualities` is not a solver layer: it belongs to the path condition —
 * pass the options to `newConstraintSet(opts)` (or `new ConstraintSet(opts)`).
 */
import type { Solver } from '../solver.js';
import { CexCachingSolver, DEFAULT_CEX_CACHE_CAPACITY } from './cex-cache.js';
import { FastSolver } from './fast-solver.js';
import { ConstraintSet } from './constraint-set.js';
import { IndependentSolver } from './independence.js';
import { DEFAULT_QUERY_CACHE_CAPACITY, QueryCacheSolver } from './query-cache.js';
import { ValidatingSolver } from './validating.js';
import { ArrayAxiomsSolver, type AxiomGeneration } from '../array-axioms.js';
import type { AxiomMode } from '../arrays/axiom-pool.js';
import { IlpPrecheckSolver } from '../ilp-precheck.js';
import { analyse } from '../ilp/analysis.js';
import type { HighsIlp } from '../ilp/highs-ilp.js';
import type { PrecheckBudget } from '../ilp/budget.js';
import { QuantifiedQuerySolver, type QuantifierOptions } from '../quantifiers.js';
import { ArrayOptSolver, type ArrayOptMode } from './array-opt.js';
import type { ModelHints } from './model-hints.js';

export type ArrayEncoding = 'backend' | 'axioms';

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
  /** Random assignments when the fast layer's search gives up (fast-sample.ts): models of branches on digests the backend cannot invert. */
  fastSolverSampling?: boolean;
  /** Entries per generation of the query cache (it evicts the least recently used beyond twice that); 0 = unbounded. */
  queryCacheCapacity?: number;
  /** Keys per generation of the counterexample cache (as above); 0 = unbounded. */
  cexCacheCapacity?: number;
  /** Most expression-node visits the fast layer spends searching one question. */
  fastSearchBudget?: number;
  /**
   * The oracle for debugValidateSolver; without one the chain's own core is used, as KLEE
   * does. A given oracle is owned by the chain (disposed with it).
   */
  validationOracle?: Solver;
  /** 'axioms': tsklee's own array encoding (paper 002) above the backend; 'backend': arrays go to the backend. */
  arrayEncoding?: ArrayEncoding;
  /** With arrayEncoding 'axioms': which axioms are pruned (none, by access type, by type and index interval). */
  arrayAxioms?: AxiomMode;
  /** With arrayEncoding 'axioms': axioms added on demand (CEGAR) or all kept ones at once. */
  arrayAxiomGeneration?: AxiomGeneration;
  /** The ILP UNSAT pre-check above the array encoding (needs `ilp`). */
  ilpPrecheck?: boolean;
  /** The loaded ILP solver for ilpPrecheck (HighsIlp.create()). */
  ilp?: HighsIlp;
  /** The pre-check's budget (ILP size and time, hit-rate guard); unset fields keep their defaults. */
  ilpPrecheckBudget?: Partial<PrecheckBudget>;
  /** --debug-ilp-precheck-profile: one line per pre-checked query. */
  ilpPrecheckProfile?: (line: string) => void;
  /** Models handed over by another worker (--jobs), for the counterexample cache (model-hints.ts). */
  modelHints?: ModelHints;
  /** Paper 000's quantified-query layer at the head of the chain (--merge-mode=quantified). */
  quantifiers?: boolean;
  /** Its stages (quantifiers.ts). */
  quantifierOptions?: QuantifierOptions;
  /** Its stage-4 solver (owned by the chain); default the core. */
  quantifierBackend?: Solver;
  /** KLEE's --optimize-array done in the chain: 'index', or 'all' (index, else value-based); 'none' (default) leaves queries alone. */
  arrayOptimization?: 'none' | ArrayOptMode;
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
  fastSolverSampling: true,
  queryCacheCapacity: DEFAULT_QUERY_CACHE_CAPACITY,
  cexCacheCapacity: DEFAULT_CEX_CACHE_CAPACITY,
  arrayEncoding: 'backend',
  arrayAxioms: 'typed-interval',
  arrayAxiomGeneration: 'lazy',
  ilpPrecheck: false,
  quantifiers: false,
} as const satisfies ChainOptions;

const FAST_TOP_BUDGET = 0;

/** The layers over `core`; the result owns `core` (dispose() disposes it). */
export function assembleChain(core: Solver, opts: ChainOptions = {}): Solver {
  const o = { ...DEFAULT_CHAIN_OPTIONS, ...definedOnly(opts) };
  const branchCache = opts.useBranchCache ?? opts.useQueryCache ?? DEFAULT_CHAIN_OPTIONS.useBranchCache;
  let s: Solver = core;
  if (o.arrayEncoding === 'axioms') {
    s = new ArrayAxiomsSolver(s, {
      axioms: o.arrayAxioms,
      generation: o.arrayAxiomGeneration,
      intervals: (constraints, indices) => analyse(constraints, null, null, indices).intervals,
    });
  }
  if (o.ilpPrecheck) {
    if (opts.ilp === undefined) throw new Error('ilpPrecheck needs the ILP solver loaded (pass `ilp: await HighsIlp.create()`, as createSolver does)');
    s = new IlpPrecheckSolver(s, opts.ilp, { passIntervals: o.arrayEncoding === 'axioms', budget: opts.ilpPrecheckBudget, profile: opts.ilpPrecheckProfile });
  }
  if (o.useFastSolver) s = new FastSolver(s, { searchBudget: opts.fastSearchBudget, sampleBudget: o.fastSolverSampling ? undefined : 0 });
  if (o.useCexCache) {
    s = new CexCachingSolver(s, { cexCacheTryAll: o.cexCacheTryAll, cexCacheSuperset: o.cexCacheSuperset, cexCacheExp: o.cexCacheExp, capacity: capacity(o.cexCacheCapacity), hints: opts.modelHints });
  }
  if (branchCache) s = new QueryCacheSolver(s, capacity(o.queryCacheCapacity));
  if (o.useIndependentSolver) s = new IndependentSolver(s);
  // Whole path conditions that are simple are answered before independence and the caches
  // (cheaper than slicing them). No search there: a path condition with complex constraints
  // goes down, to be sliced by independence and searched by the lower fast layer.
  if (o.useFastSolver) s = new FastSolver(s, { name: 'fast-top', searchBudget: FAST_TOP_BUDGET });
  if (o.quantifiers) s = new QuantifiedQuerySolver(s, opts.quantifierBackend ?? core, opts.quantifierOptions, opts.quantifierBackend !== undefined);
  if (opts.arrayOptimization === 'index' || opts.arrayOptimization === 'all') s = new ArrayOptSolver(s, opts.arrayOptimization);
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

/** A cache capacity option: 0 (or less) means unbounded. */
function capacity(n: number): number {
  return n > 0 ? n : Infinity;
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
