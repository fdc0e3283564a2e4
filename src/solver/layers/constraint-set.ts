/**
 * The path condition: a persistent set of width-1 constraints with KLEE's simplifications
 * (ConstraintManager in lib/Expr/Constraints.cpp).
 *
 *  - `add(e)` first simplifies e under the current constraints (`simplify`), then adds it:
 *    a constant true is dropped, a constant false makes the set infeasible (add returns false
 *    and leaves the set unchanged), a conjunction is split into its conjuncts (finer
 *    independence), and — with `rewriteEqualities` (KLEE's --rewrite-equalities, default
 *    true) — an equality `c == x` with c constant substitutes c for x in every constraint
 *    already in the set; a constraint that changes is re-added (it may split, fold, or be an
 *    equality itself).
 *  - `simplify(e)` substitutes, as KLEE's `simplifyExpr`: for each constraint `c == x` (c
 *    constant) x ↦ c, for each `¬x` x ↦ false, and every other constraint ↦ true; the result
 *    is rebuilt with the simplifying builder (constant folding). The engine should simplify
 *    branch conditions and query expressions with it.
 *  - `fork()` is O(1): the two sets share their arrays copy-on-write.
 */
import { builder, ExprKind, FALSE, TRUE, type Expr } from '../../expr/index.js';
import { replaceExprs } from './replace.js';

export interface ConstraintSetOptions {
  /** KLEE's --rewrite-equalities (default true). */
  rewriteEqualities?: boolean;
}

export class ConstraintSet implements Iterable<Expr> {
  private cs: Expr[] = [];
  /** cs may be seen by someone else (a fork, a caller of toArray): copy before writing. */
  private shared = false;
  private simpMap: Map<Expr, Expr> | null = null;
  private readonly rewrite: boolean;

  constructor(opts: ConstraintSetOptions = {}, initial: Iterable<Expr> = []) {
    this.rewrite = opts.rewriteEqualities ?? true;
    for (const e of initial) {
      if (!this.add(e)) throw new Error(`ConstraintSet: initial constraint ${e.toString()} is infeasible`);
    }
  }

  get size(): number {
    return this.cs.length;
  }

  get rewriteEqualities(): boolean {
    return this.rewrite;
  }

  /** The constraints (do not mutate; valid until the next add, and after it). */
  toArray(): readonly Expr[] {
    this.shared = true;
    return this.cs;
  }

  [Symbol.iterator](): Iterator<Expr> {
    return this.toArray()[Symbol.iterator]();
  }

  /** An independent copy; O(1) (copy-on-write). */
  fork(): ConstraintSet {
    const c = new ConstraintSet({ rewriteEqualities: this.rewrite });
    c.cs = this.cs;
    c.simpMap = this.simpMap;
    c.shared = this.shared = true;
    return c;
  }

  /** e with what the constraints force substituted in (see the module comment). */
  simplify(e: Expr): Expr {
    if (e.kind === ExprKind.Constant || this.cs.length === 0) return e;
    return replaceExprs(e, this.substitution());
  }

  /**
   * Adds a constraint (width 1). Returns false, leaving the set unchanged, when it (or a
   * constraint it rewrites) simplifies to false: the path is infeasible.
   */
  add(e: Expr): boolean {
    if (e.width !== 1) throw new RangeError(`ConstraintSet.add: constraint of width ${e.width}`);
    const before = this.cs.length;
    const w = new Work(this.cs, this.shared, this.rewrite);
    if (!w.add(this.simplify(e))) {
      if (!this.shared) this.cs.length = before; // undo pushes made in place
      return false;
    }
    if (w.touched) this.simpMap = null;
    this.cs = w.list;
    this.shared = !w.owned;
    return true;
  }

  private substitution(): Map<Expr, Expr> {
    if (this.simpMap !== null) return this.simpMap;
    const m = new Map<Expr, Expr>();
    for (const c of this.cs) {
      if (c.kind === ExprKind.Eq && c.left.kind === ExprKind.Constant) {
        if (!m.has(c.right)) m.set(c.right, c.left);
      } else if (c.kind === ExprKind.Not) {
        if (!m.has(c.expr)) m.set(c.expr, FALSE);
      } else if (!m.has(c)) m.set(c, TRUE);
    }
    return (this.simpMap = m);
  }
}

/** One add in progress: fails without touching the set it started from. */
class Work {
  /** Something was added or rewritten. */
  touched = false;
  constructor(
    public list: Expr[],
    private shared: boolean,
    private readonly rewrite: boolean,
  ) {}

  get owned(): boolean {
    return !this.shared;
  }

  private push(e: Expr): void {
    this.touched = true;
    if (this.shared) {
      this.list = this.list.slice();
      this.shared = false;
    }
    this.list.push(e);
  }

  add(e: Expr): boolean {
    // iterative over conjunctions; equalities recurse through rewriting
    const todo: Expr[] = [e];
    while (todo.length > 0) {
      const x = todo.pop()!;
      if (x === TRUE) continue;
      if (x === FALSE) return false;
      if (x.kind === ExprKind.And && x.width === 1) {
        todo.push(x.right, x.left);
        continue;
      }
      if (this.rewrite && x.kind === ExprKind.Eq && x.left.kind === ExprKind.Constant) {
        if (!this.rewriteAll(x.right, x.left)) return false;
      }
      this.push(x);
    }
    return true;
  }

  /** Substitutes `to` for `from` in every constraint, re-adding those that change. */
  private rewriteAll(from: Expr, to: Expr): boolean {
    const map = new Map<Expr, Expr>([[from, to]]);
    const old = this.list;
    let changed: Expr[] | null = null;
    const keep: Expr[] = [];
    for (const c of old) {
      const r = replaceExprs(c, map);
      if (r === c) keep.push(c);
      else (changed ??= []).push(r);
    }
    if (changed === null) return true;
    this.touched = true;
    this.list = keep;
    this.shared = false;
    for (const r of changed) if (!this.add(r)) return false;
    return true;
  }
}

/** A conjunction of the constraints (TRUE when empty). */
export function conjunction(cs: Iterable<Expr>): Expr {
  let acc: Expr = TRUE;
  for (const c of cs) acc = builder.and(acc, c);
  return acc;
}
