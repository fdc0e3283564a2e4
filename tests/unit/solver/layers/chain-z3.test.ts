/**
 * The full chain over the real backend (z3 wasm): answers match the exact brute-force oracle,
 * and (TSKLEE_LAYER_BENCH=1) the layers cut the number of queries reaching z3 (logged).
 */
import type { Solver } from '../../../../src/solver/solver.js';
import { Z3Solver } from '../../../../src/solver/z3/z3-solver.js';
import { assembleChain, type ChainOptions } from '../../../../src/solver/layers/index.js';
import { BruteForceSolver } from './fake-core.js';
import { Rng, SMALL_DOMAIN, SmallGen } from './gen.js';
import { checkAgainst, pathWorkload, run } from './workload.js';

let z3ok = true;
let probe: Z3Solver | null = null;
beforeAll(async () => {
  try {
    probe = await Z3Solver.create();
  } catch {
    z3ok = false;
  }
});
afterAll(() => probe?.dispose());

test('the default chain with validation over z3 answers like the exact oracle', async () => {
  if (!z3ok) return;
  const full = new BruteForceSolver();
  const gen = new SmallGen(new Rng(5), true);
  const ops = pathWorkload(5, 3, 3, full, gen);
  const s = assembleChain(await Z3Solver.create(), { debugValidateSolver: true });
  expect(checkAgainst(s, ops, full, gen)).toBe(ops.length);
  s.dispose();
});

/** Slow (minutes): run with TSKLEE_LAYER_BENCH=1. */
const bench = process.env.TSKLEE_LAYER_BENCH === '1' ? test : test.skip;

bench('benchmark: queries reaching z3 per configuration', async () => {
  if (!z3ok) return;
  const oracle = new BruteForceSolver(SMALL_DOMAIN);
  const gen = new SmallGen(new Rng(42));
  const ops = pathWorkload(42, 40, 6, oracle, gen);
  const configs: [string, ChainOptions | null][] = [
    ['z3 alone', null],
    ['independence only', { useBranchCache: false, useCexCache: false }],
    ['query cache only', { useIndependentSolver: false, useCexCache: false }],
    ['cex cache only', { useIndependentSolver: false, useBranchCache: false }],
    ['default chain', {}],
    ['default chain + cex superset/try-all', { cexCacheSuperset: true, cexCacheTryAll: true }],
  ];
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  for (const [name, opts] of configs) {
    const z3 = await Z3Solver.create();
    const s: Solver = opts === null ? z3 : assembleChain(z3, opts);
    const t0 = performance.now();
    run(s, ops, gen);
    const ms = performance.now() - t0;
    counts[name] = z3.stats()[0]!.queries - z3.stats()[0]!.hits;
    lines.push(`${name.padEnd(40)} z3 queries ${String(counts[name]).padStart(5)}  time ${ms.toFixed(0)} ms`);
    s.dispose();
  }
  console.log(`${ops.length} queries on ${40} random paths:\n${lines.join('\n')}`);
  expect(counts['default chain']!).toBeLessThan(counts['z3 alone']!);
  expect(counts['cex cache only']!).toBeLessThan(counts['z3 alone']!);
  expect(counts['query cache only']!).toBeLessThan(counts['z3 alone']!);
});
