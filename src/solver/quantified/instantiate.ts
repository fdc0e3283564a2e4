/**
 * Instances of quantified clauses `∀ i. 1 ≤ i ≤ k → ψ(i)` (paper 000, §5): substituting a
 * term for the bound variable, E-matching candidates for it (the inverse of a read index
 * `f(i)` at another read's index), and the exact expansion over k's range.
 *
 * Every clause built here is implied by the ∀ clause it comes from: an instance is
 * `1 ≤ t ≤ k → ψ(t)`, so adding it never changes satisfiability; only the E-matching lemma
 * of the paper (`¬(1 ≤ t ≤ k)`, when ψ(t) is syntactically the negation of a clause that is
 * present) relies on that clause, and it is emitted only after checking the negation exactly.
 */
import {
  builder,
  collectArrays,
  ExprArray,
  ExprKind,
  hasBoundVar,
  UpdateList,
  UpdateNode,
  walkDag,
  type BoundVarExpr,
  type Expr,
  type ForallExpr,
  type ReadExpr,
} from '../../expr/index.js';
import { replaceExprs } from '../layers/replace.js';

/** Width of the count k of a quantified merge and of the variables bound over it. */
export const COUNT_WIDTH = 32;

/** The value of an auxiliary count array (4 bytes, little-endian), as the engine reads it. */
export function auxValue(a: ExprArray): Expr {
  const ul = new UpdateList(a);
  let e: Expr = builder.read(ul, builder.constant(0, 32));
  for (let b = 1; b < COUNT_WIDTH / 8; b++) e = builder.concat(builder.read(ul, builder.constant(b, 32)), e);
  return e;
}

/** A fresh auxiliary count variable whose path condition keeps it ≤ max. */
export function freshCount(name: string, max: bigint): ExprArray {
  const a = new ExprArray(name, COUNT_WIDTH / 8);
  a.auxMax = max;
  return a;
}

/** t at width w (truncated or zero-extended). */
export function fitWidth(t: Expr, w: number): Expr {
  if (t.width === w) return t;
  return t.width > w ? builder.extract(t, 0, w) : builder.zext(t, w);
}

/** ψ with t for the bound variable. */
export function instantiate(f: ForallExpr, t: Expr): Expr {
  return replaceExprs(f.body, new Map<Expr, Expr>([[f.bound, fitWidth(t, f.bound.width)]]));
}

/** `1 ≤ t ≤ k` (unsigned). */
export function inRange(f: ForallExpr, t: Expr): Expr {
  const tt = fitWidth(t, f.bound.width);
  return builder.and(builder.ule(builder.constant(1, tt.width), tt), builder.ule(tt, f.upper));
}

/** `1 ≤ t ≤ k → ψ(t)`: implied by the ∀ clause. */
export function instanceClause(f: ForallExpr, t: Expr): Expr {
  return builder.or(builder.not(inRange(f, t)), instantiate(f, t));
}

/** Stage 1's replacement of the ∀: `k = 0 ∨ ψ(1)`. */
export function firstInstance(f: ForallExpr): Expr {
  const w = f.bound.width;
  return builder.or(builder.eq(builder.constant(0, w), f.upper), instantiate(f, builder.constant(1, w)));
}

/** The reads of ψ whose index mentions the bound variable. */
export function boundReads(body: Expr): ReadExpr[] {
  const out: ReadExpr[] = [];
  walkDag([body], {
    prune: (v) => !(v instanceof UpdateNode) && !hasBoundVar(v),
    post: (v) => {
      if (!(v instanceof UpdateNode) && v.kind === ExprKind.Read && hasBoundVar(v.index)) out.push(v);
    },
  });
  return out;
}

/** The reads of a quantifier-free expression (each distinct node once). */
export function readsOf(e: Expr): ReadExpr[] {
  const out: ReadExpr[] = [];
  walkDag([e], { post: (v) => void (!(v instanceof UpdateNode) && v.kind === ExprKind.Read && out.push(v)) });
  return out;
}

/** Modular inverse of an odd a modulo 2^w. */
function oddInverse(a: bigint, w: number): bigint {
  const m = 1n << BigInt(w);
  let x = 1n;
  for (let i = 0; i < w; i++) x = (x * (2n - ((a * x) % m) + m)) % m; // Newton: doubles correct bits
  return x;
}

/**
 * A term t with f(t) = u, for an index term f built from the bound variable i by constant
 * additions and subtractions, odd constant multiplications, extensions and truncations; null
 * for other shapes. (Truncation and extension make t a candidate, not always an exact
 * inverse: every use of t is sound whatever it is.)
 */
export function invertIndex(f: Expr, i: BoundVarExpr, u: Expr): Expr | null {
  let cur = f;
  let target = fitWidth(u, f.width);
  for (let steps = 0; steps < 64; steps++) {
    if (cur === i) return target;
    switch (cur.kind) {
      // a side free of i (a constant, or a merged count: s[k1 + 2 + i]) moves to the target
      case ExprKind.Add:
        if (!hasBoundVar(cur.left)) {
          target = builder.sub(target, cur.left);
          cur = cur.right;
        } else if (!hasBoundVar(cur.right)) {
          target = builder.sub(target, cur.right);
          cur = cur.left;
        } else return null;
        break;
      case ExprKind.Sub:
        if (!hasBoundVar(cur.left)) {
          target = builder.sub(cur.left, target);
          cur = cur.right;
        } else if (!hasBoundVar(cur.right)) {
          target = builder.add(target, cur.right);
          cur = cur.left;
        } else return null;
        break;
      case ExprKind.Mul: {
        if (cur.left.kind !== ExprKind.Constant || (cur.left.value & 1n) === 0n) return null;
        target = builder.mul(builder.constant(oddInverse(cur.left.value, cur.width), cur.width), target);
        cur = cur.right;
        break;
      }
      case ExprKind.ZExt:
      case ExprKind.SExt:
        target = builder.extract(target, 0, cur.expr.width);
        cur = cur.expr;
        break;
      case ExprKind.Extract:
        if (cur.offset !== 0) return null;
        target = builder.zext(target, cur.expr.width);
        cur = cur.expr;
        break;
      default:
        return null;
    }
  }
  return null;
}

/** The count's largest value, when k is an auxiliary count (its array's auxMax). */
export function countBound(f: ForallExpr): bigint | null {
  const arrays = collectArrays(f.upper);
  if (arrays.size !== 1) return null;
  const a = [...arrays][0]!;
  if (a.auxMax === null || f.upper !== auxValue(a)) return null;
  return a.auxMax;
}

/**
 * The ∀ clause as a conjunction of its instances `j ≤ k → ψ(j)` for j = 1..max, exact when
 * k ≤ max holds (its count's auxMax, which the merged path condition states); null when k
 * has no known bound or the bound exceeds `limit`.
 */
export function expandForall(f: ForallExpr, limit: number): Expr | null {
  const max = countBound(f);
  if (max === null || max > BigInt(limit)) return null;
  const w = f.bound.width;
  let out: Expr = builder.bool(true);
  for (let j = 1n; j <= max; j++) {
    const c = builder.constant(j, w);
    out = builder.and(out, builder.or(builder.ult(f.upper, c), instantiate(f, c)));
  }
  return out;
}
