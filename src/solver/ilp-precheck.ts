/**
 * The ILP UNSAT pre-check (paper 002, Opt 1; DESIGN.md's "[ILP array precheck]"), directly
 * above the array encoding. For a query that reads an array at a symbolic index it runs
 * the analysis of ilp/analysis.ts on constraints ∧ question: linearisation, exact bound
 * propagation, read intervals from the arrays' contents and access types, and an ILP on
 * HiGHS whose infeasibility claims are proven in exact arithmetic before they are believed.
 *  - computeTruth: constraints ∧ ¬expr infeasible ⇒ true, without the backend;
 *  - computeValidity: ¬expr infeasible ⇒ True, expr infeasible ⇒ False;
 *  - computeInitialValues: constraints ∧ expr infeasible ⇒ no model.
 * Otherwise the query goes down with the index intervals the analysis found
 * (`Query.indexIntervals`, implied by what the next layer is asked to solve), for the
 * interval-aware axioms.
 *
 * Results are cached per (constraints, question) — expressions are hash-consed, so equal
 * queries have equal ids — in a bounded map (the paper credits its ILP cache for keeping
 * the overhead small).
 *
 * Counters: 'ilp-precheck' (queries, hits = answered UNSAT, time); 'ilp' (queries = HiGHS
 * runs, hits = analyses answered from the cache, time = HiGHS time); 'ilp-proofs'
 * (queries = infeasibility claims of HiGHS, hits = those proven exactly).
 */
import { builder, type Expr, type ExprArray } from '../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from './solver.js';
import { LayerCounters } from './layers/layer-stats.js';
import { analyse, type PrecheckResult } from './ilp/analysis.js';
import type { HighsIlp } from './ilp/highs-ilp.js';
import { collectReadIndices, hasSymbolicRead } from './arrays/reads.js';

const CACHE_LIMIT = 20_000;

export class IlpPrecheckSolver implements Solver {
  private readonly c = new LayerCounters('ilp-precheck');
  private readonly cache = new Map<string, PrecheckResult>();
  private cacheHits = 0;
  /** UNSAT answers by how they were shown (tests, --debug). */
  readonly unsatBy = { propagation: 0, ilp: 0 };

  /** @param ilp the ILP solver; null: exact propagation only */
  constructor(
    private readonly next: Solver,
    private readonly ilp: HighsIlp | null,
  ) {}

  computeTruth(q: Query): boolean {
    if (!hasSymbolicRead(q)) return this.next.computeTruth(q);
    return this.c.time(() => {
      const r = this.analyse(q.constraints, builder.not(q.expr));
      if (r.unsat) return this.hit(true);
      return this.next.computeTruth({ constraints: q.constraints, expr: q.expr, indexIntervals: r.intervals });
    });
  }

  computeValidity(q: Query): Validity {
    if (!hasSymbolicRead(q)) return this.next.computeValidity(q);
    return this.c.time(() => {
      if (this.analyse(q.constraints, builder.not(q.expr)).unsat) return this.hit(Validity.True);
      if (this.analyse(q.constraints, q.expr).unsat) return this.hit(Validity.False);
      return this.next.computeValidity({ constraints: q.constraints, expr: q.expr, indexIntervals: this.intervals(q) });
    });
  }

  computeValue(q: Query): bigint {
    if (!hasSymbolicRead(q)) return this.next.computeValue(q);
    return this.c.time(() => this.next.computeValue({ constraints: q.constraints, expr: q.expr, indexIntervals: this.intervals(q) }));
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (!hasSymbolicRead(q)) return this.next.computeInitialValues(q, arrays);
    return this.c.time(() => {
      const r = this.analyse(q.constraints, q.expr);
      if (r.unsat) return this.hit(null);
      // the intervals hold for constraints ∧ expr, which is what the next layer solves
      return this.next.computeInitialValues({ constraints: q.constraints, expr: q.expr, indexIntervals: r.intervals }, arrays);
    });
  }

  stats(): SolverStats[] {
    const ilp = this.ilp?.counters;
    return [
      this.c.snapshot(),
      { layer: 'ilp', queries: ilp?.runs ?? 0, hits: this.cacheHits, timeMs: ilp?.timeMs ?? 0 },
      { layer: 'ilp-proofs', queries: ilp?.claims ?? 0, hits: ilp?.proven ?? 0, timeMs: 0 },
      ...this.next.stats(),
    ];
  }

  dispose(): void {
    this.next.dispose();
  }

  /** Intervals implied by the constraints alone, for the reads of the constraints and of the question. */
  private intervals(q: Query): ReadonlyMap<Expr, { lo: bigint; hi: bigint }> {
    const indices: Expr[] = [];
    collectReadIndices([q.expr], indices);
    return this.analyse(q.constraints, null, indices).intervals;
  }

  private hit<T>(v: T): T {
    this.c.hits++;
    return v;
  }

  /** The analysis of constraints ∧ extra (only the intervals are used when extra is null: no ILP then). */
  private analyse(constraints: readonly Expr[], extra: Expr | null, indices: readonly Expr[] = []): PrecheckResult {
    let key = extra === null ? '-' : String(extra.id);
    for (const i of indices) key += `:${i.id}`;
    for (const c of constraints) key += `,${c.id}`;
    const known = this.cache.get(key);
    if (known !== undefined) {
      this.cacheHits++;
      return known;
    }
    const r = analyse(constraints, extra, extra === null ? null : this.ilp, indices);
    if (r.unsat) this.unsatBy[r.by!]++;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, r);
    return r;
  }
}
