import { BatchingSearcher } from '../../../../src/engine/searchers/batching.js';
import { IterativeDeepeningTimeSearcher } from '../../../../src/engine/searchers/iterative-deepening.js';
import { FakeState, states } from './fake-state.js';
import { StubSearcher } from './stub.js';

function clock(): { insts: number; now: number; instructions: () => number; nowSeconds: () => number } {
  const c = { insts: 0, now: 0, instructions: () => c.insts, nowSeconds: () => c.now };
  return c;
}

describe('batching', () => {
  test('keeps the same state until more than the instruction budget ran', () => {
    const base = new StubSearcher<FakeState>('dfs');
    const c = clock();
    const b = new BatchingSearcher(base, { counters: c, instructions: 100, timeSeconds: 0 });
    expect(b.name).toBe('batching(dfs)');
    const [s0, s1] = states(2);
    b.update(null, [s0!, s1!], []);
    expect(b.selectState()).toBe(s0);
    c.insts = 100; // == budget: still within (KLEE: "<= instructionBudget")
    expect(b.selectState()).toBe(s0);
    expect(base.selects).toBe(1);
    c.insts = 101;
    expect(b.selectState()).toBe(s1);
    expect(base.selects).toBe(2);
    c.insts = 150;
    expect(b.selectState()).toBe(s1);
  });

  test('time budget; it grows when a batch overran it by more than 10 %', () => {
    const base = new StubSearcher<FakeState>('x');
    const c = clock();
    const msgs: string[] = [];
    const b = new BatchingSearcher(base, { counters: c, instructions: 0, timeSeconds: 5, onMessage: (m) => msgs.push(m) });
    b.update(null, states(2), []);
    b.selectState();
    c.now = 5;
    b.selectState();
    expect(base.selects).toBe(1);
    c.now = 5.4; // 5.4 s > 5 s but within 10 %: no growth
    b.selectState();
    expect(base.selects).toBe(2);
    expect(b.timeBudgetSeconds).toBe(5);
    c.now = 5.4 + 8; // overran by 60 %
    b.selectState();
    expect(base.selects).toBe(3);
    expect(b.timeBudgetSeconds).toBe(8);
    expect(msgs).toEqual(['increased time budget from 5.000000 to 8.000000']);
  });

  test('a removed batch state is forgotten; no budgets = run to the end', () => {
    const base = new StubSearcher<FakeState>('x');
    const c = clock();
    const b = new BatchingSearcher(base, { counters: c, instructions: 0, timeSeconds: 0 });
    const [s0, s1] = states(2);
    b.update(null, [s0!, s1!], []);
    expect(b.selectState()).toBe(s0);
    c.insts = 1e9;
    c.now = 1e9;
    expect(b.selectState()).toBe(s0);
    b.update(s0!, [], [s0!]);
    expect(b.selectState()).toBe(s1);
    expect(base.calls).toContain('update(0;+;-0)');
  });

  test("KLEE's defaults: 10000 instructions, 5 s", () => {
    const base = new StubSearcher<FakeState>('x');
    const c = clock();
    const b = new BatchingSearcher(base, { counters: c });
    b.update(null, states(2), []);
    b.selectState();
    c.insts = 10000;
    c.now = 5;
    b.selectState();
    expect(base.selects).toBe(1);
    c.insts = 10001;
    b.selectState();
    expect(base.selects).toBe(2);
    expect(() => new BatchingSearcher(base, { counters: c, instructions: -1 })).toThrow(RangeError);
  });
});

describe('iterative deepening (time)', () => {
  test('a state over its time slice is paused; when none is left the slice doubles and they return', () => {
    const base = new StubSearcher<FakeState>('x');
    const c = clock();
    const msgs: string[] = [];
    const it = new IterativeDeepeningTimeSearcher(base, { nowSeconds: c.nowSeconds, onMessage: (m) => msgs.push(m) });
    expect(it.name).toBe('iterative-deepening-time(x)');
    const [a, b] = states(2);
    it.update(null, [a!, b!], []);
    expect(it.selectState()).toBe(a);
    c.now = 2; // 2 s > 1 s: pause a
    it.update(a!, [], []);
    expect(base.members).toEqual([b]);
    expect(it.selectState()).toBe(b);
    c.now = 2.5;
    it.update(b!, [], []); // 0.5 s: fine
    expect(base.members).toEqual([b]);
    expect(it.selectState()).toBe(b);
    c.now = 4;
    it.update(b!, [], []); // pause b too: base empty → slice 2 s, both back
    expect(it.sliceSeconds).toBe(2);
    expect(new Set(base.members)).toEqual(new Set([a, b]));
    expect(msgs).toEqual(['increased time budget to 2.000000']);
    expect(it.empty()).toBe(false);
  });

  test('a paused state that terminates is not passed on to the base searcher', () => {
    const base = new StubSearcher<FakeState>('x');
    const c = clock();
    const it = new IterativeDeepeningTimeSearcher(base, { nowSeconds: c.nowSeconds });
    const [a, b] = states(2);
    it.update(null, [a!, b!], []);
    it.selectState();
    c.now = 5;
    it.update(a!, [], []); // a paused
    it.update(null, [], [a!]); // a removed (e.g. killed): base never hears of it
    expect(base.calls.at(-1)).toBe('update(-;+;-)');
    expect(base.members).toEqual([b]);
  });
});
