/**
 * The fast solver layer as a decision procedure of its own, against z3: random queries over
 * arrays of 1–16 bytes mixing what the layer decides by intervals (comparisons of bytes and
 * little-endian words of up to 8 bytes under zext/sext/+c/c−), one-byte constraints of every
 * expression kind (decided by evaluation) and multi-byte constraints of every kind (decided by
 * its search, or passed on). Every answer it gives must be z3's (sat/unsat) and every model it
 * gives must satisfy the query.
 *
 * Then each of its rules is weakened in turn (a mutant of the interval operations the
 * analysis pulls sets back with, or of the bounds that prune its search): the same harness
 * must catch every mutant, so the check cannot pass with a broken rule.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { builder as b, Evaluator, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import type { InitialValues, Query } from '../../../src/solver/solver.js';
import { FastSolver } from '../../../src/solver/layers/fast-solver.js';
import { IntervalSet } from '../../../src/solver/layers/fast-intervals.js';
import { BoundsEvaluator, type Bound } from '../../../src/solver/layers/fast-bounds.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { RefusingSolver } from '../../support/refusing-solver.js';
import { ExprGen, Rng } from './gen.js';

let z3: Z3Solver;
beforeAll(async () => {
  z3 = await Z3Solver.create({ timeoutMs: 5000 });
});
afterAll(() => z3.dispose());

const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));

/** Little-endian word of n bytes of a from start. */
function word(a: ExprArray, start: number, n: number): Expr {
  let e = rd(a, start);
  for (let i = 1; i < n; i++) e = b.concat(rd(a, start + i), e);
  return e;
}

const CMP = ['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const;

/** A random query generator over one array of 1..16 bytes. */
class QueryGen {
  readonly a: ExprArray;
  private readonly g: ExprGen;

  constructor(private readonly rng: Rng) {
    const size = 1 + rng.nextInt(16);
    this.a = new ExprArray(`a${size}_${rng.nextU32()}`, size);
    this.g = new ExprGen(rng, [this.a], 2, 0.2);
  }

  private chance(p: number): boolean {
    return this.rng.nextFloat() < p;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.rng.nextInt(xs.length)]!;
  }

  /** A value near the edges of a w-bit range. */
  private c(w: number): Expr {
    return b.constant(this.g.value(w), w);
  }

  /** An interval-style atom: cmp(term, c) over a word of the array. */
  private simple(): Expr {
    const n = 1 + this.rng.nextInt(Math.min(8, this.a.size));
    const start = this.rng.nextInt(this.a.size - n + 1);
    let t = word(this.a, start, n);
    if (this.chance(0.4)) {
      const w = Math.min(64, t.width * 2);
      t = this.chance(0.5) ? b.zext(t, w) : b.sext(t, w);
    }
    if (this.chance(0.4)) t = this.chance(0.5) ? b.add(this.c(t.width), t) : b.sub(this.c(t.width), t);
    const cmp = this.pick(CMP);
    return this.chance(0.5) ? b[cmp](t, this.c(t.width)) : b[cmp](this.c(t.width), t);
  }

  /** Any width-1 expression of every kind over one byte (read at constant index). */
  private oneByte(): Expr {
    const i = this.rng.nextInt(this.a.size);
    const x = rd(this.a, i);
    const ops = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr'] as const;
    let t: Expr = x;
    for (let k = this.rng.nextInt(3); k > 0; k--) t = b[this.pick(ops)](t, this.chance(0.5) ? this.c(8) : x);
    if (this.chance(0.3)) t = b.select(b.ult(x, this.c(8)), t, b.not(t));
    if (this.chance(0.3)) t = b.extract(b.zext(t, 16), this.rng.nextInt(8), 8);
    return b[this.pick(CMP)](t, this.c(8));
  }

  private atom(): Expr {
    const r = this.rng.nextFloat();
    if (r < 0.55) return this.simple();
    if (r < 0.8) return this.oneByte();
    return this.g.gen(1); // any kind, any width, update lists: often beyond the layer
  }

  formula(depth: number): Expr {
    if (depth > 0 && this.chance(0.25)) {
      const op = this.pick(['and', 'or', 'not'] as const);
      return op === 'not' ? b.not(this.formula(depth - 1)) : b[op](this.formula(depth - 1), this.formula(depth - 1));
    }
    return this.atom();
  }

  query(): Query {
    const n = 1 + this.rng.nextInt(4);
    const exprs = Array.from({ length: n }, () => this.formula(1));
    return { constraints: exprs.slice(0, -1), expr: exprs[exprs.length - 1]! };
  }
}

interface Tally {
  decided: number;
  sat: number;
  disagreements: string[];
}

/** Runs `count` random queries through a fresh fast layer and z3; what disagreed. */
function differential(seed: number, count: number, stopAtFirst = false): Tally {
  const rng = new Rng(seed);
  const t: Tally = { decided: 0, sat: 0, disagreements: [] };
  for (let q = 0; q < count; q++) {
    const gen = new QueryGen(rng);
    const query = gen.query();
    const fast = new FastSolver(new RefusingSolver(), { searchBudget: 20_000 });
    let got: InitialValues | null;
    try {
      got = fast.computeInitialValues(query, [gen.a]);
    } catch {
      continue; // passed on: not the layer's to decide
    }
    t.decided++;
    const all = [...query.constraints, query.expr];
    const text = all.map((e) => e.toString()).join(' ∧ ');
    if (got !== null) {
      t.sat++;
      const ev = new Evaluator(new Map([[gen.a, got[0]!]]));
      const bad = all.find((e) => !ev.isTrue(e));
      if (bad !== undefined) t.disagreements.push(`model [${got[0]!.join(',')}] falsifies ${bad.toString()} in ${text}`);
    } else {
      let zsat: boolean;
      try {
        zsat = z3.computeInitialValues(query, [gen.a]) !== null;
      } catch {
        continue; // z3 timed out: nothing to compare
      }
      if (zsat) t.disagreements.push(`fast: unsat, z3: sat for ${text}`);
    }
    if (stopAtFirst && t.disagreements.length > 0) break;
  }
  return t;
}

describe('the fast solver against z3', () => {
  it('agrees on every query it decides (1–16 bytes, every expression kind)', () => {
    const t = differential(1, 1500);
    expect(t.disagreements).toEqual([]);
    // the layer decides most of these, both ways
    expect(t.decided).toBeGreaterThan(900);
    expect(t.sat).toBeGreaterThan(200);
    expect(t.decided - t.sat).toBeGreaterThan(200);
  }, 120_000);
});

/** Weakened rules: each replaces one method by an unsound variant for the duration of a run. */
type Mutant = [name: string, target: object, method: string, weaken: (orig: (...a: never[]) => unknown) => (...a: never[]) => unknown];

const IS = IntervalSet.prototype as unknown as object;
const ISS = IntervalSet as unknown as object;
const MUTANTS: Mutant[] = [
  ['intersect ignores its argument (And, sext)', IS, 'intersect', () => function (this: IntervalSet) { return this; }],
  ['union drops its argument (Or)', IS, 'union', () => function (this: IntervalSet) { return this; }],
  ['complement keeps one value too many (Not, ≠)', IS, 'complement', (orig) => function (this: IntervalSet) {
    const c = (orig as () => IntervalSet).call(this);
    return this.isEmpty() ? c : c.union(IntervalSet.range(this.width, this.min(), this.min()));
  }],
  ['shift is off by one (c + x)', IS, 'shift', (orig) => function (this: IntervalSet, k: bigint) { return (orig as (k: bigint) => IntervalSet).call(this, k + 1n); }],
  ['reflect is off by one (c − x)', IS, 'reflect', (orig) => function (this: IntervalSet, k: bigint) { return (orig as (k: bigint) => IntervalSet).call(this, k + 1n); }],
  ['truncateTo keeps nothing of the wide values (zext)', IS, 'truncateTo', (orig) => function (this: IntervalSet, w: number) {
    const r = (orig as (w: number) => IntervalSet).call(this, w);
    return r.isFull() ? r : r.intersect(IntervalSet.range(w, 0n, 0n));
  }],
  ['range loses its upper end (<=, <, ==)', ISS, 'range', (orig) => function (w: number, lo: bigint, hi: bigint) { return (orig as (w: number, lo: bigint, hi: bigint) => IntervalSet)(w, lo, hi > lo ? hi - 1n : hi); }],
  ['signedRange takes one value below its lower end (signed <, <=)', ISS, 'signedRange', (orig) => function (w: number, lo: bigint, hi: bigint) {
    return (orig as (w: number, lo: bigint, hi: bigint) => IntervalSet)(w, lo > -(1n << BigInt(w - 1)) ? lo - 1n : lo, hi);
  }],
  ['bounds are one too tight (search pruning)', BoundsEvaluator.prototype as unknown as object, 'bound', (orig) => function (this: BoundsEvaluator, e: Expr): Bound {
    const r = (orig as (e: Expr) => Bound).call(this, e);
    return e.width > 1 && r.hi > r.lo ? { lo: r.lo, hi: r.hi - 1n } : r;
  }],
];

describe('the differential catches every weakened rule', () => {
  it.each(MUTANTS.map((m) => [m[0], m] as const))('%s', (_name, [, target, method, weaken]) => {
    const obj = target as Record<string, (...a: never[]) => unknown>;
    const orig = obj[method]!;
    obj[method] = weaken(orig);
    let t: Tally;
    try {
      t = differential(1, 1500, true);
    } finally {
      obj[method] = orig;
    }
    expect(t.disagreements.length).toBeGreaterThan(0);
  }, 120_000);
});
