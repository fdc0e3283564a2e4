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
 * It sits over either array encoding: over the backend's own arrays (--array-encoding=backend)
 * it only answers UNSAT early, and computes no intervals (z3 has no use for them).
 * A budget (ilp/budget.ts) bounds its cost: the ILP's size and time per run, and a hit-rate
 * guard that switches the pre-check off for the rest of the run when it keeps missing.
 *
 * Counters: 'ilp-precheck' (queries, hits = answered UNSAT, time including the layers
 * below); 'ilp' (queries = HiGHS runs, hits = analyses answered from the cache, time =
 * HiGHS time); 'ilp-proofs' (queries = infeasibility claims of HiGHS, hits = those proven
 * exactly); 'ilp-analysis' (queries = analyses run, hits = ILP runs skipped as over-size,
 * time = the analyses' own time, HiGHS included); 'ilp-precheck-off' (queries = queries
 * passed through after the guard switched the pre-check off, hits = analysed queries
 * before it did; 0/0 while on).
 */
import { builder, type Expr, type ExprArray } from '../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from './solver.js';
import { LayerCounters } from './layers/layer-stats.js';
import { analyse, type AnalysisCost, type PrecheckResult } from './ilp/analysis.js';
import type { HighsIlp } from './ilp/highs-ilp.js';
import { collectReadIndices, hasSymbolicRead } from './arrays/reads.js';
import { DEFAULT_PRECHECK_BUDGET, HitRateGuard, type PrecheckBudget } from './ilp/budget.js';
import { nowMs } from '../util/clock.js';

const CACHE_LIMIT = 20_000;

export interface IlpPrecheckOptions {
  /** Whether the layer below uses index intervals (tsklee's axiom encoding); false over the backend's arrays. */
  passIntervals?: boolean;
  budget?: Partial<PrecheckBudget>;
  /** --debug-ilp-precheck-profile: receives one line per query the pre-check analyses. */
  profile?: (line: string) => void;
}

/** One query's account, for the profile line. */
interface QueryProfile {
  kind: string;
  analyses: number;
  cached: number;
  cost: AnalysisCost | null;
  analysisMs: number;
  ilpMs: number;
}

export class IlpPrecheckSolver implements Solver {
  private readonly c = new LayerCounters('ilp-precheck');
  private readonly own = new LayerCounters('ilp-analysis');
  private readonly cache = new Map<string, PrecheckResult>();
  private cacheHits = 0;
  private passedOff = 0;
  private readonly guard: HitRateGuard;
  private readonly budget: PrecheckBudget;
  private readonly passIntervals: boolean;
  private readonly profile: ((line: string) => void) | undefined;
  private current: QueryProfile | null = null;
  /** The last pre-checked query's profile, until the layers below have answered it. */
  private pending: { p: QueryProfile; verdict: string } | null = null;
  private profiled = 0;
  /** UNSAT answers by how they were shown (tests, --debug). */
  readonly unsatBy = { propagation: 0, ilp: 0 };

  /** @param ilp the ILP solver; null: exact propagation only */
  constructor(
    private readonly next: Solver,
    private readonly ilp: HighsIlp | null,
    opts: IlpPrecheckOptions = {},
  ) {
    this.budget = { ...DEFAULT_PRECHECK_BUDGET, ...definedOnly(opts.budget ?? {}) };
    this.guard = new HitRateGuard(this.budget.window, this.budget.minHitRate);
    this.passIntervals = opts.passIntervals ?? true;
    this.profile = opts.profile;
    if (ilp !== null) ilp.timeLimitMs = this.budget.ilpTimeMs;
  }

  /** Whether the hit-rate guard has switched the pre-check off. */
  get switchedOff(): boolean {
    return this.guard.off;
  }

  computeTruth(q: Query): boolean {
    if (!this.applies(q)) return this.next.computeTruth(q);
    return this.c.time(() => {
      let intervals: PrecheckResult['intervals'] | undefined;
      const r = this.precheck('truth', () => {
        const a = this.analyse(q.constraints, builder.not(q.expr));
        intervals = a.intervals;
        return a.unsat ? true : null;
      });
      if (r !== null) return this.hit(r);
      const pass = this.passIntervals ? intervals : undefined;
      return this.timedNext(() => this.next.computeTruth({ constraints: q.constraints, expr: q.expr, indexIntervals: pass }));
    });
  }

  computeValidity(q: Query): Validity {
    if (!this.applies(q)) return this.next.computeValidity(q);
    return this.c.time(() => {
      const r = this.precheck('validity', () => {
        if (this.analyse(q.constraints, builder.not(q.expr)).unsat) return Validity.True;
        if (this.analyse(q.constraints, q.expr).unsat) return Validity.False;
        return null;
      });
      if (r !== null) return this.hit(r);
      const intervals = this.passIntervals ? this.intervals(q) : undefined;
      return this.timedNext(() => this.next.computeValidity({ constraints: q.constraints, expr: q.expr, indexIntervals: intervals }));
    });
  }

  computeValue(q: Query): bigint {
    if (!this.applies(q) || !this.passIntervals) return this.next.computeValue(q);
    return this.c.time(() => this.next.computeValue({ constraints: q.constraints, expr: q.expr, indexIntervals: this.intervals(q) }));
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (!this.applies(q)) return this.next.computeInitialValues(q, arrays);
    return this.c.time(() => {
      let intervals: PrecheckResult['intervals'] | undefined;
      const r = this.precheck('initial', () => {
        const a = this.analyse(q.constraints, q.expr);
        intervals = a.intervals;
        return a.unsat ? 'unsat' : null;
      });
      if (r !== null) return this.hit(null);
      // the intervals hold for constraints ∧ expr, which is what the next layer solves
      const pass = this.passIntervals ? intervals : undefined;
      return this.timedNext(() => this.next.computeInitialValues({ constraints: q.constraints, expr: q.expr, indexIntervals: pass }, arrays));
    });
  }

  stats(): SolverStats[] {
    const ilp = this.ilp?.counters;
    return [
      this.c.snapshot(),
      { layer: 'ilp', queries: ilp?.runs ?? 0, hits: this.cacheHits, timeMs: ilp?.timeMs ?? 0 },
      { layer: 'ilp-proofs', queries: ilp?.claims ?? 0, hits: ilp?.proven ?? 0, timeMs: 0 },
      this.own.snapshot(),
      { layer: 'ilp-precheck-off', queries: this.passedOff, hits: this.guard.offAfter ?? 0, timeMs: 0 },
      ...this.next.stats(),
    ];
  }

  dispose(): void {
    this.next.dispose();
  }

  /** Whether the pre-check looks at q (reads at symbolic indices, and not switched off). */
  private applies(q: Query): boolean {
    if (!hasSymbolicRead(q)) return false;
    if (!this.guard.off) return true;
    // without the pre-check the encoding below computes its intervals itself
    this.passedOff++;
    return false;
  }

  /** Runs a query's UNSAT analyses (null: not decided), feeding the guard and the profile. */
  private precheck<T>(kind: string, run: () => T | null): T | null {
    const p: QueryProfile = { kind, analyses: 0, cached: 0, cost: null, analysisMs: 0, ilpMs: 0 };
    this.current = p;
    let r: T | null;
    try {
      r = run();
    } finally {
      this.current = null;
    }
    if (p.analyses > 0) this.guard.record(r !== null);
    if (this.profile !== undefined) this.pending = { p, verdict: r === null ? 'unknown' : 'unsat' };
    if (this.profile !== undefined && r !== null) this.flush(null);
    return r;
  }

  /** The time of the layers below, for the profile line of the query just pre-checked. */
  private timedNext<T>(f: () => T): T {
    if (this.pending === null) return f();
    const t0 = nowMs();
    try {
      return f();
    } finally {
      this.flush(nowMs() - t0);
    }
  }

  private flush(nextMs: number | null): void {
    const pd = this.pending;
    this.pending = null;
    if (pd === null || this.profile === undefined) return;
    const { p, verdict } = pd;
    const c = p.cost;
    const size = c === null ? 'size=cached' : `vars=${c.vars} rows=${c.rows} nonzeros=${c.nonzeros} reads=${c.reads} ilp=${c.ilp}`;
    const below = nextMs === null ? '' : ` below=${nextMs.toFixed(2)}ms`;
    const off = this.guard.off ? ` guard=off-after-${this.guard.offAfter}` : '';
    this.profile(
      `ilp-precheck q=${++this.profiled} ${p.kind} ${size} analyses=${p.analyses} cached=${p.cached} analysis=${p.analysisMs.toFixed(2)}ms ilp-time=${p.ilpMs.toFixed(2)}ms verdict=${verdict}${below}${off}`,
    );
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
    const p = this.current;
    const known = this.cache.get(key);
    if (known !== undefined) {
      this.cacheHits++;
      if (p !== null) p.cached++;
      return known;
    }
    const r = this.own.time(() => analyse(constraints, extra, extra === null ? null : this.ilp, indices, { maxSize: this.budget.maxSize }));
    if (r.cost.ilp === 'over-size') this.own.hits++;
    if (p !== null) {
      p.analyses++;
      p.cost ??= r.cost;
      p.analysisMs += r.cost.analysisMs;
      p.ilpMs += r.cost.ilpMs;
    }
    if (r.unsat) this.unsatBy[r.by!]++;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, r);
    return r;
  }
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
