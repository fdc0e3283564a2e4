/**
 * The expression language of the symbolic executor.
 *
 *  - `builder` (or the free functions `add`, `eq`, `read`, ...): simplifying constructors;
 *    `raw`: the same interface without simplification (tests, exact shapes).
 *  - Expressions are hash-consed: `a === b` is structural equality; `e.id` is a cache key.
 *    Width 1 is boolean. Constants: `value` (bigint), `bv` (number when width ≤ 32).
 *  - `ExprArray` + `UpdateList` (persistent, hash-consed writes) model memory contents.
 *  - `evaluate(e, assignment)`, `Evaluator`: concrete values (SMT-LIB semantics, see bv.ts).
 *  - `toSmtLib2`, `smtLibTerm`: solver input; `e.toString()`: KQuery-like text.
 *  - Interning is weak: the engine must yield to the event loop now and then (intern.ts).
 */
export { ExprKind, isBinaryKind, isCompareKind, kindName, type BinaryKind, type CastKind, type CompareKind } from './kinds.js';
export {
  allOnes,
  foldBinary,
  foldConcat,
  foldExtract,
  foldNot,
  foldSExt,
  foldZExt,
  normalize,
  signBit,
  toBigInt,
  toSignedBigInt,
  type BV,
} from './bv.js';
export {
  MAX_WIDTH,
  TRUE,
  freshBoundVar,
  hasBoundVar,
  hasAddressSymbol,
  hasQuantifier,
  makeBoundVar,
  type BoundVarExpr,
  type ForallExpr,
  FALSE,
  internedCount,
  isConstant,
  isExpr,
  isFalse,
  isTrue,
  kids,
  memoSlot,
  type BinaryExpr,
  type CastExpr,
  type ConcatExpr,
  type ConstantExpr,
  type Expr,
  type ExtractExpr,
  type NotExpr,
  type ReadExpr,
  type SelectExpr,
} from './expr.js';
export { DOMAIN_WIDTH, RANGE_WIDTH, ExprArray, UpdateList, UpdateNode } from './array.js';
export { AccessTypes } from './access-types.js';
export { raw, type ExprBuilder, type BinaryBuilderFn } from './raw.js';
export * from './builder.js';
export { Evaluator, evaluate, evaluateBV, evaluateBool, evaluateExpr, type Assignment } from './evaluate.js';
export { printKQuery } from './kquery.js';
export { ARRAY_SORT, ArrayNamer, bvLiteral, smtLibTerm, smtSort, toSmtLib2, type SmtLibOptions, type SmtLibScript } from './smtlib.js';
export { collectArrays, collectArraysOf, dagSize } from './utils.js';
export { walkDag, successors, dagLargerThan, type Vertex, type WalkOptions } from './traverse.js';
