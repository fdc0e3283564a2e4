/**
 * Concrete bit-vector semantics: the number fast path (≤ 32 bits) and the bigint path against
 * a plain-bigint reference written from the SMT-LIB definitions, plus the documented corner
 * cases spelled out.
 */
import {
  ExprKind,
  foldBinary,
  foldConcat,
  foldExtract,
  foldNot,
  foldSExt,
  foldZExt,
  normalize,
  toBigInt,
  type BinaryKind,
  type BV,
} from '../../../src/expr/index.js';
import { Rng } from './helpers.js';

const KINDS: BinaryKind[] = [
  ExprKind.Add,
  ExprKind.Sub,
  ExprKind.Mul,
  ExprKind.UDiv,
  ExprKind.SDiv,
  ExprKind.URem,
  ExprKind.SRem,
  ExprKind.And,
  ExprKind.Or,
  ExprKind.Xor,
  ExprKind.Shl,
  ExprKind.LShr,
  ExprKind.AShr,
  ExprKind.Eq,
  ExprKind.Ne,
  ExprKind.Ult,
  ExprKind.Ule,
  ExprKind.Slt,
  ExprKind.Sle,
];

function reference(kind: BinaryKind, w: number, a: bigint, b: bigint): bigint {
  const W = BigInt(w);
  const m = (1n << W) - 1n;
  const u = (x: bigint) => BigInt.asUintN(w, x);
  const sa = BigInt.asIntN(w, a);
  const sb = BigInt.asIntN(w, b);
  const t = (c: boolean) => (c ? 1n : 0n);
  switch (kind) {
    case ExprKind.Add:
      return u(a + b);
    case ExprKind.Sub:
      return u(a - b);
    case ExprKind.Mul:
      return u(a * b);
    case ExprKind.UDiv:
      return b === 0n ? m : a / b;
    case ExprKind.URem:
      return b === 0n ? a : a % b;
    case ExprKind.SDiv: // SMT-LIB: defined through udiv on magnitudes
      if (b === 0n) return sa < 0n ? 1n : m;
      return u(sa / sb);
    case ExprKind.SRem:
      return b === 0n ? a : u(sa % sb);
    case ExprKind.And:
      return a & b;
    case ExprKind.Or:
      return a | b;
    case ExprKind.Xor:
      return a ^ b;
    case ExprKind.Shl:
      return b >= W ? 0n : u(a << b);
    case ExprKind.LShr:
      return b >= W ? 0n : a >> b;
    case ExprKind.AShr:
      return b >= W ? (sa < 0n ? m : 0n) : u(sa >> b);
    case ExprKind.Eq:
      return t(a === b);
    case ExprKind.Ne:
      return t(a !== b);
    case ExprKind.Ult:
      return t(a < b);
    case ExprKind.Ule:
      return t(a <= b);
    case ExprKind.Slt:
      return t(sa < sb);
    case ExprKind.Sle:
      return t(sa <= sb);
  }
}

const bv = (v: bigint, w: number): BV => normalize(v, w);

describe('foldBinary against the reference', () => {
  for (const w of [1, 2, 7, 8, 16, 31, 32, 33, 53, 64, 65, 128]) {
    test(`width ${w}`, () => {
      const rng = new Rng(w);
      for (let i = 0; i < 400; i++) {
        const a = rng.interesting(w);
        const b = rng.chance(0.2) ? BigInt(rng.int(w + 3)) & ((1n << BigInt(w)) - 1n) : rng.interesting(w);
        for (const k of KINDS) {
          const got = foldBinary(k, w, bv(a, w), bv(b, w));
          const want = reference(k, w, a, b);
          const resultWidth = k >= ExprKind.Eq ? 1 : w;
          expect(typeof got).toBe(resultWidth <= 32 ? 'number' : 'bigint');
          if (toBigInt(got) !== want) throw new Error(`${ExprKind[k]} w${w} ${a} ${b}: got ${got}, want ${want}`);
        }
        const n = foldNot(w, bv(a, w));
        expect(toBigInt(n)).toBe(BigInt.asUintN(w, ~a));
      }
    });
  }
});

describe('documented corner cases', () => {
  const f = (k: BinaryKind, w: number, a: bigint, b: bigint) => toBigInt(foldBinary(k, w, bv(a, w), bv(b, w)));
  test.each([8, 32, 64])('division by zero follows SMT-LIB (w%i)', (w) => {
    const m = (1n << BigInt(w)) - 1n;
    expect(f(ExprKind.UDiv, w, 7n, 0n)).toBe(m);
    expect(f(ExprKind.URem, w, 7n, 0n)).toBe(7n);
    expect(f(ExprKind.SDiv, w, 7n, 0n)).toBe(m); // -1
    expect(f(ExprKind.SDiv, w, m, 0n)).toBe(1n); // -1 / 0 = 1
    expect(f(ExprKind.SDiv, w, 0n, 0n)).toBe(m);
    expect(f(ExprKind.SRem, w, m - 4n, 0n)).toBe(m - 4n);
  });
  test.each([8, 32, 64])('INT_MIN / -1 wraps to INT_MIN (w%i)', (w) => {
    const min = 1n << BigInt(w - 1);
    const m1 = (1n << BigInt(w)) - 1n;
    expect(f(ExprKind.SDiv, w, min, m1)).toBe(min);
    expect(f(ExprKind.SRem, w, min, m1)).toBe(0n);
  });
  test.each([8, 32, 64])('shifts by ≥ width (w%i)', (w) => {
    const W = BigInt(w);
    expect(f(ExprKind.Shl, w, 1n, W)).toBe(0n);
    expect(f(ExprKind.LShr, w, 1n << (W - 1n), W + 7n)).toBe(0n);
    expect(f(ExprKind.AShr, w, 1n << (W - 1n), W)).toBe((1n << W) - 1n);
    expect(f(ExprKind.AShr, w, 5n, W * 2n)).toBe(0n);
  });
  test('signed division truncates toward zero; remainder takes the dividend sign', () => {
    expect(f(ExprKind.SDiv, 8, BigInt.asUintN(8, -7n), 2n)).toBe(BigInt.asUintN(8, -3n));
    expect(f(ExprKind.SRem, 8, BigInt.asUintN(8, -7n), 2n)).toBe(BigInt.asUintN(8, -1n));
    expect(f(ExprKind.SRem, 8, 7n, BigInt.asUintN(8, -2n))).toBe(1n);
  });
});

describe('casts and layout', () => {
  test('normalize reduces any integer into range, in the width representation', () => {
    expect(normalize(-1, 8)).toBe(255);
    expect(normalize(256 + 3, 8)).toBe(3);
    expect(normalize(-1, 32)).toBe(0xffffffff);
    expect(normalize(2 ** 40 + 5, 32)).toBe(5);
    expect(normalize(-1n, 33)).toBe((1n << 33n) - 1n);
    expect(normalize(5, 64)).toBe(5n);
    expect(normalize(1n << 70n, 64)).toBe(0n);
    expect(normalize(Number.MAX_SAFE_INTEGER * 4, 8)).toBe(Number(BigInt.asUintN(8, BigInt(Number.MAX_SAFE_INTEGER * 4))));
    expect(() => normalize(1.5, 8)).toThrow(RangeError);
  });
  test('zext/sext/extract/concat against bigint arithmetic', () => {
    const rng = new Rng(99);
    const widths = [1, 3, 8, 16, 31, 32, 33, 64, 65, 100];
    for (let i = 0; i < 2000; i++) {
      const from = rng.pick(widths);
      const to = from + 1 + rng.int(70);
      const a = rng.interesting(from);
      expect(toBigInt(foldZExt(bv(a, from), to))).toBe(a);
      expect(typeof foldZExt(bv(a, from), to)).toBe(to <= 32 ? 'number' : 'bigint');
      expect(toBigInt(foldSExt(bv(a, from), from, to))).toBe(BigInt.asUintN(to, BigInt.asIntN(from, a)));
      const w = 1 + rng.int(from);
      const off = rng.int(from - w + 1);
      const ex = foldExtract(bv(a, from), from, off, w);
      expect(typeof ex).toBe(w <= 32 ? 'number' : 'bigint');
      expect(toBigInt(ex)).toBe((a >> BigInt(off)) & ((1n << BigInt(w)) - 1n));
      const lw = rng.pick(widths);
      const b = rng.interesting(lw);
      const cc = foldConcat(bv(a, from), from, bv(b, lw), lw);
      expect(typeof cc).toBe(from + lw <= 32 ? 'number' : 'bigint');
      expect(toBigInt(cc)).toBe((a << BigInt(lw)) | b);
    }
  });
});
