/**
 * Constraint independence (KLEE's IndependentSolver, --use-independent-solver).
 *
 * Truth, validity and value queries keep only the constraints transitively sharing elements
 * (bytes at constant indices, or whole arrays read at symbolic indices — see element-set.ts)
 * with the query expression, computed as KLEE's `getIndependentConstraints` does: grow the
 * expression's element set to a fixpoint over the constraints that intersect it.
 *
 * computeInitialValues splits constraints ∧ expr into independent factors (KLEE's
 * `getAllIndependentConstraintsSets`), solves each factor for the requested arrays it
 * touches, and merges the models: an array read at symbolic indices comes whole from its one
 * factor; an array read only at constant indices gets from each factor exactly the bytes that
 * factor reads. Requested arrays no factor touches are all zeros, as in KLEE. One deviation:
 * factors made only of constraints that touch no requested array are not solved — the
 * constraints are satisfiable by the Solver contract, so such a factor cannot make the query
 * unsatisfiable (KLEE solves them anyway).
 */
import { evaluateBool, TRUE, type Expr, type ExprArray } from '../../expr/index.js';
import type { InitialValues, Query, Solver, SolverStats, Validity } from '../solver.js';
import { ElementSet, elementsOf } from './element-set.js';
import { LayerCounters } from './layer-stats.js';

/** The constraints that (transitively) share elements with `expr`, in their original order. */
export function independentConstraints(constraints: readonly Expr[], expr: Expr): Expr[] {
  const closure = elementsOf(expr).clone();
  if (closure.isEmpty()) return [];
  const sets = constraints.map(elementsOf);
  const taken = new Array<boolean>(constraints.length).fill(false);
  let done = false;
  while (!done) {
    done = true;
    for (let i = 0; i < sets.length; i++) {
      if (taken[i] || !sets[i]!.intersects(closure)) continue;
      taken[i] = true;
      if (closure.add(sets[i]!)) done = false;
    }
  }
  const out: Expr[] = [];
  for (let i = 0; i < constraints.length; i++) if (taken[i]) out.push(constraints[i]!);
  return out;
}

/** One independent factor: its expressions and their joint element set. */
export interface Factor {
  exprs: Expr[];
  elements: ElementSet;
}

/** Partitions expressions into independent factors (expressions that read nothing are dropped). */
export function independentFactors(exprs: readonly Expr[]): Factor[] {
  let factors: Factor[] = [];
  for (const e of exprs) {
    const es = elementsOf(e);
    if (es.isEmpty()) continue;
    const merged: Factor = { exprs: [e], elements: es.clone() };
    const rest: Factor[] = [];
    for (const f of factors) {
      if (f.elements.intersects(merged.elements)) {
        merged.exprs.unshift(...f.exprs);
        merged.elements.add(f.elements);
      } else rest.push(f);
    }
    rest.push(merged);
    factors = rest;
  }
  // a factor's membership can grow after it was compared with others: merge to a fixpoint
  let changed = true;
  while (changed) {
    changed = false;
    outer: for (let i = 0; i < factors.length; i++) {
      for (let j = i + 1; j < factors.length; j++) {
        if (factors[i]!.elements.intersects(factors[j]!.elements)) {
          factors[i]!.exprs.push(...factors[j]!.exprs);
          factors[i]!.elements.add(factors[j]!.elements);
          factors.splice(j, 1);
          changed = true;
          break outer;
        }
      }
    }
  }
  return factors;
}

export class IndependentSolver implements Solver {
  private readonly c = new LayerCounters('independence');
  /** Constraints dropped from queries, summed (how much the slicing removed). */
  droppedConstraints = 0;

  constructor(private readonly inner: Solver) {}

  private slice(q: Query): Query {
    const constraints = independentConstraints(q.constraints, q.expr);
    this.droppedConstraints += q.constraints.length - constraints.length;
    return { constraints, expr: q.expr };
  }

  computeTruth(q: Query): boolean {
    return this.c.time(() => this.inner.computeTruth(this.slice(q)));
  }

  computeValidity(q: Query): Validity {
    return this.c.time(() => this.inner.computeValidity(this.slice(q)));
  }

  computeValue(q: Query): bigint {
    return this.c.time(() => this.inner.computeValue(this.slice(q)));
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.c.time(() => this.initialValues(q, arrays));
  }

  private initialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (elementsOf(q.expr).isEmpty() && !evaluateBool(q.expr, new Map())) {
      this.c.hits++; // expr reads nothing and is false (e.g. FALSE itself)
      return null;
    }
    const all = q.expr === TRUE ? q.constraints : [...q.constraints, q.expr];
    const factors = independentFactors(all);
    const wanted = new Map<ExprArray, number>();
    arrays.forEach((a, i) => wanted.set(a, i));
    const out: Uint8Array[] = arrays.map((a) => new Uint8Array(a.size));
    let solved = 0;
    for (const f of factors) {
      const mine = f.elements.arrays().filter((a) => wanted.has(a));
      if (mine.length === 0 && !f.exprs.includes(q.expr)) continue; // see the module comment
      solved++;
      const last = f.exprs[f.exprs.length - 1]!;
      const sub: Query = f.exprs.includes(q.expr)
        ? { constraints: f.exprs.filter((e) => e !== q.expr), expr: q.expr }
        : { constraints: f.exprs.slice(0, -1), expr: last };
      const values = this.inner.computeInitialValues(sub, mine);
      if (values === null) return null;
      mine.forEach((a, k) => {
        const dst = out[wanted.get(a)!]!;
        const src = values[k]!;
        const bytes = f.elements.bytes.get(a);
        // a loop, not set(subarray): a subarray of a small array moves it off the V8 heap (slow)
        if (bytes === undefined) for (let i = 0, n = Math.min(dst.length, src.length); i < n; i++) dst[i] = src[i]!;
        else for (const i of bytes) if (i < dst.length && i < src.length) dst[i] = src[i]!;
      });
    }
    if (solved === 0) this.c.hits++;
    return out;
  }

  stats(): SolverStats[] {
    return [this.c.snapshot(), ...this.inner.stats()];
  }

  dispose(): void {
    this.inner.dispose();
  }
}
