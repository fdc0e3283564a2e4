/**
 * Simplifying constructors for the bit-layout and structural kinds: Concat, Extract, ZExt,
 * SExt, Select and Read. Normal forms: Extract is pushed through Concat/Extract/ZExt/SExt
 * down to the original bits; adjacent Extracts of one expression merge back in Concat; a Read
 * at a constant index skips the writes that cannot alias it.
 */
import { UpdateList } from './array.js';
import { foldConcat, foldExtract, foldSExt, foldZExt, isZero } from './bv.js';
import { constantFromBV, makeNode, TRUE, FALSE, type Expr } from './expr.js';
import { ExprKind } from './kinds.js';
import { checkConcat, checkExtract, checkRead, checkSelect } from './raw.js';
import { and, not, or } from './builder.js';
import { checkWidth } from './expr.js';

export function concat(msb: Expr, lsb: Expr): Expr {
  checkConcat(msb, lsb);
  const w = msb.width + lsb.width;
  if (msb.kind === ExprKind.Constant) {
    if (lsb.kind === ExprKind.Constant) return constantFromBV(foldConcat(msb.bv, msb.width, lsb.bv, lsb.width), w);
    if (isZero(msb.bv)) return zext(lsb, w); // zero-extension is ZExt's job
    if (lsb.kind === ExprKind.Concat && lsb.left.kind === ExprKind.Constant) {
      return concat(concat(msb, lsb.left), lsb.right); // constants merge: C(c1, C(c2, x))
    }
  }
  if (msb.kind === ExprKind.Extract) {
    // C(E(x, o+k, n), E(x, o, k)) = E(x, o, n+k), also when the right side starts a Concat
    if (lsb.kind === ExprKind.Extract && adjacent(msb, lsb)) return extract(msb.expr, lsb.offset, w);
    if (lsb.kind === ExprKind.Concat && lsb.left.kind === ExprKind.Extract && adjacent(msb, lsb.left)) {
      return concat(extract(msb.expr, lsb.left.offset, msb.width + lsb.left.width), lsb.right);
    }
  }
  return makeNode(ExprKind.Concat, w, msb, lsb, null, 0, null);
}

function adjacent(hi: Expr & { kind: ExprKind.Extract }, lo: Expr & { kind: ExprKind.Extract }): boolean {
  return hi.expr === lo.expr && hi.offset === lo.offset + lo.width;
}

export function extract(e: Expr, offset: number, width: number): Expr {
  checkExtract(e, offset, width);
  if (width === e.width) return e;
  switch (e.kind) {
    case ExprKind.Constant:
      return constantFromBV(foldExtract(e.bv, e.width, offset, width), width);
    case ExprKind.Extract:
      return extract(e.expr, e.offset + offset, width);
    case ExprKind.Concat: {
      const rw = e.right.width;
      if (offset >= rw) return extract(e.left, offset - rw, width);
      if (offset + width <= rw) return extract(e.right, offset, width);
      return concat(extract(e.left, 0, offset + width - rw), extract(e.right, offset, rw - offset));
    }
    case ExprKind.ZExt: {
      const xw = e.expr.width;
      if (offset + width <= xw) return extract(e.expr, offset, width);
      if (offset >= xw) return constantFromBV(0, width);
      return zext(extract(e.expr, offset, xw - offset), width);
    }
    case ExprKind.SExt: {
      const xw = e.expr.width;
      if (offset + width <= xw) return extract(e.expr, offset, width);
      const lo = Math.min(offset, xw - 1); // past the top every bit is the sign bit
      return sext(extract(e.expr, lo, xw - lo), width);
    }
  }
  return makeNode(ExprKind.Extract, width, e, null, null, offset, null);
}

/** Zero-extension to `width`; width ≤ e.width gives e or its low bits (as KLEE). */
export function zext(e: Expr, width: number): Expr {
  checkWidth(width);
  if (width === e.width) return e;
  if (width < e.width) return extract(e, 0, width);
  if (e.kind === ExprKind.Constant) return constantFromBV(foldZExt(e.bv, width), width);
  if (e.kind === ExprKind.ZExt) return zext(e.expr, width);
  return makeNode(ExprKind.ZExt, width, e, null, null, 0, null);
}

/** Sign-extension to `width`; width ≤ e.width gives e or its low bits (as KLEE). */
export function sext(e: Expr, width: number): Expr {
  checkWidth(width);
  if (width === e.width) return e;
  if (width < e.width) return extract(e, 0, width);
  if (e.kind === ExprKind.Constant) return constantFromBV(foldSExt(e.bv, e.width, width), width);
  if (e.kind === ExprKind.SExt) return sext(e.expr, width);
  if (e.kind === ExprKind.ZExt) return zext(e.expr, width); // its sign bit is 0
  return makeNode(ExprKind.SExt, width, e, null, null, 0, null);
}

export function select(c: Expr, t: Expr, f: Expr): Expr {
  checkSelect(c, t, f);
  if (c.kind === ExprKind.Constant) return c === TRUE ? t : f;
  if (t === f) return t;
  if (c.kind === ExprKind.Not) return select(c.expr, f, t);
  if (t.width === 1) {
    // c ? t : f  ≡  (c ∧ t) ∨ (¬c ∧ f), which collapses when an arm is constant
    if (t === TRUE) return or(c, f);
    if (t === FALSE) return and(not(c), f);
    if (f === TRUE) return or(not(c), t);
    if (f === FALSE) return and(c, t);
  }
  return makeNode(ExprKind.Select, t.width, c, t, f, 0, null);
}

/**
 * Read of an update list. With a constant index, writes at other constant indices are skipped
 * (the Read keeps only the list from the first write that may alias), a write at the same
 * index (or at the identical index expression) gives its value, and a constant array read in
 * bounds below all writes folds to its byte.
 */
export function read(updates: UpdateList, index: Expr): Expr {
  checkRead(updates, index);
  const indexConst = index.kind === ExprKind.Constant;
  let n = updates.head;
  for (; n !== null; n = n.next) {
    if (n.index === index) return n.value;
    if (!indexConst || n.index.kind !== ExprKind.Constant) break;
  }
  const root = updates.root;
  if (n === null && indexConst && root.constantValues !== null) {
    const i = index.bv as number;
    if (i < root.size) return constantFromBV(root.constantValues[i]!, root.range);
  }
  const ul = n === updates.head ? updates : new UpdateList(root, n);
  return makeNode(ExprKind.Read, root.range, index, null, null, 0, ul);
}
