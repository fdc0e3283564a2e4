/**
 * A cheap, sound upper bound of an expression's unsigned value from its shape alone: a
 * remainder by k is below k, a zero-extension keeps the value, a mask bounds it. The builder
 * uses it to fold comparisons with constants that no value can reach (a digit `'0' + x % 10`
 * compared with '\n'; a calendar field masked to its range compared with 100), which the
 * backend otherwise proves by bit-blasting the whole arithmetic beneath.
 */
import { ExprKind } from './kinds.js';
import type { Expr } from './expr.js';

/** Nodes followed below the expression at most: the builder calls this on every comparison with a constant. */
const MAX_DEPTH = 5;

function ones(w: number): bigint {
  return (1n << BigInt(w)) - 1n;
}

/** The largest unsigned value e can take, or an over-approximation of it (2^w - 1 when unknown). */
export function umax(e: Expr, depth = MAX_DEPTH): bigint {
  const w = e.width;
  if (e.kind === ExprKind.Constant) return BigInt(e.bv);
  if (depth === 0) return ones(w);
  const d = depth - 1;
  switch (e.kind) {
    case ExprKind.ZExt:
      return umax(e.expr, d);
    case ExprKind.URem: {
      const m = umax(e.left, d);
      if (e.right.kind !== ExprKind.Constant || BigInt(e.right.bv) === 0n) return m; // x % 0 = x
      const k = BigInt(e.right.bv);
      return m < k - 1n ? m : k - 1n;
    }
    case ExprKind.UDiv:
      if (e.right.kind !== ExprKind.Constant || BigInt(e.right.bv) === 0n) return ones(w); // x / 0 = all ones
      return umax(e.left, d) / BigInt(e.right.bv);
    case ExprKind.LShr:
      if (e.right.kind !== ExprKind.Constant) return umax(e.left, d);
      return BigInt(e.right.bv) >= BigInt(w) ? 0n : umax(e.left, d) >> BigInt(e.right.bv);
    case ExprKind.And: {
      const l = umax(e.left, d), r = umax(e.right, d);
      return l < r ? l : r;
    }
    case ExprKind.Extract: {
      // the low bits keep the value when it fits them
      const m = e.offset === 0 ? umax(e.expr, d) : ones(w);
      return m <= ones(w) ? m : ones(w);
    }
    case ExprKind.Add: {
      // k + x without wrapping: k + max(x)
      if (e.left.kind !== ExprKind.Constant) return ones(w);
      const s = BigInt(e.left.bv) + umax(e.right, d);
      return s <= ones(w) ? s : ones(w);
    }
    case ExprKind.Select: {
      const t = umax(e.trueExpr, d), f = umax(e.falseExpr, d);
      return t > f ? t : f;
    }
    default:
      return ones(w);
  }
}
