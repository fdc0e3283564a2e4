/**
 * Path constraints → a linear integer system (paper 002 §3.2, after LPSAT and Brinkmann &
 * Drechsler). Every bit-vector term becomes an integer in [0, 2^w − 1] (unsigned) and the
 * modular semantics is kept exactly where it is encoded: x +_w y = x + y − 2^w·o with
 * o ∈ {0,1}, c·x mod 2^w = c·x − 2^w·q, low k bits z = x − 2^k·q with 0 ≤ z < 2^k, shifts
 * and divisions by constants with their remainders. No wrap variable is made when the
 * operands' ranges prove that no overflow happens.
 *
 * Everything else over-approximates, so the system is implied by the constraints and an
 * infeasible system proves them unsatisfiable:
 *  - a conjunct that is a ≠, a signed comparison whose operands may have either sign, or
 *    anything else not linear is dropped;
 *  - and/or/xor/select/non-constant products become fresh variables with what bounds can
 *    be said (and: v ≤ a, v ≤ b; or: v ≥ a, v ≥ b); `x & (2^k − 1)` is exact (low k bits);
 *  - a read through an update list or at a symbolic index is a "read term": a variable in
 *    [0, 255] (or [0, 2^(8n) − 1] for a little-endian n-byte load, recognised as a Concat
 *    of reads at base+0…n−1) whose bounds analysis.ts narrows from the array's contents
 *    over the index's interval. A byte of a symbolic array at a constant index is a
 *    variable in [0, 255].
 * Extract of the low bits of an arithmetic term is pushed into the operands first (the low
 * bits of a 64-bit pointer sum depend only on the low bits of its operands), so the 64-bit
 * address arithmetic of a GEP becomes 32-bit arithmetic on the index.
 */
import { builder, constant, ExprKind, type Expr, type UpdateList } from '../../expr/index.js';
import { LinearSystem, type LinExpr } from './linear-system.js';

export interface ReadTerm {
  /** The term's value variable. */
  value: number;
  /** 1 for a byte read, n for an n-byte little-endian load. */
  bytes: number;
  updates: UpdateList;
  /** The index of the lowest byte, and its variable. */
  index: Expr;
  indexVar: number;
}

const ONE = 1n;
const pow2 = (k: number): bigint => ONE << BigInt(k);

function lin(c: bigint, terms?: Map<number, bigint>): LinExpr {
  return { terms: terms ?? new Map(), c };
}

function single(v: number): LinExpr {
  return { terms: new Map([[v, 1n]]), c: 0n };
}

/** a·x + b·y */
function combine(x: LinExpr, a: bigint, y: LinExpr, b: bigint): LinExpr {
  const terms = new Map<number, bigint>();
  for (const [v, k] of x.terms) terms.set(v, k * a);
  for (const [v, k] of y.terms) terms.set(v, (terms.get(v) ?? 0n) + k * b);
  return { terms, c: x.c * a + y.c * b };
}

function plus(x: LinExpr, y: LinExpr): LinExpr {
  return combine(x, 1n, y, 1n);
}

function scaled(x: LinExpr, a: bigint): LinExpr {
  return combine(x, a, lin(0n), 0n);
}

export class Linearizer {
  readonly sys = new LinearSystem();
  /** Every read's index expression (original) → its variable. */
  readonly indexVars = new Map<Expr, number>();
  readonly readTerms: ReadTerm[] = [];
  /** Conjuncts left out (not linear). */
  dropped = 0;
  private readonly memo = new Map<Expr, LinExpr>();

  /** Adds one constraint (width 1, assumed true). */
  addConstraint(c: Expr): void {
    const stack = [c];
    while (stack.length > 0) {
      const e = stack.pop()!;
      if (e.kind === ExprKind.And && e.width === 1) {
        stack.push(e.left, e.right);
        continue;
      }
      if (!this.atom(e, true)) this.dropped++;
    }
  }

  /** e (or ¬e) as rows; false when it is dropped. */
  private atom(e: Expr, positive: boolean): boolean {
    switch (e.kind) {
      case ExprKind.Constant:
        if ((e.value === 1n) !== positive) this.sys.addRow(lin(0n), 1n, null); // false
        return true;
      case ExprKind.Eq:
        if (e.left.width === 1) {
          // ¬x is Eq(false, x); Eq(true, x) is x
          if (e.left.kind === ExprKind.Constant) return this.atom(e.right, positive === (e.left.value === 1n));
          return false;
        }
        if (!positive) return false;
        this.sys.addRow(combine(this.lin(e.left), 1n, this.lin(e.right), -1n), 0n, 0n);
        return true;
      case ExprKind.Ne:
        if (positive || e.left.width === 1) return false;
        this.sys.addRow(combine(this.lin(e.left), 1n, this.lin(e.right), -1n), 0n, 0n);
        return true;
      case ExprKind.Ult:
      case ExprKind.Ule:
      case ExprKind.Slt:
      case ExprKind.Sle: {
        const strict = e.kind === ExprKind.Ult || e.kind === ExprKind.Slt;
        const signed = e.kind === ExprKind.Slt || e.kind === ExprKind.Sle;
        if (e.left.width === 1) return false;
        const l = this.lin(e.left);
        const r = this.lin(e.right);
        if (signed && !this.sameSignHalf(l, r, e.left.width)) return false;
        // positive: l < r (l ≤ r); negative: r ≤ l (r < l)
        if (positive) this.sys.addRow(combine(l, 1n, r, -1n), null, strict ? -1n : 0n);
        else this.sys.addRow(combine(r, 1n, l, -1n), null, strict ? 0n : -1n);
        return true;
      }
      case ExprKind.Or:
        if (positive || e.width !== 1) return false;
        return this.atom(e.left, false) && this.atom(e.right, false);
      case ExprKind.And:
        if (!positive || e.width !== 1) return false;
        this.addConstraint(e);
        return true;
      default:
        return false;
    }
  }

  /** Both operands provably in the same half (so signed order is unsigned order). */
  private sameSignHalf(l: LinExpr, r: LinExpr, w: number): boolean {
    const half = pow2(w - 1);
    const a = this.sys.range(l);
    const b = this.sys.range(r);
    return (a.hi < half && b.hi < half) || (a.lo >= half && b.lo >= half);
  }

  /** The unsigned value of e as a linear form. */
  lin(e: Expr): LinExpr {
    if (e.kind === ExprKind.Constant) return lin(e.value);
    const known = this.memo.get(e);
    if (known !== undefined) return known;
    const r = this.build(e);
    this.memo.set(e, r);
    return r;
  }

  private fresh(lo: bigint, hi: bigint): LinExpr {
    return single(this.sys.addVar(lo, hi));
  }

  private full(w: number): LinExpr {
    return this.fresh(0n, pow2(w) - 1n);
  }

  /** A variable equal to x (x itself when it is one). */
  varOf(x: LinExpr): number {
    if (x.c === 0n && x.terms.size === 1) {
      const [[v, a]] = [...x.terms];
      if (a === 1n) return v!;
    }
    const r = this.sys.range(x);
    const v = this.sys.addVar(r.lo, r.hi);
    this.sys.addRow(combine(single(v), 1n, x, -1n), 0n, 0n);
    return v;
  }

  /** x − m·q = z with z ∈ [0, m − 1] (z = x mod m), when x may reach m. */
  private modulo(x: LinExpr, m: bigint): LinExpr {
    const r = this.sys.range(x);
    if (r.lo >= 0n && r.hi < m) return x;
    const q = this.sys.addVar(0n, r.hi / m);
    const z = this.sys.addVar(0n, m - 1n);
    this.sys.addRow(combine(x, 1n, plus(single(z), scaled(single(q), m)), -1n), 0n, 0n);
    return single(z);
  }

  private build(e: Expr): LinExpr {
    const w = e.width;
    if (w === 1) return this.fresh(0n, 1n);
    switch (e.kind) {
      case ExprKind.Read:
        return this.read(e, 1);
      case ExprKind.Concat: {
        const t = this.typedRead(e);
        if (t !== null) return t;
        return plus(scaled(this.lin(e.left), pow2(e.right.width)), this.lin(e.right));
      }
      case ExprKind.ZExt:
        return this.lin(e.expr);
      case ExprKind.SExt: {
        const x = this.lin(e.expr);
        return this.sys.range(x).hi < pow2(e.expr.width - 1) ? x : this.full(w);
      }
      case ExprKind.Extract: {
        if (e.offset === 0) {
          const n = narrow(e.expr, w);
          if (n !== null) return this.lin(n);
          return this.modulo(this.lin(e.expr), pow2(w));
        }
        // x = hi·2^(off+w) + z·2^off + r
        const x = this.lin(e.expr);
        const top = this.sys.range(x).hi;
        const r = this.sys.addVar(0n, pow2(e.offset) - 1n);
        const z = this.sys.addVar(0n, pow2(w) - 1n);
        const h = this.sys.addVar(0n, top >> BigInt(e.offset + w));
        const sum = plus(plus(single(r), scaled(single(z), pow2(e.offset))), scaled(single(h), pow2(e.offset + w)));
        this.sys.addRow(combine(x, 1n, sum, -1n), 0n, 0n);
        return single(z);
      }
      case ExprKind.Add:
        return this.modulo(plus(this.lin(e.left), this.lin(e.right)), pow2(w));
      case ExprKind.Sub: {
        // a − b + 2^w·o with o ∈ {0, 1}
        const d = combine(this.lin(e.left), 1n, this.lin(e.right), -1n);
        const r = this.sys.range(d);
        if (r.lo >= 0n) return d;
        const o = this.sys.addVar(0n, 1n);
        const s = this.sys.addVar(0n, pow2(w) - 1n);
        this.sys.addRow(combine(plus(d, scaled(single(o), pow2(w))), 1n, single(s), -1n), 0n, 0n);
        return single(s);
      }
      case ExprKind.Mul: {
        const [c, y] = constOperand(e.left, e.right);
        if (c === null) return this.full(w);
        return this.modulo(scaled(this.lin(y), c), pow2(w));
      }
      case ExprKind.Shl: {
        if (e.right.kind !== ExprKind.Constant) return this.full(w);
        const s = e.right.value;
        if (s >= BigInt(w)) return lin(0n);
        return this.modulo(scaled(this.lin(e.left), ONE << s), pow2(w));
      }
      case ExprKind.LShr:
      case ExprKind.UDiv:
      case ExprKind.URem: {
        if (e.right.kind !== ExprKind.Constant) return this.full(w);
        const c = e.kind === ExprKind.LShr ? (e.right.value >= BigInt(w) ? 0n : ONE << e.right.value) : e.right.value;
        if (c === 0n) return e.kind === ExprKind.URem ? this.lin(e.left) : e.kind === ExprKind.UDiv ? lin(pow2(w) - 1n) : lin(0n);
        // x = q·c + r, 0 ≤ r < c
        const x = this.lin(e.left);
        const q = this.sys.addVar(0n, this.sys.range(x).hi / c);
        const r = this.sys.addVar(0n, c - 1n);
        this.sys.addRow(combine(x, 1n, plus(scaled(single(q), c), single(r)), -1n), 0n, 0n);
        return single(e.kind === ExprKind.URem ? r : q);
      }
      case ExprKind.And: {
        const [c, y] = constOperand(e.left, e.right);
        if (c !== null && (c & (c + 1n)) === 0n) {
          // a low-ones mask: the low bits, exactly
          let k = 0;
          while (pow2(k) <= c) k++;
          return this.lin(builder.zext(builder.extract(y, 0, k), w));
        }
        const a = this.lin(e.left);
        const b = this.lin(e.right);
        const v = this.sys.addVar(0n, minBig(this.sys.range(a).hi, this.sys.range(b).hi));
        this.sys.addRow(combine(single(v), 1n, a, -1n), null, 0n);
        this.sys.addRow(combine(single(v), 1n, b, -1n), null, 0n);
        return single(v);
      }
      case ExprKind.Or: {
        const a = this.lin(e.left);
        const b = this.lin(e.right);
        const v = this.sys.addVar(0n, pow2(w) - 1n);
        this.sys.addRow(combine(single(v), 1n, a, -1n), 0n, null);
        this.sys.addRow(combine(single(v), 1n, b, -1n), 0n, null);
        return single(v);
      }
      case ExprKind.Select: {
        const t = this.sys.range(this.lin(e.trueExpr));
        const f = this.sys.range(this.lin(e.falseExpr));
        return this.fresh(minBig(t.lo, f.lo), t.hi > f.hi ? t.hi : f.hi);
      }
      default:
        return this.full(w);
    }
  }

  /** A read term of `bytes` bytes whose lowest byte is `low`. */
  private read(low: Expr & { kind: ExprKind.Read }, bytes: number): LinExpr {
    const ul = low.updates;
    const indexVar = this.indexVar(low.index);
    if (bytes === 1 && low.index.kind === ExprKind.Constant && ul.head === null && ul.root.constantValues === null) {
      return this.fresh(0n, 255n); // a byte of a symbolic array: a plain variable
    }
    const value = this.sys.addVar(0n, pow2(8 * bytes) - 1n);
    if (indexVar !== null) this.readTerms.push({ value, bytes, updates: ul, index: low.index, indexVar });
    return single(value);
  }

  /** The variable of a read index (made, with its linear form, on first use). */
  indexVar(index: Expr): number | null {
    if (index.kind === ExprKind.Constant) return null;
    let v = this.indexVars.get(index);
    if (v === undefined) {
      v = this.varOf(this.lin(index));
      this.indexVars.set(index, v);
    }
    return v;
  }

  /** A little-endian load: Concat of reads of one update list at base+n−1 … base+0. */
  private typedRead(e: Expr): LinExpr | null {
    const parts: Expr[] = [];
    let x: Expr = e;
    while (x.kind === ExprKind.Concat) {
      parts.push(x.left);
      x = x.right;
    }
    parts.push(x); // most significant first
    const low = parts[parts.length - 1]!;
    if (low.kind !== ExprKind.Read || parts.length > 8) return null;
    for (let k = 0; k < parts.length; k++) {
      const p = parts[parts.length - 1 - k]!;
      if (p.kind !== ExprKind.Read || p.width !== 8 || !p.updates.equals(low.updates)) return null;
      if (k > 0 && p.index !== builder.add(low.index, constant(k, 32))) return null;
      if (k > 0) this.indexVar(p.index); // every byte's index gets its interval
    }
    if (low.index.kind === ExprKind.Constant) return null;
    return this.read(low, parts.length);
  }
}

function constOperand(a: Expr, b: Expr): [bigint | null, Expr] {
  if (a.kind === ExprKind.Constant) return [a.value, b];
  if (b.kind === ExprKind.Constant) return [b.value, a];
  return [null, a];
}

function minBig(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/**
 * The low k bits of e as a width-k expression built from e's operands' low bits, or null
 * when e is not an operation whose low bits depend only on its operands' low bits.
 */
function narrow(e: Expr, k: number): Expr | null {
  if (e.width === k) return e;
  switch (e.kind) {
    case ExprKind.ZExt:
    case ExprKind.SExt:
      if (e.expr.width >= k) return narrow(e.expr, k) ?? builder.extract(e.expr, 0, k);
      return e.kind === ExprKind.ZExt ? builder.zext(e.expr, k) : builder.sext(e.expr, k);
    case ExprKind.Concat:
      if (e.right.width >= k) return narrow(e.right, k) ?? builder.extract(e.right, 0, k);
      return null;
    case ExprKind.Add:
    case ExprKind.Sub:
    case ExprKind.Mul:
    case ExprKind.And:
    case ExprKind.Or:
    case ExprKind.Xor: {
      const l = narrow(e.left, k) ?? builder.extract(e.left, 0, k);
      const r = narrow(e.right, k) ?? builder.extract(e.right, 0, k);
      return builder.binary(e.kind, l, r);
    }
    case ExprKind.Shl:
      if (e.right.kind !== ExprKind.Constant) return null;
      return builder.shl(narrow(e.left, k) ?? builder.extract(e.left, 0, k), constant(e.right.value >= BigInt(k) ? BigInt(k) : e.right.value, k));
    default:
      return null;
  }
}
