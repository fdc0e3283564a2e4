/** One test per rule of the Concat/Extract/ZExt/SExt/Select/Read builders. */
import { builder, raw, ExprArray, ExprKind, UpdateList, TRUE, FALSE } from '../../../src/expr/index.js';
import { check, sym, vars, B } from './rules.js';

const k = (v: number | bigint, w: number) => raw.constant(v, w);
/** A raw value that no Extract rule looks into. */
const opaque = (w: number, first: number) => raw.add(sym(w, first), sym(w, first, B));

describe('Concat', () => {
  const x8 = sym(8, 0);
  const y8 = sym(8, 1);
  const x32 = opaque(32, 4);
  test('constants fold', () => {
    check((b) => b.concat(b.constant(0x12, 8), b.constant(0x345, 12)), k(0x12345, 20));
    check((b) => b.concat(b.constant(0xdeadbeef, 32), b.constant(0xcafebabe, 32)), k(0xdeadbeefcafebaben, 64));
    check((b) => b.concat(b.constant(1, 1), b.constant(0, 64)), k(1n << 64n, 65));
  });
  test('a zero msb is ZExt', () => {
    check((b) => b.concat(b.constant(0, 24), x8), raw.zext(x8, 32));
  });
  test('constants merge: C(c1, C(c2, x))', () => {
    check((b) => b.concat(b.constant(1, 8), b.concat(b.constant(2, 8), x8)), raw.concat(k(0x102, 16), x8));
  });
  test('adjacent extracts of one expression merge', () => {
    check((b) => b.concat(b.extract(x32, 16, 8), b.extract(x32, 8, 8)), raw.extract(x32, 8, 16));
    check((b) => b.concat(b.extract(x32, 24, 8), b.concat(b.extract(x32, 16, 8), b.extract(x32, 8, 8))), raw.extract(x32, 8, 24));
    check(
      (b) => b.concat(b.extract(x32, 24, 8), b.concat(b.extract(x32, 16, 8), b.concat(b.extract(x32, 8, 8), b.extract(x32, 0, 8)))),
      x32,
    );
  });
  test('adjacent extract merges into the head of a Concat', () => {
    // built raw underneath so the inner Concat is not merged first
    const inner = raw.concat(raw.extract(x32, 8, 8), y8);
    check((b) => b.concat(b.extract(x32, 16, 8), inner), raw.concat(raw.extract(x32, 8, 16), y8));
  });
  test('non-adjacent extracts stay', () => {
    check((b) => b.concat(b.extract(x32, 8, 8), b.extract(x32, 16, 8)), raw.concat(raw.extract(x32, 8, 8), raw.extract(x32, 16, 8)));
  });
});

describe('Extract', () => {
  const x32 = opaque(32, 4);
  const x8 = sym(8, 0);
  const y8 = sym(8, 1);
  const x5 = sym(5, 2);
  test('full width is the expression itself', () => {
    check((b) => b.extract(x32, 0, 32), x32);
  });
  test('constants fold (any width)', () => {
    check((b) => b.extract(b.constant(0xabcd, 16), 4, 8), k(0xbc, 8));
    check((b) => b.extract(b.constant(0x123456789abcdef0n, 64), 28, 12), k(0x789, 12));
    check((b) => b.extract(b.constant(1n << 100n, 128), 100, 1), TRUE);
  });
  test('extract of extract', () => {
    check((b) => b.extract(b.extract(x32, 8, 16), 4, 8), raw.extract(x32, 12, 8));
  });
  test('extract of concat picks the part or splits', () => {
    const cc = raw.concat(x8, y8);
    check((b) => b.extract(cc, 8, 8), x8);
    check((b) => b.extract(cc, 0, 8), y8);
    check((b) => b.extract(cc, 10, 3), raw.extract(x8, 2, 3));
    check((b) => b.extract(cc, 1, 6), raw.extract(y8, 1, 6));
    check((b) => b.extract(cc, 4, 8), raw.concat(raw.extract(x8, 0, 4), raw.extract(y8, 4, 4)));
  });
  test('extract of zext', () => {
    const z = raw.zext(x8, 32);
    check((b) => b.extract(z, 0, 8), x8);
    check((b) => b.extract(z, 2, 4), raw.extract(x8, 2, 4));
    check((b) => b.extract(z, 8, 16), k(0, 16));
    check((b) => b.extract(z, 0, 16), raw.zext(x8, 16));
    check((b) => b.extract(z, 4, 16), raw.zext(raw.extract(x8, 4, 4), 16));
  });
  test('extract of sext', () => {
    const s = raw.sext(x8, 32);
    check((b) => b.extract(s, 0, 8), x8);
    check((b) => b.extract(s, 3, 5), raw.extract(x8, 3, 5));
    check((b) => b.extract(s, 0, 16), raw.sext(x8, 16));
    check((b) => b.extract(s, 4, 16), raw.sext(raw.extract(x8, 4, 4), 16));
    check((b) => b.extract(s, 12, 16), raw.sext(raw.extract(x8, 7, 1), 16));
    check((b) => b.extract(s, 20, 1), raw.extract(x8, 7, 1));
    check((b) => b.extract(raw.sext(x5, 65), 1, 64), raw.sext(builder.extract(x5, 1, 4), 64));
  });
});

describe('ZExt / SExt', () => {
  const x8 = sym(8, 0);
  const x16 = opaque(16, 2);
  test('same width is identity; narrower truncates', () => {
    expect(builder.zext(x8, 8)).toBe(x8);
    expect(builder.sext(x8, 8)).toBe(x8);
    expect(builder.zext(x16, 8)).toBe(raw.extract(x16, 0, 8));
    expect(builder.sext(x16, 4)).toBe(raw.extract(x16, 0, 4));
  });
  test('constants fold at any width', () => {
    check((b) => b.zext(b.constant(0x80, 8), 64), k(0x80, 64));
    check((b) => b.sext(b.constant(0x80, 8), 64), k(-128, 64));
    check((b) => b.sext(b.constant(-1, 33), 128), k(-1, 128));
    check((b) => b.sext(b.constant(1, 1), 7), k(127, 7));
    check((b) => b.zext(b.constant(1, 1), 65), k(1, 65));
  });
  test('ext of ext', () => {
    check((b) => b.zext(b.zext(x8, 16), 64), raw.zext(x8, 64));
    check((b) => b.sext(b.sext(x8, 16), 64), raw.sext(x8, 64));
    check((b) => b.sext(b.zext(x8, 16), 64), raw.zext(x8, 64));
  });
  test('sext of zext to the same width keeps the zext', () => {
    check((b) => b.zext(b.sext(x8, 16), 64), raw.zext(raw.sext(x8, 16), 64));
  });
});

describe('Select', () => {
  const { x, y, p, q } = vars(16);
  test('constant condition', () => {
    check((b) => b.select(b.bool(true), x, y), x);
    check((b) => b.select(b.bool(false), x, y), y);
  });
  test('equal arms', () => {
    check((b) => b.select(p, x, x), x);
  });
  test('negated condition swaps the arms', () => {
    check((b) => b.select(b.not(p), x, y), raw.select(p, y, x));
  });
  test('boolean arms', () => {
    check((b) => b.select(p, b.bool(true), q), raw.or(p, q));
    check((b) => b.select(p, b.bool(false), q), raw.and(raw.not(p), q));
    check((b) => b.select(p, q, b.bool(true)), raw.or(raw.not(p), q));
    check((b) => b.select(p, q, b.bool(false)), raw.and(p, q));
    check((b) => b.select(p, b.bool(true), b.bool(false)), p);
    check((b) => b.select(p, b.bool(false), b.bool(true)), raw.not(p));
  });
});

describe('Read', () => {
  const arr = new ExprArray('m', 16);
  const cv = Uint8Array.from([10, 20, 30, 40]);
  const konst = new ExprArray('k', 4, cv);
  const i32 = (n: number) => raw.constant(n, 32);
  const s8 = sym(8, 9);
  const si = raw.zext(sym(8, 10), 32);
  test('writes at other constant indices are skipped', () => {
    const ul = new UpdateList(arr).extend(i32(1), k(5, 8)).extend(i32(2), k(6, 8));
    check((b) => b.read(ul, b.constant(3, 32)), raw.read(new UpdateList(arr), i32(3)));
    check((b) => b.read(ul, b.constant(1, 32)), k(5, 8));
    check((b) => b.read(ul, b.constant(2, 32)), k(6, 8));
  });
  test('the newest write to an index wins', () => {
    const ul = new UpdateList(arr).extend(i32(1), k(5, 8)).extend(i32(1), s8);
    check((b) => b.read(ul, b.constant(1, 32)), s8);
  });
  test('a symbolic write stops the skipping; the list is kept from there', () => {
    const base = new UpdateList(arr).extend(i32(1), k(5, 8)).extend(si, k(7, 8));
    const ul = base.extend(i32(2), k(6, 8));
    check((b) => b.read(ul, b.constant(1, 32)), raw.read(base, i32(1)));
    check((b) => b.read(ul, b.constant(2, 32)), k(6, 8));
  });
  test('a read at the identical symbolic index gives the written value', () => {
    const ul = new UpdateList(arr).extend(si, s8).extend(i32(1), k(6, 8));
    check((b) => b.read(ul, si), raw.read(ul, si)); // the constant write on top may alias
    const ul2 = new UpdateList(arr).extend(i32(1), k(6, 8)).extend(si, s8);
    check((b) => b.read(ul2, si), s8);
  });
  test('a symbolic index reads the whole list', () => {
    const ul = new UpdateList(arr).extend(i32(1), k(5, 8));
    check((b) => b.read(ul, si), raw.read(ul, si));
  });
  test('constant arrays fold at constant indices in bounds', () => {
    check((b) => b.read(new UpdateList(konst), b.constant(2, 32)), k(30, 8));
    const ul = new UpdateList(konst).extend(i32(0), k(99, 8));
    check((b) => b.read(ul, b.constant(3, 32)), k(40, 8));
    check((b) => b.read(ul, b.constant(0, 32)), k(99, 8));
    // out of bounds: left to the engine's bounds check
    expect(check((b) => b.read(new UpdateList(konst), b.constant(9, 32))).kind).toBe(ExprKind.Read);
    // a symbolic write under the read blocks the fold
    const ul3 = new UpdateList(konst).extend(si, k(1, 8));
    expect(check((b) => b.read(ul3, b.constant(2, 32))).kind).toBe(ExprKind.Read);
  });
  test('raw never skips', () => {
    const ul = new UpdateList(arr).extend(i32(1), k(5, 8));
    expect(raw.read(ul, i32(1)).kind).toBe(ExprKind.Read);
  });
  test('index width is checked', () => {
    expect(() => builder.read(new UpdateList(arr), k(1, 64))).toThrow(RangeError);
    expect(() => new UpdateList(arr).extend(k(1, 32), k(1, 16))).toThrow(RangeError);
  });
  test('Eq on reads of one update list', () => {
    expect(builder.eq(builder.read(new UpdateList(arr), si), builder.read(new UpdateList(arr), si))).toBe(TRUE);
    expect(builder.ne(builder.read(new UpdateList(arr), si), builder.read(new UpdateList(arr), si))).toBe(FALSE);
  });
});
