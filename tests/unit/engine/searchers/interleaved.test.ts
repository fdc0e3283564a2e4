import { BFSSearcher } from '../../../../src/engine/searchers/bfs.js';
import { DFSSearcher } from '../../../../src/engine/searchers/dfs.js';
import { InterleavedSearcher } from '../../../../src/engine/searchers/interleaved.js';
import { FakeState, states } from './fake-state.js';
import { StubSearcher } from './stub.js';

describe('interleaved', () => {
  test('two searchers alternate, starting with the first', () => {
    const ss = states(3);
    const i = new InterleavedSearcher<FakeState>([new DFSSearcher(), new BFSSearcher()]);
    expect(i.name).toBe('interleaved(dfs, bfs)');
    i.update(null, ss, []);
    // dfs picks the last, bfs the first.
    expect([0, 1, 2, 3].map(() => i.selectState().id)).toEqual([2, 0, 2, 0]);
  });

  test("three searchers: KLEE's order (index counts down from 1 modulo n): 1st, 3rd, 2nd, 1st, …", () => {
    const subs = ['a', 'b', 'c'].map((n) => new StubSearcher<FakeState>(n));
    const i = new InterleavedSearcher<FakeState>(subs);
    i.update(null, states(1), []);
    const order: string[] = [];
    for (let k = 0; k < 6; k++) {
      const before = subs.map((s) => s.selects);
      i.selectState();
      order.push(subs.find((s, j) => s.selects !== before[j])!.name);
    }
    expect(order).toEqual(['a', 'c', 'b', 'a', 'c', 'b']);
  });

  test('every sub-searcher sees every update; empty() is the first one\'s', () => {
    const subs = [new StubSearcher<FakeState>('a'), new StubSearcher<FakeState>('b')];
    const i = new InterleavedSearcher<FakeState>(subs);
    const [x, y] = states(2);
    expect(i.empty()).toBe(true);
    i.update(null, [x!], []);
    i.update(x!, [y!], [x!]);
    for (const s of subs) expect(s.calls).toEqual(['update(-;+0;-)', 'update(0;+1;-0)']);
    expect(i.empty()).toBe(false);
    expect(() => new InterleavedSearcher<FakeState>([])).toThrow(/no sub-searchers/);
  });
});
