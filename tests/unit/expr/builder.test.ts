/** One test per simplification rule of the arithmetic, bitwise and comparison builders. */
import { raw, ExprKind, TRUE, FALSE } from '../../../src/expr/index.js';
import { check, vars } from './rules.js';

const WS = [7, 8, 32, 33, 64, 128];
const WS1 = [1, ...WS];

describe.each(WS1)('width %i', (w) => {
  const v = vars(w);
  const { x, y, c, zero, ones } = v;
  const k = (n: number): bigint => BigInt.asUintN(w, BigInt(n));

  test('constant folding of every binary kind', () => {
    const ops = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr'] as const;
    const cmps = ['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const;
    for (const a of [0n, 1n, 3n, k(-1), k(-5), 1n << BigInt(w - 1)]) {
      for (const bb of [1n, 2n, k(-1), k(-3), BigInt(w) & k(-1), 1n << BigInt(w - 1)]) {
        for (const op of [...ops, ...cmps]) {
          if (BigInt.asUintN(w, bb) === 0n && /div|rem/.test(op)) continue;
          const s = check((b) => b[op](b.constant(a, w), b.constant(bb, w)));
          expect(s.kind).toBe(ExprKind.Constant);
        }
        const n = check((b) => b.not(b.constant(a, w)));
        expect(n.kind).toBe(ExprKind.Constant);
      }
    }
  });

  test('division and remainder by a constant zero are not folded', () => {
    for (const op of ['udiv', 'sdiv', 'urem', 'srem'] as const) {
      expect(check((b) => b[op](b.constant(5, w), b.constant(0, w))).kind).toBe(op === 'udiv' ? ExprKind.UDiv : op === 'sdiv' ? ExprKind.SDiv : op === 'urem' ? ExprKind.URem : ExprKind.SRem);
      expect(check((b) => b[op](x, b.constant(0, w))).kind).not.toBe(ExprKind.Constant);
    }
  });

  test('x/1 = x, x%1 = 0', () => {
    check((b) => b.udiv(x, c(1)), x);
    check((b) => b.sdiv(x, c(1)), x);
    check((b) => b.urem(x, c(1)), zero);
    check((b) => b.srem(x, c(1)), zero);
  });

  test('constants move to the left of commutative operators', () => {
    if (w === 1) return;
    check((b) => b.add(x, c(3)), raw.add(c(3), x));
    check((b) => b.mul(x, c(3)), raw.mul(c(3), x));
    check((b) => b.and(x, c(3)), raw.and(c(3), x));
    check((b) => b.or(x, c(3)), raw.or(c(3), x));
    check((b) => b.xor(x, c(3)), raw.xor(c(3), x));
    check((b) => b.eq(x, c(3)), raw.eq(c(3), x));
  });

  test('bitwise identities', () => {
    check((b) => b.and(x, zero), zero);
    check((b) => b.and(ones, x), x);
    check((b) => b.and(x, x), x);
    check((b) => b.and(x, b.not(x)), zero);
    check((b) => b.or(x, zero), x);
    check((b) => b.or(ones, x), ones);
    check((b) => b.or(x, x), x);
    check((b) => b.or(b.not(x), x), ones);
    check((b) => b.xor(x, zero), x);
    check((b) => b.xor(ones, x), raw.not(x));
    check((b) => b.xor(x, x), zero);
    check((b) => b.xor(x, b.not(x)), ones);
    check((b) => b.not(b.not(x)), x);
  });

  test('arithmetic identities', () => {
    check((b) => b.add(zero, x), x);
    check((b) => b.sub(x, zero), x);
    check((b) => b.sub(x, x), zero);
    check((b) => b.mul(x, zero), zero);
    check((b) => b.mul(c(1), x), x);
  });

  test('shift identities', () => {
    for (const op of ['shl', 'lshr', 'ashr'] as const) {
      check((b) => b[op](x, zero), x);
      check((b) => b[op](zero, y), zero);
    }
    check((b) => b.ashr(ones, y), ones);
    check((b) => b.shl(x, c(w)), w === 1 ? undefined : zero);
    check((b) => b.lshr(x, c(w + 5)), w === 1 ? undefined : zero);
    check((b) => b.ashr(x, c(w + 5)));
  });

  test('comparison identities', () => {
    check((b) => b.eq(x, x), TRUE);
    check((b) => b.ult(x, x), FALSE);
    check((b) => b.ule(x, x), TRUE);
    check((b) => b.slt(x, x), FALSE);
    check((b) => b.sle(x, x), TRUE);
    check((b) => b.ult(x, zero), FALSE);
    check((b) => b.ult(ones, x), FALSE);
    check((b) => b.ule(zero, x), TRUE);
    check((b) => b.ule(x, ones), TRUE);
    const min = c(1n << BigInt(w - 1));
    const max = c((1n << BigInt(w - 1)) - 1n);
    check((b) => b.slt(x, min), FALSE);
    check((b) => b.slt(max, x), FALSE);
    check((b) => b.sle(min, x), TRUE);
    check((b) => b.sle(x, max), TRUE);
  });

  test('ne is Not(Eq); ugt/uge/sgt/sge swap operands', () => {
    if (w === 1) return;
    check((b) => b.ne(x, y), raw.not(raw.eq(x, y)));
    check((b) => b.ugt(x, y), raw.ult(y, x));
    check((b) => b.uge(x, y), raw.ule(y, x));
    check((b) => b.sgt(x, y), raw.slt(y, x));
    check((b) => b.sge(x, y), raw.sle(y, x));
  });

  test('negated comparisons stay one node', () => {
    if (w === 1) return;
    check((b) => b.not(b.ult(x, y)), raw.ule(y, x));
    check((b) => b.not(b.ule(x, y)), raw.ult(y, x));
    check((b) => b.not(b.slt(x, y)), raw.sle(y, x));
    check((b) => b.not(b.sle(x, y)), raw.slt(y, x));
    check((b) => b.not(raw.ne(x, y)), raw.eq(x, y));
  });
});

describe.each(WS)('constant pulling at width %i', (w) => {
  const { x, y, c } = vars(w);
  const k = (n: number): bigint => BigInt.asUintN(w, BigInt(n));
  test('c + (k + x) = (c+k) + x; c + (k - x) = (c+k) - x', () => {
    check((b) => b.add(c(5), b.add(c(7), x)), raw.add(c(12), x));
    check((b) => b.add(c(5), b.sub(c(7), x)), raw.sub(c(12), x));
    check((b) => b.add(b.add(x, c(7)), c(5)), raw.add(c(12), x));
  });
  test('(k+a)+b, (k-a)+b, a+(k+b), a+(k-b) pull k out', () => {
    check((b) => b.add(b.add(c(3), x), y), raw.add(c(3), raw.add(x, y)));
    check((b) => b.add(b.sub(c(3), x), y), raw.add(c(3), raw.sub(y, x)));
    check((b) => b.add(x, b.add(c(3), y)), raw.add(c(3), raw.add(x, y)));
    check((b) => b.add(x, b.sub(c(3), y)), raw.add(c(3), raw.sub(x, y)));
  });
  test('x - c = (-c) + x; c - (k+x); c - (k-x)', () => {
    check((b) => b.sub(x, c(3)), raw.add(c(-3), x));
    check((b) => b.sub(c(10), b.add(c(3), x)), raw.sub(c(7), x));
    check((b) => b.sub(c(10), b.sub(c(3), x)), raw.add(c(7), x));
  });
  test('(k+a)-b, (k-a)-b, a-(k+b), a-(k-b)', () => {
    check((b) => b.sub(b.add(c(3), x), y), raw.add(c(3), raw.sub(x, y)));
    check((b) => b.sub(b.sub(c(3), x), y), raw.sub(c(3), raw.add(x, y)));
    check((b) => b.sub(x, b.add(c(3), y)), raw.add(c(k(-3)), raw.sub(x, y)));
    check((b) => b.sub(x, b.sub(c(3), y)), raw.add(c(k(-3)), raw.add(x, y)));
  });
  test('c * (k * x) = (c*k) * x', () => {
    check((b) => b.mul(c(3), b.mul(c(5), x)), raw.mul(c(15), x));
  });
  test('c == k + x ⇔ c-k == x; c == k - x ⇔ k-c == x', () => {
    check((b) => b.eq(c(10), b.add(c(3), x)), raw.eq(c(7), x));
    check((b) => b.eq(b.sub(c(3), x), c(10)), raw.eq(c(k(-7)), x));
  });
});

describe('boolean forms', () => {
  const { x: p, y: q, c } = vars(1);
  test('Eq with a boolean constant', () => {
    check((b) => b.eq(b.bool(true), p), p);
    check((b) => b.eq(p, b.bool(false)), raw.not(p));
    check((b) => b.eq(b.bool(false), b.eq(b.bool(false), p)), p);
  });
  test('arithmetic on width 1 is xor/and', () => {
    check((b) => b.add(p, q), raw.xor(p, q));
    check((b) => b.sub(p, q), raw.xor(p, q));
    check((b) => b.mul(p, q), raw.and(p, q));
    check((b) => b.sub(p, c(1)), raw.not(p));
  });
  test('shifts of width 1', () => {
    check((b) => b.shl(p, q), raw.and(p, raw.not(q)));
    check((b) => b.lshr(p, q), raw.and(p, raw.not(q)));
    check((b) => b.ashr(p, q), p);
  });
  test('comparisons of width 1', () => {
    check((b) => b.ult(p, q), raw.and(raw.not(p), q));
    check((b) => b.ule(p, q), raw.or(raw.not(p), q));
    check((b) => b.slt(p, q), raw.and(p, raw.not(q)));
    check((b) => b.sle(p, q), raw.or(p, raw.not(q)));
  });
  test('And/Or with true/false', () => {
    check((b) => b.and(b.bool(true), p), p);
    check((b) => b.and(p, b.bool(false)), FALSE);
    check((b) => b.or(b.bool(false), p), p);
    check((b) => b.or(p, b.bool(true)), TRUE);
  });
  test('De Morgan: Not(Or(a, b)) = And(Not a, Not b)', () => {
    check((b) => b.not(b.or(p, q)), raw.and(raw.not(p), raw.not(q)));
  });
});

describe('extension under Eq', () => {
  const x8 = vars(8).x;
  test('zext(x) == c', () => {
    check((b) => b.eq(b.constant(200, 32), b.zext(x8, 32)), raw.eq(raw.constant(200, 8), x8));
    check((b) => b.eq(b.constant(300, 32), b.zext(x8, 32)), FALSE);
  });
  test('sext(x) == c', () => {
    check((b) => b.eq(b.constant(-3, 32), b.sext(x8, 32)), raw.eq(raw.constant(253, 8), x8));
    check((b) => b.eq(b.constant(100, 32), b.sext(x8, 32)), raw.eq(raw.constant(100, 8), x8));
    check((b) => b.eq(b.constant(200, 32), b.sext(x8, 32)), FALSE);
  });
});

describe('width checks', () => {
  const { x } = vars(8);
  const y = vars(16).x;
  test('mismatched operands throw', () => {
    expect(() => raw.add(x, y)).toThrow(RangeError);
    expect(() => check((b) => b.add(x, y))).toThrow(RangeError);
    expect(() => raw.select(x, x, x)).toThrow(RangeError);
    expect(() => raw.extract(x, 4, 5)).toThrow(RangeError);
    expect(() => raw.zext(y, 8)).toThrow(RangeError);
    expect(() => raw.constant(1, 0)).toThrow(RangeError);
  });
});
