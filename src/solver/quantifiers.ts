/**
 * The quantified-query layer (paper 000, §5), at the head of the solver chain. Queries
 * without a Forall pass straight through to the layer below. A query with one is reduced to
 * satisfiability questions about a conjunction of clauses, each quantifier-free or a
 * top-level `∀ i. 1 ≤ i ≤ k → ψ(i)`, answered by the stages of quantified/stages.ts:
 *
 *   1. strip the quantifiers (with E-matching lemmas) and solve the weaker QF query below:
 *      UNSAT is the answer; a model that satisfies the whole query (checked by exact
 *      expansion) is the answer;
 *   2. duplicate array values into the cells the ∀ constrains, check;
 *   3. repair conflicting cells with a small QF query, duplicate again, check;
 *   4. fall back: the quantified query to the backend (z3's quantifier engine under its own
 *      time limit) or, with `fallback: 'expand'`, its QF expansion over k's range to the
 *      layer below.
 *
 * A Forall nested inside another connective (a quantified state merged again by ite merging)
 * goes to stage 4 directly. Each stage counts its runs (queries) and the answers it gave
 * (hits): run.stats' SolverLayerQuantifier* columns. Stages switch off one by one for the
 * paper's ablations.
 */
import { builder, collectArraysOf, ExprKind, FALSE, hasQuantifier, TRUE, walkDag, UpdateNode, type Expr, type ExprArray, type ForallExpr } from '../expr/index.js';
import { Evaluator } from '../expr/evaluate.js';
import { SolverFailure, SolverFailureKind, Validity, type InitialValues, type Query, type Solver, type SolverStats } from './solver.js';
import { LayerCounters } from './layers/layer-stats.js';
import { replaceExprs } from './layers/replace.js';
import { expandForall } from './quantified/instantiate.js';
import { conjuncts, duplicate, repair, satisfies, strip, type Model } from './quantified/stages.js';

export type QuantifierFallback = 'backend' | 'expand';

export interface QuantifierOptions {
  /** Stage 1 (off: every quantified query goes to the fallback). */
  strip?: boolean;
  /** E-matching lemmas in stage 1. */
  ematching?: boolean;
  /** Stage 2. */
  duplicate?: boolean;
  /** Stage 3. */
  repair?: boolean;
  /** Stage 4: the backend on the quantified query, or its QF expansion below. */
  fallback?: QuantifierFallback;
  /** Most instances `fallback: 'expand'` writes per ∀ (beyond: the backend). */
  expandLimit?: number;
}

export const DEFAULT_QUANTIFIER_OPTIONS = {
  strip: true,
  ematching: true,
  duplicate: true,
  repair: true,
  fallback: 'backend',
  expandLimit: 4096,
} as const satisfies QuantifierOptions;

export class QuantifiedQuerySolver implements Solver {
  private readonly c = new LayerCounters('quantifiers');
  private readonly cStrip = new LayerCounters('quantifier-strip');
  private readonly cDup = new LayerCounters('quantifier-duplicate');
  private readonly cRepair = new LayerCounters('quantifier-repair');
  private readonly cFallback = new LayerCounters('quantifier-fallback');
  /** Branch questions where the last model decided one side (hits). */
  private readonly cKnown = new LayerCounters('quantifier-known-model');
  /** The last model solve() found (it satisfies the clauses it was asked about). */
  private lastModel: Model | null = null;
  private readonly o: Required<QuantifierOptions>;

  /**
   * @param next the chain below (quantifier-free queries, stripped and expanded queries)
   * @param backend the solver of stage 4 (z3 with the fallback's time limit)
   * @param ownsBackend dispose `backend` with this layer
   */
  constructor(
    private readonly next: Solver,
    private readonly backend: Solver,
    opts: QuantifierOptions = {},
    private readonly ownsBackend = false,
  ) {
    this.o = { ...DEFAULT_QUANTIFIER_OPTIONS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) };
  }

  private static quantified(q: Query): boolean {
    return hasQuantifier(q.expr) || q.constraints.some(hasQuantifier);
  }

  computeTruth(q: Query): boolean {
    if (!QuantifiedQuerySolver.quantified(q)) return this.next.computeTruth(q);
    return this.c.time(() => {
      if (this.knownSide(q) === false) return false; // a model of the constraints where expr is false
      return this.solve([...q.constraints, builder.not(q.expr)]) === null;
    });
  }

  /**
   * One solve per branch where it can (KLEE's computeValidity over the counterexample cache):
   * when a known model of the constraints decides one side, only the other is asked.
   */
  computeValidity(q: Query): Validity {
    if (!QuantifiedQuerySolver.quantified(q)) return this.next.computeValidity(q);
    return this.c.time(() => {
      const side = this.knownSide(q);
      if (side === true) return this.solve([...q.constraints, builder.not(q.expr)]) === null ? Validity.True : Validity.Unknown;
      if (side === false) return this.solve([...q.constraints, q.expr]) === null ? Validity.False : Validity.Unknown;
      const whenFalse = this.solve([...q.constraints, builder.not(q.expr)]);
      if (whenFalse === null) return Validity.True;
      return this.solve([...q.constraints, q.expr]) === null ? Validity.False : Validity.Unknown;
    });
  }

  /**
   * The value of q.expr under the last model this layer found, when that model satisfies
   * q's constraints (checked exactly, ∀ by expansion); undefined otherwise. Depth-first
   * search asks about the same state again and again, so the last model often fits.
   */
  private knownSide(q: Query): boolean | undefined {
    const m = this.lastModel;
    if (m === null) return undefined;
    this.cKnown.queries++;
    const clauses: Expr[] = [];
    for (const c of q.constraints) conjuncts(c, clauses);
    if (!satisfies(m, [...clauses, q.expr])) {
      if (!satisfies(m, clauses) || !satisfies(m, [builder.not(q.expr)])) return undefined;
      this.cKnown.hits++;
      return false;
    }
    this.cKnown.hits++;
    return true;
  }

  computeValue(q: Query): bigint {
    if (!QuantifiedQuerySolver.quantified(q)) return this.next.computeValue(q);
    return this.c.time(() => {
      const m = this.solve([...q.constraints]);
      if (m === null) throw new SolverFailure(SolverFailureKind.Unknown, 'computeValue: the constraints are unsatisfiable');
      return new Evaluator(m.model).evaluate(q.expr);
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (!QuantifiedQuerySolver.quantified(q)) return this.next.computeInitialValues(q, arrays);
    return this.c.time(() => {
      const m = this.solve([...q.constraints, q.expr]);
      if (m === null) return null;
      return arrays.map((a) => {
        const out = new Uint8Array(a.size);
        if (a.constantValues !== null) out.set(a.constantValues);
        else {
          const b = m.model.get(a);
          if (b !== undefined) out.set(b.subarray(0, a.size));
        }
        return out;
      });
    });
  }

  /** A model of the formulas (every symbolic array they read), or null when unsatisfiable. */
  private solve(formulas: readonly Expr[]): { model: Model } | null {
    const clauses: Expr[] = [];
    for (const f of formulas) conjuncts(f, clauses);
    if (clauses.includes(FALSE)) return null;
    const arrays = [...collectArraysOf(clauses)].filter((a) => a.isSymbolic());
    const foralls: ForallExpr[] = [];
    const qf: Expr[] = [];
    let nested = false;
    for (const c of clauses) {
      if (c.kind === ExprKind.Forall) foralls.push(c);
      else if (hasQuantifier(c)) nested = true;
      else qf.push(c);
    }
    if (!nested && this.o.strip) {
      const m = this.stages(clauses, qf, foralls, arrays);
      if (m !== undefined) {
        this.c.hits++;
        if (m !== null) this.lastModel = m;
        return m === null ? null : { model: m };
      }
    }
    const m = this.cFallback.time(() => this.fallback(clauses, arrays));
    if (m !== null && !satisfies(m, clauses)) throw new SolverFailure(SolverFailureKind.Unknown, 'quantified fallback: the model does not satisfy the query');
    this.cFallback.hits++;
    if (m !== null) this.lastModel = m;
    return m === null ? null : { model: m };
  }

  /** Stages 1–3: a model, null for UNSAT, undefined when they found no answer. */
  private stages(clauses: Expr[], qf: Expr[], foralls: ForallExpr[], arrays: ExprArray[]): Model | null | undefined {
    const stripped = strip(qf, foralls, this.o.ematching);
    const m = this.cStrip.time(() => this.modelOf(stripped, arrays));
    if (m === null || satisfies(m, clauses)) {
      this.cStrip.hits++;
      return m;
    }
    if (!this.o.duplicate) return undefined;
    const md = this.cDup.time(() => duplicate(m, foralls));
    if (satisfies(md, clauses)) {
      this.cDup.hits++;
      return md;
    }
    if (!this.o.repair) return undefined;
    const mr = this.cRepair.time(() => repair(this.next, stripped, clauses, foralls, arrays, md));
    if (mr !== null) {
      this.cRepair.hits++;
      return mr;
    }
    return undefined;
  }

  private modelOf(clauses: readonly Expr[], arrays: readonly ExprArray[]): Model | null {
    const values = this.next.computeInitialValues({ constraints: clauses, expr: TRUE }, arrays);
    return values === null ? null : new Map(arrays.map((a, i) => [a, values[i]!]));
  }

  /** Stage 4. */
  private fallback(clauses: Expr[], arrays: ExprArray[]): Model | null {
    if (this.o.fallback === 'expand') {
      const expanded = expandAll(clauses, this.o.expandLimit);
      if (expanded !== null) return this.modelOf(expanded, arrays);
    }
    const values = this.backend.computeInitialValues({ constraints: clauses, expr: TRUE }, arrays);
    return values === null ? null : new Map(arrays.map((a, i) => [a, values[i]!]));
  }

  stats(): SolverStats[] {
    return [this.c.snapshot(), this.cStrip.snapshot(), this.cDup.snapshot(), this.cRepair.snapshot(), this.cFallback.snapshot(), this.cKnown.snapshot(), ...this.next.stats()];
  }

  dispose(): void {
    this.next.dispose();
    if (this.ownsBackend) this.backend.dispose();
  }
}

/** The clauses with every Forall (top-level or nested) replaced by its expansion; null if one has no known bound. */
export function expandAll(clauses: readonly Expr[], limit: number): Expr[] | null {
  const map = new Map<Expr, Expr>();
  let ok = true;
  walkDag(clauses, {
    prune: (v) => v instanceof UpdateNode || !hasQuantifier(v),
    post: (v) => {
      if (v instanceof UpdateNode || v.kind !== ExprKind.Forall || map.has(v)) return;
      const e = expandForall(v, limit);
      if (e === null) ok = false;
      else map.set(v, e);
    },
  });
  if (!ok) return null;
  return clauses.map((c) => replaceExprs(c, map));
}
