/**
 * The fast solver's count splits (fast-counts.ts): questions that read a string at indices
 * depending on a quantified merge's count k (the shapes stripping leaves) are decided without
 * the backend, exactly: models satisfy the question, UNSAT only over the values the question
 * itself allows k, and random questions agree with z3.
 */
import { builder as b, Evaluator, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import { Validity, type InitialValues, type Query } from '../../../src/solver/solver.js';
import { FastSolver } from '../../../src/solver/layers/fast-solver.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { auxValue, freshCount } from '../../../src/solver/quantified/instantiate.js';
import { RefusingSolver } from '../../support/refusing-solver.js';
import { Rng } from '../expr/helpers.js';

const c32 = (v: number): Expr => b.constant(v, 32);
const c8 = (v: number): Expr => b.constant(v, 8);

function model(arrays: readonly ExprArray[], v: InitialValues): Map<ExprArray, Uint8Array> {
  return new Map(arrays.map((a, i) => [a, v[i]!]));
}

function allTrue(q: readonly Expr[], m: Map<ExprArray, Uint8Array>): boolean {
  const ev = new Evaluator(m);
  return q.every((e) => ev.isTrue(e));
}

/** s (N bytes plus a terminator written at N), a count k ≤ max, and reads of the string at k + c. */
/**
 * The fast layer's answer to q (arrays: the question's inputs, counts included), checked
 * against z3's: the same satisfiability, and a model that satisfies q.
 */
function againstZ3(z3: Z3Solver, q: readonly Expr[], arrays: readonly ExprArray[]): 'undecided' | 'unsat' | 'sat' {
  const fast = new FastSolver(new RefusingSolver());
  let mine: InitialValues | null;
  try {
    mine = fast.computeInitialValues({ constraints: q, expr: b.bool(true) }, arrays);
  } catch {
    return 'undecided';
  }
  const theirs = z3.computeInitialValues({ constraints: q, expr: b.bool(true) }, []);
  expect(mine === null).toBe(theirs === null);
  if (mine === null) return 'unsat';
  expect(allTrue(q, model(arrays, mine))).toBe(true);
  return 'sat';
}

function setup(n: number, max: number) {
  const s = new ExprArray('s', n + 1);
  const k = freshCount('k', BigInt(max));
  const kv = auxValue(k);
  const str = new UpdateList(s).extend(c32(n), c8(0));
  const at = (c: number): Expr => b.read(str, b.add(c32(c), kv));
  return { s, k, kv, at };
}

/** apr_strtok's shapes: the token's end written at the count k1 (`s[k1] = 0`), the next token read through that write at k1 + 1 + k2. */
function tokenEnd(n: number) {
  const s = new ExprArray('s', n + 1);
  const k1 = freshCount('k1', BigInt(n - 1));
  const k2 = freshCount('k2', BigInt(n - 2));
  const [v1, v2] = [auxValue(k1), auxValue(k2)];
  const tok = new UpdateList(s).extend(c32(n), c8(0)).extend(v1, c8(0));
  const next = (c: number): Expr => b.read(tok, b.add(c32(c + 1), b.add(v1, v2)));
  return { s, k1, k2, v1, v2, tok, next, bounds: [b.ule(v1, c32(n - 1)), b.ule(v2, c32(n - 2))] };
}

describe('count splits', () => {
  test('a model for reads at k-dependent indices, the backend never asked', () => {
    const { s, k, kv, at } = setup(10, 10);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // k ≤ 10, 1 ≤ k, s[k] = ':', s[k+1] = '/', s[k+2] = '/', s[0] in a..z
    const q = [b.ule(kv, c32(10)), b.ule(c32(1), kv), b.eq(at(0), c8(58)), b.eq(at(1), c8(47)), b.eq(at(2), c8(47)), b.ule(c8(97), b.read(new UpdateList(s), c32(0)))];
    const v = fast.computeInitialValues({ constraints: q, expr: b.bool(true) }, [s, k]);
    expect(v).not.toBeNull();
    expect(allTrue(q, model([s, k], v!))).toBe(true);
    expect(inner.calls).toBe(0);
    expect(fast.countSplits).toBe(1);
  });

  test('UNSAT when every value of k fails (the terminator), the backend never asked', () => {
    const { s, k, kv, at } = setup(10, 10);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // digits at k+4 .. k+7 reach the terminator at 10 once k ≥ 3, and 3 ≤ k ≤ 3 (the engine's bounds check)
    const q: Expr[] = [b.ule(kv, c32(10)), b.ule(c32(3), kv), b.ule(b.add(c32(7), kv), c32(10))];
    for (let j = 4; j <= 7; j++) q.push(b.ule(c8(48), at(j)), b.ule(at(j), c8(57)));
    expect(fast.computeInitialValues({ constraints: q, expr: b.bool(true) }, [s, k])).toBeNull();
    expect(fast.computeValidity({ constraints: q.slice(0, 5), expr: b.eq(at(7), c8(48)) } satisfies Query)).toBe(Validity.False);
    expect(inner.calls).toBe(0);
    void s;
  });

  test('without a bound on all of k in the question, UNSAT is left to the next layer', () => {
    const { s, k, kv, at } = setup(6, 6);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // no `k ≤ max` here: k = 2^32 − 1 makes s[k+1] = s[0], which the split (0..auxMax) never tries
    const q = [b.eq(at(1), c8(65)), b.ne(b.read(new UpdateList(s), c32(0)), c8(65)), b.ult(c32(5), kv)];
    expect(() => fast.computeInitialValues({ constraints: q, expr: b.bool(true) }, [s, k])).toThrow('undecided');
    expect(inner.calls).toBe(1);
    // but a model it finds is an answer
    const sat = [b.eq(at(1), c8(65)), b.ult(c32(2), kv)];
    const v = fast.computeInitialValues({ constraints: sat, expr: b.bool(true) }, [s, k]);
    expect(allTrue(sat, model([s, k], v!))).toBe(true);
    expect(inner.calls).toBe(1);
  });

  test('two counts: s[k1 + 3 + k2]', () => {
    const s = new ExprArray('s', 13);
    const k1 = freshCount('k1', 12n);
    const k2 = freshCount('k2', 12n);
    const str = new UpdateList(s).extend(c32(12), c8(0));
    const sum = b.add(auxValue(k1), auxValue(k2));
    // bounds as the engine's checks leave them: k1 + k2 + 4 ≤ 12
    const q = [b.ule(auxValue(k1), c32(12)), b.ule(auxValue(k2), c32(12)), b.ule(c32(2), auxValue(k1)), b.ule(c32(2), auxValue(k2)), b.ule(sum, c32(8)), b.eq(b.read(str, b.add(c32(3), sum)), c8(58)), b.ne(b.read(str, b.add(c32(4), sum)), c8(0))];
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    const v = fast.computeInitialValues({ constraints: q, expr: b.bool(true) }, [s, k1, k2]);
    expect(allTrue(q, model([s, k1, k2], v!))).toBe(true);
    // s[sum + 4] is the terminator at sum = 8, so adding k1 + k2 ≥ 8 makes it UNSAT
    expect(fast.computeInitialValues({ constraints: [...q, b.ule(c32(8), sum)], expr: b.bool(true) }, [s, k1, k2])).toBeNull();
    expect(inner.calls).toBe(0);
  });

  test('a write at a count-dependent index: the counts put in its index too (apr_strtok)', () => {
    const { s, k1, k2, v1, tok, next, bounds } = tokenEnd(8);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // a separator after the second token, the byte after it not the end
    const sat = [...bounds, b.eq(next(0), c8(44)), b.ne(next(1), c8(0)), b.ne(b.read(tok, c32(0)), c8(0))];
    const v = fast.computeInitialValues({ constraints: sat, expr: b.bool(true) }, [s, k1, k2]);
    expect(allTrue(sat, model([s, k1, k2], v!))).toBe(true);
    // the written terminator reads back as 0, and so does the string's end at 8
    expect(fast.computeInitialValues({ constraints: [...bounds, b.ne(b.read(tok, v1), c8(0))], expr: b.bool(true) }, [s, k1, k2])).toBeNull();
    expect(fast.computeInitialValues({ constraints: [...bounds, b.eq(b.add(v1, auxValue(k2)), c32(7)), b.ne(next(0), c8(0))], expr: b.bool(true) }, [s, k1, k2])).toBeNull();
    expect(inner.calls).toBe(0);
    expect(fast.countSplits).toBeGreaterThanOrEqual(2);
  });

  /** url.c's shapes at N = 200: a scheme of k1 letters, "://", a host of k2 bytes, a terminator at N. */
  function twoLoops(n: number) {
    const s = new ExprArray('s', n + 1);
    const k1 = freshCount('k1', BigInt(n - 1));
    const k2 = freshCount('k2', BigInt(n - 5));
    const str = new UpdateList(s).extend(c32(n), c8(0));
    const host = b.add(c32(3), b.add(auxValue(k2), auxValue(k1)));
    // the bounds and the host loop's terminator lemma as stripping leaves them: ¬(1 ≤ n − 2 − k1 ≤ k2)
    const lemma = b.not(b.and(b.ule(c32(1), b.sub(c32(n - 2), auxValue(k1))), b.ule(b.sub(c32(n - 2), auxValue(k1)), auxValue(k2))));
    const q = [b.ule(auxValue(k1), c32(n - 1)), b.ule(auxValue(k2), c32(n - 5)), b.ne(auxValue(k1), c32(0)), b.ule(b.add(c32(3), auxValue(k1)), c32(n)), b.eq(b.read(str, auxValue(k1)), c8(58)), lemma];
    return { s, k1, k2, str, host, q };
  }

  test('two counts, UNSAT by intervals on the second for each value of the first (not pair by pair)', () => {
    const { s, k1, k2, host, q } = twoLoops(200);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // the bounds check of s[host]: host ≥ 201 is impossible by the lemma (40 000 pairs: beyond the split's budget pair by pair)
    expect(fast.computeInitialValues({ constraints: [...q, b.ule(c32(201), host)], expr: b.bool(true) }, [s, k1, k2])).toBeNull();
    const v = fast.computeInitialValues({ constraints: [...q, b.eq(host, c32(150))], expr: b.bool(true) }, [s, k1, k2]);
    expect(allTrue([...q, b.eq(host, c32(150))], model([s, k1, k2], v!))).toBe(true);
    expect(inner.calls).toBe(0);
  });

  test('digits after two counts: each digit is false on the terminator, a lemma on the counts', () => {
    const { s, k1, k2, str, host, q } = twoLoops(100);
    const inner = new RefusingSolver();
    const fast = new FastSolver(inner);
    // a port loop's 50th iteration: s[host] = ':', s[host + 1 .. host + 50] are digits and host + 51 ≤ 100 fails
    const digits = [...q, b.eq(b.read(str, host), c8(58))];
    for (let j = 1; j <= 50; j++) {
      const d = b.read(str, b.add(c32(j), host));
      digits.push(b.ule(c8(48), d), b.ule(d, c8(57)));
    }
    expect(fast.computeInitialValues({ constraints: [...digits, b.ule(c32(101), b.add(c32(51), host))], expr: b.bool(true) }, [s, k1, k2])).toBeNull();
    // and with room for them, a model
    const v = fast.computeInitialValues({ constraints: [...digits, b.ule(host, c32(40))], expr: b.bool(true) }, [s, k1, k2]);
    expect(allTrue([...digits, b.ule(host, c32(40))], model([s, k1, k2], v!))).toBe(true);
    expect(inner.calls).toBe(0);
  });
});

describe('random count questions agree with z3', () => {
  let z3: Z3Solver;
  beforeAll(async () => {
    z3 = await Z3Solver.create({ timeoutMs: 10_000 });
  });
  afterAll(() => z3.dispose());

  test('150 questions, 0 disagreements', () => {
    const rng = new Rng(29);
    let decided = 0;
    let unsat = 0;
    for (let round = 0; round < 150; round++) {
      const { s, k, kv, at } = setup(8, 8);
      const max = 1 + rng.int(8);
      const q: Expr[] = [b.ule(kv, c32(max))];
      const n = 1 + rng.int(5);
      for (let j = 0; j < n; j++) {
        const x = at(rng.int(6));
        const v = rng.pick([0, 47, 58, 97, 48]);
        const y = b.read(new UpdateList(s), c32(rng.int(8)));
        q.push(rng.pick([b.eq(x, c8(v)), b.ne(x, c8(v)), b.ule(c8(v), x), b.ult(x, c8(v)), b.eq(x, y), b.ule(c32(rng.int(6)), kv)]));
      }
      const answer = againstZ3(z3, q, [s, k]);
      if (answer === 'undecided') continue;
      decided++;
      if (answer === 'unsat') unsat++;
    }
    expect(decided).toBeGreaterThan(120);
    expect(unsat).toBeGreaterThan(5);
  });

  test('100 questions through a write at a count-dependent index, 0 disagreements', () => {
    const rng = new Rng(37);
    let decided = 0;
    let unsat = 0;
    for (let round = 0; round < 100; round++) {
      const { s, k1, k2, v1, v2, tok, next, bounds } = tokenEnd(8);
      // every read within s: k1 + k2 + 4 ≤ 8, k1 + 2 ≤ 8
      const q: Expr[] = [...bounds, b.ule(b.add(v1, v2), c32(4)), b.ule(v1, c32(6))];
      const m = 1 + rng.int(5);
      for (let j = 0; j < m; j++) {
        const x = rng.pick([next(rng.int(4)), b.read(tok, b.add(c32(rng.int(3)), v1)), b.read(tok, c32(rng.int(9)))]);
        const v = rng.pick([0, 32, 44, 97]);
        q.push(rng.pick([b.eq(x, c8(v)), b.ne(x, c8(v)), b.ule(c8(v), x), b.ule(c32(rng.int(8)), b.add(v1, v2)), b.ult(v1, c32(1 + rng.int(6)))]));
      }
      const answer = againstZ3(z3, q, [s, k1, k2]);
      if (answer === 'undecided') continue;
      decided++;
      if (answer === 'unsat') unsat++;
    }
    expect(decided).toBeGreaterThan(80);
    expect(unsat).toBeGreaterThan(5);
  });

  test('100 questions over two counts and a terminator, 0 disagreements', () => {
    const rng = new Rng(31);
    let decided = 0;
    let unsat = 0;
    for (let round = 0; round < 100; round++) {
      const n = 12;
      const s = new ExprArray('s', n + 1);
      const k1 = freshCount('k1', BigInt(n));
      const k2 = freshCount('k2', BigInt(n));
      const str = new UpdateList(s).extend(c32(n), c8(0));
      const [v1, v2] = [auxValue(k1), auxValue(k2)];
      const sum = b.add(v1, v2);
      const q: Expr[] = [b.ule(v1, c32(1 + rng.int(n))), b.ule(v2, c32(1 + rng.int(n)))];
      const m = 1 + rng.int(6);
      for (let j = 0; j < m; j++) {
        const x = b.read(str, b.add(c32(rng.int(8)), rng.pick([v1, v2, sum])));
        const v = rng.pick([0, 47, 58, 48]);
        const c = c32(rng.int(2 * n));
        q.push(rng.pick([b.eq(x, c8(v)), b.ne(x, c8(v)), b.ule(c8(v), x), b.ule(c, sum), b.ult(sum, c), b.ne(v1, c32(rng.int(4))), b.ule(b.sub(c32(n - rng.int(4)), v1), v2)]));
      }
      const answer = againstZ3(z3, q, [s, k1, k2]);
      if (answer === 'undecided') continue;
      decided++;
      if (answer === 'unsat') unsat++;
    }
    expect(decided).toBeGreaterThan(80);
    expect(unsat).toBeGreaterThan(5);
  });
});
