/**
 * Every layer, alone and assembled, answers like the brute-force core on random path-shaped
 * workloads (truth and validity exactly; values must be attainable; models must satisfy).
 */
import { type Solver } from '../../../../src/solver/solver.js';
import { assembleChain, CexCachingSolver, IndependentSolver, QueryCacheSolver } from '../../../../src/solver/layers/index.js';
import { BruteForceSolver } from './fake-core.js';
import { Rng, SMALL_DOMAIN, SmallGen } from './gen.js';
import { checkAgainst, pathWorkload } from './workload.js';

const configs: [string, (core: BruteForceSolver) => Solver][] = [
  ['independence', (c) => new IndependentSolver(c)],
  ['query cache', (c) => new QueryCacheSolver(c)],
  ['cex cache', (c) => new CexCachingSolver(c)],
  ['cex cache (try-all, superset, exp)', (c) => new CexCachingSolver(c, { cexCacheTryAll: true, cexCacheSuperset: true, cexCacheExp: true })],
  // the fast layers reason about all 256 byte values, so they are off under the restricted domain
  ['default chain', (c) => assembleChain(c, { useFastSolver: false })],
  ['chain, every cex option', (c) => assembleChain(c, { useFastSolver: false, cexCacheTryAll: true, cexCacheSuperset: true, cexCacheExp: true })],
  ['validating chain', (c) => assembleChain(c, { useFastSolver: false, debugValidateSolver: true, validationOracle: new BruteForceSolver(SMALL_DOMAIN) })],
];

describe.each([1, 2])('random workload, seed %i (restricted byte domain)', (seed) => {
  const oracle = new BruteForceSolver(SMALL_DOMAIN);
  const gen = new SmallGen(new Rng(seed));
  const ops = pathWorkload(seed, 14, 5, oracle, gen);
  test.each(configs)('%s', (_name, make) => {
    const core = new BruteForceSolver(SMALL_DOMAIN);
    const s = make(core);
    expect(checkAgainst(s, ops, oracle, gen)).toBe(ops.length);
    expect(ops.length).toBeGreaterThan(250);
    s.dispose();
    expect(core.disposed).toBe(true);
  });
});

describe('exact (all 256 byte values)', () => {
  const full = new BruteForceSolver();
  const gen = new SmallGen(new Rng(99), true);
  const ops = pathWorkload(99, 3, 3, full, gen);
  const withFast: [string, (core: BruteForceSolver) => Solver] = ['default chain with the fast layers', (c) => assembleChain(c)];
  test.each([configs[0]!, configs[2]!, configs[4]!, withFast])('%s', (_name, make) => {
    const s = make(new BruteForceSolver());
    expect(checkAgainst(s, ops, full, gen)).toBe(ops.length);
  });
});
