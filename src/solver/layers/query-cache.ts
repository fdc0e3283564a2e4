/**
 * The query cache (KLEE's CachingSolver, --use-branch-cache): remembers, per (set of
 * constraints, expression), what is known about the expression's validity, and per
 * (constraints, expression) a value it can take.
 *
 * As in KLEE, a query and its negation share one entry: the expression is canonicalised by
 * stripping a boolean negation (here `Not(x)`, and the comparisons `Ule`/`Sle`, which are the
 * negations of `Ult`/`Slt` with swapped operands) and the cached answer is negated on the way
 * in and out. Entries are partial, like KLEE's PartialValidity: a computeTruth answer tells
 * "must be true" or "may be false"; a later computeValidity asks only when the entry is not
 * exact. The key is the constraints as a set (sorted expression ids) plus the canonical
 * expression's id; ids are never reused, so keys cannot collide.
 *
 * computeInitialValues passes through (KLEE's CachingSolver does not cache it either; the
 * counterexample cache below answers it).
 *
 * Unlike KLEE's, the cache is bounded (a run of hours made millions of keys, each a string of
 * constraint ids): least recently used entries are evicted in bulk (util/generational-map.ts).
 */
import { builder, ExprKind, type Expr, type ExprArray } from '../../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { LayerCounters } from './layer-stats.js';
import { GenerationalMap } from '../../util/generational-map.js';

/** Entries per generation of each of the query cache's two maps (validity, values): at most 4 × this in all. */
export const DEFAULT_QUERY_CACHE_CAPACITY = 50_000;

/** What is known about an expression (KLEE's PartialValidity). */
enum Known {
  MustBeTrue,
  MustBeFalse,
  TrueOrFalse,
  MayBeTrue, // not MustBeFalse
  MayBeFalse, // not MustBeTrue
}

function negateKnown(k: Known): Known {
  switch (k) {
    case Known.MustBeTrue:
      return Known.MustBeFalse;
    case Known.MustBeFalse:
      return Known.MustBeTrue;
    case Known.TrueOrFalse:
      return Known.TrueOrFalse;
    case Known.MayBeTrue:
      return Known.MayBeFalse;
    case Known.MayBeFalse:
      return Known.MayBeTrue;
  }
}

/** The expression without its negation, and whether one was stripped. */
export function canonicalize(e: Expr): { expr: Expr; negated: boolean } {
  if (e.width === 1) {
    if (e.kind === ExprKind.Not) return { expr: e.expr, negated: true };
    if (e.kind === ExprKind.Ule || e.kind === ExprKind.Sle) return { expr: builder.not(e), negated: true };
  }
  return { expr: e, negated: false };
}

/** A key for a set of constraints (order and duplicates do not matter). */
export function constraintsKey(constraints: readonly Expr[]): string {
  if (constraints.length === 0) return '';
  if (constraints.length === 1) return String(constraints[0]!.id);
  const ids = constraints.map((c) => c.id).sort((a, b) => a - b);
  let s = String(ids[0]);
  for (let i = 1; i < ids.length; i++) if (ids[i] !== ids[i - 1]) s += ',' + ids[i];
  return s;
}

export class QueryCacheSolver implements Solver {
  private readonly c = new LayerCounters('query-cache');
  private readonly validity: GenerationalMap<string, Known>;
  private readonly values: GenerationalMap<string, bigint>;

  constructor(
    private readonly inner: Solver,
    capacity = DEFAULT_QUERY_CACHE_CAPACITY,
  ) {
    this.validity = new GenerationalMap({ capacity });
    this.values = new GenerationalMap({ capacity });
  }

  private key(q: Query): { key: string; negated: boolean; expr: Expr } {
    const { expr, negated } = canonicalize(q.expr);
    return { key: `${constraintsKey(q.constraints)}|${expr.id}`, negated, expr };
  }

  private lookup(key: string, negated: boolean): Known | undefined {
    const k = this.validity.get(key);
    return k === undefined ? undefined : negated ? negateKnown(k) : k;
  }

  private store(key: string, negated: boolean, k: Known): void {
    this.validity.set(key, negated ? negateKnown(k) : k);
  }

  computeTruth(q: Query): boolean {
    return this.c.time(() => {
      const { key, negated } = this.key(q);
      const known = this.lookup(key, negated);
      if (known !== undefined && known !== Known.MayBeTrue) {
        this.c.hits++;
        return known === Known.MustBeTrue;
      }
      const valid = this.inner.computeTruth(q);
      // MayBeTrue + "not must be true" = the expression can be either
      const next = valid ? Known.MustBeTrue : known === Known.MayBeTrue ? Known.TrueOrFalse : Known.MayBeFalse;
      this.store(key, negated, next);
      return valid;
    });
  }

  computeValidity(q: Query): Validity {
    return this.c.time(() => {
      const { key, negated } = this.key(q);
      const known = this.lookup(key, negated);
      switch (known) {
        case Known.MustBeTrue:
          this.c.hits++;
          return Validity.True;
        case Known.MustBeFalse:
          this.c.hits++;
          return Validity.False;
        case Known.TrueOrFalse:
          this.c.hits++;
          return Validity.Unknown;
      }
      const v = this.inner.computeValidity(q);
      this.store(key, negated, v === Validity.True ? Known.MustBeTrue : v === Validity.False ? Known.MustBeFalse : Known.TrueOrFalse);
      return v;
    });
  }

  computeValue(q: Query): bigint {
    return this.c.time(() => {
      const key = `${constraintsKey(q.constraints)}|${q.expr.id}`;
      const known = this.values.get(key);
      if (known !== undefined) {
        this.c.hits++;
        return known;
      }
      const v = this.inner.computeValue(q);
      this.values.set(key, v);
      return v;
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.c.time(() => this.inner.computeInitialValues(q, arrays));
  }

  /** Number of cached validity and value entries. */
  get size(): number {
    return this.validity.size + this.values.size;
  }

  stats(): SolverStats[] {
    return [{ ...this.c.snapshot(), entries: this.size, evicted: this.validity.evicted + this.values.evicted }, ...this.inner.stats()];
  }

  dispose(): void {
    this.inner.dispose();
  }
}
