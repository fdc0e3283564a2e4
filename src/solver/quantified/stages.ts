/**
 * The stages of paper 000's procedure for quantified queries (§5), as functions over a model
 * (concrete bytes per array), each usable on its own (the unit tests run the paper's
 * Examples 5–7 through them):
 *
 *  1. strip: each ∀ clause becomes `k = 0 ∨ ψ(1)`, plus E-matching lemmas `¬(1 ≤ t ≤ k)` for
 *     each quantifier-free clause that is syntactically the negation of (a conjunct of) an
 *     instance ψ(t), t found by inverting a read index `f(i)` at the clause's read index, and
 *     instances `1 ≤ t ≤ k → ψ(t)` at the indices the reads' update lists write (string
 *     terminators). The stripped query is implied by the original: UNSAT carries over.
 *  2. duplicate: for each read a[o(i)] of a ∀ body, the value the model gives a[o(1)] is
 *     copied into a[o(j)] for j = 2..k.
 *  3. repair: the instances ψ(j) whose cells a violated clause reads are added to the
 *     stripped query, every other array is pinned to the duplicated model, the arrays read
 *     through i are solved afresh, and duplication runs again without the conflicting cells.
 */
import { builder, Evaluator, ExprKind, TRUE, UpdateList, type Expr, type ExprArray, type ForallExpr, type ReadExpr } from '../../expr/index.js';
import type { Solver } from '../solver.js';
import { boundReads, firstInstance, inRange, instanceClause, instantiate, invertIndex, readsOf } from './instantiate.js';

/** Bytes of every array of a query. */
export type Model = Map<ExprArray, Uint8Array>;

/** Most instances a stage expands per ∀ clause (k beyond it: the stage gives up). */
export const MAX_INSTANCES = 1 << 16;

/** Update-list writes per read used as E-matching terms (the newest ones: terminators). */
const UPDATE_LEMMAS = 4;

/** The conjuncts of a width-1 expression. */
export function conjuncts(e: Expr, out: Expr[] = []): Expr[] {
  const stack = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === ExprKind.And && x.width === 1) stack.push(x.right, x.left);
    else if (x !== TRUE) out.push(x);
  }
  return out;
}

/** Stage 1: the quantifier-free query (the QF clauses, then each ∀'s replacement and lemmas). */
export function strip(qf: readonly Expr[], foralls: readonly ForallExpr[], ematching: boolean): Expr[] {
  const out = [...qf];
  const seen = new Set<Expr>(out);
  const add = (e: Expr): void => {
    if (e === TRUE || seen.has(e)) return;
    seen.add(e);
    out.push(e);
  };
  for (const f of foralls) {
    add(firstInstance(f));
    if (ematching) for (const l of lemmas(f, qf)) add(l);
  }
  return out;
}

/**
 * E-matching lemmas of one ∀ clause against the quantifier-free clauses. Memoised per ∀ and
 * clause: a path condition is asked about again at every branch of its state, and walking
 * every clause's reads for every query was a fifth of PAT's time on url at N = 100.
 */
export function lemmas(f: ForallExpr, qf: readonly Expr[]): Expr[] {
  const out: Expr[] = [];
  let memo = lemmaMemo.get(f);
  if (memo === undefined) lemmaMemo.set(f, (memo = { reads: boundReads(f.body), byClause: new WeakMap() }));
  if (memo.reads.length === 0) return out;
  const seen = new Set<Expr>();
  for (const c of qf) {
    let ls = memo.byClause.get(c);
    if (ls === undefined) memo.byClause.set(c, (ls = clauseLemmas(f, memo.reads, c)));
    for (const l of ls) {
      if (seen.has(l)) continue;
      seen.add(l);
      out.push(l);
    }
  }
  memo.updates ??= updateLemmas(f, memo.reads);
  out.push(...memo.updates);
  return out;
}

interface LemmaMemo {
  readonly reads: ReadExpr[];
  readonly byClause: WeakMap<Expr, readonly Expr[]>;
  updates?: readonly Expr[];
}

const lemmaMemo = new WeakMap<ForallExpr, LemmaMemo>();

/** `¬(1 ≤ t ≤ k)` for each t where an instance's conjunct is exactly ¬c (then ψ(t) is false). */
function clauseLemmas(f: ForallExpr, reads: readonly ReadExpr[], c: Expr): Expr[] {
  const out: Expr[] = [];
  const tried = new Set<Expr>();
  for (const u of readsOf(c)) {
    for (const r of reads) {
      if (u.updates.root !== r.updates.root || u.updates.head !== r.updates.head) continue;
      const t = invertIndex(r.index, f.bound, u.index);
      if (t === null || tried.has(t)) continue;
      tried.add(t);
      const inst = conjuncts(instantiate(f, t));
      if (inst.some((x) => builder.not(x) === c)) out.push(builder.not(inRange(f, t)));
    }
  }
  return out;
}

/** The instances at the indices the body reads' update lists write (the newest: terminators). */
function updateLemmas(f: ForallExpr, reads: readonly ReadExpr[]): Expr[] {
  const out: Expr[] = [];
  for (const r of reads) {
    let n = 0;
    for (const w of r.updates.nodes()) {
      if (n++ >= UPDATE_LEMMAS) break;
      const t = invertIndex(r.index, f.bound, w.index);
      if (t !== null) out.push(instanceClause(f, t));
    }
  }
  return out;
}

/** Does the model satisfy every clause (∀ clauses by exact expansion)? */
export function satisfies(m: Model, clauses: readonly Expr[]): boolean {
  const ev = new Evaluator(m);
  // quantifier-free clauses first: they bound the counts the ∀ clauses expand over
  const ordered = [...clauses.filter((c) => c.kind !== ExprKind.Forall), ...clauses.filter((c) => c.kind === ExprKind.Forall)];
  try {
    return ordered.every((c) => ev.isTrue(c));
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('evaluate: Forall over')) return false;
    throw e;
  }
}

function cloneModel(m: Model): Model {
  const out: Model = new Map();
  for (const [a, b] of m) out.set(a, b.slice());
  return out;
}

function cellKey(a: ExprArray, off: bigint): string {
  return `${a.id}:${off}`;
}

/** The count's value under the model, or -1 when it exceeds MAX_INSTANCES. */
function countOf(ev: Evaluator, f: ForallExpr): number {
  const k = ev.evaluate(f.upper);
  return k > BigInt(MAX_INSTANCES) ? -1 : Number(k);
}

/** Stage 2: each ∀ body read's value at i = 1 copied to its cells at i = 2..k (except `skip`'s cells). */
export function duplicate(m: Model, foralls: readonly ForallExpr[], skip: ReadonlySet<string> = new Set()): Model {
  const md = cloneModel(m);
  const ev = new Evaluator(m);
  for (const f of foralls) {
    const k = countOf(ev, f);
    if (k < 2) continue;
    const { varId, width } = f.bound;
    for (const r of boundReads(f.body)) {
      const a = r.updates.root;
      if (!a.isSymbolic() || a.auxMax !== null) continue;
      const bytes = md.get(a) ?? new Uint8Array(a.size);
      md.set(a, bytes);
      const v = Number(ev.bind(varId, width, 1).evaluate(r));
      for (let j = 2; j <= k; j++) {
        const off = ev.bind(varId, width, j).evaluate(r.index);
        if (off < BigInt(bytes.length) && !skip.has(cellKey(a, off))) bytes[Number(off)] = v;
      }
    }
  }
  return md;
}

/** The cells (array, offset) the reads of e touch under the evaluator (symbolic arrays only). */
function cellsRead(e: Expr, ev: Evaluator, out: Set<string>): void {
  for (const r of readsOf(e)) {
    const a = r.updates.root;
    if (a.isSymbolic()) out.add(cellKey(a, ev.evaluate(r.index)));
  }
}

/**
 * Stage 3: repair the duplicated model md (of the model m of the stripped query). Returns
 * a model of all clauses, or null.
 */
export function repair(
  next: Solver,
  stripped: readonly Expr[],
  clauses: readonly Expr[],
  foralls: readonly ForallExpr[],
  arrays: readonly ExprArray[],
  md: Model,
): Model | null {
  const ev = new Evaluator(md);
  // the cells each instance j ≥ 2 of each ∀ reads
  const access = new Map<string, { f: ForallExpr; j: number }[]>();
  const viaBound = new Set<ExprArray>();
  for (const f of foralls) {
    const k = countOf(ev, f);
    if (k < 0) return null;
    const { varId, width } = f.bound;
    for (const r of boundReads(f.body)) {
      viaBound.add(r.updates.root);
      for (let j = 2; j <= k; j++) {
        const key = cellKey(r.updates.root, ev.bind(varId, width, j).evaluate(r.index));
        let l = access.get(key);
        if (l === undefined) access.set(key, (l = []));
        l.push({ f, j });
      }
    }
  }
  // the cells of violated clauses and violated instances
  const violated = new Set<string>();
  for (const c of clauses) {
    if (c.kind === ExprKind.Forall) {
      const k = countOf(ev, c);
      for (let j = 1; j <= k; j++) {
        const evj = ev.bind(c.bound.varId, c.bound.width, j);
        if (!evj.isTrue(c.body)) cellsRead(c.body, evj, violated);
      }
    } else if (!ev.isTrue(c)) cellsRead(c, ev, violated);
  }
  const added: Expr[] = [];
  const skip = new Set<string>();
  for (const key of violated) {
    const hits = access.get(key);
    if (hits === undefined) continue;
    skip.add(key);
    for (const { f, j } of hits) added.push(instantiate(f, builder.constant(j, f.bound.width)));
  }
  if (added.length === 0) return null;
  // pin every array not read through a bound variable to the duplicated model
  const pins: Expr[] = [];
  for (const a of arrays) {
    if (viaBound.has(a) || !a.isSymbolic()) continue;
    const bytes = md.get(a) ?? new Uint8Array(a.size);
    for (let b = 0; b < a.size; b++) pins.push(builder.eq(builder.constant(bytes[b]!, 8), builder.read(emptyList(a), builder.constant(b, 32))));
  }
  const values = next.computeInitialValues({ constraints: [...stripped, ...added, ...pins], expr: TRUE }, arrays);
  if (values === null) return null;
  const mr: Model = new Map(arrays.map((a, i) => [a, values[i]!]));
  const again = duplicate(mr, foralls, skip);
  return satisfies(again, clauses) ? again : null;
}

const lists = new WeakMap<ExprArray, UpdateList>();

function emptyList(a: ExprArray): UpdateList {
  let l = lists.get(a);
  if (l === undefined) lists.set(a, (l = new UpdateList(a)));
  return l;
}
