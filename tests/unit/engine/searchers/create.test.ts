import {
  createSearcher,
  DEFAULT_SEARCH,
  DEFAULT_SEARCH_WITH_MERGE,
  PTree,
  Rng,
  SEARCH_NAMES,
  SearcherConfigError,
  resolveSearchNames,
  searchRequiresCoverageOracle,
  searchRequiresPTree,
  type Searcher,
} from '../../../../src/engine/searchers/index.js';
import { fakeOracle } from './fake-state.js';
import { PathState, simulate } from './sim.js';

function setup(seed = 1): { root: PathState; ptree: PTree<PathState>; ctx: Parameters<typeof createSearcher<PathState>>[1] } {
  const root = new PathState(0);
  const ptree = new PTree(root);
  return { root, ptree, ctx: { rng: new Rng(seed), oracle: fakeOracle, ptree } };
}

describe('createSearcher', () => {
  test("KLEE's names", () => {
    expect(SEARCH_NAMES).toEqual([
      'dfs',
      'bfs',
      'random-state',
      'random-path',
      'nurs:covnew',
      'nurs:md2u',
      'nurs:depth',
      'nurs:rp',
      'nurs:icnt',
      'nurs:cpicnt',
      'nurs:qc',
    ]);
    for (const n of SEARCH_NAMES) expect(createSearcher([n], setup().ctx).name).toBe(n);
  });

  test("empty list: KLEE's default, random-path interleaved with nurs:covnew", () => {
    expect(DEFAULT_SEARCH).toEqual(['random-path', 'nurs:covnew']);
    expect(DEFAULT_SEARCH_WITH_MERGE).toEqual(['nurs:covnew']);
    expect(createSearcher([], setup().ctx).name).toBe('interleaved(random-path, nurs:covnew)');
    expect(createSearcher(['dfs', 'dfs'], setup().ctx).name).toBe('interleaved(dfs, dfs)');
  });

  test('unknown name: a clear error listing the valid ones', () => {
    expect(() => createSearcher(['dfs', 'nurs:foo'], setup().ctx)).toThrow(SearcherConfigError);
    expect(() => createSearcher(['nurs:foo'], setup().ctx)).toThrow(
      "unknown searcher 'nurs:foo' (--search): valid searchers are dfs, bfs, random-state, random-path, nurs:covnew, nurs:md2u, nurs:depth, nurs:rp, nurs:icnt, nurs:cpicnt, nurs:qc",
    );
    expect(() => resolveSearchNames(['DFS'])).toThrow(/unknown searcher 'DFS'/);
  });

  test('missing context parts', () => {
    const rng = new Rng(1);
    expect(() => createSearcher<PathState>(['random-path'], { rng, oracle: fakeOracle })).toThrow(/random-path needs the process tree/);
    expect(() => createSearcher<PathState>(['nurs:md2u'], { rng })).toThrow(/nurs:md2u needs a coverage oracle/);
    expect(createSearcher<PathState>(['nurs:qc', 'nurs:depth', 'nurs:rp', 'dfs', 'bfs', 'random-state'], { rng }).name).toBe(
      'interleaved(nurs:qc, nurs:depth, nurs:rp, dfs, bfs, random-state)',
    );
  });

  test('batching and iterative deepening wrap the core searcher, in KLEE\'s order', () => {
    const { ctx } = setup();
    const counters = { instructions: () => 0, nowSeconds: () => 0 };
    const s = createSearcher(['dfs', 'bfs'], { ...ctx, batching: { counters }, iterativeDeepeningTime: { nowSeconds: () => 0 } });
    expect(s.name).toBe('iterative-deepening-time(batching(interleaved(dfs, bfs)))');
  });

  test('what the executor must provide', () => {
    expect(searchRequiresPTree([])).toBe(true);
    expect(searchRequiresPTree(['dfs'])).toBe(false);
    expect(searchRequiresCoverageOracle([])).toBe(true);
    expect(searchRequiresCoverageOracle(['dfs', 'nurs:depth', 'nurs:rp'])).toBe(false);
    expect(searchRequiresCoverageOracle(['nurs:qc'])).toBe(true); // KLEE's userSearcherRequiresMD2U
  });

  const configs: string[][] = [...SEARCH_NAMES.map((n) => [n]), [], ['dfs', 'random-path', 'nurs:rp']];
  test.each(configs.map((c) => [c.join(' ') || '(default)', c] as const))(
    '%s explores every path of a fork tree exactly once, deterministically per seed',
    (_label, names) => {
      const run = (seed: number, batching: boolean): string[] => {
        const { root, ptree, ctx } = setup(seed);
        let insts = 0;
        const counters = { instructions: () => insts, nowSeconds: () => 0 };
        const s: Searcher<PathState> = createSearcher(names, batching ? { ...ctx, batching: { counters, instructions: 3, timeSeconds: 0 } } : ctx);
        return simulate(s, root, {
          depth: 5,
          stepsPerFork: 2,
          ptree,
          onStep: () => {
            insts++;
            ptree.validate();
          },
        }).ended;
      };
      for (const batching of [false, true]) {
        const a = run(3, batching);
        expect(a).toHaveLength(32);
        expect(new Set(a).size).toBe(32);
        expect(run(3, batching)).toEqual(a);
      }
    },
  );
});
