/**
 * Sound bounds of an expression's value when some bytes are known and the others only lie in
 * ranges: the pruning test of the fast solver's search (fast-search.ts).
 *
 * A bound is an integer interval [lo, hi] with hi - lo < 2^width; it stands for the values
 * {x mod 2^width : lo ≤ x ≤ hi}. Keeping representatives unreduced makes Add/Sub/Mul exact
 * on intervals (arithmetic mod 2^w is a ring homomorphism) and lets a negative range such as
 * [-9, 0] stay small; operations that need the unsigned or signed value first move the
 * interval into [0, 2^w) or [-2^(w-1), 2^(w-1)) and give up (the full range) when it
 * straddles a boundary. Width-1 results are [0,0] (false), [1,1] (true) or [0,1] (unknown).
 * Over-approximation only: a result never excludes a value the expression can take.
 */
import { ExprKind, type Expr, type ExprArray } from '../../expr/index.js';

export interface Bound {
  lo: bigint;
  hi: bigint;
}

/** What the search knows about one byte: it lies in [lo, hi] (lo = hi once chosen). */
export interface ByteRange {
  lo: number;
  hi: number;
}

/** Ranges of the bytes of symbolic arrays; a byte missing here may be anything. */
export type ByteRanges = ReadonlyMap<ExprArray, ReadonlyArray<ByteRange | undefined>>;

const UNKNOWN_BOOL: Bound = { lo: 0n, hi: 1n };
const TRUE_B: Bound = { lo: 1n, hi: 1n };
const FALSE_B: Bound = { lo: 0n, hi: 0n };

/** Deepest nesting bound() follows. */
const MAX_DEPTH = 1000;

function full(w: number): Bound {
  return { lo: 0n, hi: (1n << BigInt(w)) - 1n };
}

function point(v: bigint): Bound {
  return { lo: v, hi: v };
}

function floorDiv(a: bigint, m: bigint): bigint {
  const q = a / m;
  return a < 0n && q * m !== a ? q - 1n : q;
}

/** [lo, hi] as a bound of width w (full when it spans 2^w values or more). */
function wrap(lo: bigint, hi: bigint, w: number): Bound {
  return hi - lo >= 1n << BigInt(w) ? full(w) : { lo, hi };
}

/** The unsigned values, or null when the interval straddles a multiple of 2^w. */
function unsigned(b: Bound, w: number): Bound | null {
  const m = 1n << BigInt(w);
  const k = floorDiv(b.lo, m);
  if (floorDiv(b.hi, m) !== k) return null;
  return { lo: b.lo - k * m, hi: b.hi - k * m };
}

function unsignedOrFull(b: Bound, w: number): Bound {
  return unsigned(b, w) ?? full(w);
}

/** The signed values, or null when the interval straddles a signed boundary. */
function signed(b: Bound, w: number): Bound | null {
  const m = 1n << BigInt(w);
  const half = m >> 1n;
  const k = floorDiv(b.lo + half, m);
  if (floorDiv(b.hi + half, m) !== k) return null;
  return { lo: b.lo - k * m, hi: b.hi - k * m };
}

/** Some x ≡ 0 (mod 2^w) lies in [lo, hi]. */
function mayBeZero(d: Bound, w: number): boolean {
  const m = 1n << BigInt(w);
  return floorDiv(d.hi, m) * m >= d.lo;
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/** Bounds of expressions under byte ranges; one instance per set of ranges (memoised). */
export class BoundsEvaluator {
  private readonly memo = new Map<Expr, Bound>();
  /** Nesting of bound() calls now. */
  private depth = 0;
  /** Nodes visited (the search's cost measure). */
  visited = 0;

  constructor(private readonly ranges: ByteRanges) {}

  bound(e: Expr): Bound {
    const known = this.memo.get(e);
    if (known !== undefined) return known;
    // a merged path condition of thousands of states is an Or chain deeper than the stack: give up there (the full range is always a bound)
    if (this.depth >= MAX_DEPTH) return full(e.width);
    this.visited++;
    this.depth++;
    try {
      const b = this.compute(e);
      this.memo.set(e, b);
      return b;
    } finally {
      this.depth--;
    }
  }

  /** False for sure (a width-1 expression). */
  isFalse(e: Expr): boolean {
    return this.bound(e).hi === 0n;
  }

  private compute(e: Expr): Bound {
    const w = e.width;
    switch (e.kind) {
      case ExprKind.Constant:
        return point(e.value);
      case ExprKind.Read: {
        if (e.updates.head !== null || e.index.kind !== ExprKind.Constant) return full(8);
        const root = e.updates.root;
        const i = e.index.toNumber();
        if (root.constantValues !== null) return i < root.size ? point(BigInt(root.constantValues[i]!)) : full(8);
        const r = this.ranges.get(root)?.[i];
        return r === undefined ? full(8) : { lo: BigInt(r.lo), hi: BigInt(r.hi) };
      }
      case ExprKind.Select: {
        const c = this.bound(e.cond);
        if (c.lo === 1n) return this.bound(e.trueExpr);
        if (c.hi === 0n) return this.bound(e.falseExpr);
        const t = unsigned(this.bound(e.trueExpr), w);
        const f = unsigned(this.bound(e.falseExpr), w);
        if (t === null || f === null) return full(w);
        return { lo: t.lo < f.lo ? t.lo : f.lo, hi: t.hi > f.hi ? t.hi : f.hi };
      }
      case ExprKind.Concat: {
        const l = unsignedOrFull(this.bound(e.left), e.left.width);
        const r = unsignedOrFull(this.bound(e.right), e.right.width);
        const s = BigInt(e.right.width);
        return { lo: (l.lo << s) | r.lo, hi: (l.hi << s) | r.hi };
      }
      case ExprKind.Extract: {
        const x = unsignedOrFull(this.bound(e.expr), e.expr.width);
        const s = BigInt(e.offset);
        return unsigned({ lo: x.lo >> s, hi: x.hi >> s }, w) ?? full(w);
      }
      case ExprKind.ZExt:
        return unsignedOrFull(this.bound(e.expr), e.expr.width);
      case ExprKind.SExt:
        return signed(this.bound(e.expr), e.expr.width) ?? full(w);
      case ExprKind.Not: {
        const x = this.bound(e.expr);
        const max = (1n << BigInt(w)) - 1n;
        return { lo: max - x.hi, hi: max - x.lo };
      }
      case ExprKind.Add: {
        const a = this.bound(e.left);
        const b = this.bound(e.right);
        return wrap(a.lo + b.lo, a.hi + b.hi, w);
      }
      case ExprKind.Sub: {
        const a = this.bound(e.left);
        const b = this.bound(e.right);
        return wrap(a.lo - b.hi, a.hi - b.lo, w);
      }
      case ExprKind.Mul: {
        const a = this.bound(e.left);
        const b = this.bound(e.right);
        const p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
        let lo = p[0]!;
        let hi = p[0]!;
        for (const x of p) {
          if (x < lo) lo = x;
          if (x > hi) hi = x;
        }
        return wrap(lo, hi, w);
      }
      case ExprKind.UDiv: {
        const a = unsignedOrFull(this.bound(e.left), w);
        const b = unsignedOrFull(this.bound(e.right), w);
        if (b.lo === 0n) return full(w); // x / 0 is all ones
        return { lo: a.lo / b.hi, hi: a.hi / b.lo };
      }
      case ExprKind.URem: {
        const a = unsignedOrFull(this.bound(e.left), w); // x % y ≤ x, also for y = 0
        return { lo: 0n, hi: a.hi };
      }
      case ExprKind.And: {
        if (w === 1) return this.and(e.left, e.right);
        const a = unsignedOrFull(this.bound(e.left), w);
        const b = unsignedOrFull(this.bound(e.right), w);
        return { lo: 0n, hi: a.hi < b.hi ? a.hi : b.hi };
      }
      case ExprKind.Or: {
        if (w === 1) return this.or(e.left, e.right);
        const a = unsignedOrFull(this.bound(e.left), w);
        const b = unsignedOrFull(this.bound(e.right), w);
        const m = a.hi > b.hi ? a.hi : b.hi;
        return { lo: a.lo > b.lo ? a.lo : b.lo, hi: (1n << BigInt(bitLength(m))) - 1n };
      }
      case ExprKind.Xor: {
        const a = unsignedOrFull(this.bound(e.left), w);
        const b = unsignedOrFull(this.bound(e.right), w);
        if (a.lo === a.hi && b.lo === b.hi) return point(a.lo ^ b.lo);
        const m = a.hi > b.hi ? a.hi : b.hi;
        return { lo: 0n, hi: (1n << BigInt(bitLength(m))) - 1n };
      }
      case ExprKind.LShr: {
        const a = unsignedOrFull(this.bound(e.left), w);
        const b = unsignedOrFull(this.bound(e.right), w);
        if (b.hi >= BigInt(w)) return { lo: 0n, hi: a.hi >> b.lo };
        return { lo: a.lo >> b.hi, hi: a.hi >> b.lo };
      }
      case ExprKind.Shl: {
        const b = unsignedOrFull(this.bound(e.right), w);
        if (b.lo !== b.hi || b.lo >= BigInt(w)) return full(w);
        const a = this.bound(e.left);
        return wrap(a.lo << b.lo, a.hi << b.lo, w);
      }
      case ExprKind.Eq: {
        const d = this.diff(e.left, e.right);
        if (d === null) return UNKNOWN_BOOL;
        if (!mayBeZero(d, e.left.width)) return FALSE_B;
        return d.lo === d.hi ? TRUE_B : UNKNOWN_BOOL;
      }
      case ExprKind.Ne: {
        const d = this.diff(e.left, e.right);
        if (d === null) return UNKNOWN_BOOL;
        if (!mayBeZero(d, e.left.width)) return TRUE_B;
        return d.lo === d.hi ? FALSE_B : UNKNOWN_BOOL;
      }
      case ExprKind.Ult:
      case ExprKind.Ule:
      case ExprKind.Slt:
      case ExprKind.Sle: {
        const ow = e.left.width;
        const isSigned = e.kind === ExprKind.Slt || e.kind === ExprKind.Sle;
        const view = isSigned ? signed : unsigned;
        const a = view(this.bound(e.left), ow);
        const b = view(this.bound(e.right), ow);
        if (a === null || b === null) return UNKNOWN_BOOL;
        if (e.kind === ExprKind.Ult || e.kind === ExprKind.Slt) {
          if (a.hi < b.lo) return TRUE_B;
          if (a.lo >= b.hi) return FALSE_B;
        } else {
          if (a.hi <= b.lo) return TRUE_B;
          if (a.lo > b.hi) return FALSE_B;
        }
        return UNKNOWN_BOOL;
      }
      default:
        return full(w); // SDiv, SRem, AShr: no useful cheap bound
    }
  }

  /** left - right as an interval of representatives, or null when it says nothing. */
  private diff(l: Expr, r: Expr): Bound | null {
    const a = this.bound(l);
    const b = this.bound(r);
    const d = { lo: a.lo - b.hi, hi: a.hi - b.lo };
    return d.hi - d.lo >= 1n << BigInt(l.width) ? null : d;
  }

  private and(l: Expr, r: Expr): Bound {
    const a = this.bound(l);
    if (a.hi === 0n) return FALSE_B;
    const b = this.bound(r);
    if (b.hi === 0n) return FALSE_B;
    return a.lo === 1n && b.lo === 1n ? TRUE_B : UNKNOWN_BOOL;
  }

  private or(l: Expr, r: Expr): Bound {
    const a = this.bound(l);
    if (a.lo === 1n) return TRUE_B;
    const b = this.bound(r);
    if (b.lo === 1n) return TRUE_B;
    return a.hi === 0n && b.hi === 0n ? FALSE_B : UNKNOWN_BOOL;
  }
}
