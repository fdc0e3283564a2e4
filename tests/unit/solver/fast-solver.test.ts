/**
 * The fast solver layer is exact: every answer it gives agrees with brute force over all byte
 * values, its models satisfy the question, and what it cannot decide reaches the next layer.
 */
import { builder as b, Evaluator, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import { SolverFailure, SolverFailureKind, Validity, type InitialValues, type Query } from '../../../src/solver/solver.js';
import { RefusingSolver } from '../../support/refusing-solver.js';
import { FastSolver } from '../../../src/solver/layers/fast-solver.js';
import { analyze } from '../../../src/solver/layers/fast-analysis.js';
import { BoundsEvaluator } from '../../../src/solver/layers/fast-bounds.js';
import { IntervalSet } from '../../../src/solver/layers/fast-intervals.js';
import { elementsOf } from '../../../src/solver/layers/element-set.js';
import { Rng } from '../expr/helpers.js';

const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const k = (v: number | bigint, w: number): Expr => b.constant(v, w);

/** Little-endian word of `n` bytes of `a` from `start`. */
function word(a: ExprArray, start: number, n: number): Expr {
  let e = rd(a, start);
  for (let i = 1; i < n; i++) e = b.concat(rd(a, start + i), e);
  return e;
}

/** The model as one Map, for evaluation. */
function asModel(arrays: readonly ExprArray[], v: InitialValues): Map<ExprArray, Uint8Array> {
  return new Map(arrays.map((a, i) => [a, v[i]!]));
}

describe('exact against brute force over two bytes', () => {
  const p = new ExprArray('p', 2);
  const rng = new Rng(7);
  const interesting = [0, 1, 2, 9, 0x30, 0x39, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x100, 0x7fff, 0x8000, 0xfffe, 0xffff];
  const c = (w: number): Expr => k(rng.chance(0.6) ? BigInt(rng.pick(interesting)) : BigInt(rng.int(2 ** Math.min(w, 30))), w);

  /** A term over p as the fast analysis recognises it, or (sometimes) something it does not. */
  function term(): Expr {
    const base = rng.pick([rd(p, 0), rd(p, 1), word(p, 0, 2)]);
    let t = base;
    if (rng.chance(0.5)) t = rng.chance(0.5) ? b.zext(t, 32) : b.sext(t, 32);
    if (rng.chance(0.4)) t = rng.chance(0.5) ? b.add(c(t.width), t) : b.sub(c(t.width), t);
    if (rng.chance(0.15)) t = b.mul(c(t.width), t);
    return t;
  }

  function atom(): Expr {
    if (rng.chance(0.12)) {
      // two bytes at once: complex
      const x = b.zext(rd(p, 0), 16);
      const y = b.zext(rd(p, 1), 16);
      const op = rng.pick(['add', 'mul', 'xor', 'sub', 'udiv', 'urem'] as const);
      return b.eq(c(16), b[op](rng.chance(0.5) ? b.mul(k(10, 16), x) : x, y));
    }
    const t = term();
    const cmp = rng.pick(['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const);
    return rng.chance(0.5) ? b[cmp](t, c(t.width)) : b[cmp](c(t.width), t);
  }

  function formula(depth: number): Expr {
    if (depth > 0 && rng.chance(0.3)) {
      const op = rng.pick(['and', 'or', 'not'] as const);
      return op === 'not' ? b.not(formula(depth - 1)) : b[op](formula(depth - 1), formula(depth - 1));
    }
    return atom();
  }

  /** Truth table over all 65536 values of (p[0], p[1]), evaluating only the bytes read. */
  function table(e: Expr): Uint8Array {
    const out = new Uint8Array(65536);
    const bytes = elementsOf(e).bytes.get(p) ?? new Set<number>();
    const buf = new Uint8Array(2);
    const m = new Map([[p, buf]]);
    const vary0 = bytes.has(0);
    const vary1 = bytes.has(1);
    for (let v1 = 0; v1 < (vary1 ? 256 : 1); v1++) {
      for (let v0 = 0; v0 < (vary0 ? 256 : 1); v0++) {
        buf[0] = v0;
        buf[1] = v1;
        const t = new Evaluator(m).isTrue(e) ? 1 : 0;
        for (let a1 = vary1 ? v1 : 0; a1 < (vary1 ? v1 + 1 : 256); a1++) {
          for (let a0 = vary0 ? v0 : 0; a0 < (vary0 ? v0 + 1 : 256); a0++) out[a1 * 256 + a0] = t;
        }
      }
    }
    return out;
  }

  const pool = Array.from({ length: 45 }, () => formula(2)).filter((e) => e.kind !== 0);
  const tables = new Map(pool.map((e) => [e, table(e)]));

  test('computeInitialValues: sat/unsat as brute force, models satisfy', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner, { searchBudget: 50_000 }); // deep searches: more answers to check
    let decided = 0;
    let sat = 0;
    for (let q = 0; q < 400; q++) {
      const n = 1 + rng.int(4);
      const exprs = Array.from({ length: n }, () => rng.pick(pool));
      let satisfiable = false;
      for (let v = 0; v < 65536 && !satisfiable; v++) if (exprs.every((e) => tables.get(e)![v] === 1)) satisfiable = true;
      const query: Query = { constraints: exprs.slice(0, -1), expr: exprs[exprs.length - 1]! };
      let got: InitialValues | null | undefined;
      try {
        got = s.computeInitialValues(query, [p]);
      } catch {
        continue; // passed on to the next layer
      }
      decided++;
      expect(got !== null).toBe(satisfiable);
      if (got !== null) {
        sat++;
        const ev = new Evaluator(asModel([p], got));
        for (const e of exprs) expect(ev.isTrue(e)).toBe(true);
      }
    }
    // nearly everything here is within the layer's reach; both answers occur
    expect(decided).toBeGreaterThan(360);
    expect(sat).toBeGreaterThan(50);
    expect(decided - sat).toBeGreaterThan(50);
    expect(s.stats()[0]).toMatchObject({ layer: 'fast', hits: decided });
  });

  test('computeValidity and computeTruth agree with brute force', () => {
    const s = new FastSolver(new RefusingSolver(), { searchBudget: 50_000 });
    let decided = 0;
    for (let q = 0; q < 200; q++) {
      const cs = Array.from({ length: rng.int(3) }, () => rng.pick(pool));
      const e = rng.pick(pool);
      let canTrue = false;
      let canFalse = false;
      let consistent = false;
      for (let v = 0; v < 65536; v++) {
        if (!cs.every((x) => tables.get(x)![v] === 1)) continue;
        consistent = true;
        if (tables.get(e)![v] === 1) canTrue = true;
        else canFalse = true;
      }
      if (!consistent) continue; // outside the Solver contract
      const want = canTrue && canFalse ? Validity.Unknown : canTrue ? Validity.True : Validity.False;
      try {
        expect(s.computeValidity({ constraints: cs, expr: e })).toBe(want);
        expect(s.computeTruth({ constraints: cs, expr: e })).toBe(want === Validity.True);
        decided++;
      } catch (err) {
        if ((err as Error).message !== 'undecided') throw err;
      }
    }
    expect(decided).toBeGreaterThan(120);
  });
});

describe('interval analysis of one 32-bit variable', () => {
  const x = new ExprArray('x', 4);
  const rng = new Rng(11);
  const xv = word(x, 0, 4);
  const edges = [0n, 1n, 3n, 0x7fn, 0x80n, 0xffn, 0x7fffffffn, 0x80000000n, 0xfffffffen, 0xffffffffn];

  function term(): Expr {
    let t: Expr = xv;
    if (rng.chance(0.5)) t = rng.chance(0.5) ? b.sext(t, 64) : b.zext(t, 64);
    if (rng.chance(0.5)) t = b.add(k(BigInt(rng.u32()) * (rng.chance(0.3) ? 0x100000000n : 1n), t.width), t);
    if (rng.chance(0.3)) t = b.sub(k(rng.pick(edges), t.width), t);
    return t;
  }

  function formula(depth: number): Expr {
    if (depth > 0 && rng.chance(0.35)) {
      const op = rng.pick(['and', 'or', 'not'] as const);
      return op === 'not' ? b.not(formula(depth - 1)) : b[op](formula(depth - 1), formula(depth - 1));
    }
    const t = term();
    const c = rng.chance(0.5) ? rng.pick(edges) : BigInt(rng.u32());
    const cmp = rng.pick(['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const);
    return rng.chance(0.5) ? b[cmp](t, k(c, t.width)) : b[cmp](k(c, t.width), t);
  }

  test('the set is exact at its edges, at the constants and at random points', () => {
    let checked = 0;
    for (let n = 0; n < 250; n++) {
      const e = formula(2);
      if (e.kind === 0) continue; // folded to a constant
      const a = analyze(e);
      expect(a.kind).toBe('simple');
      if (a.kind !== 'simple') continue;
      expect(a.v).toMatchObject({ array: x, start: 0, length: 4 });
      const points = new Set<bigint>(edges);
      const text = a.set.toString();
      for (const m of text.matchAll(/\d+/g)) {
        const v = BigInt(m[0]);
        for (const d of [-1n, 0n, 1n]) if (v + d >= 0n && v + d <= 0xffffffffn) points.add(v + d);
      }
      for (let i = 0; i < 40; i++) points.add(BigInt(rng.u32()));
      const buf = new Uint8Array(4);
      const m = new Map([[x, buf]]);
      for (const v of points) {
        for (let i = 0; i < 4; i++) buf[i] = Number((v >> BigInt(8 * i)) & 0xffn);
        expect([v, a.set.has(v)]).toEqual([v, new Evaluator(m).isTrue(e)]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10000);
  });

  test('a question about the variable alone never reaches the next layer', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    // x > 3 (signed), x != 7, x < 1000
    const cs = [b.sgt(xv, k(3, 32)), b.ne(xv, k(7, 32)), b.slt(xv, k(1000, 32))];
    const v = s.computeInitialValues({ constraints: cs.slice(0, 2), expr: cs[2]! }, [x]);
    expect(v).not.toBeNull();
    const ev = new Evaluator(asModel([x], v!));
    expect(cs.every((e) => ev.isTrue(e))).toBe(true);
    expect(s.computeValidity({ constraints: cs, expr: b.sge(xv, k(4, 32)) })).toBe(Validity.True);
    expect(s.computeValidity({ constraints: cs, expr: b.eq(xv, k(7, 32)) })).toBe(Validity.False);
    expect(s.computeValidity({ constraints: cs, expr: b.eq(xv, k(9, 32)) })).toBe(Validity.Unknown);
    expect(inner.calls).toBe(0);
  });
});

describe('search over small domains', () => {
  const s8 = new ExprArray('s', 8);
  const digit = (i: number): Expr[] => [b.sle(k(48, 32), b.sext(rd(s8, i), 32)), b.sle(b.sext(rd(s8, i), 32), k(57, 32))];
  /** atoi of s[0..n-1] as the C code computes it (v = v * 10 + (s[i] - '0')). */
  function atoi(n: number): Expr {
    let v: Expr = k(0, 32);
    for (let i = 0; i < n; i++) v = b.add(b.mul(k(10, 32), v), b.sub(b.sext(rd(s8, i), 32), k(48, 32)));
    return v;
  }

  test.each([
    [4, 4242, true],
    [4, 42420, false],
    [7, 4242, true],
    [7, 1234567, true],
    [7, -4242, false],
  ])('%i digits, value %i', (n, target, sat) => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    const cs = Array.from({ length: n }, (_, i) => digit(i)).flat();
    const v = atoi(n);
    const expr = b.eq(k(target, 32), v);
    const got = s.computeInitialValues({ constraints: cs, expr }, [s8]);
    expect(inner.calls).toBe(0);
    expect(got !== null).toBe(sat);
    if (got !== null) {
      const ev = new Evaluator(asModel([s8], got));
      expect([...cs, expr].every((e) => ev.isTrue(e))).toBe(true);
    }
  });

  test('negated: -v == 4242 has no digit solution (decided by bounds, not 10^7 tries)', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    const cs = Array.from({ length: 7 }, (_, i) => digit(i)).flat();
    expect(s.computeInitialValues({ constraints: cs, expr: b.eq(k(4242, 32), b.sub(k(0, 32), atoi(7))) }, [s8])).toBeNull();
    expect(inner.calls).toBe(0);
  });

  test('beyond the budget the question goes to the next layer', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner, { searchBudget: 1000 });
    const x = new ExprArray('x', 4);
    const hard = b.eq(k(0x12345677, 32), b.mul(word(x, 0, 4), word(x, 0, 4)));
    expect(() => s.computeInitialValues({ constraints: [], expr: hard }, [x])).toThrow('undecided');
    expect(inner.calls).toBe(1);
  });
});

describe('bounds are sound', () => {
  const a = new ExprArray('a', 3);
  const rng = new Rng(5);
  function expr(depth: number, w: number): Expr {
    if (depth <= 0 || rng.chance(0.25)) {
      if (rng.chance(0.3)) return k(BigInt(rng.u32()) & ((1n << BigInt(w)) - 1n), w);
      const r = rd(a, rng.int(3));
      return w === 8 ? r : rng.chance(0.5) ? b.zext(r, w) : b.sext(r, w);
    }
    const op = rng.pick(['add', 'sub', 'mul', 'udiv', 'urem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr', 'sdiv', 'not', 'select', 'cmp', 'extract'] as const);
    if (op === 'not') return b.not(expr(depth - 1, w));
    if (op === 'select') return b.select(b.ult(expr(depth - 1, 8), expr(depth - 1, 8)), expr(depth - 1, w), expr(depth - 1, w));
    if (op === 'cmp') return b.zext(b[rng.pick(['eq', 'ult', 'ule', 'slt', 'sle'] as const)](expr(depth - 1, 16), expr(depth - 1, 16)), w);
    if (op === 'extract') return b.extract(expr(depth - 1, 32), rng.int(33 - w), w);
    return b[op](expr(depth - 1, w), expr(depth - 1, w));
  }

  test('every value an expression takes within the byte ranges lies within its bound', () => {
    let checked = 0;
    for (let n = 0; n < 300; n++) {
      const w = rng.pick([8, 16, 32]);
      const e = expr(3, w);
      const ranges = [0, 1, 2].map(() => {
        const lo = rng.int(256);
        const hi = rng.chance(0.3) ? lo : Math.min(255, lo + rng.int(40));
        return { lo, hi };
      });
      const bound = new BoundsEvaluator(new Map([[a, ranges]])).bound(e);
      const m = 1n << BigInt(w);
      const buf = new Uint8Array(3);
      for (let t = 0; t < 30; t++) {
        ranges.forEach((r, i) => (buf[i] = r.lo + rng.int(r.hi - r.lo + 1)));
        const v = new Evaluator(new Map([[a, buf]])).evaluate(e);
        // some representative of v lies in [lo, hi]
        const rep = bound.lo + ((((v - bound.lo) % m) + m) % m);
        expect([e.toString(), v, rep <= bound.hi]).toEqual([e.toString(), v, true]);
        checked++;
      }
    }
    expect(checked).toBe(9000);
  });
});

describe('IntervalSet', () => {
  test('wrapping ranges, shifts, reflections and complements', () => {
    const s = IntervalSet.range(8, 250n, 260n); // wraps: {0..4, 250..255}
    expect(s.toString()).toBe('{[0, 4] [250, 255]}/8');
    expect(s.complement().toString()).toBe('{[5, 249]}/8');
    expect(s.shift(10n).toString()).toBe('{[4, 14]}/8');
    expect(IntervalSet.range(8, 10n, 20n).reflect(5n).toString()).toBe('{[241, 251]}/8');
    expect(IntervalSet.signedRange(8, -2n, 1n).toString()).toBe('{[0, 1] [254, 255]}/8');
    expect(IntervalSet.full(8).size()).toBe(256n);
  });
});

describe('one-byte constraints over huge DAGs', () => {
  /** x·3+1, repeated: a chain whose every step reads the previous one twice (a DAG of 2n+ nodes). */
  function chain(x: Expr, n: number): Expr {
    let e = b.zext(x, 32);
    for (let i = 0; i < n; i++) e = b.add(b.mul(e, k(3, 32)), b.xor(e, k(i + 1, 32)));
    return e;
  }

  test('a small one is decided by its 256 values; a huge one is searched under the node budget, not evaluated 256 times', () => {
    const a = new ExprArray('h', 1);
    const small = b.eq(b.extract(chain(rd(a, 0), 10), 0, 8), k(0x42, 8));
    expect(analyze(small).kind).toBe('simple');
    const huge = b.eq(b.extract(chain(rd(a, 0), 5000), 0, 8), k(0x42, 8));
    expect(analyze(huge).kind).toBe('complex');
    // still answered exactly when the budget allows, and the answer is right
    const s = new FastSolver(new RefusingSolver(), { searchBudget: 50_000_000 });
    const got = s.computeInitialValues({ constraints: [huge], expr: b.bool(false) }, [a]);
    const brute = [...Array(256).keys()].filter((v) => new Evaluator(new Map([[a, Uint8Array.of(v)]])).evaluate(huge) === 1n);
    if (got === null) expect(brute).toEqual([]);
    else expect(brute).toContain(got[0]![0]);
  });
});

describe('random sampling when the search gives up (fast-sample.ts)', () => {
  /** A digest-like mix of a 4-byte word: every input bit reaches every output bit (~700 nodes at 120 rounds). */
  function mix(x: Expr, rounds: number): Expr {
    let h = b.add(x, k(0x9e3779b9, 32)); // not 0 at input 0, where the search starts
    for (let i = 0; i < rounds; i++) {
      h = b.mul(b.xor(h, b.lshr(h, k(15, 32))), k(0x2c1b3c6d + 2 * i, 32));
      h = b.add(h, b.shl(h, k(i % 7 + 1, 32)));
    }
    return h;
  }
  const a = new ExprArray('digest_in', 4);
  const h = mix(word(a, 0, 4), 120);
  /** The digest's low byte is below 4: one input in 64 (the search's few complete assignments miss it), and the next layer refuses. */
  const below4 = b.ult(b.extract(h, 0, 8), k(4, 8));
  const holds = (v: InitialValues, e: Expr): boolean => new Evaluator(asModel([a], v)).evaluate(e) === 1n;

  test('a branch on a digest gets a model without the next layer; the model satisfies it', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    const got = s.computeInitialValues({ constraints: [], expr: below4 }, [a]);
    expect(got).not.toBeNull();
    expect(holds(got!, below4)).toBe(true);
    expect(inner.calls).toBe(0);
    expect(s.sampledModels).toBe(1);
    // seeded: a second solver finds the same input
    expect(new FastSolver(new RefusingSolver()).computeInitialValues({ constraints: [], expr: below4 }, [a])).toEqual(got);
    // the path condition is kept: under "byte 0 is 'A'" the model still has it
    const first = b.eq(rd(a, 0), k(0x41, 8));
    const under = s.computeInitialValues({ constraints: [first], expr: below4 }, [a]);
    expect(under![0]![0]).toBe(0x41);
    expect(holds(under!, below4)).toBe(true);
  });

  test('sampling never answers unsatisfiable, and --fast-solver-sampling=false leaves the question to the next layer', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    const odd = b.eq(b.extract(h, 0, 1), k(1, 1));
    expect(() => s.computeInitialValues({ constraints: [odd], expr: b.not(odd) }, [a])).toThrow('undecided');
    expect(inner.calls).toBe(1);
    const off = new RefusingSolver();
    expect(() => new FastSolver(off, { sampleBudget: 0 }).computeInitialValues({ constraints: [], expr: below4 }, [a])).toThrow('undecided');
    expect(off.calls).toBe(1);
  });

  test('the bytes of a word are also drawn as one value of random magnitude: a 64-bit time whose calendar fields are asked about', () => {
    // gmtime-like: days and seconds of a signed 64-bit time t; "the year fits an int" is
    // |t| < 2^56, one uniform draw of 8 bytes in 128, then "12 o'clock" one in 24
    const tarr = new ExprArray('stat_time', 8);
    const t = word(tarr, 0, 8);
    const days = b.sdiv(t, k(86400, 64));
    const hour = b.sdiv(b.srem(t, k(86400, 64)), k(3600, 64));
    const fits = b.and(b.slt(days, k(1n << 36n, 64)), b.slt(k(-(1n << 36n), 64), days));
    const noon = b.eq(hour, k(12, 64));
    const inner = new RefusingSolver();
    const s = new FastSolver(inner);
    const got = s.computeInitialValues({ constraints: [fits], expr: noon }, [tarr]);
    expect(got).not.toBeNull();
    const m = new Evaluator(asModel([tarr], got!));
    expect(m.evaluate(fits)).toBe(1n);
    expect(m.evaluate(noon)).toBe(1n);
    expect(inner.calls).toBe(0);
  });

  test('a question the next layer times out on is sampled again, longer: models only, else the failure stands', () => {
    /** The backend on a digest: out of time on every question. */
    class TimingOut extends RefusingSolver {
      constructor() {
        super('z3 timeout');
      }
      override computeInitialValues(): InitialValues | null {
        this.calls++;
        throw new SolverFailure(SolverFailureKind.Timeout, 'z3 timeout');
      }
      override computeValidity(): Validity {
        this.calls++;
        throw new SolverFailure(SolverFailureKind.Timeout, 'z3 timeout');
      }
    }
    // the digest's low 12 bits equal to c: one input in 4 096, beyond 1 024 samples most of the time
    let rescued = 0;
    for (let c = 0x5a0; c < 0x5a6 && rescued === 0; c++) {
      const inner = new TimingOut();
      const s = new FastSolver(inner);
      const rare = b.eq(b.extract(h, 0, 12), k(c, 12));
      let got: InitialValues | null;
      try {
        got = s.computeInitialValues({ constraints: [], expr: rare }, [a]);
      } catch (e) {
        expect(e).toBeInstanceOf(SolverFailure); // not found even so: the timeout is reported, never "unsat"
        continue;
      }
      expect(got).not.toBeNull();
      expect(holds(got!, rare)).toBe(true);
      rescued += s.rescued;
      if (s.rescued === 0) continue;
      expect(inner.calls).toBe(1);
      // validity: both sides found (the common one at once) is Unknown, never True or False
      expect(new FastSolver(new TimingOut()).computeValidity({ constraints: [], expr: rare })).toBe(Validity.Unknown);
    }
    expect(rescued).toBeGreaterThan(0);
    // without sampling the failure goes up unchanged
    expect(() => new FastSolver(new TimingOut(), { sampleBudget: 0 }).computeInitialValues({ constraints: [], expr: below4 }, [a])).toThrow(SolverFailure);
  });

  test('the cases of one question share one sampling budget (a merged path condition of many disjuncts)', () => {
    // 32 cases, each a digest equal to a 32-bit constant: the search gives up on every one and
    // sampling never finds a model; one budget for the question, not one per case
    let or: Expr = b.bool(false);
    for (let j = 0; j < 32; j++) or = b.or(or, b.eq(h, k(0x1234567 + j, 32)));
    const s = new FastSolver(new RefusingSolver());
    expect(() => s.computeInitialValues({ constraints: [], expr: or }, [a])).toThrow('undecided');
    expect(s.searchGaveUp).toBeGreaterThanOrEqual(3);
    expect(s.sampleRuns).toBeLessThanOrEqual(2); // before: 32 runs, ~32 budgets
  });

  test('IntervalSet.nth walks the intervals in order', () => {
    const s = IntervalSet.range(8, 250n, 260n); // {0..4, 250..255}
    expect([0n, 4n, 5n, 10n].map((i) => s.nth(i))).toEqual([0n, 4n, 250n, 255n]);
    expect(() => s.nth(11n)).toThrow(RangeError);
  });
});
