/** A seed's partial evaluation of expressions (src/engine/seeding/seed-eval.ts) and its object matching (seed-info.ts). */
import { describe, expect, it } from '@jest/globals';
import { builder, collectArrays, evaluateBool, ExprArray, ExprKind, UpdateList, type Expr } from '../../../src/expr/index.js';
import { constantFromBV } from '../../../src/expr/expr.js';
import { seedEvaluate } from '../../../src/engine/seeding/seed-eval.js';
import { SeedInfo } from '../../../src/engine/seeding/seed-info.js';

const byte = (a: ExprArray, i: number): Expr => builder.read(new UpdateList(a, null), constantFromBV(i, 32));
/** The little-endian 16-bit value of a's bytes 0 and 1. */
const word = (a: ExprArray): Expr => builder.concat(byte(a, 1), byte(a, 0));

describe('seedEvaluate', () => {
  it('is a constant when the seed binds every byte read', () => {
    const a = new ExprArray('a', 2);
    const s = new SeedInfo({ source: 't', objects: [] });
    s.assignment.set(a, Uint8Array.from([0x42, 0x41]));
    const r = seedEvaluate(builder.eq(word(a), constantFromBV(0x4142, 16)), s);
    expect(r.kind).toBe(ExprKind.Constant);
    expect(r).toBe(builder.bool(true));
  });

  it('leaves the bytes past a short binding, and unbound arrays, symbolic', () => {
    const a = new ExprArray('a', 2);
    const b = new ExprArray('b', 1);
    const s = new SeedInfo({ source: 't', objects: [] });
    s.assignment.set(a, Uint8Array.from([0x42])); // byte 1 free (--allow-seed-extension)
    const cond = builder.and(builder.eq(word(a), constantFromBV(0x4142, 16)), builder.eq(byte(b, 0), constantFromBV(7, 8)));
    const r = seedEvaluate(cond, s);
    expect(r.kind).not.toBe(ExprKind.Constant);
    // the bound byte is gone, the free ones remain
    expect([...collectArrays(r)].map((x) => x.name).sort()).toEqual(['a', 'b']);
    expect(r.toString()).not.toMatch(/Read w8 0 a/);
    // and it means the same as the original with byte 0 fixed
    const full = new Map([
      [a, Uint8Array.from([0x42, 0x41])],
      [b, Uint8Array.from([7])],
    ]);
    expect(evaluateBool(r, full)).toBe(true);
    full.set(a, Uint8Array.from([0x42, 0x40]));
    expect(evaluateBool(r, full)).toBe(false);
  });
});

describe('SeedInfo.nextInput', () => {
  const test = {
    source: 't',
    objects: [
      { name: 'a', bytes: new Uint8Array(4) },
      { name: 'b', bytes: new Uint8Array(2) },
      { name: 'a', bytes: new Uint8Array(4) },
    ],
  };

  it('by position hands the objects out in order, then none', () => {
    const s = new SeedInfo(test);
    const names = [0, 1, 2, 3].map(() => s.nextInput('x', 4, false, () => {})?.name);
    expect(names).toEqual(['a', 'b', 'a', undefined]);
  });

  it('by name takes the first unused of that name, else the first unused one of the same size', () => {
    const s = new SeedInfo(test);
    const unnamed: string[] = [];
    const note = (n: string): void => void unnamed.push(n);
    expect(s.nextInput('b', 2, true, note)).toBe(test.objects[1]);
    expect(s.nextInput('a', 4, true, note)).toBe(test.objects[0]);
    // no 'c': the first unused object (the second 'a') has the right size
    expect(s.nextInput('c', 4, true, note)).toBe(test.objects[2]);
    expect(unnamed).toEqual(['a']);
    expect(s.nextInput('a', 4, true, note)).toBeUndefined();
  });

  it('by name refuses an unnamed object of another size', () => {
    const s = new SeedInfo(test);
    expect(s.nextInput('z', 3, true, () => {})).toBeUndefined();
  });
});
