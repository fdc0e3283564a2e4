/**
 * The builder's rules for nested divisions by constants and for a quotient compared with 0
 * (a digit loop's `u /= 10 ... while (u != 0)`): checked exhaustively at 8 bits against the
 * raw builder, every value of x and divisors at the edges (1, powers of two, products past
 * 2^8 and past INT_MAX, negative signed divisors), and by shape at 64 bits; and the unsigned
 * upper bound (umax.ts) the builder folds comparisons with.
 */
import { builder, evaluate, raw, ExprKind, FALSE, TRUE, type Expr, type ExprBuilder } from '../../../src/expr/index.js';
import { umax } from '../../../src/expr/umax.js';
import { A, sym } from './rules.js';

const DIVISORS = [1, 2, 3, 7, 10, 15, 16, 17, 100, 127, 128, 129, 200, 255];

function exhaustive8(f: (b: ExprBuilder, x: Expr) => Expr): void {
  const x = sym(8, 0);
  const s = f(builder, x);
  const r = f(raw, x);
  for (let v = 0; v < 256; v++) {
    const asg = new Map([[A, Uint8Array.of(v, ...new Array<number>(31).fill(0))]]);
    const got = evaluate(s, asg), want = evaluate(r, asg);
    if (got !== want) throw new Error(`x=${v}: ${got} vs ${want}\n  simplified: ${s.toString()}\n  raw:        ${r.toString()}`);
  }
}

test('(x / a) / b, unsigned and signed, and x / k == 0: every 8-bit x', () => {
  for (const a of DIVISORS) {
    for (const b of DIVISORS) {
      exhaustive8((B, x) => B.udiv(B.udiv(x, B.constant(a, 8)), B.constant(b, 8)));
      exhaustive8((B, x) => B.sdiv(B.sdiv(x, B.constant(a, 8)), B.constant(b, 8)));
      exhaustive8((B, x) => B.udiv(B.sdiv(x, B.constant(a, 8)), B.constant(b, 8)));
    }
    exhaustive8((B, x) => B.eq(B.constant(0, 8), B.udiv(x, B.constant(a, 8))));
    exhaustive8((B, x) => B.ne(B.sdiv(x, B.constant(a, 8)), B.constant(0, 8)));
    exhaustive8((B, x) => B.eq(B.constant(0, 8), B.udiv(B.udiv(B.udiv(x, B.constant(a, 8)), B.constant(10, 8)), B.constant(10, 8))));
  }
});

test('a digit loop at 64 bits: x / 10 / 10 / 10 == 0 is x < 1000; signed, -1000 < x < 1000', () => {
  const x = sym(64, 0);
  const c = (v: number | bigint): Expr => raw.constant(v, 64);
  const u3 = builder.udiv(builder.udiv(builder.udiv(x, c(10)), c(10)), c(10));
  expect(u3).toBe(raw.udiv(x, c(1000)));
  expect(builder.eq(c(0), u3)).toBe(raw.ult(x, c(1000)));
  const s3 = builder.sdiv(builder.sdiv(builder.sdiv(x, c(10)), c(10)), c(10));
  expect(s3).toBe(raw.sdiv(x, c(1000)));
  expect(builder.eq(c(0), s3)).toBe(raw.ult(raw.add(c(999), x), c(1999)));
  // a product past 2^64 leaves an unsigned quotient of 0; signed, past INT_MAX, no rule
  expect(builder.udiv(builder.udiv(x, c(1n << 40n)), c(1n << 30n))).toBe(raw.constant(0, 64));
  expect(builder.sdiv(builder.sdiv(x, c(1n << 40n)), c(1n << 30n)).kind).toBe(ExprKind.SDiv);
});

test('umax bounds every value of remainders, masks, extensions, shifts and selects; comparisons past it fold', () => {
  const x = sym(8, 0);
  const k = (v: number): Expr => raw.constant(v, 8);
  const shapes: Expr[] = [
    raw.urem(x, k(10)),
    raw.urem(x, k(0)),
    raw.udiv(x, k(0)),
    raw.add(k(48), raw.urem(x, k(10))),
    raw.add(k(250), raw.urem(x, k(10))),
    raw.and(k(31), raw.udiv(x, k(3))),
    raw.lshr(x, k(5)),
    raw.lshr(x, x),
    raw.extract(raw.zext(raw.urem(x, k(7)), 32), 0, 8),
    raw.extract(raw.add(raw.constant(1000, 32), raw.zext(x, 32)), 0, 8),
    raw.select(raw.ult(x, k(9)), raw.urem(x, k(5)), raw.and(k(12), x)),
  ];
  for (const e of shapes) {
    const m = umax(e);
    for (let v = 0; v < 256; v++) {
      const asg = new Map([[A, Uint8Array.of(v, ...new Array<number>(31).fill(0))]]);
      expect(evaluate(e, asg) <= m).toBe(true);
    }
    for (const c of [0, 1, 9, 10, 57, 58, 100, 255]) {
      exhaustive8((B) => B.eq(B.constant(c, 8), e));
      exhaustive8((B) => B.ult(e, B.constant(c, 8)));
      exhaustive8((B) => B.ule(e, B.constant(c, 8)));
      exhaustive8((B) => B.ult(B.constant(c, 8), e));
      exhaustive8((B) => B.ule(B.constant(c, 8), e));
    }
  }
  // a digit is never '\n'; a day masked to 1..32 is below 100
  expect(builder.eq(k(10), builder.add(k(48), builder.urem(x, k(10))))).toBe(FALSE);
  const mday = builder.add(raw.constant(1, 32), builder.and(raw.constant(31, 32), sym(32, 4)));
  expect(builder.ult(mday, raw.constant(100, 32))).toBe(TRUE);
});
