import { DiscretePDF } from '../../../../src/engine/searchers/discrete-pdf.js';
import { Rng } from '../../../../src/util/rng.js';
import { frequencies } from './fake-state.js';

describe('DiscretePDF', () => {
  test('insert, weightOf, update, remove, totals', () => {
    const p = new DiscretePDF<string>();
    expect(p.empty()).toBe(true);
    expect(p.totalWeight).toBe(0);
    expect(p.choose(0.5)).toBeUndefined();
    p.insert('a', 1);
    p.insert('b', 2);
    p.insert('c', 0.5);
    expect(p.size).toBe(3);
    expect(p.totalWeight).toBe(3.5);
    expect(p.weightOf('b')).toBe(2);
    p.update('b', 4);
    expect(p.totalWeight).toBe(5.5);
    p.remove('a');
    expect(p.has('a')).toBe(false);
    expect(p.totalWeight).toBe(4.5);
    expect([...p.entries()]).toEqual([
      ['b', 4],
      ['c', 0.5],
    ]);
  });

  test('choose maps u·total into the cumulative intervals', () => {
    const p = new DiscretePDF<string>();
    p.insert('a', 1);
    p.insert('b', 2);
    p.insert('c', 1);
    expect(p.choose(0)).toBe('a');
    expect(p.choose(0.24)).toBe('a');
    expect(p.choose(0.25)).toBe('b');
    expect(p.choose(0.74)).toBe('b');
    expect(p.choose(0.75)).toBe('c');
    expect(p.choose(1 - 2 ** -53)).toBe('c');
  });

  test('an item of weight 0 is never drawn, even at the edges', () => {
    const p = new DiscretePDF<string>();
    p.insert('zero0', 0);
    p.insert('a', 1);
    p.insert('zero1', 0);
    for (const u of [0, 1e-12, 0.5, 1 - 2 ** -53]) expect(p.choose(u)).toBe('a');
    p.update('a', 0);
    expect(p.choose(0.3)).toBeUndefined();
  });

  test('grows past its initial capacity and draws proportionally to weight', () => {
    const p = new DiscretePDF<number>();
    for (let i = 0; i < 100; i++) p.insert(i, i % 10 === 0 ? 10 : 0.1);
    // Remove some, reinsert into freed slots.
    for (let i = 1; i < 100; i += 2) p.remove(i);
    for (let i = 1; i < 100; i += 4) p.insert(i, 0.1);
    expect(p.size).toBe(75);
    const total = p.totalWeight;
    expect(total).toBeCloseTo(10 * 10 + 65 * 0.1, 9);
    const rng = new Rng(11);
    const n = 100000;
    const f = frequencies(n, () => p.choose(rng.nextFloat())!);
    for (const k of [0, 10, 50, 90]) expect(Math.abs((f.get(k) ?? 0) / n - 10 / total)).toBeLessThan(0.006);
    let small = 0;
    for (const [k, c] of f) if (k % 10 !== 0) small += c;
    expect(Math.abs(small / n - 6.5 / total)).toBeLessThan(0.006);
  });

  test('sums are recomputed, not adjusted: no drift after many updates', () => {
    const p = new DiscretePDF<number>();
    const rng = new Rng(3);
    for (let i = 0; i < 300; i++) p.insert(i, rng.nextFloat());
    for (let k = 0; k < 100000; k++) p.update(rng.nextInt(300), rng.nextFloat() * 10 ** rng.nextInt(12));
    for (let i = 0; i < 300; i++) p.update(i, 0);
    expect(p.totalWeight).toBe(0);
    p.update(7, 1e-8);
    expect(p.totalWeight).toBe(1e-8);
    expect(p.choose(0.999)).toBe(7);
  });

  test('errors', () => {
    const p = new DiscretePDF<string>('nurs:test');
    p.insert('a', 1);
    expect(() => p.insert('a', 1)).toThrow(/twice/);
    expect(() => p.remove('b')).toThrow(/nurs:test: remove of an item that is not in the distribution/);
    expect(() => p.update('b', 1)).toThrow(/not in the distribution/);
    expect(() => p.insert('c', -1)).toThrow(RangeError);
    expect(() => p.insert('c', Number.NaN)).toThrow(RangeError);
    expect(() => p.update('a', Infinity)).toThrow(RangeError);
  });
});
