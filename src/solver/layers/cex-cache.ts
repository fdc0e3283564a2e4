/**
 * The counterexample cache (KLEE's CexCachingSolver, --use-cex-cache).
 *
 * Every query becomes a satisfiability question about a set of expressions, the key:
 *  - computeTruth(C, e): is C ∪ {¬e} satisfiable? (unsat ⇔ e is valid)
 *  - computeInitialValues(C, e): a model of C ∪ {e}
 *  - computeValue(C, e): a model of C, under which e is evaluated
 *  - computeValidity(C, e): a model of C; if e holds in it, is C ∪ {¬e} satisfiable (else
 *    True), otherwise is C ∪ {e} satisfiable (else False); Unknown when both hold — KLEE's
 *    scheme, so one of the two checks is always answered by the first model.
 * The cache maps keys (sets of expression ids, in a SetMap — KLEE's MapOfSets/UBTree) to a
 * model (an assignment of bytes to every array the key reads) or UNSAT. Lookup, as KLEE:
 *  1. the exact key;
 *  2. with `cexCacheSuperset`, a SAT superset: its model satisfies every subset;
 *  3. a subset that is UNSAT (more constraints stay unsatisfiable), or — unless
 *     `cexCacheTryAll` — a SAT subset whose model happens to satisfy the key (checked by
 *     evaluating the key under it: cheap and frequently successful; only the constraints
 *     outside the subset's own key, which its model satisfies already);
 *  4. with `cexCacheTryAll`, every distinct model seen so far, evaluated on the key;
 *  5. when the key holds a disjunction (a merged state's path condition, prefix ∧ (s₁ ∨ s₂)):
 *     the keys with the disjunction replaced by one disjunct's conjuncts, as in 1 and 3 — the
 *     pre-merge states' own keys are subsets of those, so their models are tried (a model of
 *     a disjunct's key satisfies the key), and the key is UNSAT when every disjunct's is.
 * A miss asks the next layer for a model of the key (computeInitialValues over the key's
 * arrays) and stores the answer. Answers found in steps 2–4 are also stored under the exact
 * key. Arrays a model does not bind read as zeros (KLEE's Assignment without free values).
 *
 * `cexCacheExp` (KLEE's --cex-cache-exp) lets computeTruth answer "not valid" when the
 * cache already knows C ∪ {e} is unsatisfiable (e is then false in every model of C).
 *
 * Eviction (KLEE's cache grows for the whole run): keys live in two generations of SetMaps;
 * lookups search the young one, then the old one (an exact hit there is copied to the young
 * one), and when the young one holds `capacity` keys it becomes the old one and the old one
 * is dropped; distinct models are kept the same way (util/generational-map.ts).
 */
import { Evaluator, FALSE, TRUE, builder, collectArraysOf, type Assignment, type Expr, type ExprArray } from '../../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { LayerCounters } from './layer-stats.js';
import { SetMap, sortedSet } from './ubtree.js';
import { GenerationalMap } from '../../util/generational-map.js';
import { conjunctsInto, disjunctsOf } from './fast-cases.js';
import { namedModel, type ModelHints } from './model-hints.js';

/** Keys per generation of the cache (it holds at most twice as many), and distinct models kept. */
export const DEFAULT_CEX_CACHE_CAPACITY = 20_000;

export interface CexCacheOptions {
  /** KLEE's --cex-cache-try-all (default false): try every cached model before the solver. */
  cexCacheTryAll?: boolean;
  /** KLEE's --cex-cache-superset (default false): look for a SAT superset. */
  cexCacheSuperset?: boolean;
  /** KLEE's --cex-cache-exp (default false): the validity shortcut described above. */
  cexCacheExp?: boolean;
  /** Keys per generation (default DEFAULT_CEX_CACHE_CAPACITY): see the eviction note above. */
  capacity?: number;
  /** Models from another worker (--jobs), tried on a key before the layers below (model-hints.ts). */
  hints?: ModelHints;
}

/** A cached answer: a model of the key, or null for UNSAT. */
type Answer = Assignment | null;

interface Entry {
  answer: Answer;
  /** The key it is stored under: a model answer satisfies each of these constraints. */
  key: readonly number[];
}

const EMPTY_MODEL: Assignment = new Map();

/** Disjunctions of more disjuncts are not looked up case by case (step 5). */
const MAX_DISJUNCTS = 8;

function satisfies(model: Assignment, key: readonly Expr[]): boolean {
  const ev = new Evaluator(model);
  for (const e of key) if (!ev.isTrue(e)) return false;
  return true;
}

/**
 * Whether a cached entry's model satisfies `exprs` (sorted by id, no duplicates): only the
 * constraints outside the entry's own key are evaluated, since the model satisfies that key.
 * A subset's key is most of a path condition (a merged state's holds ite chains and read
 * indices over counts), and the new branch condition is what a stale model fails on.
 */
function satisfiesBeyond(entry: Entry, exprs: readonly Expr[]): boolean {
  const model = entry.answer!;
  const known = entry.key;
  let ev: Evaluator | null = null;
  let j = 0;
  for (const e of exprs) {
    while (j < known.length && known[j]! < e.id) j++;
    if (j < known.length && known[j] === e.id) continue;
    ev ??= new Evaluator(model);
    if (!ev.isTrue(e)) return false;
  }
  return true;
}

/** exprs sorted by id without duplicates (the order of sortedSet's key). */
function byId(exprs: readonly Expr[]): Expr[] {
  const out = [...exprs].sort((a, b) => a.id - b.id);
  return out.filter((e, i) => i === 0 || out[i - 1]!.id !== e.id);
}

export class CexCachingSolver implements Solver {
  private readonly c = new LayerCounters('cex-cache');
  /** The keys, young and old generation. */
  private young = new SetMap<Entry>();
  private old = new SetMap<Entry>();
  private readonly capacity: number;
  /** Keys dropped with old generations. */
  private evicted = 0;
  /** Distinct models (KLEE's responseTable), for sharing and for cexCacheTryAll. */
  private readonly models: GenerationalMap<string, Assignment>;
  private innerCalls = 0;
  /** Lookups answered from the cache / sent below (KLEE's queryCexCacheHits/Misses). */
  lookupHits = 0;
  lookupMisses = 0;
  /** Lookups answered by step 5 (a disjunct's key). */
  disjunctHits = 0;

  constructor(
    private readonly inner: Solver,
    private readonly opts: CexCacheOptions = {},
  ) {
    this.capacity = opts.capacity ?? DEFAULT_CEX_CACHE_CAPACITY;
    this.models = new GenerationalMap({ capacity: this.capacity });
  }

  private store(key: readonly number[], answer: Answer): void {
    this.young.set(key, { answer, key });
    if (this.young.size < this.capacity) return;
    this.evicted += this.old.size;
    this.old = this.young;
    this.young = new SetMap<Entry>();
  }

  private exact(key: readonly number[]): Entry | undefined {
    const y = this.young.get(key);
    if (y !== undefined) return y;
    const o = this.old.get(key);
    if (o !== undefined) this.store(key, o.answer);
    return o;
  }

  /** Answer for the key `constraints ∪ {extra}` (extra = TRUE: the constraints alone). */
  private response(constraints: readonly Expr[], extra: Expr, solve = true): Answer | undefined {
    if (extra === FALSE) return null;
    const exprs = extra === TRUE ? constraints : [...constraints, extra];
    if (exprs.length === 0) return EMPTY_MODEL; // zeros satisfy the empty set
    const key = sortedSet(exprs.map((e) => e.id));
    const found = this.search(key, exprs);
    if (found !== undefined) {
      this.lookupHits++;
      return found;
    }
    if (!solve) return undefined;
    const hinted = this.opts.hints?.find(exprs);
    if (hinted !== undefined) {
      this.lookupHits++;
      const answer = this.intern(hinted);
      this.store(key, answer);
      return answer;
    }
    this.lookupMisses++;
    const arrays = [...collectArraysOf(exprs)].sort((a, b) => a.id - b.id);
    this.innerCalls++;
    const values = this.inner.computeInitialValues({ constraints, expr: extra }, arrays);
    let answer: Answer = null;
    if (values !== null) {
      const m = new Map<ExprArray, Uint8Array>();
      arrays.forEach((a, i) => m.set(a, values[i]!));
      answer = this.intern(m);
      this.opts.hints?.onSolved?.(namedModel(arrays, values));
    }
    this.store(key, answer);
    return answer;
  }

  /** One shared object per distinct model (KLEE's responseTable). */
  private intern(m: Assignment): Assignment {
    let sig = '';
    for (const [a, bytes] of [...m].sort((x, y) => x[0].id - y[0].id)) sig += `${a.id}:${bytes.join('.')};`;
    const known = this.models.get(sig);
    if (known !== undefined) return known;
    this.models.set(sig, m);
    return m;
  }

  private search(key: number[], exprs: readonly Expr[]): Answer | undefined {
    const exact = this.exact(key);
    if (exact !== undefined) return exact.answer;
    let found: Entry | undefined;
    const superset = (v: Entry): boolean => v.answer !== null;
    if (this.opts.cexCacheSuperset) found = this.young.findSuperset(key, superset) ?? this.old.findSuperset(key, superset);
    if (found === undefined) {
      const sorted = byId(exprs);
      const subset = this.opts.cexCacheTryAll ? (v: Entry): boolean => v.answer === null : (v: Entry): boolean => v.answer === null || satisfiesBeyond(v, sorted);
      found = this.young.findSubset(key, subset) ?? this.old.findSubset(key, subset);
    }
    if (found === undefined && this.opts.cexCacheTryAll) {
      for (const m of this.models.values()) {
        if (satisfies(m, exprs)) {
          found = { answer: m, key: [] };
          break;
        }
      }
    }
    if (found === undefined) found = this.byDisjuncts(exprs);
    if (found === undefined) return undefined;
    this.store(key, found.answer);
    return found.answer;
  }

  /** Step 5: the first disjunction of at most MAX_DISJUNCTS disjuncts, case by case. */
  private byDisjuncts(exprs: readonly Expr[]): Entry | undefined {
    let at = -1;
    let disjuncts: Expr[] | null = null;
    for (let i = 0; i < exprs.length && disjuncts === null; i++) {
      const d = disjunctsOf(exprs[i]!);
      if (d !== null && d.length <= MAX_DISJUNCTS) {
        at = i;
        disjuncts = d;
      }
    }
    if (disjuncts === null) return undefined;
    const rest = exprs.filter((_, i) => i !== at);
    const sorted = byId(exprs);
    let allUnsat = true;
    for (const d of disjuncts) {
      const one = rest.slice();
      conjunctsInto(d, one);
      const key = sortedSet(one.map((e) => e.id));
      const exact = this.exact(key);
      if (exact !== undefined) {
        if (exact.answer === null) continue;
        // a model of a disjunct's key is a model of the key (the disjunct implies the disjunction)
        this.disjunctHits++;
        return exact;
      }
      const sat = (v: Entry): boolean => v.answer !== null && satisfiesBeyond(v, sorted);
      const m = this.young.findSubset(key, sat) ?? this.old.findSubset(key, sat);
      if (m !== undefined) {
        this.disjunctHits++;
        return m;
      }
      const unsat = (v: Entry): boolean => v.answer === null;
      if (allUnsat && (this.young.findSubset(key, unsat) ?? this.old.findSubset(key, unsat)) === undefined) allUnsat = false;
    }
    if (!allUnsat) return undefined;
    this.disjunctHits++;
    return { answer: null, key: [] };
  }

  /** Runs one query, counting it as a hit when nothing was asked below. */
  private run<T>(f: () => T): T {
    return this.c.time(() => {
      const before = this.innerCalls;
      const r = f();
      if (this.innerCalls === before) this.c.hits++;
      return r;
    });
  }

  computeTruth(q: Query): boolean {
    return this.run(() => {
      if (this.opts.cexCacheExp && this.response(q.constraints, q.expr, false) === null) return false;
      return this.response(q.constraints, builder.not(q.expr)) === null;
    });
  }

  computeValidity(q: Query): Validity {
    return this.run(() => {
      const m = this.response(q.constraints, TRUE);
      if (m === null || m === undefined) return Validity.True; // constraints unsatisfiable: outside the contract
      if (new Evaluator(m).isTrue(q.expr)) {
        return this.response(q.constraints, builder.not(q.expr)) === null ? Validity.True : Validity.Unknown;
      }
      return this.response(q.constraints, q.expr) === null ? Validity.False : Validity.Unknown;
    });
  }

  computeValue(q: Query): bigint {
    return this.run(() => {
      const m = this.response(q.constraints, TRUE);
      if (m === null || m === undefined) {
        this.innerCalls++;
        return this.inner.computeValue(q); // constraints unsatisfiable: let the backend report it
      }
      return new Evaluator(m).evaluate(q.expr);
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.run(() => {
      const m = this.response(q.constraints, q.expr);
      if (m === null || m === undefined) return null;
      return arrays.map((a) => {
        const out = new Uint8Array(a.size);
        const bytes = m.get(a);
        // a loop, not set(subarray): a subarray of a small array moves it off the V8 heap (slow)
        if (bytes !== undefined) for (let i = 0, n = Math.min(a.size, bytes.length); i < n; i++) out[i] = bytes[i]!;
        return out;
      });
    });
  }

  /** Number of cached keys (a key in both generations counts twice). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  stats(): SolverStats[] {
    return [{ ...this.c.snapshot(), entries: this.size, evicted: this.evicted }, ...this.inner.stats()];
  }

  dispose(): void {
    this.inner.dispose();
  }
}
