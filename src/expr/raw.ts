/**
 * The `ExprBuilder` interface and its raw implementation: width checks and hash-consing, no
 * simplification at all. The simplifying builder (builder.ts) is the one to use; `raw` exists
 * as the reference the simplifier is tested against, and for tests that need exact shapes.
 */
import type { UpdateList } from './array.js';
import { bool, checkWidth, constant, hasQuantifier, makeNode, MAX_WIDTH, type BoundVarExpr, type ConstantExpr, type Expr } from './expr.js';
import { ExprKind, kindName, type BinaryKind } from './kinds.js';

export type BinaryBuilderFn = (left: Expr, right: Expr) => Expr;

export interface ExprBuilder {
  /** `value` is reduced modulo 2^width. */
  constant(value: number | bigint, width: number): ConstantExpr;
  bool(b: boolean): ConstantExpr;
  read(updates: UpdateList, index: Expr): Expr;
  select(cond: Expr, trueExpr: Expr, falseExpr: Expr): Expr;
  /** `msb` above `lsb`. */
  concat(msb: Expr, lsb: Expr): Expr;
  extract(e: Expr, offset: number, width: number): Expr;
  /** The simplifying builder also accepts width ≤ e.width (identity or truncation), as KLEE does. */
  zext(e: Expr, width: number): Expr;
  sext(e: Expr, width: number): Expr;
  not(e: Expr): Expr;
  add: BinaryBuilderFn;
  sub: BinaryBuilderFn;
  mul: BinaryBuilderFn;
  udiv: BinaryBuilderFn;
  sdiv: BinaryBuilderFn;
  urem: BinaryBuilderFn;
  srem: BinaryBuilderFn;
  and: BinaryBuilderFn;
  or: BinaryBuilderFn;
  xor: BinaryBuilderFn;
  shl: BinaryBuilderFn;
  lshr: BinaryBuilderFn;
  ashr: BinaryBuilderFn;
  eq: BinaryBuilderFn;
  ne: BinaryBuilderFn;
  ult: BinaryBuilderFn;
  ule: BinaryBuilderFn;
  /** ugt/uge/sgt/sge swap operands: there are no mirrored kinds. */
  ugt: BinaryBuilderFn;
  uge: BinaryBuilderFn;
  slt: BinaryBuilderFn;
  sle: BinaryBuilderFn;
  sgt: BinaryBuilderFn;
  sge: BinaryBuilderFn;
  /** Any binary kind by its ExprKind. */
  binary(kind: BinaryKind, left: Expr, right: Expr): Expr;
  /** `∀ bound. 1 ≤ bound ≤ upper → body` (no Forall inside body; upper without the bound variable). */
  forall(bound: BoundVarExpr, upper: Expr, body: Expr): Expr;
}

export function checkForall(bound: Expr, upper: Expr, body: Expr): void {
  if (bound.kind !== ExprKind.BoundVar) throw new RangeError(`Forall: ${kindName(bound.kind)} is not a bound variable`);
  if (upper.width !== bound.width) throw new RangeError(`Forall: bound of width ${upper.width} for a variable of width ${bound.width}`);
  if (body.width !== 1) throw new RangeError(`Forall: body of width ${body.width}`);
  if (hasQuantifier(body) || hasQuantifier(upper)) throw new RangeError('Forall: nested quantifiers are not supported');
}

export function rawForall(bound: BoundVarExpr, upper: Expr, body: Expr): Expr {
  checkForall(bound, upper, body);
  return makeNode(ExprKind.Forall, 1, bound, upper, body, 0, null);
}

export function checkSameWidth(kind: ExprKind, l: Expr, r: Expr): void {
  if (l.width !== r.width) throw new RangeError(`${kindName(kind)}: operand widths ${l.width} and ${r.width} differ`);
}

export function checkRead(updates: UpdateList, index: Expr): void {
  if (index.width !== updates.root.domain) {
    throw new RangeError(`Read of ${updates.root.name}: index width ${index.width}, not ${updates.root.domain}`);
  }
}

export function checkSelect(c: Expr, t: Expr, f: Expr): void {
  if (c.width !== 1) throw new RangeError(`Select: condition has width ${c.width}`);
  if (t.width !== f.width) throw new RangeError(`Select: arms have widths ${t.width} and ${f.width}`);
}

export function checkExtract(e: Expr, offset: number, width: number): void {
  checkWidth(width);
  if (!Number.isInteger(offset) || offset < 0 || offset + width > e.width) {
    throw new RangeError(`Extract of bits [${offset}, ${offset + width}) from width ${e.width}`);
  }
}

export function checkConcat(msb: Expr, lsb: Expr): void {
  if (msb.width + lsb.width > MAX_WIDTH) throw new RangeError(`Concat too wide: ${msb.width + lsb.width}`);
}

function rawBinary(kind: BinaryKind, l: Expr, r: Expr): Expr {
  checkSameWidth(kind, l, r);
  const w = kind >= ExprKind.Eq ? 1 : l.width;
  return makeNode(kind, w, l, r, null, 0, null);
}

function rawExt(kind: ExprKind.ZExt | ExprKind.SExt, e: Expr, width: number): Expr {
  checkWidth(width);
  if (width <= e.width) throw new RangeError(`${kindName(kind)} from width ${e.width} to ${width} does not widen`);
  return makeNode(kind, width, e, null, null, 0, null);
}

const bin =
  (kind: BinaryKind): BinaryBuilderFn =>
  (l, r) =>
    rawBinary(kind, l, r);

export const raw: ExprBuilder = {
  constant,
  bool,
  read(updates, index) {
    checkRead(updates, index);
    return makeNode(ExprKind.Read, updates.root.range, index, null, null, 0, updates);
  },
  select(c, t, f) {
    checkSelect(c, t, f);
    return makeNode(ExprKind.Select, t.width, c, t, f, 0, null);
  },
  concat(msb, lsb) {
    checkConcat(msb, lsb);
    return makeNode(ExprKind.Concat, msb.width + lsb.width, msb, lsb, null, 0, null);
  },
  extract(e, offset, width) {
    checkExtract(e, offset, width);
    return makeNode(ExprKind.Extract, width, e, null, null, offset, null);
  },
  zext: (e, w) => rawExt(ExprKind.ZExt, e, w),
  sext: (e, w) => rawExt(ExprKind.SExt, e, w),
  not: (e) => makeNode(ExprKind.Not, e.width, e, null, null, 0, null),
  add: bin(ExprKind.Add),
  sub: bin(ExprKind.Sub),
  mul: bin(ExprKind.Mul),
  udiv: bin(ExprKind.UDiv),
  sdiv: bin(ExprKind.SDiv),
  urem: bin(ExprKind.URem),
  srem: bin(ExprKind.SRem),
  and: bin(ExprKind.And),
  or: bin(ExprKind.Or),
  xor: bin(ExprKind.Xor),
  shl: bin(ExprKind.Shl),
  lshr: bin(ExprKind.LShr),
  ashr: bin(ExprKind.AShr),
  eq: bin(ExprKind.Eq),
  ne: bin(ExprKind.Ne),
  ult: bin(ExprKind.Ult),
  ule: bin(ExprKind.Ule),
  ugt: (l, r) => rawBinary(ExprKind.Ult, r, l),
  uge: (l, r) => rawBinary(ExprKind.Ule, r, l),
  slt: bin(ExprKind.Slt),
  sle: bin(ExprKind.Sle),
  sgt: (l, r) => rawBinary(ExprKind.Slt, r, l),
  sge: (l, r) => rawBinary(ExprKind.Sle, r, l),
  binary: rawBinary,
  forall: rawForall,
};
