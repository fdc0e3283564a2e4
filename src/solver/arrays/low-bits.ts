/**
 * Known low bits of an index expression: `e ≡ value (mod 2^count)` in every model, read off
 * the expression's structure (4·x + 1 has its low two bits known: 01). Type-aware pruning
 * (paper 002 §4.2) uses this to know each byte index's offset inside an element instead of
 * assuming that every typed access is aligned: a packed struct's field at 5·i + 1 has no
 * known residue modulo 4, so nothing is pruned for it (the digest's soundness caveat).
 */
import { ExprKind, type Expr } from '../../expr/index.js';

export interface LowBits {
  /** How many low bits are known (0 … width). */
  count: number;
  /** Their value (< 2^count). */
  value: bigint;
}

const UNKNOWN: LowBits = { count: 0, value: 0n };
const memo = new WeakMap<Expr, LowBits>();

function mask(count: number): bigint {
  return (1n << BigInt(count)) - 1n;
}

function trailingZeros(v: bigint, width: number): number {
  if (v === 0n) return width;
  let n = 0;
  while ((v & 1n) === 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}

/** The known low bits of e (never more than e's width). */
export function lowBits(e: Expr): LowBits {
  const known = memo.get(e);
  if (known !== undefined) return known;
  const r = compute(e);
  memo.set(e, r);
  return r;
}

function compute(e: Expr): LowBits {
  const w = e.width;
  switch (e.kind) {
    case ExprKind.Constant:
      return { count: w, value: e.value };
    case ExprKind.ZExt:
    case ExprKind.SExt:
      return lowBits(e.expr);
    case ExprKind.Extract: {
      if (e.offset !== 0) return UNKNOWN;
      const k = lowBits(e.expr);
      const count = Math.min(k.count, w);
      return { count, value: k.value & mask(count) };
    }
    case ExprKind.Concat: {
      const lo = lowBits(e.right);
      if (lo.count < e.right.width) return lo;
      const hi = lowBits(e.left);
      return { count: lo.count + hi.count, value: (hi.value << BigInt(lo.count)) | lo.value };
    }
    case ExprKind.Add:
    case ExprKind.Sub: {
      const a = lowBits(e.left);
      const b = lowBits(e.right);
      const count = Math.min(a.count, b.count);
      const v = e.kind === ExprKind.Add ? a.value + b.value : a.value - b.value;
      return { count, value: v & mask(count) };
    }
    case ExprKind.Mul: {
      // c·y with c = 2^t·odd: the low count_y + t bits are known
      const [c, y] = e.left.kind === ExprKind.Constant ? [e.left, e.right] : e.right.kind === ExprKind.Constant ? [e.right, e.left] : [null, null];
      if (c === null || c.kind !== ExprKind.Constant) {
        const a = lowBits(e.left);
        const b = lowBits(e.right);
        const count = Math.min(a.count, b.count);
        return { count, value: (a.value * b.value) & mask(count) };
      }
      const k = lowBits(y!);
      const count = Math.min(k.count + trailingZeros(c.value, w), w);
      return { count, value: (c.value * k.value) & mask(count) };
    }
    case ExprKind.Shl: {
      if (e.right.kind !== ExprKind.Constant) return UNKNOWN;
      const s = e.right.value;
      if (s >= BigInt(w)) return { count: w, value: 0n };
      const k = lowBits(e.left);
      const count = Math.min(k.count + Number(s), w);
      return { count, value: (k.value << s) & mask(count) };
    }
    case ExprKind.And:
    case ExprKind.Or: {
      // per bit: known when known in both, or fixed by one side (0 for and, 1 for or)
      const a = lowBits(e.left);
      const b = lowBits(e.right);
      let count = 0;
      let value = 0n;
      const isAnd = e.kind === ExprKind.And;
      for (; count < w; count++) {
        const bit = BigInt(count);
        const ka = count < a.count;
        const kb = count < b.count;
        const va = ka ? (a.value >> bit) & 1n : -1n;
        const vb = kb ? (b.value >> bit) & 1n : -1n;
        const fixed = isAnd ? 0n : 1n;
        let v: bigint;
        if (va === fixed || vb === fixed) v = fixed;
        else if (ka && kb) v = isAnd ? va & vb : va | vb;
        else break;
        value |= v << bit;
      }
      return { count, value };
    }
    default:
      return UNKNOWN;
  }
}

/**
 * e mod m when the structure proves it (m a power of two), else null.
 */
export function residue(e: Expr, m: number): number | null {
  if (m <= 1) return 0;
  const k = lowBits(e);
  if (2 ** k.count < m) return null;
  return Number(k.value & BigInt(m - 1));
}
