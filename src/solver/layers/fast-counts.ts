/**
 * Count splits for the fast solver layer (paper 000's stripped queries). A quantified merge
 * reads its states' values at indices that depend on the merge's count k (an auxiliary
 * 4-byte array, ExprArray.auxMax): `s[k]`, `s[k1 + 3 + k2]`. Such reads are beyond interval
 * reasoning, so every query on a merged state went to the backend. But k is small and
 * bounded by the path condition (`k ≤ max`): with the counts fixed, each of those reads is at
 * a constant index again, and the constraints are the one-byte kind the layer decides at
 * once. So the question is split on the values of its counts:
 *
 *   - each count's values come from its own simple constraints (`k ≤ 19`, `k ≠ 0`): a count
 *     without such a bound (or with too many values) is not split, so UNSAT is proved only
 *     over values the query itself allows;
 *   - the counts are assigned depth-first; a count's values are first narrowed by the
 *     constraints over counts only whose last count it is, with the earlier counts' values
 *     put in (interval reasoning: `k2 ≤ 97 − k1`), those that are not intervals evaluated per
 *     value; the written-cell lemmas (fast-count-lemmas.ts: `k1 + k2 + 9 ≠ 100` where a
 *     digit would be the terminator) join them; the other constraints are substituted as
 *     soon as their last count has a value;
 *   - for each full assignment the other constraints are rebuilt with the counts as
 *     constants (memoised per constraint and assignment: the branches of one merged state
 *     ask about the same path condition again and again) and decided by the layer.
 *
 * The first case with a model answers (the counts' bytes added to it); the question is
 * unsatisfiable when every case is; undecided when a case is undecided or the budget of
 * cases runs out.
 */
import { builder, collectArrays, Evaluator, ExprKind, FALSE, TRUE, type Expr, type ExprArray, type UpdateNode } from '../../expr/index.js';
import { analyze } from './fast-analysis.js';
import { IntervalSet } from './fast-intervals.js';
import { replaceExprs, type Substitution } from './replace.js';
import { writtenCellLemmas } from './fast-count-lemmas.js';

/** A model, null (unsatisfiable) or undefined (undecided). */
export type CaseAnswer = Map<ExprArray, Uint8Array> | null | undefined;

/** Most counts one question is split on. */
const MAX_COUNTS = 3;
/** Most values of one count. */
const MAX_VALUES = 1 << 12;
/** Most full assignments decided per question (beyond: undecided). */
const MAX_CASES = 1024;
/** Most assignments (partial ones included) checked per question. */
const MAX_NODES = 1 << 13;
/** Undecided cases after which the split gives up (the rest would be too, mostly). */
const MAX_UNDECIDED = 4;
/** Most memoised rewrites per constraint. */
const MAX_MEMO = 1 << 12;

/** The auxiliary counts the expressions read, or null when there are none. */
export function countsOf(exprs: readonly Expr[]): ExprArray[] | null {
  let out: ExprArray[] | null = null;
  for (const e of exprs) {
    for (const a of collectArrays(e)) if (a.auxMax !== null && (out === null || !out.includes(a))) (out ??= []).push(a);
  }
  return out;
}

/**
 * Decides the conjunction of `exprs` by splitting on the values of `counts` (countsOf);
 * `solveCase` decides a case (a conjunction without counts). Undefined when the split does
 * not apply or does not decide.
 *
 * Each count's values are narrowed before they are enumerated: the constraints over counts
 * only whose last count it is, with the earlier counts' values put in, are mostly interval
 * constraints on it (`k2 ≤ 97 − k1`: the terminator's lemma; `101 ≤ k1 + 3 + k2`: a bounds
 * check), so an UNSAT branch over two counts costs one interval per value of the first,
 * not one evaluation per pair. The other constraints are substituted as soon as their last
 * count has a value (one that folds to false prunes every later count's values).
 */
export function splitOnCounts(exprs: readonly Expr[], counts: ExprArray[], solveCase: (exprs: readonly Expr[]) => CaseAnswer): CaseAnswer {
  if (counts.length > MAX_COUNTS) return undefined;
  counts.sort((x, y) => x.id - y.id);
  const { domains, proven } = countDomains(exprs, counts);
  if (domains === null) return undefined;
  // constraints over counts only, by their last count; the others rebuilt per case, tried at their last count's level
  const checks: Expr[][] = counts.map(() => []);
  const checkMasks: number[][] = counts.map(() => []);
  const early: number[][] = counts.map(() => []);
  const rest: Expr[] = [];
  const masks: number[] = [];
  const addCheck = (l: Expr): void => {
    const at = lastCount(l, counts);
    checks[at]!.push(l);
    checkMasks[at]!.push(countMask(l, counts));
  };
  for (const e of exprs) {
    const arrays = collectArrays(e);
    let level = -1;
    let countsOnly = true;
    for (const a of arrays) {
      const i = counts.indexOf(a);
      if (i < 0) countsOnly = false;
      else level = Math.max(level, i);
    }
    if (level >= 0 && countsOnly) addCheck(e);
    else {
      if (level >= 0 && level < counts.length - 1) early[level]!.push(rest.length);
      rest.push(e);
      masks.push(countMask(e, counts));
      if (level >= 0) for (const l of writtenCellLemmas(e)) addCheck(l);
    }
  }
  const model = new Map<ExprArray, Uint8Array>(counts.map((a) => [a, new Uint8Array(a.size)]));
  // the counts before each level (their buffers shared with model's)
  const prefixes = counts.map((_, d) => new Map(counts.slice(0, d).map((a) => [a, model.get(a)!])));
  const values: bigint[] = counts.map(() => 0n);
  const residuals: Expr[][] = counts.map(() => []);
  const levelValues = (d: number): IterableIterator<bigint> => {
    const r = narrowed(d, domains[d]!, checks[d]!, checkMasks[d]!, counts, values, prefixes[d]!);
    residuals[d] = r.residual;
    return r.set.values();
  };
  const iters = [levelValues(0)];
  const order = rest.map((_, i) => i);
  let cases = 0;
  let nodes = 0;
  let undecided = 0;
  let depth = 0;
  for (;;) {
    const next = iters[depth]!.next();
    if (next.done === true) {
      iters.pop();
      if (--depth < 0) return undecided > 0 || !proven ? undefined : null;
      continue;
    }
    if (++nodes > MAX_NODES) return undefined;
    const a = counts[depth]!;
    values[depth] = next.value;
    writeCount(model.get(a)!, next.value);
    const residual = residuals[depth]!;
    if (residual.length > 0) {
      const ev = new Evaluator(model);
      if (!residual.every((e) => ev.isTrue(e))) continue;
    }
    if (depth < counts.length - 1) {
      if (!holds(rest, masks, early[depth]!, values, model)) continue;
      depth++;
      iters.push(levelValues(depth));
      continue;
    }
    const one = caseOf(rest, masks, order, values, model);
    if (one === null) continue; // a constraint folded to false: no need to count a case
    if (++cases > MAX_CASES) return undefined;
    const r = solveCase(one);
    if (r === undefined) {
      if (++undecided >= MAX_UNDECIDED) return undefined;
      continue;
    }
    if (r === null) continue;
    for (const c of counts) r.set(c, model.get(c)!.slice());
    return r;
  }
}

/**
 * The values of count d allowed by `domain` and by the constraints over counts only whose
 * last count is d (`checks`), the earlier counts' values put in: each that becomes an interval
 * constraint on d narrows the set; the others (`residual`, with the earlier values in) are
 * evaluated per value.
 */
function narrowed(d: number, domain: IntervalSet, checks: readonly Expr[], checkMasks: readonly number[], counts: readonly ExprArray[], values: readonly bigint[], prefix: ReadonlyMap<ExprArray, Uint8Array>): { set: IntervalSet; residual: Expr[] } {
  let set = domain;
  const residual: Expr[] = [];
  const before = (1 << d) - 1;
  for (let j = 0; j < checks.length && !set.isEmpty(); j++) {
    const e = withCounts(checks[j]!, checkMasks[j]! & before, values, prefix);
    if (e === TRUE) continue;
    if (e === FALSE) return { set: IntervalSet.empty(domain.width), residual };
    const n = narrowBy(set, e, counts[d]!);
    if (n === null) residual.push(e);
    else set = n;
  }
  return { set, residual };
}

/** `set` (a count's values) ∩ the values under which e holds when e is an interval constraint on the count; else null. */
function narrowBy(set: IntervalSet, e: Expr, count: ExprArray): IntervalSet | null {
  const an = analyze(e);
  if (an.kind !== 'simple' || an.v.array !== count || an.v.start !== 0) return null;
  if (an.v.length === 4) return set.intersect(an.set);
  // about the count's low bytes: exact when the set lies below them (the high bytes are zero)
  if (an.v.length > 4 || set.isEmpty() || set.max() >= 1n << BigInt(8 * an.v.length)) return null;
  return set.intersect(an.set.withWidth(set.width));
}

/** Whether none of rest[i] (i in `which`, every count it reads assigned) folds to false; one that does moves to the front of `which`. */
function holds(rest: readonly Expr[], masks: readonly number[], which: number[], values: readonly bigint[], model: ReadonlyMap<ExprArray, Uint8Array>): boolean {
  for (let j = 0; j < which.length; j++) {
    const i = which[j]!;
    if (withCounts(rest[i]!, masks[i]!, values, model) !== FALSE) continue;
    if (j > 0) {
      which.splice(j, 1);
      which.unshift(i);
    }
    return false;
  }
  return true;
}

/**
 * The constraints with the counts' values, or null as soon as one folds to false; that one
 * moves to the front of `order` (the next assignment likely fails on it too: a read that
 * reaches a string's terminator).
 */
function caseOf(rest: readonly Expr[], masks: readonly number[], order: number[], values: readonly bigint[], model: ReadonlyMap<ExprArray, Uint8Array>): Expr[] | null {
  const out: Expr[] = [];
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    const e = withCounts(rest[i]!, masks[i]!, values, model);
    if (e === FALSE) {
      if (j > 0) {
        order.splice(j, 1);
        order.unshift(i);
      }
      return null;
    }
    out.push(e);
  }
  return out;
}

/**
 * Each count's values by its simple constraints on all four bytes (`k ≤ 19`). A count without
 * such a bound (the engine may have replaced a byte of it by a constant) takes 0..auxMax (its
 * merge's largest count, which the full path condition states),
 * and then the enumeration proves nothing (`proven` false): only its models are answers.
 * Null domains when one has too many values.
 */
function countDomains(exprs: readonly Expr[], counts: readonly ExprArray[]): { domains: IntervalSet[] | null; proven: boolean } {
  const sets: (IntervalSet | null)[] = counts.map(() => null);
  for (const e of exprs) {
    const an = analyze(e);
    if (an.kind !== 'simple' || an.v.start !== 0 || an.v.length !== 4) continue;
    const i = counts.indexOf(an.v.array);
    if (i >= 0) sets[i] = sets[i] === null ? an.set : sets[i]!.intersect(an.set);
  }
  let proven = true;
  const domains = sets.map((s, i) => {
    if (s !== null && (s.isEmpty() || s.max() < BigInt(MAX_VALUES))) return s;
    proven = false;
    const upTo = IntervalSet.range(32, 0n, counts[i]!.auxMax!);
    return s === null ? upTo : s.intersect(upTo);
  });
  for (const s of domains) if (!s.isEmpty() && s.max() >= BigInt(MAX_VALUES)) return { domains: null, proven };
  return { domains, proven };
}

function writeCount(buf: Uint8Array, v: bigint): void {
  for (let b = 0; b < buf.length; b++) buf[b] = Number((v >> BigInt(8 * b)) & 0xffn);
}

const memo = new WeakMap<Expr, Map<number, Expr>>();

/** The position in `counts` of the last count e reads (e reads counts only, countsOf's). */
function lastCount(e: Expr, counts: readonly ExprArray[]): number {
  let at = 0;
  for (const a of collectArrays(e)) at = Math.max(at, counts.indexOf(a));
  return at;
}

/** Which of the counts e reads, one bit each (0: none). */
function countMask(e: Expr, counts: readonly ExprArray[]): number {
  const arrays = collectArrays(e);
  let mask = 0;
  for (let i = 0; i < counts.length; i++) if (arrays.has(counts[i]!)) mask |= 1 << i;
  return mask;
}

/** A memo key for the values of the counts in `mask` (each below MAX_VALUES), their ids implied by e. */
function countKey(mask: number, values: readonly bigint[]): number {
  let key = mask;
  for (let i = 0; i < values.length; i++) key = key * MAX_VALUES + ((mask >> i) & 1 ? Number(values[i]!) : 0);
  return key;
}

/** e (reading the counts in `mask`) with every read of a count replaced by its byte under the assignment (memoised). */
function withCounts(e: Expr, mask: number, values: readonly bigint[], model: ReadonlyMap<ExprArray, Uint8Array>): Expr {
  if (mask === 0) return e;
  const key = countKey(mask, values);
  let m = memo.get(e);
  const known = m?.get(key);
  if (known !== undefined) return known;
  const out = substitute(e, model, new Map(), 0) ?? replaceExprs(e, new CountBytes(model));
  if (m === undefined) memo.set(e, (m = new Map()));
  if (m.size < MAX_MEMO) m.set(key, out);
  return out;
}

/** Deepest recursion of substitute() (beyond: replaceExprs, which is iterative). */
const MAX_DEPTH = 2000;

/**
 * e with the counts' bytes for their reads, rebuilt top-down so that a select whose
 * condition folds rebuilds only the arm taken (a merged value `ite(k = 2, a, ite(k = 3, …))`
 * is a chain of N selects: bottom-up, every case would rebuild all of it), and an And/Or
 * stops at an operand that decides it. Null when e is too deep or a read's update list
 * mentions a count (then replaceExprs does it).
 */
function substitute(e: Expr, model: ReadonlyMap<ExprArray, Uint8Array>, memo: Map<Expr, Expr>, depth: number): Expr | null {
  if (e.kind === ExprKind.Constant || !readsCount(e, model)) return e;
  const known = memo.get(e);
  if (known !== undefined) return known;
  if (depth > MAX_DEPTH) return null;
  const sub = (x: Expr): Expr | null => substitute(x, model, memo, depth + 1);
  let out: Expr | null;
  switch (e.kind) {
    case ExprKind.Read: {
      const bytes = model.get(e.updates.root);
      if (bytes !== undefined) {
        out = e.index.kind === ExprKind.Constant && e.updates.head === null && e.index.value < BigInt(bytes.length) ? builder.constant(bytes[Number(e.index.value)]!, 8) : null;
        break;
      }
      // a write of its update list reads a count (`s[k1 + 3] = 0` read at `k1 + 4`): replaceExprs rewrites lists
      if (listReadsCount(e.updates.head, model)) return null;
      const index = sub(e.index);
      out = index === null ? null : builder.read(e.updates, index);
      break;
    }
    case ExprKind.Select: {
      const c = sub(e.cond);
      if (c === null) return null;
      if (c.kind === ExprKind.Constant) out = sub(c === TRUE ? e.trueExpr : e.falseExpr);
      else {
        const t = sub(e.trueExpr);
        const f = t === null ? null : sub(e.falseExpr);
        out = f === null ? null : builder.select(c, t!, f);
      }
      break;
    }
    case ExprKind.Concat: {
      const l = sub(e.left);
      const r = l === null ? null : sub(e.right);
      out = r === null ? null : builder.concat(l!, r);
      break;
    }
    case ExprKind.Extract: {
      const x = sub(e.expr);
      out = x === null ? null : builder.extract(x, e.offset, e.width);
      break;
    }
    case ExprKind.ZExt:
    case ExprKind.SExt: {
      const x = sub(e.expr);
      out = x === null ? null : e.kind === ExprKind.ZExt ? builder.zext(x, e.width) : builder.sext(x, e.width);
      break;
    }
    case ExprKind.Not: {
      const x = sub(e.expr);
      out = x === null ? null : builder.not(x);
      break;
    }
    case ExprKind.BoundVar:
    case ExprKind.Forall:
      return null;
    default: {
      const l = sub(e.left);
      if (l === null) return null;
      // a decided width-1 And/Or needs no right operand
      if (e.width === 1 && ((e.kind === ExprKind.And && l === FALSE) || (e.kind === ExprKind.Or && l === TRUE))) out = l;
      else {
        const r = sub(e.right);
        out = r === null ? null : builder.binary(e.kind, l, r);
      }
    }
  }
  if (out !== null) memo.set(e, out);
  return out;
}

/** Whether a write of the list from `n` on reads a count in its index or value. */
function listReadsCount(n: UpdateNode | null, model: ReadonlyMap<ExprArray, Uint8Array>): boolean {
  for (; n !== null; n = n.next) if (readsCount(n.index, model) || readsCount(n.value, model)) return true;
  return false;
}

function readsCount(e: Expr, model: ReadonlyMap<ExprArray, Uint8Array>): boolean {
  for (const a of collectArrays(e)) if (model.has(a)) return true;
  return false;
}

/** The substitution of a count's reads at constant indices by its bytes. */
class CountBytes implements Substitution {
  readonly size = 1;
  constructor(private readonly model: ReadonlyMap<ExprArray, Uint8Array>) {}

  get(e: Expr): Expr | undefined {
    if (e.kind !== ExprKind.Read || e.index.kind !== ExprKind.Constant || e.updates.head !== null) return undefined;
    const bytes = this.model.get(e.updates.root);
    if (bytes === undefined) return undefined;
    const i = Number(e.index.value);
    return i < bytes.length ? builder.constant(bytes[i]!, 8) : undefined;
  }

  has(e: Expr): boolean {
    return this.get(e) !== undefined;
  }
}

