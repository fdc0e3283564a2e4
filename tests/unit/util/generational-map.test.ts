/** The bounded map behind tsklee's caches (src/util/generational-map.ts). */
import { describe, expect, it } from '@jest/globals';
import { GenerationalMap } from '../../../src/util/generational-map.js';

describe('GenerationalMap', () => {
  it('holds at most twice its capacity, evicting the least recently used in bulk', () => {
    const evicted: number[] = [];
    const m = new GenerationalMap<number, number>({ capacity: 4, onEvict: (v) => evicted.push(v) });
    for (let i = 0; i < 100; i++) {
      m.set(i, i * 10);
      expect(m.size).toBeLessThanOrEqual(8);
    }
    expect(m.evicted).toBe(evicted.length);
    expect(m.evicted + m.size).toBe(100);
    // the last `capacity` insertions are always there, the first ones are gone
    for (let i = 96; i < 100; i++) expect(m.get(i)).toBe(i * 10);
    expect(m.get(0)).toBeUndefined();
    expect(evicted.slice(0, 4)).toEqual([0, 10, 20, 30]);
  });

  it('keeps an entry that is used: a hit in the old generation moves it to the young one', () => {
    const m = new GenerationalMap<string, number>({ capacity: 3 });
    m.set('hot', 1);
    for (let i = 0; i < 30; i++) {
      m.set(`cold${i}`, i);
      expect(m.get('hot')).toBe(1); // used after every insertion: never evicted
    }
    expect(m.has('cold0')).toBe(false);
    expect(m.rotations).toBeGreaterThan(5);
  });

  it('manual rotation: set never evicts, rotate() and rotateIfFull() do', () => {
    const released: number[] = [];
    const m = new GenerationalMap<number, number>({ capacity: 2, manual: true, onEvict: (v) => released.push(v) });
    for (let i = 0; i < 10; i++) m.set(i, i);
    expect(m.size).toBe(10);
    expect(m.youngSize).toBe(10);
    m.rotateIfFull();
    expect(m.youngSize).toBe(0);
    expect(released).toEqual([]); // the old generation was empty
    expect(m.get(3)).toBe(3); // promoted
    m.rotate();
    expect(released.sort((a, b) => a - b)).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(m.size).toBe(1);
    m.clear();
    expect(released).toContain(3);
    expect(m.size).toBe(0);
  });

  it('refuses a capacity below one; Infinity never evicts', () => {
    expect(() => new GenerationalMap({ capacity: 0 })).toThrow(/capacity/);
    const m = new GenerationalMap<number, number>({ capacity: Infinity });
    for (let i = 0; i < 1000; i++) m.set(i, i);
    expect(m.size).toBe(1000);
    expect(m.evicted).toBe(0);
  });
});
