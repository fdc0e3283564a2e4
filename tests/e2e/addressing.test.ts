/**
 * Relocatable addressing (paper 003) end to end. The digest's §8 programs (fixtures/addressing)
 * run under the forking model, the relocatable model alone, with segment merging (and its
 * context resolution and segment reuse) and with splitting: their completed paths, one test
 * per path, no error, and the relocation counters of run.stats are the ones
 * fixtures/addressing/expect.json gives (the paper's and the artifact's numbers where it has
 * them), and its `relations` hold between configurations. The heap and memory engine fixtures
 * run under the relocatable model give KLEE's expected paths, tests and errors. Every test of
 * every run replays natively to the outcome tsklee recorded (tests/support/replay-check.ts),
 * under both models, and a completed path's recorded stdout is the native run's. Invariants
 * are checked at every relocation and query (--check-address-invariants).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRunStats } from '../../src/output/run-stats.js';
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
const DIR = join(ROOT, 'fixtures', 'addressing');
interface Want {
  paths: number;
  stats?: Record<string, number>;
}
interface Relation {
  fixture: string;
  stat: string;
  less: string;
  than: string;
  why: string;
}
const spec = JSON.parse(readFileSync(join(DIR, 'expect.json'), 'utf8')) as { configs: Record<string, string[]>; fixtures: Record<string, Record<string, Want>>; relations: Relation[] };
const RELOCATABLE = ['--addressing=relocatable', '--check-address-invariants'];

interface Job {
  key: string;
  k: FixtureCase;
  args: string[];
  want: Want | null;
}

const jobs: Job[] = [];
for (const [name, configs] of Object.entries(spec.fixtures)) {
  const fixture: EngineFixture = { name: `addressing_${name}`, src: join(DIR, `${name}.c`), expect: { paths: 0, partial: 0, tests: 0, errors: {}, notes: '' } };
  for (const [config, want] of Object.entries(configs)) {
    const k: FixtureCase = { id: configId(fixture.name, CONFIG), fixture: { ...fixture, expect: { ...fixture.expect, paths: want.paths, tests: want.paths } }, config: CONFIG };
    jobs.push({ key: `${name} ${config}`, k, args: spec.configs[config]!, want });
  }
}
// the engine fixtures that allocate on the heap or index memory, under the relocatable model
for (const fixture of listEngineFixtures().filter((f) => /^(heap|mem)_/.test(f.name))) {
  jobs.push({ key: `${fixture.name} relocatable`, k: { id: configId(fixture.name, CONFIG), fixture, config: CONFIG }, args: RELOCATABLE, want: null });
}

describe('relocatable addressing: the paper\'s programs and the engine fixtures, replayed natively', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(unavailable);
    });
    return;
  }
  const problems = new Map<string, string[]>();
  /** The last run.stats row of each addressing job, by job key. */
  const lastRows = new Map<string, Record<string, number>>();
  beforeAll(async () => {
    const buildErrors = await buildAll(buildReplayLib(), jobs.map((j) => j.k));
    const runs = await pool(jobs, async (j) => {
      const bc = await compileBitcodeAsync(j.k.fixture.src, j.k.config);
      const extra = j.want === null ? (resolveExpectation(j.k.fixture.expect, j.k.config).args ?? []) : [];
      return runTskleeCachedAsync(bc, { args: [...j.args, ...extra] });
    });
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i]!;
      const r: TskleeRun = runs[i]!;
      const p: string[] = [];
      if (r.exitCode !== 0 || r.info === null) p.push(`tsklee exited with ${r.exitCode ?? r.signal}`);
      else if (j.want !== null) {
        if (r.info.completedPaths !== j.want.paths) p.push(`expected ${j.want.paths} completed paths, got ${r.info.completedPaths}`);
        if (r.info.generatedTests !== j.want.paths) p.push(`expected ${j.want.paths} tests (one per path), got ${r.info.generatedTests}`);
        const errs = countErrors(r.tests);
        if (Object.keys(errs).length > 0) p.push(`expected no error, got ${JSON.stringify(errs)}`);
        const s = await readRunStats(join(r.outDir, 'run.stats'));
        const last = s.rows[s.rows.length - 1]!;
        lastRows.set(j.key, Object.fromEntries(s.columns.map((c, i) => [c, Number(last[i])])));
        for (const [col, v] of Object.entries(j.want.stats ?? {})) {
          const got = last[s.columns.indexOf(col)];
          if (got !== v) p.push(`run.stats ${col}: expected ${v}, got ${got}`);
        }
      } else {
        const want = resolveExpectation(j.k.fixture.expect, j.k.config);
        if (r.info.completedPaths !== want.paths) p.push(`expected ${want.paths} completed paths (the forking model's), got ${r.info.completedPaths}`);
        if (r.info.generatedTests !== want.tests) p.push(`expected ${want.tests} tests, got ${r.info.generatedTests}`);
        const errs = countErrors(r.tests);
        for (const kind of new Set([...Object.keys(errs), ...Object.keys(want.errors ?? {})])) {
          if ((errs[kind] ?? 0) !== (want.errors?.[kind] ?? 0)) p.push(`.${kind}.err files: expected ${want.errors?.[kind] ?? 0}, got ${errs[kind] ?? 0}`);
        }
      }
      if (j.k.fixture.expect.replay?.skip === undefined) p.push(...(await replayCase(j.k, r, buildErrors, false, j.want !== null)).problems);
      if (p.length > 0) problems.set(j.key, [...p, describeRun(r)]);
    }
  }, 1_800_000);

  test.each(jobs.map((j) => j.key))('%s', (key) => {
    const p = problems.get(key);
    if (p !== undefined) throw new Error(`${key}: ${p.join('\n')}`);
  });

  test.each(spec.relations.map((r) => [`${r.fixture}: ${r.stat} of ${r.less} < ${r.than} (${r.why})`, r] as const))('%s', (_name, rel) => {
    const a = lastRows.get(`${rel.fixture} ${rel.less}`)?.[rel.stat];
    const b = lastRows.get(`${rel.fixture} ${rel.than}`)?.[rel.stat];
    if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b)) throw new Error(`no ${rel.stat} for ${rel.fixture} ${rel.less} / ${rel.than}`);
    expect(a).toBeLessThan(b);
  });
});
