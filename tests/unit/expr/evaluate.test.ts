/** Evaluation under assignments; collectArrays; deep expressions. */
import {
  builder as b,
  raw,
  collectArrays,
  collectArraysOf,
  dagSize,
  evaluate,
  evaluateBool,
  evaluateBV,
  evaluateExpr,
  Evaluator,
  ExprArray,
  UpdateList,
  printKQuery,
  toSmtLib2,
  type Expr,
} from '../../../src/expr/index.js';

const a = new ExprArray('a', 4);
const c = new ExprArray('c', 3, Uint8Array.from([7, 8, 9]));
const ua = new UpdateList(a);
const i32 = (n: number) => raw.constant(n, 32);
const ra = (i: number) => raw.read(ua, i32(i));
const asg = new Map([[a, Uint8Array.from([1, 2, 0x80, 0xff])]]);

describe('evaluate', () => {
  test('reads of assigned, missing, constant arrays', () => {
    expect(evaluate(ra(3), asg)).toBe(0xffn);
    expect(evaluate(ra(3), new Map())).toBe(0n); // missing arrays are zeros
    expect(evaluate(ra(9), asg)).toBe(0n); // past the end too
    expect(evaluate(raw.read(new UpdateList(c), i32(1)), new Map())).toBe(8n);
    expect(evaluate(raw.read(new UpdateList(c), i32(5)), new Map())).toBe(0n);
  });
  test('update lists: newest matching write wins, symbolic indices compare by value', () => {
    const idx = raw.zext(ra(0), 32); // = 1 under asg
    const ul = ua.extend(i32(1), raw.constant(11, 8)).extend(idx, raw.constant(22, 8)).extend(i32(2), raw.constant(33, 8));
    expect(evaluate(raw.read(ul, i32(1)), asg)).toBe(22n);
    expect(evaluate(raw.read(ul, i32(2)), asg)).toBe(33n);
    expect(evaluate(raw.read(ul, i32(3)), asg)).toBe(0xffn);
    expect(evaluate(raw.read(ul, i32(1)), new Map())).toBe(11n); // idx = 0 now
    expect(evaluate(raw.read(ul, i32(0)), new Map())).toBe(22n);
  });
  test('operators at several widths', () => {
    const x16 = raw.concat(ra(1), ra(0)); // 0x0201
    expect(evaluate(x16, asg)).toBe(0x0201n);
    expect(evaluate(raw.sext(ra(2), 64), asg)).toBe(0xffffffffffffff80n);
    expect(evaluate(raw.zext(ra(2), 64), asg)).toBe(0x80n);
    expect(evaluate(raw.extract(x16, 4, 8), asg)).toBe(0x20n);
    expect(evaluate(raw.mul(raw.zext(ra(3), 128), raw.constant(1n << 100n, 128)), asg)).toBe(0xffn << 100n);
    expect(evaluate(raw.select(raw.ult(ra(0), ra(1)), ra(2), ra(3)), asg)).toBe(0x80n);
    expect(evaluate(raw.slt(ra(3), ra(0)), asg)).toBe(1n); // -1 < 1
    expect(evaluate(raw.not(raw.constant(0, 7)), asg)).toBe(127n);
  });
  test('division by zero and overshift follow the documented semantics', () => {
    const zero = raw.and(ra(0), raw.constant(0, 8)); // symbolic zero
    expect(evaluate(raw.udiv(ra(3), zero), asg)).toBe(0xffn);
    expect(evaluate(raw.urem(ra(2), zero), asg)).toBe(0x80n);
    expect(evaluate(raw.sdiv(ra(2), zero), asg)).toBe(1n);
    expect(evaluate(raw.srem(ra(2), zero), asg)).toBe(0x80n);
    expect(evaluate(raw.shl(ra(0), raw.constant(8, 8)), asg)).toBe(0n);
    expect(evaluate(raw.ashr(ra(2), raw.constant(200, 8)), asg)).toBe(0xffn);
    expect(evaluate(raw.sdiv(ra(2), ra(3)), asg)).toBe(0x80n); // INT_MIN / -1
  });
  test('evaluateBV, evaluateBool, evaluateExpr, a reusable Evaluator', () => {
    expect(evaluateBV(raw.zext(ra(3), 32), asg)).toBe(0xff);
    expect(evaluateBV(raw.zext(ra(3), 64), asg)).toBe(0xffn);
    expect(evaluateBool(raw.eq(ra(0), raw.constant(1, 8)), asg)).toBe(true);
    expect(() => evaluateBool(ra(0), asg)).toThrow(RangeError);
    expect(evaluateExpr(raw.add(ra(0), ra(1)), asg)).toBe(raw.constant(3, 8));
    const ev = new Evaluator(asg);
    expect(ev.evaluate(ra(1))).toBe(2n);
    expect(ev.isTrue(raw.ult(ra(0), ra(1)))).toBe(true);
    expect(ev.valueOf(raw.constant(5, 9))).toBe(5);
  });
});

describe('deep expressions do not overflow the stack', () => {
  const DEPTH = 100_000;
  let deep: Expr = ra(0);
  for (let i = 0; i < DEPTH; i++) deep = raw.add(deep, raw.xor(ra(i % 4), raw.constant(i & 0xff, 8)));
  let deepList = ua;
  for (let i = 0; i < 20_000; i++) deepList = deepList.extend(raw.zext(ra(i % 4), 32), raw.constant(i & 0xff, 8));
  const deepRead = raw.read(deepList, i32(3));

  test('evaluation', () => {
    let want = 1;
    for (let i = 0; i < DEPTH; i++) want = (want + ([1, 2, 0x80, 0xff][i % 4]! ^ (i & 0xff))) & 0xff;
    expect(evaluate(deep, asg)).toBe(BigInt(want));
    expect(evaluate(deepRead, asg)).toBe(0xffn); // no write hits index 3: the whole list is scanned
    expect(evaluate(raw.read(deepList, i32(2)), asg)).toBe(BigInt(19_997 & 0xff)); // newest write with a[1] = 2
  });
  test('printing and collecting', () => {
    expect(printKQuery(deep).length).toBeGreaterThan(DEPTH);
    expect(toSmtLib2([raw.eq(deep, raw.constant(0, 8))]).text.length).toBeGreaterThan(DEPTH);
    expect(toSmtLib2([raw.eq(deepRead, raw.constant(0, 8))], { sharing: 'define-fun' }).text.length).toBeGreaterThan(20_000);
    expect([...collectArrays(deep)]).toEqual([a]);
    expect(dagSize(deep)).toBeGreaterThan(DEPTH);
  });
  test('building deep chains through the simplifier', () => {
    let e: Expr = raw.zext(ra(0), 32);
    for (let i = 0; i < 20_000; i++) e = b.add(b.constant(1, 32), e);
    expect(evaluate(e, asg)).toBe(20_001n);
    expect(dagSize(e)).toBeLessThan(10); // constants folded into one
  });
});

describe('collectArrays', () => {
  const d = new ExprArray('d', 4);
  test('arrays of reads, of update-list writes, memoised and shared', () => {
    const rd = raw.read(new UpdateList(d), i32(0));
    const ul = ua.extend(raw.zext(rd, 32), raw.constant(1, 8));
    const e = raw.add(raw.read(ul, i32(0)), raw.read(new UpdateList(c), i32(0)));
    expect(new Set(collectArrays(e))).toEqual(new Set([a, c, d]));
    expect(collectArrays(e)).toBe(collectArrays(e));
    expect(collectArrays(raw.constant(1, 8)).size).toBe(0);
    expect(collectArrays(raw.add(ra(0), ra(1)))).toBe(collectArrays(ra(0)));
    expect(collectArraysOf([ra(0), rd])).toEqual(new Set([a, d]));
  });
});
