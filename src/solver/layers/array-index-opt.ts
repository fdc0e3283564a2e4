/**
 * KLEE's index-based array optimisation (--optimize-array=index, lib/Expr/ArrayExprOptimizer.cpp):
 * a condition whose only symbolic input is the index of reads of constant arrays — `t[k] == 0`
 * with `t` a constant table — is replaced by the set of index values that make it true,
 * written as comparisons of the index (`k == 0 ∨ k == 2 ∨ k == 4`, or ranges `2 ≤ k ≤ 9`),
 * so the solver sees no array at all.
 *
 * KLEE enumerates the array's (aligned) positions, solves the index for each one and
 * evaluates the condition there, assuming the read is in bounds. Here the rewrite is exact
 * for every value of the index, so it holds under any path condition (merged states too):
 *
 *  - the condition e must depend on its symbolic inputs only through one 32-bit index base b:
 *    every innermost constant-array read has index b or b + c (c constant), and b occurs
 *    nowhere else (reads whose index is a function of those reads' values are fine: KLEE's
 *    "cascading" nested tables);
 *  - the candidates are the values of b that put some innermost read in bounds (or on a
 *    constant write), keeping only multiples of 2^t when b's low t bits are known zero (a
 *    scaled index `4·k`); e is evaluated at each;
 *  - for every other value all those reads are out of bounds and read 0 (the semantics of
 *    evaluate.ts and the backends), so e has one value there, evaluated once.
 *
 * The result is a disjunction of intervals of b (or the negation of one, whichever is shorter).
 */
import {
  builder,
  collectArrays,
  constant,
  dagSize,
  Evaluator,
  ExprArray,
  ExprKind,
  FALSE,
  hasQuantifier,
  TRUE,
  UpdateList,
  UpdateNode,
  walkDag,
  type ConstantExpr,
  type Expr,
  type ReadExpr,
} from '../../expr/index.js';
import { replaceExprs } from './replace.js';

/** Most candidate values of the index base enumerated for one condition. */
export const MAX_INDEX_CANDIDATES = 8192;
/** Most expression nodes evaluated for one condition (candidates × its size). */
const MAX_EVALUATION_WORK = 2_000_000;
/** Most intervals in a result; beyond, the condition keeps its array reads. */
const MAX_INTERVALS = 256;

const WORD = 2 ** 32;

/** Stands for the index base while the condition is evaluated (never reaches a solver). */
const BASE_ARRAY = new ExprArray('array_opt_index', 4);
const BASE_VAR = ((): Expr => {
  const ul = new UpdateList(BASE_ARRAY);
  const b = (i: number): Expr => builder.read(ul, constant(i, 32));
  return builder.concat(builder.concat(builder.concat(b(3), b(2)), b(1)), b(0));
})();

/** A read of a constant array whose writes are all constant, at a symbolic index. */
export function isConstantTableRead(e: Expr): e is ReadExpr {
  if (e.kind !== ExprKind.Read || e.index.kind === ExprKind.Constant || e.updates.root.constantValues === null) return false;
  for (const n of e.updates.nodes()) if (n.index.kind !== ExprKind.Constant || n.value.kind !== ExprKind.Constant) return false;
  return true;
}

/** The index as (c, b) with index = c + b. */
function splitIndex(index: Expr): { c: number; base: Expr } {
  if (index.kind === ExprKind.Add && index.left.kind === ExprKind.Constant) return { c: index.left.bv as number, base: index.right };
  return { c: 0, base: index };
}

/** Bits at the bottom of e known to be zero (a lower bound; small expressions only). */
function knownTrailingZeros(e: Expr, depth = 0): number {
  if (depth > 8) return 0;
  const tz = (x: Expr): number => knownTrailingZeros(x, depth + 1);
  switch (e.kind) {
    case ExprKind.Constant: {
      const v = e.value;
      if (v === 0n) return e.width;
      let n = 0;
      while (((v >> BigInt(n)) & 1n) === 0n) n++;
      return n;
    }
    case ExprKind.Mul:
      return Math.min(e.width, tz(e.left) + tz(e.right));
    case ExprKind.Shl:
      return e.right.kind === ExprKind.Constant ? Math.min(e.width, tz(e.left) + Number(e.right.value)) : tz(e.left);
    case ExprKind.Extract:
      return Math.min(e.width, Math.max(0, tz(e.expr) - e.offset));
    case ExprKind.ZExt:
    case ExprKind.SExt:
      return tz(e.expr);
    case ExprKind.Concat: {
      const r = tz(e.right);
      return r < e.right.width ? r : e.right.width + tz(e.left);
    }
    case ExprKind.And:
      return Math.max(tz(e.left), tz(e.right));
    case ExprKind.Add:
    case ExprKind.Sub:
    case ExprKind.Or:
    case ExprKind.Xor:
      return Math.min(tz(e.left), tz(e.right));
    case ExprKind.Select:
      return Math.min(tz(e.trueExpr), tz(e.falseExpr));
    default:
      return 0;
  }
}

/** The constant-table reads of e (each once). */
function tableReads(e: Expr): ReadExpr[] {
  const out: ReadExpr[] = [];
  walkDag([e], {
    post: (v) => {
      if (!(v instanceof UpdateNode) && isConstantTableRead(v)) out.push(v);
    },
  });
  return out;
}

/** Does e contain one of `reads`? */
function containsAny(e: Expr, reads: ReadonlySet<Expr>): boolean {
  let found = false;
  walkDag([e], {
    post: (v) => {
      if (reads.has(v as Expr)) found = true;
    },
    prune: () => found,
  });
  return found;
}

/**
 * e rewritten into comparisons of its index base, or null when it does not have that shape
 * (or the rewrite would be too large). Exact: the result equals e for every assignment.
 */
export function indexRewrite(e: Expr): Expr | null {
  if (e.width !== 1 || e.kind === ExprKind.Constant || hasQuantifier(e)) return null;
  const reads = tableReads(e);
  if (reads.length === 0) return null;
  const readSet = new Set<Expr>(reads);
  let base: Expr | null = null;
  for (const r of reads) {
    const s = splitIndex(r.index);
    if (containsAny(s.base, readSet)) continue; // an outer read of a nested table
    if (base === null) base = s.base;
    else if (base !== s.base) return null; // two different indices (KLEE: unsupported too)
  }
  if (base === null || base.width !== 32) return null;

  // e as a function of the base alone: no other symbolic input, the base only inside innermost reads
  const f = replaceExprs(e, new Map([[base, BASE_VAR]]));
  if (f.kind === ExprKind.Constant) return f;
  for (const a of collectArrays(f)) if (a !== BASE_ARRAY && a.constantValues === null) return null;
  const innermost: { c: number; size: number; writes: number[] }[] = [];
  let stray = false;
  walkDag([f], {
    prune: (v) => {
      if (stray) return true;
      if (v === BASE_VAR) return (stray = true);
      if (v instanceof UpdateNode || !isConstantTableRead(v)) return false;
      const x = v;
      const s = splitIndex(x.index);
      if (s.base !== BASE_VAR) return false;
      innermost.push({ c: s.c, size: x.updates.root.size, writes: [...x.updates.nodes()].map((n) => Number((n.index as ConstantExpr).bv)) });
      return true;
    },
    post: (v) => {
      if (!(v instanceof UpdateNode) && v.kind === ExprKind.Read && v.updates.root === BASE_ARRAY) stray = true;
    },
  });
  if (stray || innermost.length === 0) return null;

  const stride = 2 ** Math.min(16, knownTrailingZeros(base));
  const candidates = new Set<number>();
  let work = 0;
  const add = (pos: number, c: number): void => {
    const v = (((pos - c) % WORD) + WORD) % WORD;
    if (v % stride === 0) candidates.add(v);
  };
  for (const r of innermost) {
    work += r.size + r.writes.length;
    if (work > MAX_INDEX_CANDIDATES * 8) return null;
    for (let j = 0; j < r.size; j++) add(j, r.c);
    for (const w of r.writes) add(w, r.c);
    if (candidates.size > MAX_INDEX_CANDIDATES) return null;
  }
  if ((candidates.size + 1) * dagSize(f) > MAX_EVALUATION_WORK) return null;

  const bytes = new Uint8Array(4);
  const assignment = new Map([[BASE_ARRAY, bytes]]);
  const holds = (v: number): boolean => {
    bytes[0] = v & 0xff;
    bytes[1] = (v >>> 8) & 0xff;
    bytes[2] = (v >>> 16) & 0xff;
    bytes[3] = (v >>> 24) & 0xff;
    return new Evaluator(assignment).isTrue(f);
  };
  const sorted = [...candidates].sort((a, b) => a - b);
  const truth = sorted.map(holds);
  let outside = 0;
  while (candidates.has(outside)) outside += stride;
  const elsewhere = outside < WORD ? holds(outside) : false;
  return intervalsPredicate(base, sorted, truth, elsewhere, stride);
}

/** Maximal runs [lo, hi] of consecutive (by stride) candidates whose truth is `want`. */
function runs(sorted: readonly number[], truth: readonly boolean[], want: boolean | null, stride: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (want !== null && truth[i] !== want) continue;
    const last = out[out.length - 1];
    if (last !== undefined && last[1] + stride === sorted[i] && (want === null || truth[i - 1] === want)) last[1] = sorted[i]!;
    else out.push([sorted[i]!, sorted[i]!]);
  }
  return out;
}

function inIntervals(b: Expr, rs: readonly [number, number][], stride: number): Expr {
  let e: Expr = FALSE;
  for (const [lo, hi] of rs) {
    let t: Expr;
    if (lo === hi) t = builder.eq(constant(lo, 32), b);
    else if (lo === 0) t = builder.ule(b, constant(hi, 32));
    else if (hi + stride >= WORD) t = builder.ule(constant(lo, 32), b);
    else t = builder.and(builder.ule(constant(lo, 32), b), builder.ule(b, constant(hi, 32)));
    e = e === FALSE ? t : builder.or(e, t);
  }
  return e;
}

/**
 * The predicate on b that is truth[i] at sorted[i] and `elsewhere` at every other multiple of
 * the stride, with as few intervals as the direct and the negated forms allow.
 */
function intervalsPredicate(b: Expr, sorted: readonly number[], truth: readonly boolean[], elsewhere: boolean, stride: number): Expr | null {
  const yes = runs(sorted, truth, true, stride);
  const no = runs(sorted, truth, false, stride);
  if (!elsewhere) {
    if (yes.length === 0) return FALSE;
    const all = runs(sorted, truth, null, stride);
    if (Math.min(yes.length, all.length + no.length) > MAX_INTERVALS) return null;
    if (yes.length <= all.length + no.length) return inIntervals(b, yes, stride);
    return builder.and(inIntervals(b, all, stride), builder.not(inIntervals(b, no, stride)));
  }
  if (no.length === 0) return TRUE;
  const all = runs(sorted, truth, null, stride);
  if (Math.min(no.length, yes.length + all.length) > MAX_INTERVALS) return null;
  if (no.length <= yes.length + all.length) return builder.not(inIntervals(b, no, stride));
  return builder.or(inIntervals(b, yes, stride), builder.not(inIntervals(b, all, stride)));
}
