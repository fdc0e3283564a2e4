/**
 * State merging keeps tests tests (paper 001 issue, "Tests stay tests"): every engine fixture
 * (clang 19, -O0) run with --state-merging=static, dynamic (random-path driving) and static
 * merging everything (--qce-alpha=inf) must report the same errors as without merging (the
 * .err files per kind of the fixture's expectation: errors are reported once per instruction
 * and message, and merging neither hides nor invents one), never more completed paths than
 * without merging, and every test it writes must replay natively to the outcome it recorded
 * (a merged state's test is one model of its disjunctive path condition).
 */
import { buildReplayLib, configId, countErrors, describeRun, listEngineFixtures, pool, resolveExpectation, runTskleeCachedAsync, compileBitcodeAsync, tskleeRunUnavailable, type Config, type FixtureCase, type TskleeRun } from '../support/engine-harness.js';
import { buildAll, replayCase } from '../support/replay-check.js';

const CONFIG: Config = { clang: 19, mode: 'O0' };
const MODES: { name: string; args: string[]; search?: string }[] = [
  { name: 'static', args: ['--state-merging=static'] },
  { name: 'dynamic', args: ['--state-merging=dynamic'], search: 'random-path' },
  { name: 'static-all', args: ['--state-merging=static', '--qce-alpha=inf'] },
];

const cases: FixtureCase[] = listEngineFixtures().map((fixture) => ({ id: configId(fixture.name, CONFIG), fixture, config: CONFIG }));
/** Error counts per kind, kinds in order, zero counts left out. */
const fmt = (o: Record<string, number>): string => JSON.stringify(Object.entries(o).filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : 1)));

describe('state merging on the engine fixtures: same errors, tests that replay natively', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(unavailable);
    });
    return;
  }
  const problems = new Map<string, string[]>();
  let replayed = 0;
  let merges = 0;
  beforeAll(async () => {
    const buildErrors = await buildAll(buildReplayLib(), cases);
    const jobs = cases.flatMap((k) => MODES.map((m) => ({ k, m })));
    const runs = await pool(jobs, async ({ k, m }) => {
      const want = resolveExpectation(k.fixture.expect, k.config);
      const bc = await compileBitcodeAsync(k.fixture.src, k.config);
      return runTskleeCachedAsync(bc, { args: [...m.args, ...(want.args ?? [])], search: m.search ?? 'dfs' });
    });
    for (let i = 0; i < jobs.length; i++) {
      const { k, m } = jobs[i]!;
      const r: TskleeRun = runs[i]!;
      const key = `${k.id} ${m.name}`;
      const want = resolveExpectation(k.fixture.expect, k.config);
      const p: string[] = [];
      if (r.exitCode !== 0 || r.info === null) p.push(`tsklee exited with ${r.exitCode ?? r.signal}`);
      else if (r.info.completedPaths > want.paths) p.push(`${r.info.completedPaths} completed paths, more than the ${want.paths} without merging`);
      const errs = countErrors(r.tests);
      if (fmt(errs) !== fmt(want.errors ?? {}))
        p.push(`.err files ${fmt(errs)}, without merging ${fmt(want.errors ?? {})}`);
      const merged = /merged states = (\d+)/.exec(r.infoText);
      merges += merged ? Number(merged[1]) : 0;
      if (want.replay?.skip === undefined) {
        const v = await replayCase(k, r, buildErrors, false);
        replayed += v.replayed;
        p.push(...v.problems);
      }
      if (p.length > 0) problems.set(key, [...p, describeRun(r)]);
    }
    process.stderr.write(`merging fixtures: ${jobs.length} runs, ${merges} merges, ${replayed} tests replayed natively\n`);
  }, 3_600_000);

  test.each(cases.flatMap((k) => MODES.map((m) => `${k.id} ${m.name}`)))('%s', (key) => {
    const p = problems.get(key);
    if (p !== undefined) throw new Error(`${key}: ${p.join('\n')}`);
  });

  test('merging happened on the fixtures', () => {
    expect(merges).toBeGreaterThan(50);
  });
});
