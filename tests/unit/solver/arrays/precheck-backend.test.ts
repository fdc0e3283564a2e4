/**
 * The ILP pre-check over the backend's own arrays (--array-encoding=backend --ilp-precheck):
 * where the chain puts it, that it answers the digest's T1 UNSAT without the backend and
 * passes no intervals down, its budget (size limit, hit-rate guard) and its profile lines.
 * And z3's store-chain encoding of constant arrays (--z3-constant-arrays=store-chain): the
 * same answers as the lambda encoding, reads past the end included.
 */
import { AccessTypes, builder as b, Evaluator, ExprArray, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { HighsIlp, IlpPrecheckSolver, Validity, type Query, type Solver } from '../../../../src/solver/index.js';
import { assembleChain } from '../../../../src/solver/layers/index.js';
import { HitRateGuard } from '../../../../src/solver/ilp/budget.js';
import { Z3Solver } from '../../../../src/solver/z3/z3-solver.js';
import { BruteForceSolver } from '../layers/fake-core.js';
import { leWord } from '../../../support/le-word.js';

let ilp: HighsIlp;
beforeAll(async () => {
  ilp = await HighsIlp.create();
});

const c32 = (v: number): Expr => b.constant(v, 32);
const sym = (name: string): Expr => leWord(new UpdateList(new ExprArray(name, 4)), 32);

/** unsigned a[4] (M = 4), little-endian. */
function table(elems: number[]): ExprArray {
  const bytes = new Uint8Array(elems.length * 4);
  elems.forEach((v, k) => new DataView(bytes.buffer).setUint32(4 * k, v, true));
  const a = new ExprArray('a', bytes.length, bytes);
  a.access = new AccessTypes();
  a.access.record(4);
  return a;
}

function element(a: ExprArray, x: Expr): Expr {
  const base = b.mul(c32(4), x);
  let e = b.read(new UpdateList(a), base);
  for (let k = 1; k < 4; k++) e = b.concat(b.read(new UpdateList(a), b.add(base, c32(k))), e);
  return e;
}

/** The digest's T1/T2 path condition and question: i, j ≤ 3, i + j > 4; a[i] + a[j] > 10. */
function t1(last: number): Query {
  const a = table([0, 0, 0, last]);
  const i = sym('i');
  const j = sym('j');
  return { constraints: [b.ule(i, c32(3)), b.ule(j, c32(3)), b.ult(c32(4), b.add(i, j))], expr: b.ult(c32(10), b.add(element(a, i), element(a, j))) };
}

/** A core that records what reaches it and answers from z3. */
class Recording implements Solver {
  readonly seen: Query[] = [];
  constructor(private readonly z3: Solver) {}
  computeTruth(q: Query): boolean {
    this.seen.push(q);
    return this.z3.computeTruth(q);
  }
  computeValidity(q: Query): Validity {
    this.seen.push(q);
    return this.z3.computeValidity(q);
  }
  computeValue(q: Query): bigint {
    this.seen.push(q);
    return this.z3.computeValue(q);
  }
  computeInitialValues(q: Query, arrays: readonly ExprArray[]): ReturnType<Solver['computeInitialValues']> {
    this.seen.push(q);
    return this.z3.computeInitialValues(q, arrays);
  }
  stats(): ReturnType<Solver['stats']> {
    return [{ layer: 'recording', queries: this.seen.length, hits: 0, timeMs: 0 }];
  }
  dispose(): void {}
}

describe('placement in the chain', () => {
  const names = (s: Solver): string[] => s.stats().map((t) => t.layer);
  const PRE = ['ilp-precheck', 'ilp', 'ilp-proofs', 'ilp-analysis', 'ilp-precheck-off'];

  test('backend encoding: the pre-check sits directly above the backend, below the fast layer', () => {
    const s = assembleChain(new BruteForceSolver(), { ilpPrecheck: true, ilp });
    expect(names(s)).toEqual(['fast-top', 'independence', 'query-cache', 'cex-cache', 'fast', ...PRE, 'brute-force']);
  });

  test('axiom encoding: the pre-check sits directly above tsklee\'s encoding', () => {
    const s = assembleChain(new BruteForceSolver(), { ilpPrecheck: true, ilp, arrayEncoding: 'axioms', useFastSolver: false });
    expect(names(s)).toEqual(['independence', 'query-cache', 'cex-cache', ...PRE, 'array-axioms', 'array-axiom-pool', 'array-cegar', 'brute-force']);
  });

  test('without ilp loaded the chain refuses in one line', () => {
    expect(() => assembleChain(new BruteForceSolver(), { ilpPrecheck: true })).toThrow(/needs the ILP solver loaded/);
  });
});

describe('over the backend (z3 with its own arrays)', () => {
  let z3: Z3Solver;
  beforeAll(async () => {
    z3 = await Z3Solver.create({ timeoutMs: 5000 });
  });
  afterAll(() => z3.dispose());

  test('T1 is UNSAT without a backend call; T2 goes down with no intervals and is SAT', () => {
    const core = new Recording(z3);
    const lines: string[] = [];
    const pre = new IlpPrecheckSolver(core, ilp, { passIntervals: false, profile: (l) => lines.push(l) });
    expect(pre.computeInitialValues(t1(5), [])).toBeNull();
    expect(core.seen).toHaveLength(0);
    expect(pre.stats()[0]).toMatchObject({ layer: 'ilp-precheck', queries: 1, hits: 1 });
    expect(lines[0]).toMatch(/^ilp-precheck q=1 initial vars=\d+ rows=\d+ nonzeros=\d+ reads=\d+ ilp=\w+ analyses=1 cached=0 analysis=[\d.]+ms ilp-time=[\d.]+ms verdict=unsat$/);

    expect(pre.computeValidity(t1(9))).toBe(Validity.Unknown);
    expect(core.seen).toHaveLength(1);
    expect(core.seen[0]!.indexIntervals).toBeUndefined(); // z3 has no use for them
    expect(lines[1]).toMatch(/ validity .* analyses=2 .* verdict=unknown below=[\d.]+ms$/);
  });

  test('computeValue passes straight through (no analysis) over the backend', () => {
    const core = new Recording(z3);
    const pre = new IlpPrecheckSolver(core, ilp, { passIntervals: false });
    const i = sym('i');
    const v = pre.computeValue({ constraints: [b.ult(c32(2), i), b.ult(i, c32(4))], expr: element(table([0, 0, 0, 9]), b.sub(i, c32(0))) });
    expect(v).toBe(9n);
    expect(pre.stats().find((s) => s.layer === 'ilp-analysis')!.queries).toBe(0);
  });

  test('size budget: over-size systems get propagation only (counted), answers unchanged', () => {
    const core = new Recording(z3);
    const pre = new IlpPrecheckSolver(core, ilp, { passIntervals: false, budget: { maxSize: 0 } });
    const runsBefore = ilp.counters.runs;
    expect(pre.computeTruth({ constraints: t1(9).constraints, expr: b.not(t1(9).expr) })).toBe(false);
    expect(ilp.counters.runs).toBe(runsBefore);
    const analysis = pre.stats().find((s) => s.layer === 'ilp-analysis')!;
    expect(analysis.queries).toBe(1);
    expect(analysis.hits).toBe(1);
  });

  test('hit-rate guard: after a window of misses the pre-check switches off and queries pass through', () => {
    const core = new Recording(z3);
    const pre = new IlpPrecheckSolver(core, ilp, { passIntervals: false, budget: { window: 3, minHitRate: 0.5 } });
    const a = table([1, 2, 3, 4]);
    for (let k = 0; k < 3; k++) {
      const i = sym(`g${k}`);
      expect(pre.computeTruth({ constraints: [b.ult(i, c32(4))], expr: b.ne(element(a, i), c32(3)) })).toBe(false);
    }
    expect(pre.switchedOff).toBe(true);
    // T1 would be a pre-check hit, but the pre-check is off: z3 answers it
    expect(pre.computeInitialValues(t1(5), [])).toBeNull();
    expect(core.seen).toHaveLength(4);
    expect(pre.stats().find((s) => s.layer === 'ilp-precheck-off')).toMatchObject({ queries: 1, hits: 3 });
  });
});

describe('HitRateGuard', () => {
  test('judges only over a full window; a hit in the window keeps it on', () => {
    const g = new HitRateGuard(4, 0.25);
    for (const hit of [false, false, true]) expect(g.record(hit)).toBe(false);
    expect(g.record(false)).toBe(false); // 1 hit in 4 = 0.25: stays on
    expect(g.record(false)).toBe(false); // window f,t,f,f
    expect(g.record(false)).toBe(false); // t,f,f,f
    expect(g.record(false)).toBe(true); // f,f,f,f
    expect(g.offAfter).toBe(7);
    expect(g.record(true)).toBe(true); // stays off
  });

  test('minHitRate 0 never switches off', () => {
    const g = new HitRateGuard(2, 0);
    for (let k = 0; k < 10; k++) expect(g.record(false)).toBe(false);
  });
});

describe('z3 constant arrays as store chains (KLEE\'s STP encoding)', () => {
  let lambda: Z3Solver;
  let chain: Z3Solver;
  beforeAll(async () => {
    lambda = await Z3Solver.create({ timeoutMs: 10000 });
    chain = await Z3Solver.create({ timeoutMs: 10000, constantArrays: 'store-chain' });
  });
  afterAll(() => {
    lambda.dispose();
    chain.dispose();
  });

  const bytes = Uint8Array.from({ length: 64 }, (_, k) => (k * 37 + 11) & 0xff);
  const t = new ExprArray('t', 64, bytes);
  const input = new ExprArray('in', 1);
  const idx = b.zext(b.read(new UpdateList(input), c32(0)), 32);
  const byteAt = (ul: UpdateList, at: Expr): Expr => b.read(ul, at);
  const queries: [string, Query][] = [
    ['a table byte at a symbolic index', { constraints: [b.ult(idx, c32(64))], expr: b.eq(byteAt(new UpdateList(t), idx), b.constant(bytes[40]!, 8)) }],
    ['no in-range index holds 0x00 (unless one does)', { constraints: [b.ult(idx, c32(64))], expr: b.ne(byteAt(new UpdateList(t), idx), b.constant(0, 8)) }],
    ['past the end reads 0', { constraints: [b.ule(c32(64), idx)], expr: b.eq(byteAt(new UpdateList(t), idx), b.constant(0, 8)) }],
    ['a symbolic write on top', { constraints: [b.ult(idx, c32(64))], expr: b.eq(byteAt(new UpdateList(t).extend(idx, b.constant(0xaa, 8)), idx), b.constant(0xaa, 8)) }],
    ['a 4-byte element', { constraints: [b.ult(idx, c32(16))], expr: b.eq(element(t, idx), c32(new DataView(bytes.buffer).getUint32(20, true))) }],
  ];

  test.each(queries)('%s: same validity as the lambda encoding', (_, q) => {
    expect(chain.computeValidity(q)).toBe(lambda.computeValidity(q));
  });

  test('models of the store-chain encoding satisfy the query under evaluate()', () => {
    for (const [, q] of queries) {
      const m = chain.computeInitialValues(q, [input]);
      if (m === null) continue;
      const ev = new Evaluator(new Map([[input, m[0]!]]));
      expect([...q.constraints, q.expr].every((e) => ev.isTrue(e))).toBe(true);
    }
  });
});
