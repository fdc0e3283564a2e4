/** Each layer changes what reaches the core the way it should. */
import { builder as b, ExprArray, UpdateList, TRUE, FALSE, type Expr } from '../../../../src/expr/index.js';
import { Validity } from '../../../../src/solver/solver.js';
import {
  assembleChain,
  CexCachingSolver,
  IndependentSolver,
  QueryCacheSolver,
  independentConstraints,
  independentFactors,
  SetMap,
  sortedSet,
} from '../../../../src/solver/layers/index.js';
import { BruteForceSolver } from './fake-core.js';

const x = new ExprArray('x', 2);
const y = new ExprArray('y', 1);
const z = new ExprArray('z', 1);
const rd = (a: ExprArray, i: number | Expr): Expr => b.read(new UpdateList(a), typeof i === 'number' ? b.constant(i, 32) : i);
const c8 = (v: number): Expr => b.constant(v, 8);
const x0 = rd(x, 0);
const x1 = rd(x, 1);
const y0 = rd(y, 0);
const z0 = rd(z, 0);

describe('independence', () => {
  test('a query on y is not affected by constraints on x', () => {
    const core = new BruteForceSolver();
    const s = new IndependentSolver(core);
    const cs = [b.ult(x0, c8(10)), b.eq(x1, b.add(x0, c8(1))), b.ugt(y0, c8(5))];
    expect(s.computeTruth({ constraints: cs, expr: b.ugt(y0, c8(3)) })).toBe(true);
    expect(core.calls[0]!.query.constraints).toEqual([cs[2]]);
  });

  test('bytes read at constant indices are independent; a symbolic index takes the whole array', () => {
    const a0 = b.ult(x0, c8(10));
    const a1 = b.ugt(x1, c8(3));
    expect(independentConstraints([a0, a1], b.eq(x1, c8(7)))).toEqual([a1]);
    const sym = b.eq(rd(x, b.zext(b.and(y0, c8(1)), 32)), c8(4)); // x[y&1] == 4: all of x, and y
    expect(independentConstraints([a0, a1, sym], b.eq(x1, c8(7)))).toEqual([a0, a1, sym]);
    expect(independentConstraints([a0, a1, sym], b.eq(z0, c8(7)))).toEqual([]);
    expect(independentConstraints([a0, a1, sym], b.eq(y0, c8(7)))).toEqual([a0, a1, sym]);
    // transitive: x1 ~ z (via c1), z ~ y (via c2)
    const c1 = b.eq(x1, z0);
    const c2 = b.ult(z0, y0);
    expect(independentConstraints([a0, c1, c2], b.eq(y0, c8(1)))).toEqual([c1, c2]);
    expect(independentFactors([a0, a1, c1, c2]).map((f) => f.exprs.length).sort()).toEqual([1, 3]);
  });

  test('a constant array without writes links nothing', () => {
    const k = new ExprArray('k', 4, new Uint8Array([1, 2, 3, 4]));
    const viaK1 = b.ult(rd(k, b.zext(x0, 32)), c8(3));
    const viaK2 = b.ult(rd(k, b.zext(y0, 32)), c8(3));
    expect(independentConstraints([viaK1], viaK2)).toEqual([]);
  });

  test('initial values: factors solved separately, bytes merged, untouched arrays zero', () => {
    const core = new BruteForceSolver();
    const s = new IndependentSolver(core);
    const cs = [b.eq(x0, c8(3)), b.eq(x1, c8(9)), b.eq(y0, c8(200))];
    const w = new ExprArray('w', 3);
    const m = s.computeInitialValues({ constraints: cs, expr: TRUE }, [x, y, w])!;
    expect([...m[0]!]).toEqual([3, 9]);
    expect([...m[1]!]).toEqual([200]);
    expect([...m[2]!]).toEqual([0, 0, 0]);
    expect(core.count).toBe(3); // x[0], x[1] and y are three factors
    expect(core.calls.every((c) => c.query.constraints.length === 0)).toBe(true);
    expect(s.computeInitialValues({ constraints: cs, expr: b.eq(x1, c8(8)) }, [x])).toBeNull();
    expect(s.computeInitialValues({ constraints: cs, expr: FALSE }, [x])).toBeNull();
  });
});

describe('query cache', () => {
  test('an identical query reaches the core once; its negation is a hit', () => {
    const core = new BruteForceSolver();
    const s = new QueryCacheSolver(core);
    const q = { constraints: [b.ult(x0, c8(10))], expr: b.ult(x0, c8(20)) };
    expect(s.computeTruth(q)).toBe(true);
    expect(s.computeTruth(q)).toBe(true);
    expect(s.computeTruth({ constraints: [...q.constraints].reverse(), expr: q.expr })).toBe(true);
    expect(core.count).toBe(1);
    expect(s.computeValidity({ ...q, expr: b.not(q.expr) })).toBe(Validity.False); // MustBeTrue negated
    expect(s.computeTruth({ ...q, expr: b.uge(x0, c8(20)) })).toBe(false); // Ule form of the negation
    expect(core.count).toBe(1);
    expect(s.stats()[0]).toMatchObject({ layer: 'query-cache', queries: 5, hits: 4 });
  });

  test('partial answers are refined, not trusted beyond what they say', () => {
    const core = new BruteForceSolver();
    const s = new QueryCacheSolver(core);
    const q = { constraints: [b.ult(x0, c8(10))], expr: b.ult(x0, c8(5)) };
    expect(s.computeTruth(q)).toBe(false); // MayBeFalse
    expect(s.computeTruth(q)).toBe(false);
    expect(core.count).toBe(1);
    expect(s.computeValidity(q)).toBe(Validity.Unknown); // needs the core
    expect(s.computeValidity(q)).toBe(Validity.Unknown);
    expect(s.computeTruth({ ...q, expr: b.not(q.expr) })).toBe(false);
    expect(core.count).toBe(2);
  });

  test('values are cached per query', () => {
    const core = new BruteForceSolver();
    const s = new QueryCacheSolver(core);
    const q = { constraints: [b.eq(x0, c8(42))], expr: b.add(x0, c8(1)) };
    expect(s.computeValue(q)).toBe(43n);
    expect(s.computeValue(q)).toBe(43n);
    expect(core.count).toBe(1);
  });

  test('bounded: beyond twice its capacity the least recently used entries go, a used one stays', () => {
    const core = new BruteForceSolver();
    const s = new QueryCacheSolver(core, 4);
    const hot = { constraints: [b.ult(x0, c8(100))], expr: b.ult(x0, c8(200)) };
    for (let k = 0; k < 40; k++) {
      expect(s.computeTruth({ constraints: [b.ult(x0, c8(100))], expr: b.ne(x0, c8(k)) })).toBe(false);
      expect(s.computeTruth(hot)).toBe(true);
      expect(s.size).toBeLessThanOrEqual(8);
    }
    expect(core.calls.filter((c) => c.query.expr === hot.expr)).toHaveLength(1); // always a hit after the first
    const [st] = s.stats();
    expect(st!.entries).toBe(s.size);
    expect(st!.evicted! + st!.entries!).toBe(41);
    // an evicted entry is asked again, and answered the same
    const n = core.count;
    expect(s.computeTruth({ constraints: [b.ult(x0, c8(100))], expr: b.ne(x0, c8(0)) })).toBe(false);
    expect(core.count).toBe(n + 1);
  });
});

describe('counterexample cache', () => {
  test('a repeated query is a hit', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core);
    const q = { constraints: [b.ult(x0, c8(10))], expr: b.ult(x0, c8(5)) };
    expect(s.computeTruth(q)).toBe(false);
    expect(s.computeTruth(q)).toBe(false);
    expect(core.count).toBe(1);
    expect(core.calls[0]!.method).toBe('initial'); // the cache always asks for a model
  });

  test('a SAT superset answers (with cexCacheSuperset); without it a subset model is tried', () => {
    const big = [b.ult(y0, c8(10)), b.ugt(z0, c8(200)), b.ne(y0, c8(0))];
    for (const superset of [true, false]) {
      const core = new BruteForceSolver();
      const s = new CexCachingSolver(core, { cexCacheSuperset: superset });
      expect(s.computeInitialValues({ constraints: big, expr: TRUE }, [y, z])).not.toBeNull();
      expect(core.count).toBe(1);
      // {y0 < 10, z0 > 200} ⊂ big, so big's model answers it
      expect(s.computeInitialValues({ constraints: big.slice(0, 2), expr: TRUE }, [y])).not.toBeNull();
      expect(core.count).toBe(superset ? 1 : 2);
    }
  });

  test('a SAT subset whose model happens to satisfy the query answers it', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core);
    const m = s.computeInitialValues({ constraints: [b.ult(x0, c8(10))], expr: TRUE }, [x])!;
    expect(core.count).toBe(1);
    // the model has x0 = 0, which also satisfies x0 < 20
    expect(m[0]![0]).toBe(0);
    expect(s.computeTruth({ constraints: [b.ult(x0, c8(10))], expr: b.uge(x0, c8(20)) })).toBe(false);
    expect(core.count).toBe(1);
  });

  test("a subset's model is checked only on the constraints outside the subset's key", () => {
    // a core whose model for {x0 < 10} is x0 = 50: wrong, so a check of x0 < 10 would reject it
    const core = new BruteForceSolver();
    const lying = Object.assign(Object.create(core) as BruteForceSolver, {
      computeInitialValues: () => [Uint8Array.of(50, 0)],
    });
    const s = new CexCachingSolver(lying);
    s.computeInitialValues({ constraints: [b.ult(x0, c8(10))], expr: TRUE }, [x]);
    // {x0 < 10, x0 ≥ 20}: only x0 ≥ 20 is evaluated under the cached model (the key's model is trusted, as an exact hit is)
    expect(s.computeInitialValues({ constraints: [b.ult(x0, c8(10))], expr: b.uge(x0, c8(20)) }, [x])![0]![0]).toBe(50);
    // a constraint outside the key that the model fails still goes below
    const calls: number[] = [];
    const counting = Object.assign(Object.create(core) as BruteForceSolver, {
      computeInitialValues: () => (calls.push(1), [Uint8Array.of(3, 0)]),
    });
    const t = new CexCachingSolver(counting);
    t.computeInitialValues({ constraints: [b.ult(x0, c8(10))], expr: TRUE }, [x]);
    t.computeInitialValues({ constraints: [b.ult(x0, c8(10))], expr: b.uge(x0, c8(5)) }, [x]);
    expect(calls.length).toBe(2);
  });

  test("a merged path condition: a pre-merge state's model answers, and UNSAT in every disjunct is UNSAT", () => {
    const core = new BruteForceSolver([0, 1, 2, 3, 5, 7]); // three bytes: a restricted domain
    const s = new CexCachingSolver(core);
    const prefix = b.ult(x0, c8(10));
    const sideA = [b.eq(y0, c8(1)), b.ugt(x1, c8(2))];
    const sideB = [b.eq(y0, c8(2)), b.ult(x1, c8(2))];
    // the two states before the merge branched on y0 < 5 (their own keys, each a SAT model)
    expect(s.computeInitialValues({ constraints: [prefix, ...sideA], expr: TRUE }, [x, y])).not.toBeNull();
    expect(s.computeInitialValues({ constraints: [prefix, ...sideB], expr: TRUE }, [x, y])).not.toBeNull();
    expect(s.computeTruth({ constraints: [prefix, ...sideA], expr: b.ult(y0, c8(5)) })).toBe(true);
    expect(s.computeTruth({ constraints: [prefix, ...sideB], expr: b.ult(y0, c8(5)) })).toBe(true);
    const n = core.count;
    const merged = [prefix, b.or(b.and(sideA[0]!, sideA[1]!), b.and(sideB[0]!, sideB[1]!))];
    // a model of one side satisfies the merged path condition
    const m = s.computeInitialValues({ constraints: merged, expr: TRUE }, [x, y])!;
    expect([1, 2]).toContain(m[1]![0]);
    // y0 < 5 is valid on both sides, so in the merged state
    expect(s.computeTruth({ constraints: merged, expr: b.ult(y0, c8(5)) })).toBe(true);
    expect(core.count).toBe(n);
    expect(s.disjunctHits).toBe(2);
    // y0 ≠ 1 holds in side B's model: no core call either
    expect(s.computeTruth({ constraints: merged, expr: b.eq(y0, c8(1)) })).toBe(false);
    expect(core.count).toBe(n);
    // x0 ≠ 0 holds in neither side's model: the core decides
    expect(s.computeTruth({ constraints: merged, expr: b.eq(x0, c8(0)) })).toBe(false);
    expect(core.count).toBe(n + 1);
  });

  test('an UNSAT subset answers UNSAT', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core);
    const cs = [b.ult(x0, c8(10))];
    expect(s.computeTruth({ constraints: cs, expr: b.ult(x0, c8(11)) })).toBe(true); // {x0<10, x0>=11} UNSAT
    expect(core.count).toBe(1);
    // more constraints on top of the UNSAT set stay UNSAT
    expect(s.computeTruth({ constraints: [...cs, b.eq(y0, c8(1)), b.ugt(x1, c8(2))], expr: b.ult(x0, c8(11)) })).toBe(true);
    expect(core.count).toBe(1);
  });

  test('cexCacheTryAll tries every model; cexCacheExp answers truth from a known-UNSAT query', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core, { cexCacheTryAll: true, cexCacheExp: true });
    s.computeInitialValues({ constraints: [b.eq(y0, c8(9))], expr: TRUE }, [y]);
    expect(core.count).toBe(1);
    // unrelated key, but the model y0 = 9 (x zero) satisfies it
    expect(s.computeInitialValues({ constraints: [b.ult(x0, c8(3)), b.ugt(y0, c8(8))], expr: TRUE }, [x, y])).not.toBeNull();
    expect(core.count).toBe(1);
    const cs = [b.ult(x0, c8(10))];
    expect(s.computeInitialValues({ constraints: cs, expr: b.ugt(x0, c8(20)) }, [x])).toBeNull();
    const n = core.count;
    expect(s.computeTruth({ constraints: cs, expr: b.ugt(x0, c8(20)) })).toBe(false);
    expect(core.count).toBe(n);
  });

  test('bounded: old keys are evicted, answers stay right, used keys stay', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core, { capacity: 3 });
    const hot = [b.ult(y0, c8(7))];
    for (let k = 0; k < 30; k++) {
      expect(s.computeValue({ constraints: [b.eq(x0, c8(k))], expr: b.add(x0, c8(1)) })).toBe(BigInt(k + 1));
      expect(s.computeValue({ constraints: hot, expr: y0 })).toBe(0n);
      expect(s.size).toBeLessThanOrEqual(6 + 1); // two generations, plus a key copied up from the old one
    }
    expect(core.calls.filter((c) => c.query.constraints === hot)).toHaveLength(1);
    const [st] = s.stats();
    expect(st!.evicted).toBeGreaterThan(20);
    expect(st!.entries).toBe(s.size);
  });

  test('validity with one model answers one side for free', () => {
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core);
    const cs = [b.ult(x0, c8(10))];
    expect(s.computeValidity({ constraints: cs, expr: b.ult(x0, c8(10)) })).toBe(Validity.True);
    expect(s.computeValidity({ constraints: cs, expr: b.eq(x0, c8(50)) })).toBe(Validity.False);
    expect(s.computeValue({ constraints: cs, expr: b.add(x0, c8(1)) })).toBe(1n);
    expect(core.count).toBe(3); // model of cs; cs ∧ x0 ≥ 10; cs ∧ x0 = 50
  });
});

describe('the assembled chain', () => {
  test('options switch layers (KLEE names and defaults)', () => {
    const names = (s: ReturnType<typeof assembleChain>): string[] => s.stats().map((t) => t.layer);
    expect(names(assembleChain(new BruteForceSolver()))).toEqual(['fast-top', 'independence', 'query-cache', 'cex-cache', 'fast', 'brute-force']);
    expect(names(assembleChain(new BruteForceSolver(), { useFastSolver: false }))).toEqual(['independence', 'query-cache', 'cex-cache', 'brute-force']);
    expect(names(assembleChain(new BruteForceSolver(), { useFastSolver: false, useIndependentSolver: false, useCexCache: false }))).toEqual(['query-cache', 'brute-force']);
    expect(names(assembleChain(new BruteForceSolver(), { useFastSolver: false, useQueryCache: false }))).toEqual(['independence', 'cex-cache', 'brute-force']);
    expect(names(assembleChain(new BruteForceSolver(), { debugValidateSolver: true }))[0]).toBe('validating');
  });

  test('a validating chain reports a wrong answer', () => {
    const core = new BruteForceSolver();
    const liar = Object.assign(Object.create(core) as BruteForceSolver, { computeTruth: () => true });
    const s = assembleChain(liar, { useFastSolver: false, useCexCache: false, debugValidateSolver: true, validationOracle: new BruteForceSolver() });
    expect(() => s.computeTruth({ constraints: [], expr: b.ult(x0, c8(3)) })).toThrow(/computeTruth: solver says true, oracle says false/);
  });
});

describe('SetMap (UBTree)', () => {
  test('subset and superset search', () => {
    const m = new SetMap<string>();
    m.set(sortedSet([1, 3, 5]), 'a');
    m.set(sortedSet([2, 3]), 'b');
    m.set(sortedSet([]), 'e');
    expect(m.get([1, 3, 5])).toBe('a');
    expect(m.get([1, 3])).toBeUndefined();
    expect(m.findSubset([1, 2, 3, 5, 9], (v) => v !== 'e')).toMatch(/[ab]/);
    expect(m.findSubset([1, 3], (v) => v !== 'e')).toBeUndefined();
    expect(m.findSuperset([3], (v) => v !== 'e')).toMatch(/[ab]/);
    expect(m.findSuperset([1, 5], () => true)).toBe('a');
    expect(m.findSuperset([4], () => true)).toBeUndefined();
    expect(m.findSuperset([], (v) => v === 'e')).toBe('e');
    expect(m.size).toBe(3);
  });
});
