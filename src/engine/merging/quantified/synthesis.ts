/**
 * Synthesis of formula patterns and merged values (paper 000, §3.3): given expressions
 * ψ_1..ψ_p that are syntactically identical but for one constant, and the numbers d_ℓ they
 * stand for, find θ(y) and t(x) = a·x + b with θ[t(d_ℓ)] ≐ ψ_ℓ for every ℓ. a and b are
 * solved in BigInt arithmetic modulo 2^w (w the constant's width) from two equations and
 * then checked on all of them; the result is θ with t(x) in place of the constant, x being
 * the given variable (the bound variable or the count k) at width w.
 */
import { builder, ExprKind, UpdateList, type Expr } from '../../../expr/index.js';
import { fitWidth } from '../../../solver/quantified/instantiate.js';

/** A path of kid indices from the root to the differing constant. */
type Path = readonly number[];

/** Positions where a and b differ, each a pair of constants of one width; null if they differ otherwise. */
function differences(a: Expr, b: Expr, path: number[], out: Path[], limit: number): boolean {
  if (a === b) return true;
  if (out.length > limit) return false;
  if (a.kind === ExprKind.Constant && b.kind === ExprKind.Constant) {
    if (a.width !== b.width) return false;
    out.push(path.slice());
    return true;
  }
  if (a.kind !== b.kind || a.width !== b.width || a.numKids !== b.numKids) return false;
  if (a.kind === ExprKind.Extract && b.kind === ExprKind.Extract && a.offset !== b.offset) return false;
  if (a.kind === ExprKind.Read && b.kind === ExprKind.Read && !a.updates.equals(b.updates)) return false;
  if (a.kind === ExprKind.BoundVar || a.kind === ExprKind.Forall) return false;
  for (let i = 0; i < a.numKids; i++) {
    path.push(i);
    const ok = differences(a.kid(i), b.kid(i), path, out, limit);
    path.pop();
    if (!ok) return false;
  }
  return true;
}

function at(e: Expr, p: Path): Expr {
  for (const i of p) e = e.kid(i);
  return e;
}

/** e with kid i replaced (rebuilt by the simplifying builder). */
function withKid(e: Expr, i: number, k: Expr): Expr {
  switch (e.kind) {
    case ExprKind.Read:
      return builder.read(e.updates as UpdateList, k);
    case ExprKind.Select:
      return builder.select(i === 0 ? k : e.cond, i === 1 ? k : e.trueExpr, i === 2 ? k : e.falseExpr);
    case ExprKind.Concat:
      return builder.concat(i === 0 ? k : e.left, i === 1 ? k : e.right);
    case ExprKind.Extract:
      return builder.extract(k, e.offset, e.width);
    case ExprKind.ZExt:
      return builder.zext(k, e.width);
    case ExprKind.SExt:
      return builder.sext(k, e.width);
    case ExprKind.Not:
      return builder.not(k);
    case ExprKind.Constant:
    case ExprKind.BoundVar:
    case ExprKind.Forall:
      throw new Error(`synthesis: no kid ${i} to replace in ${ExprKind[e.kind]}`);
    default:
      return builder.binary(e.kind, i === 0 ? k : e.left, i === 1 ? k : e.right);
  }
}

function replaceAt(e: Expr, p: Path, depth: number, v: Expr): Expr {
  if (depth === p.length) return v;
  const i = p[depth]!;
  return withKid(e, i, replaceAt(e.kid(i), p, depth + 1, v));
}

function trailingZeros(v: bigint): number {
  let n = 0;
  while (v !== 0n && (v & 1n) === 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}

function oddInverse(a: bigint, w: number): bigint {
  const m = 1n << BigInt(w);
  let x = 1n;
  for (let i = 0; i < w; i++) x = (x * (2n - ((a * x) % m) + m)) % m;
  return x;
}

/** Candidate (a, b) with a·d + b ≡ γ (mod 2^w) for the given equations (checked on all). */
export function solveLinear(ds: readonly bigint[], gammas: readonly bigint[], w: number): { a: bigint; b: bigint } | null {
  const m = 1n << BigInt(w);
  const mod = (x: bigint): bigint => ((x % m) + m) % m;
  const holds = (a: bigint, b: bigint): boolean => ds.every((d, l) => mod(a * d + b) === mod(gammas[l]!));
  const j = ds.findIndex((d) => mod(d - ds[0]!) !== 0n);
  if (j < 0) {
    // one distinct d: a constant term, if every γ agrees
    return holds(0n, mod(gammas[0]!)) ? { a: 0n, b: mod(gammas[0]!) } : null;
  }
  const dd = mod(ds[j]! - ds[0]!);
  const dg = mod(gammas[j]! - gammas[0]!);
  const tz = trailingZeros(dd);
  if (tz >= w || dg % (1n << BigInt(tz)) !== 0n) return null;
  const sub = w - tz;
  const base = mod(((dg >> BigInt(tz)) * oddInverse(dd >> BigInt(tz), sub)) % (1n << BigInt(sub)));
  // a is fixed modulo 2^(w-tz): try the few lifts
  for (let lift = 0n; lift < 1n << BigInt(Math.min(tz, 4)); lift++) {
    const a = mod(base + lift * (1n << BigInt(sub)));
    const b = mod(gammas[0]! - a * ds[0]!);
    if (holds(a, b)) return { a, b };
  }
  return null;
}

/** a·x + b at width w, x any width (truncated or zero-extended). */
export function linearTerm(x: Expr, a: bigint, b: bigint, w: number): Expr {
  const xw = fitWidth(x, w);
  return builder.add(builder.constant(b, w), builder.mul(builder.constant(a, w), xw));
}

/**
 * θ[t(x)] with θ[t(d_ℓ)] ≐ ψ_ℓ for all ℓ, or null when the ψ differ in more than one constant
 * (or in anything but constants) or no linear t fits. Equal ψ give ψ itself.
 */
export function synthesize(psis: readonly Expr[], ds: readonly bigint[], x: Expr): Expr | null {
  const first = psis[0]!;
  let path: Path | null = null;
  for (let l = 1; l < psis.length; l++) {
    const diffs: Path[] = [];
    if (!differences(first, psis[l]!, [], diffs, 1)) return null;
    if (diffs.length > 1) return null;
    if (diffs.length === 1) {
      if (path !== null && path.join('.') !== diffs[0]!.join('.')) return null;
      path = diffs[0]!;
    }
  }
  if (path === null) return first;
  const gammas = psis.map((p) => {
    const c = at(p, path!);
    return c.kind === ExprKind.Constant ? c.value : -1n;
  });
  const hole = at(first, path);
  const w = hole.width;
  const ab = solveLinear(ds, gammas, w);
  if (ab === null) return null;
  const t = linearTerm(x, ab.a, ab.b, w);
  const out = replaceAt(first, path, 0, t);
  return out;
}
