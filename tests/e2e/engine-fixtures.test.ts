/**
 * The engine end to end: every program in fixtures/engine (written for KLEE) is compiled with
 * clang 16 and 19 (and 14 where the fixture says "clang14") at -O0 and -O2, run with
 * `tsklee run --search=dfs`, and its output directory is compared with the expectation written
 * beside it (fixtures/engine/<name>.expect.json): KLEE's completed paths, partially completed
 * paths and generated tests, the .err files per kind, the symbolic objects of each test,
 * where given values the tests must hold, and the exit statuses tsklee records in exit-status.txt
 * of the completed paths against "exitCodes". fixtures/engine/README.md explains how the
 * expectations are derived from KLEE's counting rules.
 *
 * All configurations are compiled and run first, two tsklee processes at a time (beforeAll);
 * the runs are cached for tests/e2e/native-replay.test.ts. Needs `npm run build` (the CLI in
 * dist/). Filters: TSKLEE_ENGINE_FIXTURES=a,b,
 * TSKLEE_CLANG_VERSIONS=16,19, TSKLEE_ENGINE_MODES=O0.
 */
import {
  configId,
  countErrors,
  decodeInt,
  describeRun,
  engineConfigs,
  fixtureCases,
  listEngineFixtures,
  matchExitCodes,
  resolveExpectation,
  runFixtureConfigs,
  tskleeRunUnavailable,
  type EngineFixture,
  type Expectation,
  type TskleeRun,
} from '../support/engine-harness.js';

const fixtures = listEngineFixtures();
const cases = fixtureCases(fixtures);

function fmt(o: Record<string, number>): string {
  const e = Object.entries(o).filter(([, n]) => n !== 0);
  return e.length ? e.map(([k, n]) => `${k}: ${n}`).join(', ') : 'none';
}

/** Every difference between a run and its expectation, one line each. */
function checkRun(r: TskleeRun, want: Expectation): string[] {
  const problems: string[] = [];
  if (r.exitCode !== 0) problems.push(`tsklee exited with ${r.exitCode ?? r.signal} (KLEE exits 0 when the program has errors)`);
  if (!r.info) {
    problems.push('no "KLEE: done: completed paths = …" totals in the info file or on stderr');
  } else {
    if (r.info.completedPaths !== want.paths) problems.push(`expected ${want.paths} completed paths, got ${r.info.completedPaths}`);
    if (r.info.partiallyCompletedPaths !== want.partial)
      problems.push(`expected ${want.partial} partially completed paths, got ${r.info.partiallyCompletedPaths}`);
    if (r.info.generatedTests !== want.tests) problems.push(`expected ${want.tests} generated tests (info), got ${r.info.generatedTests}`);
  }
  const ktests = r.tests.filter((t) => t.ktest);
  if (ktests.length !== want.tests) problems.push(`expected ${want.tests} .ktest files, found ${ktests.length}`);
  // tsklee's own record of each completed path's exit status (exit-status.txt, a line per .ktest)
  const unlisted = ktests.filter((t) => !t.exitLine).map((t) => `test${t.id}`);
  if (unlisted.length > 0) problems.push(`no exit-status.txt line for ${unlisted.join(', ')}`);
  const statuses = ktests.filter((t) => !t.errKind && t.exitStatus !== undefined).map((t) => t.exitStatus!);
  if (want.exitCodes && statuses.length > 0) {
    const bad = matchExitCodes(want.exitCodes, statuses);
    if (bad) problems.push(`exit-status.txt: ${bad}`);
  }
  const errs = countErrors(r.tests);
  const wantErrs = want.errors ?? {};
  const kinds = new Set([...Object.keys(errs), ...Object.keys(wantErrs)]);
  if ([...kinds].some((k) => (errs[k] ?? 0) !== (wantErrs[k] ?? 0))) problems.push(`expected .err files {${fmt(wantErrs)}}, got {${fmt(errs)}}`);
  for (const t of r.tests) {
    if (t.errKind && !t.ktest) problems.push(`test${t.id}.${t.errKind}.err has no .ktest (KLEE writes the inputs of every reported error)`);
    if (t.early) problems.push(`test${t.id}.early: a state ended early (not expected for these small programs)`);
  }
  if (want.objects) {
    for (const t of ktests) {
      const names = t.ktest!.objects.map((o) => o.name);
      if (JSON.stringify(names) !== JSON.stringify(want.objects))
        problems.push(`test${t.id}.ktest holds objects [${names.join(', ')}], expected [${want.objects.join(', ')}]`);
    }
  }
  for (const v of want.ktestValues ?? []) {
    for (const t of ktests) {
      const o = t.ktest!.objects.find((x) => x.name === v.object);
      if (!o) {
        problems.push(`test${t.id}.ktest has no object '${v.object}'`);
        continue;
      }
      const got = decodeInt(o.bytes, v.type);
      if (!v.oneOf.map((x) => BigInt(x)).includes(got)) problems.push(`test${t.id}.ktest: ${v.object} = ${got}, expected one of [${v.oneOf.join(', ')}]`);
    }
  }
  return problems;
}

describe('engine fixtures: tsklee run matches KLEE', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(`cannot run the ${cases.length} engine fixture configurations: ${unavailable}`);
    });
    return;
  }

  let runs: (TskleeRun | Error)[] = [];
  beforeAll(async () => {
    runs = await runFixtureConfigs(cases);
  }, 3_600_000);

  test.each(cases.map((c, i): [string, number] => [c.id, i]))('%s', (id, i) => {
    const { fixture, config } = cases[i]!;
    const r = runs[i];
    if (r === undefined) throw new Error(`fixture ${id}: not run`);
    if (r instanceof Error) throw r;
    const want = resolveExpectation(fixture.expect, config);
    const problems = checkRun(r, want);
    if (problems.length) throw new Error(`fixture ${id}: ${problems.join('; ')}\n  why these numbers: ${want.notes}\n${describeRun(r)}`);
  });
});

describe('engine fixtures: the expectation files', () => {
  test('there are at least 60 fixtures', () => {
    if (process.env.TSKLEE_ENGINE_FIXTURES) return; // filtered run
    expect(fixtures.length).toBeGreaterThanOrEqual(60);
  });

  test.each(fixtures.map((f): [string, EngineFixture] => [f.name, f]))('%s is well formed', (_name, f) => {
    const problems: string[] = [];
    for (const c of engineConfigs(f.expect.clang14 === true)) {
      const e = resolveExpectation(f.expect, c);
      for (const k of ['paths', 'partial', 'tests'] as const)
        if (!Number.isInteger(e[k]) || e[k] < 0) problems.push(`${configId(f.name, c)}: '${k}' must be a count`);
      const nErr = Object.values(e.errors ?? {}).reduce((a, b) => a + b, 0);
      // KLEE writes one test per completed path and one per reported error.
      if (e.tests !== e.paths + nErr) problems.push(`${configId(f.name, c)}: tests (${e.tests}) != paths (${e.paths}) + reported errors (${nErr})`);
      if (nErr > e.partial) problems.push(`${configId(f.name, c)}: more reported errors (${nErr}) than partially completed paths (${e.partial})`);
      if (e.exitCodes) {
        const n = Object.values(e.exitCodes).reduce((a, b) => a + b, 0);
        if (n !== e.paths) problems.push(`${configId(f.name, c)}: exitCodes describe ${n} paths, expected ${e.paths}`);
      }
    }
    if (!f.expect.notes) problems.push('no notes: say how the counts are derived');
    expect(problems).toEqual([]);
  });
});
