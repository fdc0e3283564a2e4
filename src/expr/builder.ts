/**
 * The simplifying builder: every constructor folds constants and applies a small set of
 * rewrite rules (mostly KLEE's, from Expr.cpp's `*_create*` functions) before hash-consing.
 * Every rule is exercised by tests that compare against the raw builder by evaluation.
 *
 * Conventions kept by the rules:
 *  - Constants go on the left of commutative operators (Add, Mul, And, Or, Xor, Eq).
 *  - Boolean negation is `Not` (width 1); `ne` builds Not(Eq); ugt/uge/sgt/sge swap operands.
 *  - `x - c` becomes `(-c) + x`; constants are pulled outwards in Add/Sub chains so they fold.
 *  - Division/remainder by a constant zero is never folded (the engine checks divisors first).
 *
 * Concat/Extract/ZExt/SExt/Select/Read live in builder-bits.ts.
 */
import { allOnes, foldBinary, foldNot, isZero, type BV } from './bv.js';
import { bool, constant, constantFromBV, FALSE, hasBoundVar, makeNode, TRUE, type BoundVarExpr, type ConstantExpr, type Expr } from './expr.js';
import { ExprKind, type BinaryKind } from './kinds.js';
import { checkSameWidth, rawForall, type ExprBuilder } from './raw.js';
import { concat, extract, read, select, sext, zext } from './builder-bits.js';
import { umax } from './umax.js';

function isC(e: Expr): e is ConstantExpr {
  return e.kind === ExprKind.Constant;
}

export function isZeroConst(e: Expr): boolean {
  return e.kind === ExprKind.Constant && isZero(e.bv);
}

export function isAllOnesConst(e: Expr): boolean {
  return e.kind === ExprKind.Constant && e.bv === allOnes(e.width);
}

function isOneConst(e: Expr): boolean {
  return e.kind === ExprKind.Constant && (e.bv === 1 || e.bv === 1n);
}

/** Most negative and most positive signed values by width, up to 128 bits (every fork's
 * negated comparison asks: computing 2 ** (w - 1) each time was ~1 % of a fork-heavy run). */
const SIGNED_LIMIT_WIDTHS = 128;
const INT_MIN: readonly BV[] = Array.from({ length: SIGNED_LIMIT_WIDTHS + 1 }, (_, w) => (w === 0 ? 0 : w <= 32 ? 2 ** (w - 1) : 1n << BigInt(w - 1)));
const INT_MAX: readonly BV[] = INT_MIN.map((v, w) => (w === 0 ? 0 : typeof v === 'number' ? v - 1 : v - 1n));

/** Most negative signed value of width w. */
function intMin(w: number): BV {
  return w <= SIGNED_LIMIT_WIDTHS ? INT_MIN[w]! : 1n << BigInt(w - 1);
}

/** Most positive signed value of width w. */
function intMax(w: number): BV {
  return w <= SIGNED_LIMIT_WIDTHS ? INT_MAX[w]! : (1n << BigInt(w - 1)) - 1n;
}

function fold(kind: BinaryKind, l: ConstantExpr, r: ConstantExpr): ConstantExpr {
  return constantFromBV(foldBinary(kind, l.width, l.bv, r.bv), kind >= ExprKind.Eq ? 1 : l.width);
}

function node(kind: BinaryKind, l: Expr, r: Expr): Expr {
  return makeNode(kind, kind >= ExprKind.Eq ? 1 : l.width, l, r, null, 0, null);
}

/** a is b's complement, syntactically. */
function complementary(a: Expr, b: Expr): boolean {
  return (a.kind === ExprKind.Not && a.expr === b) || (b.kind === ExprKind.Not && b.expr === a);
}

export function not(e: Expr): Expr {
  switch (e.kind) {
    case ExprKind.Constant:
      return constantFromBV(foldNot(e.width, e.bv), e.width);
    case ExprKind.Not:
      return e.expr;
    case ExprKind.Ult: // !(a < b) ≡ b ≤ a, and so on: negated comparisons stay one node
      return ule(e.right, e.left);
    case ExprKind.Ule:
      return ult(e.right, e.left);
    case ExprKind.Slt:
      return sle(e.right, e.left);
    case ExprKind.Sle:
      return slt(e.right, e.left);
    case ExprKind.Ne:
      return eq(e.left, e.right);
    case ExprKind.Or: // De Morgan on booleans, as KLEE: conjunctions split into constraints
      if (e.width === 1) return and(not(e.left), not(e.right));
      break;
  }
  return makeNode(ExprKind.Not, e.width, e, null, null, 0, null);
}

export function and(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.And, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.And, l, r);
    [l, r] = [r, l];
  }
  if (isC(l)) {
    if (isZero(l.bv)) return l;
    if (l.bv === allOnes(l.width)) return r;
  }
  if (l === r) return l;
  if (complementary(l, r)) return constantFromBV(0, l.width);
  return node(ExprKind.And, l, r);
}

export function or(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Or, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Or, l, r);
    [l, r] = [r, l];
  }
  if (isC(l)) {
    if (isZero(l.bv)) return r;
    if (l.bv === allOnes(l.width)) return l;
  }
  if (l === r) return l;
  if (complementary(l, r)) return constantFromBV(allOnes(l.width), l.width);
  return node(ExprKind.Or, l, r);
}

export function xor(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Xor, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Xor, l, r);
    [l, r] = [r, l];
  }
  if (isC(l)) {
    if (isZero(l.bv)) return r;
    if (l.bv === allOnes(l.width)) return not(r);
  }
  if (l === r) return constantFromBV(0, l.width);
  if (complementary(l, r)) return constantFromBV(allOnes(l.width), l.width);
  return node(ExprKind.Xor, l, r);
}

export function add(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Add, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Add, l, r);
    [l, r] = [r, l];
  }
  if (l.width === 1) return xor(l, r); // addition mod 2
  if (isC(l)) {
    if (isZero(l.bv)) return r;
    if (r.kind === ExprKind.Add && isC(r.left)) return add(fold(ExprKind.Add, l, r.left), r.right); // c+(k+x)
    if (r.kind === ExprKind.Sub && isC(r.left)) return sub(fold(ExprKind.Add, l, r.left), r.right); // c+(k-x)
    return node(ExprKind.Add, l, r);
  }
  // Pull constants outwards so that later additions fold them.
  if (l.kind === ExprKind.Add && isC(l.left)) return add(l.left, add(l.right, r)); // (k+a)+b
  if (l.kind === ExprKind.Sub && isC(l.left)) return add(l.left, sub(r, l.right)); // (k-a)+b
  if (r.kind === ExprKind.Add && isC(r.left)) return add(r.left, add(l, r.right)); // a+(k+b)
  if (r.kind === ExprKind.Sub && isC(r.left)) return add(r.left, sub(l, r.right)); // a+(k-b)
  return node(ExprKind.Add, l, r);
}

export function sub(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Sub, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Sub, l, r);
    return add(fold(ExprKind.Sub, constantFromBV(0, r.width), r), l); // x-c = (-c)+x
  }
  if (l.width === 1) return xor(l, r);
  if (l === r) return constantFromBV(0, l.width);
  if (isC(l)) {
    if (r.kind === ExprKind.Add && isC(r.left)) return sub(fold(ExprKind.Sub, l, r.left), r.right); // c-(k+x)
    if (r.kind === ExprKind.Sub && isC(r.left)) return add(fold(ExprKind.Sub, l, r.left), r.right); // c-(k-x)
    return node(ExprKind.Sub, l, r);
  }
  if (l.kind === ExprKind.Add && isC(l.left)) return add(l.left, sub(l.right, r)); // (k+a)-b
  if (l.kind === ExprKind.Sub && isC(l.left)) return sub(l.left, add(l.right, r)); // (k-a)-b
  if (r.kind === ExprKind.Add && isC(r.left)) return sub(sub(l, r.right), r.left); // a-(k+b)
  if (r.kind === ExprKind.Sub && isC(r.left)) return sub(add(l, r.right), r.left); // a-(k-b)
  return node(ExprKind.Sub, l, r);
}

export function mul(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Mul, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Mul, l, r);
    [l, r] = [r, l];
  }
  if (l.width === 1) return and(l, r); // multiplication mod 2
  if (isC(l)) {
    if (isZero(l.bv)) return l;
    if (isOneConst(l)) return r;
    if (r.kind === ExprKind.Mul && isC(r.left)) return mul(fold(ExprKind.Mul, l, r.left), r.right); // c*(k*x)
  }
  return node(ExprKind.Mul, l, r);
}

/** Division and remainder: fold only for a nonzero constant divisor. */
function divRem(kind: ExprKind.UDiv | ExprKind.SDiv | ExprKind.URem | ExprKind.SRem, l: Expr, r: Expr): Expr {
  checkSameWidth(kind, l, r);
  if (isC(r)) {
    if (isZero(r.bv)) return node(kind, l, r);
    if (isC(l)) return fold(kind, l, r);
    if (isOneConst(r)) {
      return kind === ExprKind.UDiv || kind === ExprKind.SDiv ? l : constantFromBV(0, l.width);
    }
    if (l.kind === kind && isC(l.right) && !isZero(l.right.bv)) {
      const q = nestedDivisor(kind, l.right, r);
      if (q === 0) return constantFromBV(0, l.width);
      if (q !== null) return divRem(kind, l.left, q);
    }
  }
  return node(kind, l, r);
}

/** (x / a) / b = x / (a·b), so that a digit loop's repeated division by 10 stays one division
 * (its "x / 10^k == 0" then becomes a comparison, below). Unsigned: a·b ≥ 2^w gives 0 (returned
 * as the number 0). Signed: only for positive a, b with a·b ≤ INT_MAX (truncation composes).
 * Null when the rule does not apply. */
function nestedDivisor(kind: ExprKind.UDiv | ExprKind.SDiv | ExprKind.URem | ExprKind.SRem, a: ConstantExpr, b: ConstantExpr): ConstantExpr | 0 | null {
  const w = a.width;
  const x = BigInt(a.bv), y = BigInt(b.bv);
  if (kind === ExprKind.UDiv) return x * y >= 1n << BigInt(w) ? 0 : constantFromBV(foldBinary(ExprKind.Mul, w, a.bv, b.bv), w);
  if (kind !== ExprKind.SDiv || w < 2) return null;
  const max = BigInt(intMax(w));
  return x <= max && y <= max && x * y <= max ? constantFromBV(foldBinary(ExprKind.Mul, w, a.bv, b.bv), w) : null;
}

export const udiv = (l: Expr, r: Expr): Expr => divRem(ExprKind.UDiv, l, r);
export const sdiv = (l: Expr, r: Expr): Expr => divRem(ExprKind.SDiv, l, r);
export const urem = (l: Expr, r: Expr): Expr => divRem(ExprKind.URem, l, r);
export const srem = (l: Expr, r: Expr): Expr => divRem(ExprKind.SRem, l, r);

function shift(kind: ExprKind.Shl | ExprKind.LShr | ExprKind.AShr, l: Expr, r: Expr): Expr {
  checkSameWidth(kind, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(kind, l, r);
    if (isZero(r.bv)) return l;
    if (kind !== ExprKind.AShr && r.bv >= l.width) return constantFromBV(0, l.width); // shifted out
  }
  if (isZeroConst(l)) return l;
  if (kind === ExprKind.AShr && isAllOnesConst(l)) return l;
  if (l.width === 1) return kind === ExprKind.AShr ? l : and(l, not(r)); // shift by 1 clears the bit
  return node(kind, l, r);
}

export const shl = (l: Expr, r: Expr): Expr => shift(ExprKind.Shl, l, r);
export const lshr = (l: Expr, r: Expr): Expr => shift(ExprKind.LShr, l, r);
export const ashr = (l: Expr, r: Expr): Expr => shift(ExprKind.AShr, l, r);

export function eq(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Eq, l, r);
  if (isC(r)) {
    if (isC(l)) return fold(ExprKind.Eq, l, r);
    [l, r] = [r, l];
  }
  if (l === r) return TRUE;
  if (isC(l)) return eqConst(l, r);
  return node(ExprKind.Eq, l, r);
}

/** c == r, r not constant. */
function eqConst(c: ConstantExpr, r: Expr): Expr {
  const w = c.width;
  if (w === 1) return c === TRUE ? r : not(r);
  if (BigInt(c.bv) > umax(r)) return FALSE; // no value of r reaches c (umax.ts)
  switch (r.kind) {
    case ExprKind.ZExt:
    case ExprKind.SExt: {
      // ext(x) == c  ⇔  x == trunc(c), if c is in the image of ext; else false
      const from = r.expr.width;
      const t = extract(c, 0, from);
      return (r.kind === ExprKind.ZExt ? zext(t, w) : sext(t, w)) === c ? eq(t, r.expr) : FALSE;
    }
    case ExprKind.Add: // c == k + x  ⇔  c - k == x
      if (isC(r.left)) return eq(fold(ExprKind.Sub, c, r.left), r.right);
      break;
    case ExprKind.Sub: // c == k - x  ⇔  k - c == x
      if (isC(r.left)) return eq(fold(ExprKind.Sub, r.left, c), r.right);
      break;
    case ExprKind.UDiv: // 0 == x / k  ⇔  x < k
      if (isZero(c.bv) && isC(r.right) && !isZero(r.right.bv)) return ult(r.left, r.right);
      break;
    case ExprKind.SDiv: // 0 == x /s k (0 < k)  ⇔  -k < x < k  ⇔  x + (k-1) <u 2k-1
      if (isZero(c.bv) && isC(r.right) && w >= 2 && !isZero(r.right.bv) && BigInt(r.right.bv) <= BigInt(intMax(w))) {
        const k = r.right;
        return ult(add(fold(ExprKind.Sub, k, constantFromBV(1, w)), r.left), fold(ExprKind.Sub, fold(ExprKind.Add, k, k), constantFromBV(1, w)));
      }
      break;
  }
  return node(ExprKind.Eq, c, r);
}

export function ne(l: Expr, r: Expr): Expr {
  return not(eq(l, r));
}

export function ult(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Ult, l, r);
  if (isC(l) && isC(r)) return fold(ExprKind.Ult, l, r);
  if (l === r || isZeroConst(r) || isAllOnesConst(l)) return FALSE;
  if (l.width === 1) return and(not(l), r);
  if (isC(r) && umax(l) < BigInt(r.bv)) return TRUE; // every value of l is below r (umax.ts)
  if (isC(l) && BigInt(l.bv) >= umax(r)) return FALSE; // no value of r exceeds l
  return node(ExprKind.Ult, l, r);
}

export function ule(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Ule, l, r);
  if (isC(l) && isC(r)) return fold(ExprKind.Ule, l, r);
  if (l === r || isZeroConst(l) || isAllOnesConst(r)) return TRUE;
  if (l.width === 1) return or(not(l), r);
  if (isC(r) && umax(l) <= BigInt(r.bv)) return TRUE; // umax.ts
  if (isC(l) && BigInt(l.bv) > umax(r)) return FALSE;
  return node(ExprKind.Ule, l, r);
}

export function slt(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Slt, l, r);
  if (isC(l) && isC(r)) return fold(ExprKind.Slt, l, r);
  if (l === r) return FALSE;
  if ((isC(r) && r.bv === intMin(r.width)) || (isC(l) && l.bv === intMax(l.width))) return FALSE;
  if (l.width === 1) return and(l, not(r)); // 1 is -1: l < r only for (1, 0)
  return node(ExprKind.Slt, l, r);
}

export function sle(l: Expr, r: Expr): Expr {
  checkSameWidth(ExprKind.Sle, l, r);
  if (isC(l) && isC(r)) return fold(ExprKind.Sle, l, r);
  if (l === r) return TRUE;
  if ((isC(l) && l.bv === intMin(l.width)) || (isC(r) && r.bv === intMax(r.width))) return TRUE;
  if (l.width === 1) return or(l, not(r));
  return node(ExprKind.Sle, l, r);
}

export const ugt = (l: Expr, r: Expr): Expr => ult(r, l);
export const uge = (l: Expr, r: Expr): Expr => ule(r, l);
export const sgt = (l: Expr, r: Expr): Expr => slt(r, l);
export const sge = (l: Expr, r: Expr): Expr => sle(r, l);

export function binary(kind: BinaryKind, l: Expr, r: Expr): Expr {
  switch (kind) {
    case ExprKind.Add:
      return add(l, r);
    case ExprKind.Sub:
      return sub(l, r);
    case ExprKind.Mul:
      return mul(l, r);
    case ExprKind.UDiv:
    case ExprKind.SDiv:
    case ExprKind.URem:
    case ExprKind.SRem:
      return divRem(kind, l, r);
    case ExprKind.And:
      return and(l, r);
    case ExprKind.Or:
      return or(l, r);
    case ExprKind.Xor:
      return xor(l, r);
    case ExprKind.Shl:
    case ExprKind.LShr:
    case ExprKind.AShr:
      return shift(kind, l, r);
    case ExprKind.Eq:
      return eq(l, r);
    case ExprKind.Ne:
      return ne(l, r);
    case ExprKind.Ult:
      return ult(l, r);
    case ExprKind.Ule:
      return ule(l, r);
    case ExprKind.Slt:
      return slt(l, r);
    case ExprKind.Sle:
      return sle(l, r);
  }
}

/**
 * `∀ bound. 1 ≤ bound ≤ upper → body`. Rules: a true body or a zero bound give true; a body
 * without the bound variable needs no quantifier (`upper = 0 ∨ body`). Nothing rewrites inside
 * the body across the binding: the body's own rules see the bound variable as an opaque leaf.
 */
export function forall(bound: BoundVarExpr, upper: Expr, body: Expr): Expr {
  if (body === TRUE || isZeroConst(upper)) return TRUE;
  if (!hasBoundVar(body)) return or(eq(constantFromBV(0, upper.width), upper), body);
  return rawForall(bound, upper, body);
}

export { bool, constant, concat, extract, read, select, sext, zext };

/** The simplifying builder as an object (same interface as `raw`). */
export const builder: ExprBuilder = {
  constant,
  bool,
  read,
  select,
  concat,
  extract,
  zext,
  sext,
  not,
  add,
  sub,
  mul,
  udiv,
  sdiv,
  urem,
  srem,
  and,
  or,
  xor,
  shl,
  lshr,
  ashr,
  eq,
  ne,
  ult,
  ule,
  ugt,
  uge,
  slt,
  sle,
  sgt,
  sge,
  binary,
  forall,
};
