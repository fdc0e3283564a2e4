import { describe, expect, it } from '@jest/globals';
import { IntervalSet } from '../../../../src/solver/layers/fast-intervals.js';
import { Rng } from '../../expr/helpers.js';

/** A random set of 8-bit values: a union of a few random ranges (wrapping ones too). */
function randomSet(rng: Rng): IntervalSet {
  let s = IntervalSet.empty(8);
  const n = rng.int(4);
  for (let i = 0; i < n; i++) s = s.union(IntervalSet.range(8, BigInt(rng.int(256)), BigInt(rng.int(256))));
  return rng.int(8) === 0 ? s.complement() : s;
}

function members(s: IntervalSet): Set<bigint> {
  return new Set(s.values());
}

describe('IntervalSet.overlaps and isSubsetOf (no-allocation forms of the fast layer)', () => {
  it('agree with membership of every value on random sets', () => {
    const rng = new Rng(7);
    for (let t = 0; t < 2000; t++) {
      const a = randomSet(rng);
      const b = randomSet(rng);
      const ma = members(a);
      const mb = members(b);
      const overlap = [...ma].some((v) => mb.has(v));
      const subset = [...ma].every((v) => mb.has(v));
      expect(a.overlaps(b)).toBe(overlap);
      expect(a.isSubsetOf(b)).toBe(subset);
    }
  });

  it('handle the empty and full sets', () => {
    const full = IntervalSet.full(8);
    const empty = IntervalSet.empty(8);
    const one = IntervalSet.range(8, 5n, 5n);
    expect(empty.isSubsetOf(one)).toBe(true);
    expect(one.isSubsetOf(empty)).toBe(false);
    expect(full.isSubsetOf(one)).toBe(false);
    expect(one.isSubsetOf(full)).toBe(true);
    expect(empty.overlaps(full)).toBe(false);
    expect(one.overlaps(full)).toBe(true);
    expect(IntervalSet.full(64).isFull()).toBe(true);
  });
});
