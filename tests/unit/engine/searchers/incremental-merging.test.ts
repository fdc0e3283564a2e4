/**
 * Incremental merging's searcher (paper 000 §4): states inside a region run breadth-first,
 * ahead of the others (which keep the base searcher's order), and move between the two as
 * they enter and leave regions; a state forked straight into a pause never reaches either.
 */
import { DFSSearcher } from '../../../../src/engine/searchers/dfs.js';
import { IncrementalMergingSearcher } from '../../../../src/engine/searchers/incremental-merging.js';
import { states } from './fake-state.js';

describe('IncrementalMergingSearcher', () => {
  test('region states first, breadth-first; the rest depth-first; moves on entry and exit', () => {
    const inRegion = new Set<unknown>();
    const [a, b, c, d, e] = states(5);
    const s = new IncrementalMergingSearcher(new DFSSearcher(), (x) => inRegion.has(x));
    s.update(null, [a!, b!], []);
    expect(s.selectState()).toBe(b); // DFS: the last added
    // b enters a region and forks c (in the region too): region states run, oldest first
    inRegion.add(b).add(c);
    s.update(b!, [c!], []);
    expect(s.selectState()).toBe(c); // BFS: b forked, so it went behind c
    inRegion.add(d);
    s.update(c!, [d!], []); // c forked d: c goes behind b, d after it
    expect(s.selectState()).toBe(b);
    // b leaves its region: back to the DFS searcher, behind the region's states
    inRegion.delete(b);
    s.update(b!, [], []);
    expect(s.selectState()).not.toBe(b);
    // e forked into a pause in one step: added and removed together, never selected
    inRegion.add(e);
    s.update(c!, [e!], [e!]);
    s.update(null, [], [c!, d!]);
    expect(s.selectState()).toBe(b); // DFS order again: b was added back last
    s.update(null, [], [b!]);
    expect(s.selectState()).toBe(a);
    s.update(null, [], [a!]);
    expect(s.empty()).toBe(true);
  });

  test('a region that gave incremental merging up: its held states go back to the base searcher when next picked', () => {
    const inRegion = new Set<unknown>();
    const [a, b, c, d] = states(4);
    const s = new IncrementalMergingSearcher(new DFSSearcher(), (x) => inRegion.has(x));
    s.update(null, [a!], []);
    inRegion.add(b).add(c).add(d);
    s.update(null, [b!, c!, d!], []);
    expect(s.selectState()).toBe(b); // breadth-first: the oldest region state
    // the region gives up (incremental.ts sets every state's regionNode to null): no update for them
    inRegion.clear();
    // depth-first now, over all four: the last added first (before: b again, breadth-first)
    expect(s.selectState()).toBe(d);
    s.update(null, [], [d!]);
    expect(s.selectState()).toBe(c);
    s.update(null, [], [c!, b!]);
    expect(s.selectState()).toBe(a);
    s.update(null, [], [a!]);
    expect(s.empty()).toBe(true);
  });
});
