/**
 * Every test tsklee generates for the engine fixtures, in every configuration
 * (engine-fixtures.test.ts's matrix: clang 16 and 19, and 14 where marked, at -O0 and -O2),
 * replayed natively: the fixture is compiled with the same clang and linked with
 * runtime/replay's library (klee_make_symbolic reads the .ktest named by KTEST_FILE).
 *
 * What "ends the way tsklee reported" means, per test:
 *  - testN.<kind>.err beside the .ktest (an error path): the -O0 build with
 *    -fsanitize=address,integer-divide-by-zero,shift-exponent must fail the way the kind says
 *    (NATIVE_ERROR_MAP in tests/support/engine-harness.ts): ptr → an ASan report (out of
 *    bounds, use after free, null/wild access, bad or double free) or SIGSEGV/SIGBUS; free →
 *    an ASan report about free/malloc; div → UBSan division by zero or SIGFPE; overshift →
 *    UBSan shift exponent; assert → SIGABRT after glibc's "Assertion … failed"; abort →
 *    SIGABRT; user (an impossible klee_assume) → the replay library's klee_assume error
 *    (exit 90); any other suffix (klee_report_error) → the replay library's report + SIGABRT.
 *    The sanitized -O0 build is used for -O2 error tests too: an input tsklee reports at -O2
 *    has the undefined behaviour in the source.
 *  - no .err (a completed path): the native run must exit normally — no signal, no sanitizer
 *    report, not the replay library's mismatch status 90 — with the exit status tsklee recorded
 *    in exit-status.txt for it (unless the fixture declares "replay.exitCodes": its
 *    native run legitimately differs, e.g. klee_is_symbolic answers 0); and the exit statuses of all completed-path tests must
 *    form the fixture's histogram ("replay.exitCodes", else "exitCodes"). -O0 tests run in
 *    the sanitized -O0 build (a sanitizer report there is an error tsklee missed); -O2 tests
 *    run in a plain -O2 build, the code tsklee analysed.
 *
 * Builds are cached in fixtures/engine/build/ (<name>.clangV.san, <name>.clangV.O2.native);
 * runs come from the cache engine-fixtures.test.ts fills (or are made here); builds, runs and
 * replays go two at a time.
 */
import { buildReplayLib, describeRun, fixtureCases, listEngineFixtures, runFixtureConfigs, tskleeRunUnavailable } from '../support/engine-harness.js';
import { buildAll, replayCase, type Verdict } from '../support/replay-check.js';

const fixtures = listEngineFixtures();
const cases = fixtureCases(fixtures);

describe('native replay of the tests tsklee generates', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(`cannot replay the tests of ${cases.length} engine fixture configurations: ${unavailable}`);
    });
    return;
  }

  const verdicts: (Verdict | Error)[] = [];
  beforeAll(async () => {
    const runs = await runFixtureConfigs(cases);
    const buildErrors = await buildAll(buildReplayLib(), cases);
    // one configuration at a time (its replays go two at a time)
    for (let i = 0; i < cases.length; i++) {
      const r = runs[i]!;
      verdicts[i] = r instanceof Error ? r : await replayCase(cases[i]!, r, buildErrors);
    }
    const replayed = verdicts.reduce((n, v) => n + (v instanceof Error ? 0 : v.replayed), 0);
    process.stderr.write(`native replay: ${replayed} tests of ${cases.length} fixture configurations replayed\n`);
  }, 3_600_000);

  test.each(cases.map((c, i): [string, number] => [c.id, i]))('%s', (id, i) => {
    const v = verdicts[i];
    if (v === undefined) throw new Error(`fixture ${id}: not replayed`);
    if (v instanceof Error) throw v;
    if (v.problems.length) throw new Error(`fixture ${id}: ${v.problems.join('; ')}\n${describeRun(v.run)}`);
  });

  test('every configuration generated tests to replay', () => {
    const empty = cases.filter((_, i) => {
      const v = verdicts[i];
      return v !== undefined && !(v instanceof Error) && v.replayed === 0;
    });
    expect(empty.map((c) => c.id)).toEqual([]);
  });
});
