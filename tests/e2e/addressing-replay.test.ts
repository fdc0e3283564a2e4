/**
 * Every test replays natively under both memory models (issue 18). addressing.test.ts covers
 * the digest's programs under both models and the heap and memory engine fixtures under the
 * relocatable one (native-replay.test.ts replays every engine fixture under KLEE's forking
 * model); this file covers the rest:
 *  - every other engine fixture under relocatable addressing alone: KLEE's paths, tests and
 *    errors (the model must change nothing observable), every test replayed natively;
 *  - the benchmark programs of bench/addressing under the forking model and under relocatable
 *    addressing with segment merging, k-context resolution and segment reuse: their completed
 *    paths (README, "Relocatable addressing"), no error, every test replayed natively and its
 *    recorded stdout the native one (values read from merged segments must print right).
 * Invariants are checked at every relocation and query (--check-address-invariants).
 */
import { join } from 'node:path';
import {
  buildReplayLib,
  compileBitcodeAsync,
  configId,
  countErrors,
  describeRun,
  listEngineFixtures,
  pool,
  resolveExpectation,
  ROOT,
  runTskleeCachedAsync,
  tskleeRunUnavailable,
  type Config,
  type EngineFixture,
  type FixtureCase,
  type TskleeRun,
} from '../support/engine-harness.js';
import { buildAll, replayCase } from '../support/replay-check.js';

const CONFIG: Config = { clang: 19, mode: 'O0' };
const RELOCATABLE = ['--addressing=relocatable', '--check-address-invariants'];
const DSMM = [...RELOCATABLE, '--segment-merging', '--context-resolve=4', '--reuse-segments'];

/**
 * Completed paths of each bench program under the forking model and under DSMM, at sizes
 * smaller than the benchmark's (clang -D flags; README's tables use the defaults): symkey_hash
 * with 4 entries (the benchmark's 8 give 383 forking paths, most of this file's time) still
 * has the forking model's path explosion that merging removes; seeded_table with a 1 KB
 * table (4 KB in the benchmark) still carries its symbolic writes into the read's array.
 */
const BENCH: Record<string, { flags: string[]; forking: number; dsmm: number }> = {
  large_table: { flags: [], forking: 3, dsmm: 3 },
  ptr_array: { flags: [], forking: 64, dsmm: 9 },
  seeded_table: { flags: ['-DENTRIES=256'], forking: 3, dsmm: 3 },
  symkey_hash: { flags: ['-DENTRIES=4'], forking: 131, dsmm: 26 },
};

interface Job {
  key: string;
  k: FixtureCase;
  args: string[];
  /** Expected completed paths of a bench program (no error); null: the engine fixture's own expectation. */
  paths: number | null;
}

const jobs: Job[] = [];
for (const fixture of listEngineFixtures().filter((f) => !/^(heap|mem)_/.test(f.name))) {
  jobs.push({ key: `${fixture.name} relocatable`, k: { id: configId(fixture.name, CONFIG), fixture, config: CONFIG }, args: RELOCATABLE, paths: null });
}
for (const [name, want] of Object.entries(BENCH)) {
  const stem = `addressing_bench_${name}${want.flags.map((f) => f.replace(/^-D\w*=/, '_')).join('')}`;
  const fixture: EngineFixture = { name: stem, src: join(ROOT, 'bench', 'addressing', `${name}.c`), flags: want.flags, expect: { paths: 0, partial: 0, tests: 0, errors: {}, notes: '' } };
  for (const [model, args, paths] of [['forking', [], want.forking], ['dsmm', DSMM, want.dsmm]] as const) {
    const k: FixtureCase = { id: configId(fixture.name, CONFIG), fixture: { ...fixture, expect: { ...fixture.expect, paths, tests: paths } }, config: CONFIG };
    jobs.push({ key: `${name} ${model}`, k, args: [...args], paths });
  }
}

describe('every test replays natively under both memory models', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(unavailable);
    });
    return;
  }
  const problems = new Map<string, string[]>();
  beforeAll(async () => {
    const buildErrors = await buildAll(buildReplayLib(), jobs.map((j) => j.k));
    const runs = await pool(jobs, async (j) => {
      const f = j.k.fixture;
      const bc = await compileBitcodeAsync(f.src, f.flags?.length ? { ...j.k.config, flags: f.flags, stem: f.name } : j.k.config);
      const extra = j.paths === null ? (resolveExpectation(j.k.fixture.expect, j.k.config).args ?? []) : [];
      return runTskleeCachedAsync(bc, { args: [...j.args, ...extra] });
    });
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i]!;
      const r: TskleeRun = runs[i]!;
      const p: string[] = [];
      const want = j.paths === null ? resolveExpectation(j.k.fixture.expect, j.k.config) : { paths: j.paths, tests: j.paths, errors: {} as Record<string, number> };
      if (r.exitCode !== 0 || r.info === null) p.push(`tsklee exited with ${r.exitCode ?? r.signal}`);
      else {
        if (r.info.completedPaths !== want.paths) p.push(`expected ${want.paths} completed paths, got ${r.info.completedPaths}`);
        if (r.info.generatedTests !== want.tests) p.push(`expected ${want.tests} tests, got ${r.info.generatedTests}`);
        const errs = countErrors(r.tests);
        for (const kind of new Set([...Object.keys(errs), ...Object.keys(want.errors ?? {})])) {
          if ((errs[kind] ?? 0) !== (want.errors?.[kind] ?? 0)) p.push(`.${kind}.err files: expected ${want.errors?.[kind] ?? 0}, got ${errs[kind] ?? 0}`);
        }
      }
      if (j.k.fixture.expect.replay?.skip === undefined) p.push(...(await replayCase(j.k, r, buildErrors, j.paths === null, j.paths !== null)).problems);
      if (p.length > 0) problems.set(j.key, [...p, describeRun(r)]);
    }
  }, 1_800_000);

  test.each(jobs.map((j) => j.key))('%s', (key) => {
    const p = problems.get(key);
    if (p !== undefined) throw new Error(`${key}: ${p.join('\n')}`);
  });
});
