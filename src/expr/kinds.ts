/**
 * Expression kinds, after KLEE's `Expr::Kind`. The mirrored comparisons (Ugt, Uge, Sgt, Sge)
 * are not kinds: the builders swap operands, as KLEE does, so each relation has one form.
 *
 * Quantified merging (paper 000) adds two kinds after the comparisons: `BoundVar`, a
 * variable bound by a quantifier (a leaf), and `Forall(i, k, ψ)`: ψ holds for every i with
 * 1 ≤ i ≤ k (unsigned). Every consumer (builder, evaluator, printers, z3) handles them; the
 * solver chain's quantified-query layer (solver/quantifiers.ts) keeps them from the layers
 * below it unless it falls back to the backend.
 */
export enum ExprKind {
  Constant,
  Read,
  Select,
  Concat,
  Extract,
  ZExt,
  SExt,
  // Arithmetic
  Add,
  Sub,
  Mul,
  UDiv,
  SDiv,
  URem,
  SRem,
  // Bitwise
  Not,
  And,
  Or,
  Xor,
  Shl,
  LShr,
  AShr,
  // Comparisons (width 1)
  Eq,
  Ne,
  Ult,
  Ule,
  Slt,
  Sle,
  // Quantifiers (quantified state merging)
  BoundVar,
  Forall,
}

/** Kinds with two operands of equal width. */
export type BinaryKind =
  | ExprKind.Add
  | ExprKind.Sub
  | ExprKind.Mul
  | ExprKind.UDiv
  | ExprKind.SDiv
  | ExprKind.URem
  | ExprKind.SRem
  | ExprKind.And
  | ExprKind.Or
  | ExprKind.Xor
  | ExprKind.Shl
  | ExprKind.LShr
  | ExprKind.AShr
  | CompareKind;

export type CompareKind = ExprKind.Eq | ExprKind.Ne | ExprKind.Ult | ExprKind.Ule | ExprKind.Slt | ExprKind.Sle;

export type CastKind = ExprKind.ZExt | ExprKind.SExt;

export function isBinaryKind(k: ExprKind): k is BinaryKind {
  return k >= ExprKind.Add && k <= ExprKind.Sle && k !== ExprKind.Not;
}

export function isCompareKind(k: ExprKind): k is CompareKind {
  return k >= ExprKind.Eq && k <= ExprKind.Sle;
}

/** Name used by the KQuery-like printer and in messages. */
export function kindName(k: ExprKind): string {
  return ExprKind[k] ?? `Kind${k as number}`;
}

export function unsupportedKind(k: never): never {
  throw new Error(`unsupported expression kind ${kindName(k as ExprKind)}`);
}
