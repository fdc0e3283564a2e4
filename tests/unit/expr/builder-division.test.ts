/**
 * The builder's rules for nested divisions by constants and for a quotient compared with 0
 * (a digit loop's `u /= 10 ... while (u != 0)`): checked exhaustively at 8 bits against the
 * raw builder, every value of x and divisors at the edges (1, powers of two, products past
 * 2^8 and past INT_MAX, negative signed divisors), and by shape at 64 bits.
 */
import { builder, evaluate, raw, ExprKind, type Expr, type ExprBuilder } from '../../../src/expr/index.js';
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
