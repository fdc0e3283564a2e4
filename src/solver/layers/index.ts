/** The solver chain's layers (DESIGN.md, "The solver chain"). */
export { assembleChain, newConstraintSet, DEFAULT_CHAIN_OPTIONS, type ChainOptions } from './chain.js';
export { IndependentSolver, independentConstraints, independentFactors, type Factor } from './independence.js';
export { ElementSet, elementsOf, elementsOfAll } from './element-set.js';
export { QueryCacheSolver, canonicalize, constraintsKey } from './query-cache.js';
export { CexCachingSolver, type CexCacheOptions } from './cex-cache.js';
export { FastSolver, type FastSolverOptions } from './fast-solver.js';
export { SetMap, sortedSet } from './ubtree.js';
export { ConstraintSet, conjunction, type ConstraintSetOptions } from './constraint-set.js';
export { replaceExprs } from './replace.js';
export { getImpliedValues, concreteImpliedBytes, type ImpliedValue } from './implied-value.js';
export { ValidatingSolver, SolverValidationError } from './validating.js';
export { LayerCounters } from './layer-stats.js';
