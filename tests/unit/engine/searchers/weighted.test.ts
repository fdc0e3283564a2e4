import {
  WeightedRandomSearcher,
  kleeWeight,
  md2uOf,
  MD2U_UNREACHABLE,
  type WeightType,
} from '../../../../src/engine/searchers/weighted.js';
import { Rng } from '../../../../src/util/rng.js';
import { FakeState, fakeOracle, frequencies } from './fake-state.js';

const w = (type: WeightType, init: ConstructorParameters<typeof FakeState>[1]): number =>
  kleeWeight(type, new FakeState(0, init), fakeOracle);

/** Draw n times and compare the frequencies with weight / total. */
function expectProportional(type: WeightType, ss: FakeState[], expected: number[], seed = 1, n = 100000, tol = 0.01): void {
  const s = new WeightedRandomSearcher(type, new Rng(seed), fakeOracle);
  s.update(null, ss, []);
  const total = expected.reduce((a, b) => a + b, 0);
  ss.forEach((x, i) => expect(s.weightOf(x)).toBeCloseTo(expected[i]!, 12));
  const f = frequencies(n, () => s.selectState());
  ss.forEach((x, i) => expect(Math.abs((f.get(x) ?? 0) / n - expected[i]! / total)).toBeLessThan(tol));
}

describe("KLEE's weight formulas", () => {
  test('nurs:depth = depth; nurs:rp = 0.5^depth', () => {
    expect(w('depth', { depth: 0 })).toBe(0);
    expect(w('depth', { depth: 7 })).toBe(7);
    expect(w('rp', { depth: 0 })).toBe(1);
    expect(w('rp', { depth: 3 })).toBe(0.125);
  });

  test('nurs:qc = 1 below 0.1 s of query cost, else 1 / seconds', () => {
    expect(w('qc', { queryCostMs: 0 })).toBe(1);
    expect(w('qc', { queryCostMs: 99.9 })).toBe(1);
    expect(w('qc', { queryCostMs: 100 })).toBeCloseTo(10, 12);
    expect(w('qc', { queryCostMs: 4000 })).toBeCloseTo(0.25, 12);
  });

  test('nurs:icnt = (1/max(1,count))^2; nurs:cpicnt = 1/max(1,count)', () => {
    expect(w('icnt', { icnt: 0 })).toBe(1);
    expect(w('icnt', { icnt: 1 })).toBe(1);
    expect(w('icnt', { icnt: 4 })).toBe(1 / 16);
    expect(w('cpicnt', { cpicnt: 0 })).toBe(1);
    expect(w('cpicnt', { cpicnt: 4 })).toBe(1 / 4);
  });

  test('nurs:md2u = (1/md2u)^2, md2u = 10000 when nothing uncovered is reachable', () => {
    expect(w('md2u', { md2u: 1 })).toBe(1);
    expect(w('md2u', { md2u: 10 })).toBeCloseTo(0.01, 15);
    expect(w('md2u', { md2u: Infinity })).toBeCloseTo(1e-8, 20);
    expect(md2uOf(Infinity)).toBe(MD2U_UNREACHABLE);
    expect(md2uOf(Number.NaN)).toBe(MD2U_UNREACHABLE);
    expect(md2uOf(0)).toBe(1);
    expect(md2uOf(25)).toBe(25);
  });

  test('nurs:covnew = (1/md2u)^2 + (1/max(1, instsSinceCovNew - 1000))^2, the second term 0 if never covered new', () => {
    expect(w('covnew', { instsSinceCovNew: 0, md2u: 10 })).toBeCloseTo(0.01, 15);
    expect(w('covnew', { instsSinceCovNew: 1, md2u: 10 })).toBeCloseTo(1.01, 15);
    expect(w('covnew', { instsSinceCovNew: 1001, md2u: 10 })).toBeCloseTo(1.01, 15);
    expect(w('covnew', { instsSinceCovNew: 1002, md2u: 10 })).toBeCloseTo(0.26, 15);
    expect(w('covnew', { instsSinceCovNew: 1010, md2u: 10 })).toBeCloseTo(0.01 + 0.01, 15);
    expect(w('covnew', { instsSinceCovNew: 3000, md2u: Infinity })).toBeCloseTo(1 / 2000 ** 2 + 1e-8, 18);
  });

  test('oracle-based weights need an oracle', () => {
    expect(() => kleeWeight('md2u', new FakeState(0), undefined)).toThrow(/oracle/);
    expect(() => new WeightedRandomSearcher('covnew', new Rng(1))).toThrow(/oracle/);
    expect(() => new WeightedRandomSearcher('qc', new Rng(1))).not.toThrow();
  });
});

describe('WeightedRandomSearcher', () => {
  test('nurs:depth picks proportionally to depth', () => {
    expectProportional('depth', [1, 2, 3].map((d, i) => new FakeState(i, { depth: d })), [1, 2, 3]);
  });

  test('nurs:rp picks proportionally to 1/2^depth', () => {
    expectProportional('rp', [1, 2, 3].map((d, i) => new FakeState(i, { depth: d })), [0.5, 0.25, 0.125]);
  });

  test('nurs:qc picks proportionally to its weights', () => {
    expectProportional('qc', [0, 500, 200].map((q, i) => new FakeState(i, { queryCostMs: q })), [1, 2, 5]);
  });

  test('nurs:icnt and nurs:cpicnt', () => {
    expectProportional('icnt', [1, 2].map((c, i) => new FakeState(i, { icnt: c })), [1, 0.25]);
    expectProportional('cpicnt', [1, 2, 4].map((c, i) => new FakeState(i, { cpicnt: c })), [1, 0.5, 0.25]);
  });

  test('nurs:md2u and nurs:covnew', () => {
    expectProportional('md2u', [1, 2, Infinity].map((d, i) => new FakeState(i, { md2u: d })), [1, 0.25, 1e-8]);
    expectProportional(
      'covnew',
      [
        new FakeState(0, { instsSinceCovNew: 5, md2u: 2 }),
        new FakeState(1, { instsSinceCovNew: 0, md2u: 1 }),
        new FakeState(2, { instsSinceCovNew: 1500, md2u: 4 }),
      ],
      [1.25, 1, 1 / 500 ** 2 + 1 / 16],
    );
  });

  test('deterministic per seed', () => {
    const run = (seed: number): number[] => {
      const s = new WeightedRandomSearcher('depth', new Rng(seed));
      s.update(null, [1, 2, 3, 4].map((d, i) => new FakeState(i, { depth: d })), []);
      return Array.from({ length: 100 }, () => s.selectState().id);
    };
    expect(run(8)).toEqual(run(8));
    expect(run(8)).not.toEqual(run(9));
  });

  test("updateWeights: the current state's weight is recomputed on update (covnew), not for depth/rp", () => {
    const a = new FakeState(0, { instsSinceCovNew: 1, md2u: Infinity });
    const b = new FakeState(1, { instsSinceCovNew: 1, md2u: Infinity });
    const cov = new WeightedRandomSearcher('covnew', new Rng(1), fakeOracle);
    cov.update(null, [a, b], []);
    expect(cov.weightOf(a)).toBeCloseTo(1, 6);
    a.instsSinceCovNew = 3000;
    b.instsSinceCovNew = 3000;
    cov.update(a, [], []);
    expect(cov.weightOf(a)).toBeCloseTo(1 / 2000 ** 2 + 1e-8, 15);
    expect(cov.weightOf(b)).toBeCloseTo(1, 6); // only the current state is re-weighed
    cov.update(a, [], [a]); // a removed: not re-weighed, just removed
    expect(cov.empty()).toBe(false);

    const d = new FakeState(2, { depth: 1 });
    const dep = new WeightedRandomSearcher('depth', new Rng(1));
    dep.update(null, [d], []);
    d.depth = 5;
    dep.update(d, [], []);
    expect(dep.weightOf(d)).toBe(1); // KLEE: updateWeights = false for Depth and RP
  });

  test('a forked state gets its weight when added; the current state is re-weighed first', () => {
    const s = new WeightedRandomSearcher('qc', new Rng(1), fakeOracle);
    const cur = new FakeState(0);
    s.update(null, [cur], []);
    cur.queryCostMs = 1000;
    const forked = new FakeState(1, { queryCostMs: 500 });
    s.update(cur, [forked], []);
    expect(s.weightOf(cur)).toBe(1);
    expect(s.weightOf(forked)).toBe(2);
  });

  test('all weights 0: the state with the greatest id, as KLEE\'s DiscretePDF walk ends', () => {
    const s = new WeightedRandomSearcher('depth', new Rng(1));
    const ss = [new FakeState(3), new FakeState(7), new FakeState(5)];
    s.update(null, ss, []);
    for (let i = 0; i < 10; i++) expect(s.selectState()).toBe(ss[1]);
  });

  test('empty(), errors', () => {
    const s = new WeightedRandomSearcher('rp', new Rng(1));
    expect(s.name).toBe('nurs:rp');
    expect(s.empty()).toBe(true);
    expect(() => s.selectState()).toThrow(/empty/);
    const a = new FakeState(0);
    expect(() => s.update(null, [], [a])).toThrow(/not in the distribution/);
    s.update(null, [a], []);
    expect(() => s.update(null, [a], [])).toThrow(/twice/);
    s.update(a, [], [a]);
    expect(s.empty()).toBe(true);
  });
});
