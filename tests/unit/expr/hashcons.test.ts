/** Hash-consing, constants, arrays and update lists. */
import {
  builder as b,
  raw,
  constant,
  ExprArray,
  ExprKind,
  UpdateList,
  UpdateNode,
  internedCount,
  isConstant,
  isExpr,
  isTrue,
  isFalse,
  kids,
  TRUE,
  FALSE,
} from '../../../src/expr/index.js';

const arr = new ExprArray('hc', 8);
const ul = new UpdateList(arr);
const x = raw.read(ul, raw.constant(0, 32));
const y = raw.read(ul, raw.constant(1, 32));

describe('hash-consing', () => {
  test('structurally equal nodes are the same object', () => {
    const e1 = raw.add(raw.zext(x, 32), raw.mul(raw.zext(y, 32), raw.constant(3, 32)));
    const e2 = raw.add(raw.zext(x, 32), raw.mul(raw.zext(y, 32), raw.constant(3, 32)));
    expect(e1).toBe(e2);
    expect(e1.id).toBe(e2.id);
    expect(raw.add(x, y)).not.toBe(raw.add(y, x));
    expect(raw.extract(raw.zext(x, 32), 1, 8)).not.toBe(raw.extract(raw.zext(x, 32), 2, 8));
    expect(raw.zext(x, 32)).not.toBe(raw.sext(x, 32));
    expect(raw.zext(x, 32)).not.toBe(raw.zext(x, 33));
    expect(b.select(b.eq(x, y), x, y)).toBe(b.select(b.eq(x, y), x, y));
  });
  test('ids are unique per node', () => {
    const es = [x, y, raw.add(x, y), raw.sub(x, y), raw.constant(7, 8), raw.constant(7, 9), raw.constant(7n << 40n, 64)];
    expect(new Set(es.map((e) => e.id)).size).toBe(es.length);
  });
  test('hashes are structural, not identity based', () => {
    const twin = new ExprArray('hc', 8); // a different array with the same name and size
    const x2 = raw.read(new UpdateList(twin), raw.constant(0, 32));
    expect(x2).not.toBe(x);
    expect(x2.hash).toBe(x.hash);
    expect(raw.add(x2, y).hash).toBe(raw.add(x, y).hash);
    expect(Number.isInteger(x.hash) && x.hash >= 0 && x.hash < 2 ** 30).toBe(true);
  });
  test('reads through separately built but equal update lists are one node', () => {
    const u1 = ul.extend(raw.constant(2, 32), y);
    const u2 = new UpdateList(arr).extend(raw.constant(2, 32), y);
    expect(u1).not.toBe(u2);
    expect(u1.head).toBe(u2.head);
    expect(u1.equals(u2)).toBe(true);
    expect(raw.read(u1, raw.zext(y, 32))).toBe(raw.read(u2, raw.zext(y, 32)));
  });
  test('the interning table holds nodes', () => {
    const before = internedCount();
    for (let i = 0; i < 50; i++) raw.add(raw.zext(x, 9 + (i % 3)), raw.constant(1000 + i, 9 + (i % 3)));
    expect(internedCount()).toBeGreaterThan(before);
  });
});

describe('constants', () => {
  test('one object per (value mod 2^w, width)', () => {
    expect(constant(5, 32)).toBe(constant(5n, 32));
    expect(constant(5, 32)).toBe(constant(2 ** 32 + 5, 32));
    expect(constant(-1, 8)).toBe(constant(255, 8));
    expect(constant(-1, 64)).toBe(constant((1n << 64n) - 1n, 64));
    expect(constant(123456789, 32)).toBe(constant(123456789n, 32));
    expect(constant(1n << 100n, 128)).toBe(constant(1n << 100n, 128));
    expect(constant(5, 32)).not.toBe(constant(5, 64));
    expect(constant(1, 1)).toBe(TRUE);
    expect(constant(2, 1)).toBe(FALSE);
    expect(b.bool(true)).toBe(TRUE);
  });
  test('value, bv and toNumber', () => {
    const c = constant(-2, 32);
    expect(c.value).toBe(0xfffffffen);
    expect(c.bv).toBe(0xfffffffe);
    expect(c.toNumber()).toBe(0xfffffffe);
    const d = constant(1n << 60n, 64);
    expect(d.bv).toBe(1n << 60n);
    expect(() => d.toNumber()).toThrow(RangeError);
    expect(constant(12, 64).toNumber()).toBe(12);
  });
  test('predicates', () => {
    expect(isConstant(constant(3, 8))).toBe(true);
    expect(isConstant(x)).toBe(false);
    expect(isTrue(TRUE) && isFalse(FALSE) && !isTrue(FALSE)).toBe(true);
    expect(isExpr(x)).toBe(true);
    expect(isExpr({ kind: ExprKind.Constant })).toBe(false);
  });
  test('bad widths are rejected', () => {
    expect(() => constant(0, 0)).toThrow(RangeError);
    expect(() => constant(0, 1.5)).toThrow(RangeError);
    expect(() => constant(0, 2 ** 24)).toThrow(RangeError);
  });
});

describe('children', () => {
  test('numKids/kid/kids follow KLEE (a Read has only its index)', () => {
    const s = raw.select(raw.eq(x, y), x, y);
    expect(s.numKids).toBe(3);
    expect(kids(s)).toEqual([raw.eq(x, y), x, y]);
    expect(s.kid(2)).toBe(y);
    expect(() => s.kid(3)).toThrow(RangeError);
    expect(kids(x)).toEqual([raw.constant(0, 32)]);
    expect(kids(raw.constant(1, 8))).toEqual([]);
    expect(kids(raw.extract(x, 1, 3))).toEqual([x]);
    const e = raw.extract(x, 1, 3);
    if (e.kind !== ExprKind.Extract) throw new Error('not an extract');
    expect(e.offset).toBe(1);
  });
});

describe('arrays and update lists', () => {
  test('array validation and constant arrays', () => {
    expect(() => new ExprArray('bad', -1)).toThrow(RangeError);
    expect(() => new ExprArray('bad', 2, new Uint8Array(3))).toThrow(RangeError);
    const src = Uint8Array.from([1, 2]);
    const k = new ExprArray('k', 2, src);
    src[0] = 9; // the array keeps its own copy
    expect(k.constantValues![0]).toBe(1);
    expect(k.isConstant()).toBe(true);
    expect(arr.isSymbolic()).toBe(true);
    expect(k.id).not.toBe(arr.id);
  });
  test('update lists are persistent, hash-consed, with lengths', () => {
    const u1 = ul.extend(raw.constant(0, 32), y);
    const u2 = u1.extend(raw.constant(1, 32), x);
    expect(ul.length).toBe(0);
    expect(u1.length).toBe(1);
    expect(u2.length).toBe(2);
    expect(u2.head!.next).toBe(u1.head);
    expect([...u2.nodes()].map((n) => n.value)).toEqual([x, y]);
    expect(UpdateNode.create(arr, raw.constant(1, 32), x, u1.head)).toBe(u2.head);
    expect(u2.hash).not.toBe(u1.hash);
  });
  test('update nodes belong to one array', () => {
    const other = new ExprArray('other', 8);
    const u1 = ul.extend(raw.constant(0, 32), y);
    expect(() => UpdateNode.create(other, raw.constant(0, 32), y, u1.head)).toThrow();
    expect(() => new UpdateList(other, u1.head)).toThrow();
  });
});
