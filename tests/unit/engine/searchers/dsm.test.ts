/**
 * The DSM decorator (src/engine/searchers/dsm.ts) with a scripted oracle: a state whose entry
 * (location, hash) is in another state's last δ entries is fast-forwarded; a different hash
 * or an entry older than δ is not; two states kept apart at a merge point are not
 * fast-forwarded towards each other again; a removed state's history goes with it.
 */
import { describe, expect, it } from '@jest/globals';
import { DynamicMergingSearcher } from '../../../../src/engine/searchers/dsm.js';
import type { LocationOracle, MergeSignature } from '../../../../src/engine/searchers/searcher.js';
import { FakeState } from './fake-state.js';
import { StubSearcher } from './stub.js';

/** Where each state stands now, set by the test before each update. */
const at = new Map<FakeState, MergeSignature & { pos: number }>();
const oracle: LocationOracle<FakeState> = {
  topologicalPosition: (s) => [at.get(s)!.pos],
  signature: (s) => at.get(s)!,
  endedByMerge: () => false,
};

function place(s: FakeState, location: string, hash = 0, pos = 0): void {
  at.set(s, { location, hash, pos });
}

function setUp(delta = 8): { dsm: DynamicMergingSearcher<FakeState>; base: StubSearcher<FakeState>; a: FakeState; b: FakeState } {
  at.clear();
  const base = new StubSearcher<FakeState>('stub');
  const dsm = new DynamicMergingSearcher(base, oracle, delta);
  const a = new FakeState(1);
  const b = new FakeState(2);
  place(a, 'L1', 7, 1);
  place(b, 'L9', 7, 9);
  dsm.update(null, [a, b], []);
  return { dsm, base, a, b };
}

/** Move s along the given locations, one step each (its history grows). */
function walk(dsm: DynamicMergingSearcher<FakeState>, s: FakeState, path: [string, number, number][]): void {
  for (const [l, h, p] of path) {
    place(s, l, h, p);
    dsm.update(s, [], []);
  }
}

describe('dynamic state merging searcher', () => {
  it('fast-forwards a state standing where another was within δ blocks, with the same hash', () => {
    const { dsm, base, a, b } = setUp();
    walk(dsm, a, [['L2', 7, 2], ['L3', 7, 3], ['L4', 7, 4]]);
    expect(dsm.isForwardable(b)).toBe(false);
    place(b, 'L2', 7, 2);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(true);
    expect(dsm.isForwardable(a)).toBe(false);
    expect(dsm.selectState()).toBe(b);
    expect(base.selects).toBe(0);
    expect(dsm.counters.forwardSteps).toBe(1);
    expect(dsm.counters.forwardedStates).toBe(1);
  });

  it('does not forward on another hash (other concrete hot values) or an entry older than δ', () => {
    const { dsm, a, b } = setUp(2);
    walk(dsm, a, [['L2', 7, 2], ['L3', 7, 3]]);
    place(b, 'L3', 8, 3);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(false);
    walk(dsm, a, [['L4', 7, 4], ['L5', 7, 5]]); // L2 and L3 fall out of a's last 2 entries
    place(b, 'L2', 7, 2);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(false);
    place(b, 'L4', 7, 4);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(true);
  });

  it('stops forwarding two states that met and did not merge, in both directions', () => {
    const { dsm, base, a, b } = setUp();
    walk(dsm, a, [['L2', 7, 2], ['L3', 7, 3]]);
    place(b, 'L2', 7, 2);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(true);
    dsm.apart(a, b);
    expect(dsm.isForwardable(b)).toBe(false);
    // b overtakes a on the same route: a is not forwarded towards b either
    walk(dsm, b, [['L3', 7, 3], ['L4', 7, 4], ['L5', 7, 5]]);
    place(a, 'L4', 7, 4);
    dsm.update(a, [], []);
    expect(dsm.isForwardable(a)).toBe(false);
    expect(dsm.selectState()).toBe(base.members[0]);
    // a third state on the route is still forwarded towards either
    const c = new FakeState(3);
    place(c, 'L3', 7, 3);
    dsm.update(null, [c], []);
    expect(dsm.isForwardable(c)).toBe(true);
  });

  it("forgets a removed state's history, and a forked child inherits its parent's", () => {
    const { dsm, a, b } = setUp();
    walk(dsm, a, [['L2', 7, 2], ['L3', 7, 3]]);
    place(b, 'L2', 7, 2);
    dsm.update(b, [], []);
    expect(dsm.isForwardable(b)).toBe(true);
    dsm.update(null, [], [a]);
    expect(dsm.isForwardable(b)).toBe(false);
    // b forks at L2: the child has b's history (L9, L2) and stands at L5; a state at L9 follows it
    const child = new FakeState(4);
    place(child, 'L5', 7, 5);
    dsm.update(b, [child], []);
    const d = new FakeState(5);
    place(d, 'L9', 7, 9);
    dsm.update(null, [d], []);
    expect(dsm.isForwardable(d)).toBe(true);
  });
});
