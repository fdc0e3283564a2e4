/**
 * The fast solver layer: answers, without the backend, satisfiability questions whose
 * constraints are simple (see fast-analysis.ts), and gives a model the counterexample cache
 * can reuse. It sits just above the core, below the caches; a second instance without
 * search ('fast-top') heads the chain and answers whole simple path conditions before they
 * are sliced and cached (chain.ts).
 *
 * A question is a conjunction of width-1 expressions. Each is analysed once (memoised):
 *  - simple: a set of values of one variable (bytes i..i+k-1 of one array). The sets of the
 *    same variable intersect; an empty one proves UNSAT. When variables of different lengths
 *    share bytes, the constraints on the wider ones are searched like complex ones.
 *  - complex: decided by a search over the values its bytes may take (bytes owned by a
 *    variable take that variable's values, other bytes all 256), pruned by sound bounds
 *    (fast-search.ts), within a budget of node visits.
 * A question that reads at indices depending on a quantified merge's count (paper 000's
 * stripped queries) is split on the counts' values (fast-counts.ts).
 * Everything else goes to the next layer. Answers are exact: UNSAT only from an empty set or
 * an exhausted search; a model takes each variable's values from its exact set, and the
 * search checks every complex constraint under it with the evaluator.
 */
import { Evaluator, builder, TRUE, FALSE, type Expr, type ExprArray } from '../../expr/index.js';
import { isSolverFailure, Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { analyze, type Analysis, type ByteRef, type Variable } from './fast-analysis.js';
import { byteSetsOf, type ByteSets } from './byte-sets.js';
import { IntervalSet } from './fast-intervals.js';
import { LayerCounters } from './layer-stats.js';
import { search, writeVar } from './fast-search.js';
import { leafCost, sample, SampleSource } from './fast-sample.js';
import { conjunctsInto, disjunctsOf, hasCompound } from './fast-cases.js';
import { countsOf, splitOnCounts } from './fast-counts.js';

export interface FastSolverOptions {
  /** The layer's name in stats() (default 'fast'). */
  name?: string;
  /** Most expression-node visits spent searching one question (default 5 000, a few ms at most; 0: no search). */
  searchBudget?: number;
  /**
   * Most expression-node visits spent on random assignments when the search gives up
   * (fast-sample.ts; default SAMPLE_BUDGET; 0: no sampling).
   */
  sampleBudget?: number;
}

const DEFAULT_BUDGET = 5_000;
/**
 * Node visits of sampling for one question at most: ~0.3 s at the evaluator's ~3 M nodes a
 * second, against the backend's time limit on a digest it cannot invert.
 */
const SAMPLE_BUDGET = 1_000_000;
/** Samples for constraints smaller than FULL_SAMPLING_COST nodes (the backend is quick on most). */
const FEW_SAMPLES = 64;
const FULL_SAMPLING_COST = 256;
/** Samples for one question at most (a branch that holds for 1 input in 256 is found with p ≈ 0.98). */
const MAX_SAMPLES = 1_024;
/**
 * Samples (and node visits) × this for a question the next layer failed on: it has spent its
 * time limit already (seconds), a few more seconds can keep the state alive.
 */
const RESCUE_SCALE = 16;

/** Most cases one question is split into (disjunctions of merged path conditions, fast-cases.ts). */
const MAX_CASES = 64;
/** A case's share of the search budget (the cases of one question share about 16 budgets). */
const CASE_BUDGET_SHARE = 4;

/** Undecided: ask the next layer. */
const UNDECIDED = undefined;
/** splitCases found nothing to split. */
const NOT_SPLIT = Symbol('not split');
type Answer = Map<ExprArray, Uint8Array> | null | typeof UNDECIDED;

/** A variable and the values its constraints allow (a simple constraint's analysis is one). */
interface Slot {
  readonly v: Variable;
  readonly set: IntervalSet;
}

export class FastSolver implements Solver {
  private readonly c: LayerCounters;
  private readonly budget: number;
  /** Questions proved unsatisfiable / satisfiable here; searches run, and given up. */
  unsat = 0;
  sat = 0;
  searched = 0;
  searchGaveUp = 0;
  /** Questions decided by splitting a disjunction into cases. */
  split = 0;
  /** Questions decided by splitting on the values of quantified merges' counts (fast-counts.ts). */
  countSplits = 0;
  /** Questions sampled after the search gave up, and those given a model so (fast-sample.ts). */
  sampleRuns = 0;
  sampledModels = 0;
  /** Questions the next layer failed on (a timeout) answered by sampling more (orRescued). */
  rescued = 0;
  private readonly sampleBudget: number;
  /** RESCUE_SCALE while a failed question is sampled again, else 1. */
  private sampleScale = 1;
  /**
   * Node visits of sampling left for the current question: its split cases share one budget
   * (each case sampling a full budget made a question over a merged path condition of 511
   * disjuncts cost ~64 budgets: apr_collapse_spaces under PAT, 8 s in one store).
   */
  private sampleLeft = 0;
  private readonly rng = new SampleSource();

  constructor(
    private readonly inner: Solver,
    opts: FastSolverOptions = {},
  ) {
    this.budget = opts.searchBudget ?? DEFAULT_BUDGET;
    this.sampleBudget = this.budget === 0 ? 0 : (opts.sampleBudget ?? SAMPLE_BUDGET);
    this.c = new LayerCounters(opts.name ?? 'fast');
  }

  /** A model of the conjunction of `exprs`, null when unsatisfiable, undefined when undecided. */
  solve(exprs: readonly Expr[]): Answer {
    this.sampleLeft = this.sampleScale * this.sampleBudget;
    const r = this.solvePlain(exprs);
    if (r !== UNDECIDED || this.budget === 0) return r;
    // reads at indices that depend on a quantified merge's count: split on the counts' values
    const counts = countsOf(exprs);
    if (counts === null) return r;
    const s = splitOnCounts(exprs, counts, (c) => this.solvePlain(c));
    if (s !== UNDECIDED) this.countSplits++;
    return s;
  }

  /** solve() without count splits. */
  private solvePlain(exprs: readonly Expr[]): Answer {
    if (hasCompound(exprs)) {
      const cases = { left: MAX_CASES };
      const r = this.splitCases(exprs, cases, this.budget);
      if (r !== NOT_SPLIT) {
        if (r !== UNDECIDED) this.split++;
        return r;
      }
    }
    return this.solveConjunction(exprs, this.budget);
  }

  /**
   * Splits the question on its disjunction of fewest disjuncts that interval reasoning cannot
   * take as one set (fast-cases.ts): null when every case is unsatisfiable, the first case's
   * model found, undefined when a case is undecided or the cases ran out. NOT_SPLIT when
   * there is no such disjunction and no conjunction to flatten.
   */
  private splitCases(exprs: readonly Expr[], cases: { left: number }, budget: number): Answer | typeof NOT_SPLIT {
    const flat: Expr[] = [];
    for (const e of exprs) conjunctsInto(e, flat);
    let pick = -1;
    let disjuncts: Expr[] | null = null;
    for (let i = 0; i < flat.length; i++) {
      const d = disjunctsOf(flat[i]!);
      if (d === null || (disjuncts !== null && d.length >= disjuncts.length)) continue;
      if (analyze(flat[i]!).kind === 'simple') continue;
      pick = i;
      disjuncts = d;
    }
    if (disjuncts === null) return flat.length === exprs.length ? NOT_SPLIT : this.solveConjunction(flat, budget);
    const rest = flat.slice(0, pick).concat(flat.slice(pick + 1));
    const share = Math.floor(this.budget / CASE_BUDGET_SHARE);
    let undecided = false;
    for (const d of disjuncts) {
      if (cases.left-- <= 0) return UNDECIDED;
      const one = rest.slice();
      conjunctsInto(d, one);
      let r = this.splitCases(one, cases, share);
      if (r === NOT_SPLIT) r = this.solveConjunction(one, share);
      if (r === UNDECIDED) undecided = true;
      else if (r !== null) return r;
    }
    return undecided ? UNDECIDED : null;
  }

  /** solve() for a conjunction without disjunctions worth splitting. */
  private solveConjunction(exprs: readonly Expr[], budget: number): Answer {
    const simple: SimpleAnalysis[] = [];
    let complex: Expr[] | null = null;
    let wide = false; // constraints on variables of several bytes
    for (const e of exprs) {
      if (e === TRUE) continue;
      if (e === FALSE) return null;
      const a = analyze(e);
      if (a.kind === 'unsupported') return UNDECIDED;
      if (a.kind === 'complex') {
        (complex ??= []).push(e);
        continue;
      }
      if (a.v.length > 1) wide = true;
      simple.push(a);
    }
    const all = groupByVariable(simple);
    if (all === undefined) return this.demoted(exprs, budget);
    if (all === null) return null;
    if (wide && overlapping(all)) return this.demoted(exprs, budget);
    if (complex === null) return modelOf(all);
    return this.enumerate(complex, slotMap(all), all, budget);
  }

  /**
   * Variables of different lengths share bytes: the single-byte constraints keep their sets,
   * the constraints on wider variables are searched like complex ones.
   */
  private demoted(exprs: readonly Expr[], budget: number): Answer {
    const slots = new Map<ExprArray, Map<number, Slot>>();
    const complex: Expr[] = [];
    for (const e of exprs) {
      if (e === TRUE) continue;
      const a = analyze(e);
      if (a.kind === 'unsupported') return UNDECIDED;
      if (a.kind === 'complex' || a.v.length > 1) {
        complex.push(e);
        continue;
      }
      let byStart = slots.get(a.v.array);
      if (byStart === undefined) slots.set(a.v.array, (byStart = new Map()));
      const s = byStart.get(a.v.start);
      byStart.set(a.v.start, s === undefined ? a : { v: a.v, set: s.set.intersect(a.set) });
    }
    const all = nonEmptySlots(slots);
    if (all === null) return null;
    return this.enumerate(complex, slots, all, budget);
  }

  /** Searches the values of the bytes the complex constraints read (fast-search.ts). */
  private enumerate(complex: Expr[], slots: Map<ExprArray, Map<number, Slot>>, all: Slot[], budget: number): Answer {
    if (budget === 0) return UNDECIDED;
    const free: Slot[] = [];
    const seen = new Set<Slot>();
    for (const e of complex) {
      for (const b of bytesOf(e)) {
        let s = slotOf(slots, b.array, b.index);
        if (s === undefined) {
          s = { v: { array: b.array, start: b.index, length: 1 }, set: FULL_BYTE };
          let byStart = slots.get(b.array);
          if (byStart === undefined) slots.set(b.array, (byStart = new Map()));
          byStart.set(b.index, s);
          all.push(s);
        }
        if (!seen.has(s)) {
          seen.add(s);
          free.push(s);
        }
      }
    }
    // a stable order: by array, then byte (most significant digits of a number come first)
    free.sort((x, y) => x.v.array.id - y.v.array.id || x.v.start - y.v.start);
    this.searched++;
    const model = modelOf(all);
    const found = search(complex, free, model, budget);
    if (found === undefined) {
      this.searchGaveUp++;
      return this.sampled(complex, free, model);
    }
    return found ? model : null;
  }

  /**
   * After the search gave up on constraints too large for it to check many assignments
   * (fast-sample.ts: hashes and checksums), random assignments: a model, or undecided.
   */
  private sampled(complex: readonly Expr[], free: readonly Slot[], model: Map<ExprArray, Uint8Array>): Answer {
    if (this.sampleBudget === 0) return UNDECIDED;
    const cost = leafCost(complex);
    // a few samples find the common cases of small constraints; arithmetic-heavy ones (the
    // backend's slow cases: a digest's rounds are ~700 nodes) get up to MAX_SAMPLES
    const k = this.sampleScale;
    const samples = Math.min(k * (cost < FULL_SAMPLING_COST ? FEW_SAMPLES : MAX_SAMPLES), Math.floor(this.sampleLeft / cost));
    if (samples === 0) return UNDECIDED;
    this.sampleLeft -= samples * cost;
    this.sampleRuns++;
    if (sample(complex, free, model, samples, this.rng) === undefined) return UNDECIDED;
    this.sampledModels++;
    return model;
  }

  /** The question constraints ∧ extra (extra = TRUE: the constraints alone), counted. */
  private decide(constraints: readonly Expr[], extra: Expr): Answer {
    const exprs = extra === TRUE ? constraints : [...constraints, extra];
    const r = this.solve(exprs);
    if (r === UNDECIDED) return r;
    if (r === null) this.unsat++;
    else this.sat++;
    return r;
  }

  /**
   * Validity when the expression and every constraint on its variable are simple: only the
   * variable's feasible set matters (constraints on other bytes are independent of it and,
   * by the Solver contract, satisfiable). No model is built.
   */
  private quickValidity(q: Query): Validity | undefined {
    const a = analyze(q.expr);
    if (a.kind !== 'simple') return undefined;
    const v = a.v;
    let feasible: IntervalSet | null = null;
    const bytes = v.length === 1 ? byteSetsOf(q.constraints) : undefined;
    if (bytes !== undefined) {
      // every constraint is simple and about one byte (byte-sets.ts): the loop below would
      // intersect the sets of v's byte and skip the rest
      feasible = bytes.setOf(v.array, v.start) ?? null;
    } else for (const e of q.constraints) {
      const c = analyze(e);
      if (c.kind === 'unsupported') return undefined;
      if (c.kind === 'complex') {
        for (const b of c.bytes) if (b.array === v.array && b.index >= v.start && b.index < v.start + v.length) return undefined;
        continue;
      }
      if (c.v.array !== v.array || c.v.start + c.v.length <= v.start || v.start + v.length <= c.v.start) continue;
      if (c.v.start !== v.start || c.v.length !== v.length) return undefined;
      feasible = feasible === null ? c.set : feasible.intersect(c.set);
    }
    if (feasible !== null && feasible.isEmpty()) return undefined; // constraints unsatisfiable: outside the contract
    const canTrue = feasible === null ? !a.set.isEmpty() : feasible.overlaps(a.set);
    const canFalse = feasible === null ? !a.set.isFull() : !feasible.isSubsetOf(a.set);
    this.sat++;
    return canTrue && canFalse ? Validity.Unknown : canTrue ? Validity.True : Validity.False;
  }

  computeTruth(q: Query): boolean {
    // most forks end here, in about a microsecond: counted, not timed (two clock reads would cost a tenth of it)
    const quick = this.quickValidity(q);
    if (quick !== undefined) return this.c.answered(quick === Validity.True);
    return this.c.time(() => {
      const r = this.decide(q.constraints, builder.not(q.expr));
      if (r === UNDECIDED) {
        return this.orRescued(
          () => this.inner.computeTruth(q),
          () => (this.decide(q.constraints, builder.not(q.expr)) ? false : undefined),
        );
      }
      this.c.hits++;
      return r === null;
    });
  }

  computeValidity(q: Query): Validity {
    const quick = this.quickValidity(q);
    if (quick !== undefined) return this.c.answered(quick);
    return this.c.time(() => {
      const t = this.decide(q.constraints, builder.not(q.expr));
      const f = t === UNDECIDED ? UNDECIDED : this.decide(q.constraints, q.expr);
      if (t === UNDECIDED || f === UNDECIDED) {
        return this.orRescued(
          () => this.inner.computeValidity(q),
          () => (this.decide(q.constraints, builder.not(q.expr)) && this.decide(q.constraints, q.expr) ? Validity.Unknown : undefined),
        );
      }
      this.c.hits++;
      return t === null ? Validity.True : f === null ? Validity.False : Validity.Unknown;
    });
  }

  computeValue(q: Query): bigint {
    return this.c.time(() => {
      const m = this.decide(q.constraints, TRUE);
      if (m === UNDECIDED || m === null) {
        return this.orRescued(
          () => this.inner.computeValue(q),
          () => {
            const r = this.decide(q.constraints, TRUE);
            return r ? new Evaluator(r).evaluate(q.expr) : undefined;
          },
        );
      }
      this.c.hits++;
      return new Evaluator(m).evaluate(q.expr);
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    const bytes = q.expr === TRUE ? byteSetsOf(q.constraints) : undefined;
    if (bytes !== undefined) {
      // a test's inputs when every constraint is simple and about one byte: what decide()
      // gives (each byte at the least value its constraints allow, other bytes zero), from
      // the sets kept along the path; counted, like quickValidity's answers, not timed
      this.sat++;
      return this.c.answered(leastValues(bytes, arrays));
    }
    return this.c.time(() => {
      const m = this.decide(q.constraints, q.expr);
      if (m === UNDECIDED) {
        return this.orRescued(
          () => this.inner.computeInitialValues(q, arrays),
          () => {
            const r = this.decide(q.constraints, q.expr);
            return r ? valuesOf(r, arrays) : undefined;
          },
        );
      }
      this.c.hits++;
      if (m === null) return null;
      return valuesOf(m, arrays);
    });
  }

  /**
   * The next layer's answer; when it fails (a timeout: z3 on a digest's rounds), the question
   * sampled again with RESCUE_SCALE× the samples, whose model answers it (sat sides only: a
   * state kept instead of ended with a solver error). The failure stands when none is found.
   */
  private orRescued<T>(ask: () => T, sampled: () => T | undefined): T {
    try {
      return ask();
    } catch (e) {
      if (!isSolverFailure(e) || this.sampleBudget === 0) throw e;
      this.sampleScale = RESCUE_SCALE;
      let r: T | undefined;
      try {
        r = sampled();
      } finally {
        this.sampleScale = 1;
      }
      if (r === undefined) throw e;
      this.rescued++;
      return r;
    }
  }

  stats(): SolverStats[] {
    return [this.c.snapshot(), ...this.inner.stats()];
  }

  dispose(): void {
    this.inner.dispose();
  }
}

/** A model's bytes for `arrays`, in computeInitialValues' form. */
function valuesOf(m: Map<ExprArray, Uint8Array>, arrays: readonly ExprArray[]): InitialValues {
  return arrays.map((a, i) => {
    const bytes = m.get(a);
    // the model is this query's own: hand its bytes over (to the first asker of an array)
    if (bytes !== undefined && bytes.length === a.size && arrays.indexOf(a) === i) return bytes;
    const out = new Uint8Array(a.size);
    // a loop, not set(subarray): a subarray of a small array moves it off the V8 heap (slow)
    if (bytes !== undefined) for (let i = 0, n = Math.min(a.size, bytes.length); i < n; i++) out[i] = bytes[i]!;
    return out;
  });
}

const FULL_BYTE = IntervalSet.full(8);

/** Each array's bytes at the least value their sets allow, zero where no constraint names them. */
function leastValues(bytes: ByteSets, arrays: readonly ExprArray[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  const slots = bytes.slots;
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i]!;
    const values = new Uint8Array(a.size);
    for (let j = 0; j < slots.length; j++) if (slots[j]!.array === a) values[slots[j]!.index] = Number(slots[j]!.set.min());
    out.push(values);
  }
  return out;
}

/** The bytes of symbolic arrays an expression reads (constant indices only, see analyze). */
function bytesOf(e: Expr): readonly ByteRef[] {
  const a = analyze(e);
  if (a.kind === 'complex') return a.bytes;
  if (a.kind === 'unsupported') throw new Error('fast solver: unsupported constraint in a search');
  const out: ByteRef[] = [];
  for (let k = 0; k < a.v.length; k++) out.push({ array: a.v.array, index: a.v.start + k });
  return out;
}

function slotOf(slots: Map<ExprArray, Map<number, Slot>>, array: ExprArray, index: number): Slot | undefined {
  const byStart = slots.get(array);
  if (byStart === undefined) return undefined;
  for (const s of byStart.values()) if (index >= s.v.start && index < s.v.start + s.v.length) return s;
  return undefined;
}

type SimpleAnalysis = Extract<Analysis, { kind: 'simple' }>;

function byVariable(x: SimpleAnalysis, y: SimpleAnalysis): number {
  return x.v.array.id - y.v.array.id || x.v.start - y.v.start;
}

/**
 * One slot per variable (array and first byte), its set the intersection of its
 * constraints' sets, ordered by array then first byte (sorting, not hashing: a query has
 * few constraints and this runs for every test). null when a set is empty (unsatisfiable);
 * undefined when two variables of different lengths start at the same byte.
 */
function groupByVariable(simple: SimpleAnalysis[]): Slot[] | null | undefined {
  sortByVariable(simple);
  const all: Slot[] = [];
  let last: Slot | null = null;
  for (const a of simple) {
    if (last !== null && last.v.array === a.v.array && last.v.start === a.v.start) {
      if (last.v.length !== a.v.length) return undefined;
      last = { v: last.v, set: last.set.intersect(a.set) };
      all[all.length - 1] = last;
      continue;
    }
    last = a;
    all.push(a);
  }
  for (const s of all) if (s.set.isEmpty()) return null;
  return all;
}

/** Array.prototype.sort allocates a work area per call; most queries have a few constraints. */
function sortByVariable(xs: SimpleAnalysis[]): void {
  if (xs.length > 32) {
    xs.sort(byVariable);
    return;
  }
  for (let i = 1; i < xs.length; i++) {
    const x = xs[i]!;
    let j = i - 1;
    for (; j >= 0 && byVariable(xs[j]!, x) > 0; j--) xs[j + 1] = xs[j]!;
    xs[j + 1] = x;
  }
}

/** The slots by array and first byte (for the search's lookups). */
function slotMap(all: readonly Slot[]): Map<ExprArray, Map<number, Slot>> {
  const slots = new Map<ExprArray, Map<number, Slot>>();
  for (const s of all) {
    let byStart = slots.get(s.v.array);
    if (byStart === undefined) slots.set(s.v.array, (byStart = new Map()));
    byStart.set(s.v.start, s);
  }
  return slots;
}

/** Two different variables share a byte (`all` ordered by array, then first byte). */
function overlapping(all: readonly Slot[]): boolean {
  for (let i = 1; i < all.length; i++) {
    const prev = all[i - 1]!.v;
    const v = all[i]!.v;
    if (prev.array === v.array && prev.start + prev.length > v.start) return true;
  }
  return false;
}

/** Every variable at the smallest value it may take; other bytes zero. */
function modelOf(all: readonly Slot[]): Map<ExprArray, Uint8Array> {
  const m = new Map<ExprArray, Uint8Array>();
  for (const s of all) {
    if (!m.has(s.v.array)) m.set(s.v.array, new Uint8Array(s.v.array.size));
    writeVar(m, s.v, s.set.min());
  }
  return m;
}

/** Every variable's slot, or null when one has no value left (the constraints are unsatisfiable). */
function nonEmptySlots(slots: Map<ExprArray, Map<number, Slot>>): Slot[] | null {
  const all: Slot[] = [];
  for (const byStart of slots.values()) {
    for (const s of byStart.values()) {
      if (s.set.isEmpty()) return null;
      all.push(s);
    }
  }
  return all;
}
