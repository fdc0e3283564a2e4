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

/** Differing positions allowed in one formula (one term shared by a DAG appears at several). */
const MAX_HOLES = 16;

/** e with every kid at a hole path replaced by v, rebuilt once per node. */
function replaceHoles(e: Expr, paths: readonly Path[], depth: number, v: Expr): Expr {
  if (paths.some((p) => p.length === depth)) return v;
  const kids: Expr[] = [];
  let changed = false;
  for (let i = 0; i < e.numKids; i++) {
    const sub = paths.filter((p) => p[depth] === i);
    const k = sub.length === 0 ? e.kid(i) : replaceHoles(e.kid(i), sub, depth + 1, v);
    changed ||= k !== e.kid(i);
    kids.push(k);
  }
  if (!changed) return e;
  let out = e;
  // kids one at a time, from the last: an earlier kid's index stays valid while later ones change
  for (let i = kids.length - 1; i >= 0; i--) if (kids[i] !== e.kid(i)) out = withKid(out, i, kids[i]!);
  return out;
}

/**
 * θ[t(x)] with θ[t(d_ℓ)] ≐ ψ_ℓ for all ℓ, or null when the ψ differ in anything but one
 * constant term (which may occur at several places, as `s[j]` in `s[j] = 97 ∨ (s[j] ≠ 97 ∧
 * s[j] = 98)`; every place must hold the same value in each ψ) or no linear t fits. Equal ψ
 * give ψ itself.
 */
export function synthesize(psis: readonly Expr[], ds: readonly bigint[], x: Expr): Expr | null {
  const first = psis[0]!;
  const holes = new Map<string, Path>();
  for (let l = 1; l < psis.length; l++) {
    const diffs: Path[] = [];
    if (!differences(first, psis[l]!, [], diffs, MAX_HOLES)) return null;
    for (const d of diffs) holes.set(d.join('.'), d);
    if (holes.size > MAX_HOLES) return null;
  }
  if (holes.size === 0) return first;
  const paths = [...holes.values()];
  const w = at(first, paths[0]!).width;
  const gammas: bigint[] = [];
  for (const p of psis) {
    let g: bigint | null = null;
    for (const path of paths) {
      const c = at(p, path);
      if (c.kind !== ExprKind.Constant || c.width !== w || (g !== null && c.value !== g)) return null;
      g = c.value;
    }
    gammas.push(g!);
  }
  const ab = solveLinear(ds, gammas, w);
  if (ab === null) return null;
  return replaceHoles(first, paths, 0, linearTerm(x, ab.a, ab.b, w));
}
