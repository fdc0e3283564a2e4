/** The z3 backend on hand-built queries: truth, validity, values, models, corner cases. */
import { builder as b, raw, evaluate, ExprArray, UpdateList, TRUE, FALSE, type Expr } from '../../../src/expr/index.js';
import { Validity, type Query } from '../../../src/solver/index.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { leWord } from '../../support/le-word.js';

let solver: Z3Solver;
beforeAll(async () => {
  solver = await Z3Solver.create();
});
afterAll(() => solver.dispose());

const q = (constraints: Expr[], expr: Expr): Query => ({ constraints, expr });
const c = (v: number | bigint, w: number) => b.constant(v, w);


describe('truth and validity', () => {
  const x = new ExprArray('x', 4);
  const ux = new UpdateList(x);
  const x32 = leWord(ux, 32);

  test('trivial and constant queries', () => {
    expect(solver.computeTruth(q([], TRUE))).toBe(true);
    expect(solver.computeTruth(q([], FALSE))).toBe(false);
    expect(solver.computeTruth(q([], b.eq(x32, x32)))).toBe(true);
    expect(solver.computeTruth(q([], b.ult(x32, c(10, 32))))).toBe(false);
  });

  test('constraints decide', () => {
    const lt10 = b.ult(x32, c(10, 32));
    expect(solver.computeTruth(q([lt10], b.ult(x32, c(11, 32))))).toBe(true);
    expect(solver.computeTruth(q([lt10], b.ult(x32, c(9, 32))))).toBe(false);
    expect(solver.computeValidity(q([lt10], b.ult(x32, c(20, 32))))).toBe(Validity.True);
    expect(solver.computeValidity(q([lt10], b.ugt(x32, c(20, 32))))).toBe(Validity.False);
    expect(solver.computeValidity(q([lt10], b.ult(x32, c(5, 32))))).toBe(Validity.Unknown);
    expect(solver.computeValidity(q([], TRUE))).toBe(Validity.True);
    expect(solver.computeValidity(q([], FALSE))).toBe(Validity.False);
  });

  test('signed comparisons and overflow', () => {
    // x + 1 <s x holds exactly for x = INT_MAX
    const wraps = b.slt(b.add(c(1, 32), x32), x32);
    expect(solver.computeValidity(q([], wraps))).toBe(Validity.Unknown);
    expect(solver.computeValue(q([wraps], x32))).toBe(0x7fffffffn);
  });
});

describe('values and models', () => {
  test('computeValue at many widths', () => {
    const a = new ExprArray('a', 16);
    const ua = new UpdateList(a);
    for (const w of [8, 16, 32, 64, 128]) {
      const v = leWord(ua, w);
      const target = BigInt.asUintN(w, (1n << BigInt(w - 1)) + 12345n);
      expect(solver.computeValue(q([b.eq(v, c(target, w))], v))).toBe(target);
      expect(solver.computeValue(q([b.eq(v, c(target, w))], b.add(v, c(1, w))))).toBe(target + 1n);
    }
  });

  test('odd widths and width-1 values', () => {
    const a = new ExprArray('a', 16);
    const v64 = leWord(new UpdateList(a), 64);
    const odd = b.extract(v64, 3, 37); // 37 bits
    const cons = [b.eq(odd, c(0x1234567891n, 37))];
    expect(solver.computeValue(q(cons, odd))).toBe(0x1234567891n);
    expect(solver.computeValue(q(cons, b.extract(odd, 0, 1)))).toBe(1n);
    expect(solver.computeValue(q(cons, b.eq(odd, c(0, 37))))).toBe(0n);
    const w65 = b.zext(v64, 65);
    expect(solver.computeValue(q([b.eq(v64, c(-1, 64))], b.add(w65, c(1, 65))))).toBe(1n << 64n);
  });

  test('initial values satisfy the query', () => {
    const a = new ExprArray('a', 8);
    const ua = new UpdateList(a);
    const cons = [b.eq(b.read(ua, c(0, 32)), c(0x41, 8)), b.ult(b.read(ua, c(1, 32)), b.read(ua, c(0, 32)))];
    const goal = b.eq(leWord(ua, 32, 4), c(0xdeadbeef, 32));
    const vals = solver.computeInitialValues(q(cons, goal), [a]);
    expect(vals).not.toBeNull();
    const bytes = vals![0]!;
    expect(bytes.length).toBe(8);
    expect(bytes[0]).toBe(0x41);
    expect(bytes[1]!).toBeLessThan(0x41);
    expect([...bytes.subarray(4)]).toEqual([0xef, 0xbe, 0xad, 0xde]);
    expect(solver.computeInitialValues(q(cons, b.eq(b.read(ua, c(0, 32)), c(0, 8))), [a])).toBeNull();
    expect(solver.computeInitialValues(q(cons, FALSE), [a])).toBeNull();
  });

  test('arrays not in the query read as zeros; empty and constant arrays', () => {
    const a = new ExprArray('a', 4);
    const other = new ExprArray('other', 3);
    const empty = new ExprArray('empty', 0);
    const k = new ExprArray('k', 3, Uint8Array.from([9, 0, 7]));
    const cons = [b.eq(b.read(new UpdateList(a), c(2, 32)), c(5, 8))];
    const vals = solver.computeInitialValues(q(cons, TRUE), [a, other, empty, k])!;
    expect(vals[0]![2]).toBe(5);
    expect([...vals[1]!]).toEqual([0, 0, 0]);
    expect(vals[2]!.length).toBe(0);
    expect([...vals[3]!]).toEqual([9, 0, 7]);
  });

  test('a 100-byte model read from the interpretation equals model_eval per byte', async () => {
    const a = new ExprArray('big', 100);
    const ua = new UpdateList(a);
    const cons: Expr[] = [];
    for (let i = 0; i < 100; i += 3) cons.push(b.eq(b.read(ua, c(i, 32)), c((i * 7 + 1) & 0xff, 8)));
    cons.push(b.ult(b.read(ua, c(1, 32)), b.read(ua, c(2, 32))));
    const slow = await Z3Solver.create({ evalArrayBytes: true });
    try {
      const slowReads = solver.counters.slowArrayReads;
      const fast = solver.computeInitialValues(q(cons, TRUE), [a])![0]!;
      expect(solver.counters.slowArrayReads).toBe(slowReads); // read from the interpretation
      const viaEval = slow.computeInitialValues(q(cons, TRUE), [a])![0]!;
      const asg = new Map([[a, fast]]);
      for (const e of cons) expect(evaluate(e, asg)).toBe(1n);
      const asg2 = new Map([[a, viaEval]]);
      for (const e of cons) expect(evaluate(e, asg2)).toBe(1n);
    } finally {
      slow.dispose();
    }
  });
});

describe('arrays: update lists and constant arrays', () => {
  test('reads through symbolic and concrete writes', () => {
    const a = new ExprArray('a', 8);
    const i = b.zext(b.read(new UpdateList(a), c(0, 32)), 32);
    const ul = new UpdateList(a).extend(c(3, 32), c(7, 8)).extend(i, c(9, 8));
    const r3 = b.read(ul, c(3, 32));
    // r3 is 9 exactly when the symbolic write hit index 3
    expect(solver.computeValidity(q([], b.eq(r3, c(9, 8))))).toBe(Validity.Unknown);
    expect(solver.computeTruth(q([b.ne(i, c(3, 32))], b.eq(r3, c(7, 8))))).toBe(true);
    expect(solver.computeValue(q([b.eq(r3, c(9, 8))], i))).toBe(3n);
    // a longer list shares its prefix with ul
    const ul2 = ul.extend(c(4, 32), c(1, 8));
    expect(solver.computeTruth(q([b.eq(i, c(3, 32))], b.eq(b.read(ul2, c(3, 32)), c(9, 8))))).toBe(true);
  });

  test('constant arrays: symbolic index into a table', () => {
    const table = new Uint8Array(256);
    for (let k = 0; k < 256; k++) table[k] = (k * 13 + 5) & 0xff;
    const t = new ExprArray('table', 256, table);
    const a = new ExprArray('a', 1);
    const idx = b.zext(b.read(new UpdateList(a), c(0, 32)), 32);
    const r = b.read(new UpdateList(t), idx);
    const vals = solver.computeInitialValues(q([b.eq(r, c(table[200]!, 8))], TRUE), [a])!;
    expect(table[vals[0]![0]!]).toBe(table[200]);
    // writes on top of a constant array
    const ul = new UpdateList(t).extend(idx, c(0xaa, 8));
    expect(solver.computeTruth(q([], b.eq(b.read(ul, idx), c(0xaa, 8))))).toBe(true);
    // reads past the end of a constant array are 0, as in evaluate()
    expect(solver.computeTruth(q([], b.eq(b.read(new UpdateList(new ExprArray('s', 2, Uint8Array.from([1, 2]))), c(5, 32)), c(0, 8))))).toBe(true);
  });
});

describe('corner cases agree with evaluate()', () => {
  // raw (unsimplified) constant expressions: z3's answer must equal the evaluator's
  const ops = ['udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr'] as const;
  const widths = [1, 7, 8, 32, 33, 64, 65, 128];
  for (const w of widths) {
    test(`division by zero and over-shifts at width ${w}`, () => {
      const m = (1n << BigInt(w)) - 1n;
      const vals = [0n, 1n, m, m >> 1n, (m >> 1n) + 1n, BigInt(w) & m, BigInt(w + 3) & m, 5n & m];
      for (const op of ops) {
        for (const x of vals) {
          for (const y of [0n, ...vals]) {
            const e = raw[op](raw.constant(x, w), raw.constant(y, w));
            const expected = evaluate(e, new Map());
            expect(solver.computeValue(q([], e))).toBe(expected); // raw: not folded before z3
          }
        }
      }
    });
  }

  test('width-1 arithmetic, extracts and extensions of booleans', () => {
    const a = new ExprArray('a', 1);
    const bit = b.extract(b.read(new UpdateList(a), c(0, 32)), 0, 1);
    for (const op of ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'shl', 'lshr', 'ashr', 'ult', 'ule', 'slt', 'sle'] as const) {
      for (const v of [0, 1]) {
        const e = raw[op](bit, raw.constant(1, 1));
        const expected = evaluate(e, new Map([[a, Uint8Array.from([v])]]));
        expect(solver.computeValue(q([b.eq(bit, c(v, 1))], e))).toBe(expected);
      }
    }
    const z = raw.concat(raw.zext(bit, 4), raw.sext(bit, 3));
    expect(solver.computeValue(q([b.eq(bit, TRUE)], z))).toBe(0b0001111n);
  });
});

describe('solver modes and cache bounds give the same answers', () => {
  /** A small battery mixing truth, validity, values and models over shared subterms. */
  function battery(s: Z3Solver): unknown[] {
    const a = new ExprArray('a', 8);
    const k = new ExprArray('k', 4, Uint8Array.from([10, 20, 30, 40]));
    const ua = new UpdateList(a);
    const v = leWord(ua, 32);
    const idx = b.zext(b.and(b.read(ua, c(4, 32)), c(3, 8)), 32);
    const rk = b.read(new UpdateList(k).extend(c(1, 32), b.read(ua, c(5, 32))), idx);
    const out: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      const cons = [b.ult(v, c(100 + i, 32)), b.ugt(rk, c(15, 8))];
      out.push(s.computeTruth(q(cons, b.ult(v, c(200, 32)))));
      out.push(s.computeValidity(q(cons, b.eq(rk, c(30 + i, 8)))));
      out.push(s.computeValue(q([...cons, b.eq(v, c(i * 7, 32))], b.mul(v, c(3, 32)))));
      const m = s.computeInitialValues(q(cons, b.eq(rk, c(40, 8))), [a]);
      out.push(m === null ? null : evaluate(b.and(b.eq(rk, c(40, 8)), cons[0]!), new Map([[a, m[0]!]])));
    }
    return out;
  }

  test('hybrid (default), logic, tactic and fresh solvers; the hybrid fallback; a tiny cache; frequent recycling', async () => {
    const expected = battery(solver);
    expect(expected.filter((x) => x === Validity.Unknown).length).toBeGreaterThan(0);
    const configs = [
      { solverMode: 'logic' as const },
      { solverMode: 'tactic' as const },
      { solverMode: 'fresh' as const },
      { budget: 1 }, // every check exhausts the logic solver's budget: the tactic solver answers
      { cacheLimit: 5 },
      { recycleAfter: 2 },
      { heapBudgetMB: 1 }, // every instance is over it after its first query: replaced each time
    ];
    for (const opts of configs) {
      const s = await Z3Solver.create(opts);
      try {
        expect(battery(s)).toEqual(expected);
        if (opts.heapBudgetMB !== undefined) {
          expect(s.counters.heapRecycles).toBeGreaterThan(5);
          // each recycled instance was one; the last query may have been recycled too
          expect(s.counters.instances - s.counters.heapRecycles).toBeLessThanOrEqual(1);
          expect(s.counters.instances).toBeGreaterThanOrEqual(s.counters.heapRecycles);
        } else expect(s.counters.instances).toBe(1);
        if (opts.budget !== undefined) expect(s.counters.fallbacks).toBeGreaterThan(0);
        if (opts.cacheLimit !== undefined) expect(s.stats()[0]!.evicted).toBeGreaterThan(0);
      } finally {
        s.dispose();
      }
    }
  });

  test('stats count queries, constant-folded hits and time', async () => {
    const s = await Z3Solver.create();
    try {
      s.computeTruth(q([], TRUE));
      s.computeValue(q([], c(5, 8)));
      const a = new ExprArray('a', 1);
      s.computeTruth(q([], b.eq(b.read(new UpdateList(a), c(0, 32)), c(1, 8))));
      const [st] = s.stats();
      expect(st).toMatchObject({ layer: 'z3', queries: 3, hits: 2 });
      expect(st!.timeMs).toBeGreaterThan(0);
      expect(s.counters.checks).toBe(1);
      expect(s.counters.sat).toBe(1);
    } finally {
      s.dispose();
    }
    expect(() => s.computeTruth(q([], b.eq(c(1, 8), b.read(new UpdateList(new ExprArray('z', 1)), c(0, 32)))))).toThrow(/dispose/);
  });
});
