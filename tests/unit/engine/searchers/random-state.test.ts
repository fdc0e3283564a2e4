import { RandomStateSearcher } from '../../../../src/engine/searchers/random-state.js';
import { Rng } from '../../../../src/util/rng.js';
import { frequencies, states } from './fake-state.js';
import { PathState, simulate } from './sim.js';

describe('random-state', () => {
  test('uniform over the live states', () => {
    const r = new RandomStateSearcher(new Rng(1));
    const s = states(5);
    r.update(null, s, []);
    r.update(null, [], [s[2]!]); // swap-removal keeps the others
    const n = 80000;
    const f = frequencies(n, () => r.selectState());
    expect(f.has(s[2]!)).toBe(false);
    for (const x of [s[0], s[1], s[3], s[4]]) expect(Math.abs((f.get(x!) ?? 0) / n - 0.25)).toBeLessThan(0.01);
  });

  test('deterministic per seed', () => {
    const run = (seed: number): string[] =>
      simulate(new RandomStateSearcher<PathState>(new Rng(seed)), new PathState(0), { depth: 5 }).ended;
    expect(run(1)).toEqual(run(1));
    expect(run(1)).not.toEqual(run(2));
    expect(new Set(run(1)).size).toBe(32);
  });

  test('empty(), errors', () => {
    const r = new RandomStateSearcher(new Rng(1));
    const [a, b] = states(2);
    expect(r.empty()).toBe(true);
    expect(() => r.selectState()).toThrow(/empty/);
    r.update(null, [a!], []);
    expect(r.selectState()).toBe(a);
    expect(() => r.update(null, [], [b!])).toThrow(/invalid state removed/);
    expect(() => r.update(null, [a!], [])).toThrow(/added twice/);
    r.update(a!, [], [a!]);
    expect(r.empty()).toBe(true);
  });
});
