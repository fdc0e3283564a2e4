import { PTree } from '../../../../src/engine/searchers/ptree.js';
import { RandomPathSearcher } from '../../../../src/engine/searchers/random-path.js';
import { Rng } from '../../../../src/util/rng.js';
import { FakeState, frequencies, states } from './fake-state.js';
import { PathState, simulate } from './sim.js';

/** s1 at depth 1, s2 at depth 2, s3 and s0 at depth 3 (KLEE's fork shape: current on the right). */
function staircase(): { t: PTree<FakeState>; s: FakeState[] } {
  const s = states(4);
  const t = new PTree(s[0]!);
  t.fork(s[0]!, s[1]!, s[0]!);
  t.fork(s[0]!, s[2]!, s[0]!);
  t.fork(s[0]!, s[3]!, s[0]!);
  return { t, s };
}

describe('random-path', () => {
  test('a state at depth d is chosen with probability 2^-d', () => {
    const { t, s } = staircase();
    const rp = new RandomPathSearcher(t, new Rng(1));
    rp.update(null, s, []);
    const n = 80000;
    const f = frequencies(n, () => rp.selectState());
    const p = (x: FakeState): number => (f.get(x) ?? 0) / n;
    expect(p(s[1]!)).toBeCloseTo(0.5, 1);
    expect(Math.abs(p(s[1]!) - 1 / 2)).toBeLessThan(0.01);
    expect(Math.abs(p(s[2]!) - 1 / 4)).toBeLessThan(0.01);
    expect(Math.abs(p(s[3]!) - 1 / 8)).toBeLessThan(0.01);
    expect(Math.abs(p(s[0]!) - 1 / 8)).toBeLessThan(0.01);
  });

  test('after a sibling is pruned, the walk goes through the one-child node without a coin flip', () => {
    const { t, s } = staircase();
    const rp = new RandomPathSearcher(t, new Rng(2));
    rp.update(null, s, []);
    rp.update(null, [], [s[1]!]);
    t.remove(s[1]!);
    t.validate();
    const n = 40000;
    const f = frequencies(n, () => rp.selectState());
    expect(f.get(s[1]!)).toBeUndefined();
    expect(Math.abs((f.get(s[2]!) ?? 0) / n - 1 / 2)).toBeLessThan(0.01);
    expect(Math.abs((f.get(s[3]!) ?? 0) / n - 1 / 4)).toBeLessThan(0.01);
  });

  test('the same seed and updates give the same selections; another seed differs', () => {
    const run = (seed: number): number[] => {
      const { t, s } = staircase();
      const rp = new RandomPathSearcher(t, new Rng(seed));
      rp.update(null, s, []);
      return Array.from({ length: 200 }, () => rp.selectState().id);
    };
    expect(run(5)).toEqual(run(5));
    expect(run(5)).not.toEqual(run(6));
  });

  test('a state removed from the searcher but alive in the tree is never chosen', () => {
    const { t, s } = staircase();
    const rp = new RandomPathSearcher(t, new Rng(3));
    rp.update(null, s, []);
    rp.update(null, [], [s[1]!, s[3]!]); // e.g. paused by a decorator
    t.validate();
    const f = frequencies(2000, () => rp.selectState());
    expect([...f.keys()].sort((a, b) => a.id - b.id)).toEqual([s[0], s[2]]);
    rp.update(null, [s[1]!], []); // given back
    t.validate();
    expect(frequencies(2000, () => rp.selectState()).has(s[1]!)).toBe(true);
  });

  test('two random-path searchers share one tree with separate memberships', () => {
    const { t, s } = staircase();
    const a = new RandomPathSearcher(t, new Rng(4));
    const b = new RandomPathSearcher(t, new Rng(4));
    a.update(null, s, []);
    b.update(null, [s[2]!], []);
    t.validate();
    expect(frequencies(500, () => b.selectState())).toEqual(new Map([[s[2]!, 500]]));
    expect(frequencies(2000, () => a.selectState()).size).toBe(4);
  });

  test('empty(), and removal of states not present throws', () => {
    const { t, s } = staircase();
    const rp = new RandomPathSearcher(t, new Rng(1));
    expect(rp.empty()).toBe(true);
    expect(() => rp.selectState()).toThrow(/empty/);
    rp.update(null, [s[0]!], []);
    expect(rp.empty()).toBe(false);
    expect(rp.selectState()).toBe(s[0]);
    expect(() => rp.update(null, [], [s[1]!])).toThrow(/invalid state removed/);
    expect(() => rp.update(null, [s[0]!], [])).toThrow(/added twice/);
    expect(() => rp.update(null, [new FakeState(99)], [])).toThrow(/not in the process tree/);
    rp.update(null, [], [s[0]!]);
    expect(rp.empty()).toBe(true);
  });

  test('works whether the executor removes from the tree before or after the searcher update', () => {
    const { t, s } = staircase();
    const rp = new RandomPathSearcher(t, new Rng(1));
    rp.update(null, s, []);
    t.remove(s[3]!); // tree first
    rp.update(null, [], [s[3]!]);
    t.validate();
    expect(frequencies(1000, () => rp.selectState()).has(s[3]!)).toBe(false);
  });

  test('explores a whole fork tree with the executor protocol, the tree staying valid', () => {
    const root = new PathState(0);
    const t = new PTree(root);
    const r = simulate(new RandomPathSearcher(t, new Rng(9)), root, { depth: 6, ptree: t, onStep: () => t.validate() });
    expect(r.ended).toHaveLength(64);
    expect(new Set(r.ended).size).toBe(64);
    expect(t.root).toBeNull();
  });
});
