/**
 * tsklee's own array encoding (paper 002, Opt 2; DESIGN.md: the core encoder with typed and
 * interval array axioms), a layer just above the backend.
 *
 * A query's arrays are lowered to bit-vectors (arrays/lowering.ts: writes → ite, each read
 * at a symbolic index → a fresh 8-bit variable) and the array axioms that tie the fresh
 * variables to the arrays are generated here (arrays/axiom-pool.ts), pruned by access type
 * and index interval:
 *  - 'lazy' (CEGAR, the paper's Algorithm 2): solve the lowered formula on an incremental
 *    session of the backend, add only the axioms the model violates, repeat;
 *  - 'eager': assert every kept axiom at once and solve.
 * Either way the final model is checked against every axiom (pruned or not) before it is
 * believed, so a SAT answer is a model of the original query and an UNSAT answer comes from
 * valid axioms only. Models map back to array bytes for test generation.
 *
 * In 'typed-interval' mode each read index's interval comes with the query (the ILP
 * pre-check above computes it, `Query.indexIntervals`) or from `intervals` (the same
 * analysis, run here when there is no pre-check); the intervals are asserted, which makes
 * the interval-pruned axioms vacuous.
 *
 * Queries without a read at a symbolic index go to the backend untouched.
 *
 * Counters (SolverLayer… columns of run.stats): 'array-axioms' (queries in, hits = queries
 * answered through the own encoding, time); 'array-axiom-pool' (queries = candidate axioms
 * before pruning, hits = after pruning); 'array-cegar' (queries = backend checks, i.e.
 * CEGAR rounds, hits = axioms added to the lowered formula).
 */
import { builder, constant, isTrue, type Expr, type ExprArray } from '../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from './solver.js';
import { LayerCounters } from './layers/layer-stats.js';
import { Lowering, type Interval } from './arrays/lowering.js';
import { AxiomPool, totalAxioms, type AxiomCounts, type AxiomMode } from './arrays/axiom-pool.js';
import { openSession, type IncrementalSession } from './incremental.js';
import { collectReadIndices, hasSymbolicRead } from './arrays/reads.js';

export type AxiomGeneration = 'lazy' | 'eager';

/** Computes index intervals from a query's constraints (the pre-check's analysis). */
export type IntervalSource = (constraints: readonly Expr[], indices: readonly Expr[]) => ReadonlyMap<Expr, Interval>;

export interface ArrayAxiomsOptions {
  axioms: AxiomMode;
  generation: AxiomGeneration;
  /** Intervals when a query brings none ('typed-interval' only). */
  intervals?: IntervalSource;
}

/** Per-query numbers, for tests and --debug output. */
export interface ArrayQueryStats {
  unpruned: AxiomCounts;
  pruned: AxiomCounts;
  rounds: number;
  added: number;
  outsidePool: number;
}

interface Solved {
  session: IncrementalSession;
  lowering: Lowering;
}

export class ArrayAxiomsSolver implements Solver {
  private readonly c = new LayerCounters('array-axioms');
  private readonly pool = new LayerCounters('array-axiom-pool');
  private readonly cegar = new LayerCounters('array-cegar');
  /** The last query's numbers (tests). */
  last: ArrayQueryStats | null = null;

  constructor(
    private readonly next: Solver,
    private readonly opts: ArrayAxiomsOptions,
  ) {}

  computeTruth(q: Query): boolean {
    if (!hasSymbolicRead(q)) return this.next.computeTruth(q);
    return this.c.time(() => {
      this.c.hits++;
      return this.solve(q, [builder.not(q.expr)], (r) => r === null);
    });
  }

  computeValidity(q: Query): Validity {
    if (!hasSymbolicRead(q)) return this.next.computeValidity(q);
    return this.c.time(() => {
      this.c.hits++;
      if (this.solve(q, [builder.not(q.expr)], (r) => r === null)) return Validity.True;
      return this.solve(q, [q.expr], (r) => r === null) ? Validity.False : Validity.Unknown;
    });
  }

  computeValue(q: Query): bigint {
    if (!hasSymbolicRead(q)) return this.next.computeValue(q);
    return this.c.time(() => {
      this.c.hits++;
      return this.solve(q, [], (r) => {
        if (r === null) throw new Error('computeValue: the constraints are unsatisfiable');
        return r.session.value(r.lowering.lower(q.expr));
      });
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (!hasSymbolicRead(q)) return this.next.computeInitialValues(q, arrays);
    return this.c.time(() => {
      this.c.hits++;
      return this.solve(q, isTrue(q.expr) ? [] : [q.expr], (r) => (r === null ? null : arrays.map((a) => modelBytes(r, a))));
    });
  }

  stats(): SolverStats[] {
    return [this.c.snapshot(), this.pool.snapshot(), this.cegar.snapshot(), ...this.next.stats()];
  }

  dispose(): void {
    this.next.dispose();
  }

  /** Solves constraints ∧ extra; `use` sees the session while its model is live (null: unsatisfiable). */
  private solve<T>(q: Query, extra: Expr[], use: (r: Solved | null) => T): T {
    const formulas = [...q.constraints, ...extra];
    const intervals = this.intervalsFor(q);
    const lowering = new Lowering(intervals === null ? undefined : (e) => intervals.get(e));
    const lowered = formulas.map((f) => lowering.lower(f));
    const pool = new AxiomPool(lowering, this.opts.axioms, (e) => intervals?.get(e));
    const stats: ArrayQueryStats = { unpruned: pool.unpruned, pruned: pool.pruned, rounds: 0, added: 0, outsidePool: 0 };
    this.last = stats;
    this.pool.queries += totalAxioms(pool.unpruned);
    this.pool.hits += totalAxioms(pool.pruned);
    const session = openSession(this.next);
    try {
      for (const f of lowered) session.add(f);
      for (const { index, interval } of pool.assertedIntervals()) session.add(within(index, interval));
      if (this.opts.generation === 'eager') {
        for (const a of pool.all()) session.add(a);
        stats.added += totalAxioms(pool.pruned);
      }
      const seen = new Set<Expr>();
      for (;;) {
        stats.rounds++;
        const sat = this.cegar.time(() => session.check());
        if (!sat) return use(null);
        const { axioms, outsidePool } = pool.violated(session);
        if (axioms.length === 0) return use({ session, lowering });
        stats.outsidePool += outsidePool;
        for (const a of axioms) {
          // a violated axiom that is already asserted means the backend's model is wrong
          if (seen.has(a)) throw new Error(`array-axioms: the backend's model violates an asserted axiom ${a.toString()}`);
          seen.add(a);
          session.add(a);
        }
        stats.added += axioms.length;
        this.cegar.hits += axioms.length;
      }
    } finally {
      session.close();
    }
  }

  private intervalsFor(q: Query): ReadonlyMap<Expr, Interval> | null {
    if (this.opts.axioms !== 'typed-interval') return null;
    if (q.indexIntervals !== undefined) return q.indexIntervals;
    if (this.opts.intervals === undefined) return null;
    const indices: Expr[] = [];
    collectReadIndices([...q.constraints, q.expr], indices);
    return this.opts.intervals(q.constraints, indices);
  }
}

/** lo ≤ index ≤ hi as a formula. */
function within(index: Expr, iv: Interval): Expr {
  return builder.and(builder.ule(constant(iv.lo, 32), index), builder.ule(index, constant(iv.hi, 32)));
}

/** Bytes [0, size) of an array in the session's model. */
function modelBytes(r: Solved, a: ExprArray): Uint8Array {
  const out = new Uint8Array(a.size);
  if (a.constantValues !== null) {
    out.set(a.constantValues);
    return out;
  }
  for (const read of r.lowering.readsByRoot.get(a) ?? []) {
    const v = r.session.value(read.index);
    if (v < BigInt(a.size)) out[Number(v)] = Number(r.session.value(read.value));
  }
  for (const [k, e] of r.lowering.knownBytes.get(a) ?? []) if (k < a.size) out[k] = Number(r.session.value(e));
  // bytes the lowered formula never mentions are free: 0, as the backends give them
  return out;
}
