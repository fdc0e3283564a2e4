import { BFSSearcher } from '../../../../src/engine/searchers/bfs.js';
import { DFSSearcher } from '../../../../src/engine/searchers/dfs.js';
import { states } from './fake-state.js';
import { PathState, simulate } from './sim.js';

describe('dfs', () => {
  test('selects the last added state', () => {
    const d = new DFSSearcher();
    const [a, b, c] = states(3);
    expect(d.empty()).toBe(true);
    d.update(null, [a!], []);
    expect(d.empty()).toBe(false);
    expect(d.selectState()).toBe(a);
    d.update(a!, [b!, c!], []);
    expect(d.selectState()).toBe(c);
    d.update(c!, [], [c!]);
    expect(d.selectState()).toBe(b);
    d.update(b!, [], [a!]); // removal from the middle/front
    expect(d.toArray()).toEqual([b]);
    d.update(b!, [], [b!]);
    expect(d.empty()).toBe(true);
  });

  test('a scripted fork tree is explored depth first (forked state first)', () => {
    const r = simulate(new DFSSearcher(), new PathState(0), { depth: 2 });
    expect(r.ended).toEqual(['00', '01', '10', '11']);
    const r3 = simulate(new DFSSearcher(), new PathState(0), { depth: 3 });
    expect(r3.ended).toEqual(['000', '001', '010', '011', '100', '101', '110', '111']);
  });

  test('non-forking steps keep running the same state', () => {
    const r = simulate(new DFSSearcher(), new PathState(0), { depth: 1, stepsPerFork: 3 });
    // The root runs 3 steps (forking at the 3rd); the forked state (at full depth) ends; then the root ends.
    expect(r.selected).toEqual([0, 0, 0, 1, 0]);
    expect(r.ended).toEqual(['0', '1']);
  });

  test('removing a state that is not there, or adding one twice, throws (KLEE asserts)', () => {
    const d = new DFSSearcher();
    const [a, b] = states(2);
    d.update(null, [a!], []);
    expect(() => d.update(null, [], [b!])).toThrow(/invalid state removed/);
    expect(() => d.update(null, [a!], [])).toThrow(/added twice/);
    expect(() => new DFSSearcher().selectState()).toThrow(/empty/);
  });

  test('a state added and removed in the same update is gone', () => {
    const d = new DFSSearcher();
    const [a, b] = states(2);
    d.update(null, [a!], []);
    d.update(a!, [b!], [b!]);
    expect(d.toArray()).toEqual([a]);
  });
});

describe('bfs', () => {
  test('selects the front; a forking current state moves to the back, before its children', () => {
    const q = new BFSSearcher();
    const [a, b, c, d] = states(4);
    q.update(null, [a!, b!], []);
    expect(q.selectState()).toBe(a);
    q.update(a!, [], []); // no fork: no reordering
    expect(q.toArray()).toEqual([a, b]);
    q.update(a!, [c!], []); // a forked c
    expect(q.toArray()).toEqual([b, a, c]);
    expect(q.selectState()).toBe(b);
    q.update(b!, [d!], [b!]); // b forked d and ended: not re-queued
    expect(q.toArray()).toEqual([a, c, d]);
    q.update(null, [], [c!]);
    expect(q.toArray()).toEqual([a, d]);
  });

  test('a scripted fork tree is explored level by level', () => {
    const r = simulate(new BFSSearcher(), new PathState(0), { depth: 2 });
    // Both depth-1 states fork before any depth-2 state runs.
    expect(r.ended).toEqual(['11', '10', '01', '00']);
    const r3 = simulate(new BFSSearcher(), new PathState(0), { depth: 3 });
    expect(r3.ended).toHaveLength(8);
    expect(new Set(r3.ended).size).toBe(8);
    // Selection ids: the 1 + 2 + 4 forks come first, level by level.
    expect(r3.selected.slice(0, 3)).toEqual([0, 0, 1]);
  });

  test('errors', () => {
    const q = new BFSSearcher();
    const [a, b] = states(2);
    q.update(null, [a!], []);
    expect(() => q.update(null, [], [b!])).toThrow(/invalid state removed/);
    expect(() => q.update(b!, [a!], [])).toThrow(/not in the searcher/);
    expect(() => new BFSSearcher().selectState()).toThrow(/empty/);
  });
});
