/**
 * KLEE's --optimize-array as a layer at the head of the chain: every expression of a query
 * (path condition and question) is rewritten before the other layers see it, memoised per
 * expression.
 *
 *  - 'index': conditions over reads of constant tables at one symbolic index become
 *    comparisons of the index (array-index-opt.ts);
 *  - 'all': the same, and an expression it does not apply to gets KLEE's value-based
 *    rewrite: each such read becomes a choice among the table's values (`ite(k ∈ P1, v1,
 *    ite(k ∈ P2, v2, …, 0))`). ('value' alone is done by the engine when memory is read:
 *    engine/array-values.ts.)
 *
 * Both rewrites are exact (a read past a table's end is 0, as everywhere in tsklee), so the
 * answers and models are those of the original query. Counters: `rewrites` (distinct
 * expressions changed) and `readsRemoved` (constant-table reads those rewrites took out of
 * what the layers below, and the backend, get): run.stats' SolverLayerArrayOpt* columns.
 */
import { builder, constant, ExprKind, hasQuantifier, UpdateNode, walkDag, type Expr, type ExprArray, type ReadExpr } from '../../expr/index.js';
import type { InitialValues, Query, Solver, SolverStats, Validity } from '../solver.js';
import { indexRewrite, isConstantTableRead } from './array-index-opt.js';
import { LayerCounters } from './layer-stats.js';
import { replaceExprs } from './replace.js';

export type ArrayOptMode = 'index' | 'all';

/** Largest table the value-based rewrite turns into a choice (as engine/array-values.ts). */
const MAX_VALUE_TABLE = 1024;

/** The constant-table reads at symbolic indices in e (each distinct read once). */
export function countTableReads(e: Expr): number {
  let n = 0;
  walkDag([e], {
    post: (v) => {
      if (!(v instanceof UpdateNode) && isConstantTableRead(v)) n++;
    },
  });
  return n;
}

/** The table's bytes with its (constant) writes applied, or null if a write is past its end. */
function tableBytes(r: ReadExpr): Uint8Array | null {
  const root = r.updates.root;
  const bytes = root.constantValues!.slice();
  const writes = [...r.updates.nodes()].reverse(); // oldest first
  for (const w of writes) {
    const i = Number(w.index.kind === ExprKind.Constant ? w.index.bv : -1);
    if (i < 0 || i >= bytes.length) return null;
    bytes[i] = Number(w.value.kind === ExprKind.Constant ? w.value.bv : 0);
  }
  return bytes;
}

/** `index ∈ positions` as comparisons, runs of consecutive positions as ranges. */
function inPositions(index: Expr, positions: readonly number[]): Expr {
  let e: Expr | null = null;
  for (let i = 0; i < positions.length; ) {
    let j = i;
    while (j + 1 < positions.length && positions[j + 1] === positions[j]! + 1) j++;
    const lo = positions[i]!;
    const hi = positions[j]!;
    const t = lo === hi ? builder.eq(constant(lo, 32), index) : builder.and(builder.ule(constant(lo, 32), index), builder.ule(index, constant(hi, 32)));
    e = e === null ? t : builder.or(e, t);
    i = j + 1;
  }
  return e!;
}

/** The byte at `index` of `bytes` as a choice among its non-zero values; 0 elsewhere (zeros and past the end). */
export function exactValueChoice(bytes: Uint8Array, index: Expr): Expr {
  const positions = new Map<number, number[]>();
  bytes.forEach((v, i) => {
    if (v === 0) return;
    let l = positions.get(v);
    if (l === undefined) positions.set(v, (l = []));
    l.push(i);
  });
  let e: Expr = constant(0, 8);
  const groups = [...positions.entries()].sort((a, b) => b[1].length - a[1].length || b[0] - a[0]);
  for (const [value, at] of groups) e = builder.select(inPositions(index, at), constant(value, 8), e);
  return e;
}

/** KLEE's value-based rewrite of e's constant-table reads (nested ones too), or null if none applies. */
export function valueRewrite(e: Expr): Expr | null {
  let cur = e;
  for (let round = 0; round < 4; round++) {
    const map = new Map<Expr, Expr>();
    walkDag([cur], {
      post: (v) => {
        if (v instanceof UpdateNode || !isConstantTableRead(v) || v.updates.root.size > MAX_VALUE_TABLE) return;
        const bytes = tableBytes(v);
        if (bytes !== null) map.set(v, exactValueChoice(bytes, v.index));
      },
    });
    if (map.size === 0) break;
    cur = replaceExprs(cur, map);
  }
  return cur === e ? null : cur;
}

export class ArrayOptSolver implements Solver {
  private readonly c = new LayerCounters('array-opt');
  private readonly memo = new WeakMap<Expr, Expr>();
  private rewrites = 0;
  private readsRemoved = 0;

  constructor(
    private readonly next: Solver,
    private readonly mode: ArrayOptMode,
  ) {}

  /** e rewritten (or e itself), memoised. */
  rewrite(e: Expr): Expr {
    if (e.kind === ExprKind.Constant || hasQuantifier(e)) return e;
    const known = this.memo.get(e);
    if (known !== undefined) return known;
    let r = indexRewrite(e);
    if (r === null && this.mode === 'all') r = valueRewrite(e);
    const out = r ?? e;
    if (out !== e) {
      this.rewrites++;
      this.readsRemoved += countTableReads(e) - countTableReads(out);
    }
    this.memo.set(e, out);
    return out;
  }

  private query(q: Query): Query {
    let changed = false;
    const constraints = q.constraints.map((c) => {
      const r = this.rewrite(c);
      if (r !== c) changed = true;
      return r;
    });
    const expr = this.rewrite(q.expr);
    if (!changed && expr === q.expr) return q;
    return { ...q, constraints: changed ? constraints : q.constraints, expr };
  }

  computeTruth(q: Query): boolean {
    return this.c.time(() => this.next.computeTruth(this.query(q)));
  }

  computeValidity(q: Query): Validity {
    return this.c.time(() => this.next.computeValidity(this.query(q)));
  }

  computeValue(q: Query): bigint {
    return this.c.time(() => this.next.computeValue(this.query(q)));
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.c.time(() => this.next.computeInitialValues(this.query(q), arrays));
  }

  stats(): SolverStats[] {
    return [{ ...this.c.snapshot(), rewrites: this.rewrites, readsRemoved: this.readsRemoved }, ...this.next.stats()];
  }

  dispose(): void {
    this.next.dispose();
  }
}
