/**
 * Native replay of an engine fixture run's tests (shared by native-replay.test.ts and the
 * merging fixtures test): see native-replay.test.ts for what "ends the way tsklee reported"
 * means for error and completed-path tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkErrorOutcome,
  classifyNative,
  compileNativeCached,
  describeOutcome,
  ENGINE_DIR,
  matchExitCodes,
  pool,
  REPLAY_ERROR_EXIT,
  replayNativeAsync,
  resolveExpectation,
  type Config,
  type EngineFixture,
  type FixtureCase,
  type TskleeRun,
} from './engine-harness.js';

const BUILD = join(ENGINE_DIR, 'build');

/** The native executable a test of this configuration replays in. */
export function exePath(f: EngineFixture, c: Config, sanitized: boolean): string {
  return join(BUILD, sanitized ? `${f.name}.clang${c.clang}.san` : `${f.name}.clang${c.clang}.${c.mode}.native`);
}

/** Builds every native executable the cases need, two at a time. */
export async function buildAll(lib: string, cases: readonly FixtureCase[]): Promise<Map<string, Error | undefined>> {
  const builds = new Map<string, () => Promise<string>>();
  for (const { fixture: f, config: c } of cases) {
    const san = exePath(f, c, true);
    const flags = [...(f.flags ?? []), '-lm'];
    builds.set(san, () => compileNativeCached(f.src, { clang: c.clang, opt: ['-O0'], sanitize: true, replayLib: lib, out: san, flags }));
    if (c.mode !== 'O0') {
      const plain = exePath(f, c, false);
      builds.set(plain, () => compileNativeCached(f.src, { clang: c.clang, opt: ['-O2'], replayLib: lib, out: plain, flags }));
    }
  }
  const errors = new Map<string, Error | undefined>();
  await pool([...builds], async ([out, build]) => {
    try {
      await build();
      errors.set(out, undefined);
    } catch (e) {
      errors.set(out, e as Error);
    }
  });
  return errors;
}

export interface Verdict {
  problems: string[];
  replayed: number;
  run: TskleeRun;
}

/**
 * Replays every test of one configuration's run and says what did not end as tsklee reported.
 * `checkHistogram`: also match the completed paths' exit statuses against the fixture's
 * histogram (only without merging: a merged state stands for several paths). `checkStdout`:
 * also compare each completed path's recorded stdout with that same native run's (one
 * native run per test serves both checks).
 */
export async function replayCase(k: FixtureCase, r: TskleeRun, buildErrors: Map<string, Error | undefined>, checkHistogram = true, checkStdout = false): Promise<Verdict> {
  const { fixture: f, config: c } = k;
  const want = resolveExpectation(f.expect, c);
  const san = exePath(f, c, true);
  const completedExe = c.mode === 'O0' ? san : exePath(f, c, false);
  for (const exe of new Set([san, completedExe])) {
    const e = buildErrors.get(exe);
    if (e) return { problems: [e.message], replayed: 0, run: r };
  }
  const problems: string[] = [];
  const codes: number[] = [];
  // a fixture whose native run legitimately differs (klee_is_symbolic is 0 natively) says so
  const nativeDiffers = want.replay?.exitCodes !== undefined;
  const tests = r.tests.filter((t) => t.path !== undefined);
  await pool(tests, async (t) => {
    const name = `test${String(t.id).padStart(6, '0')}`;
    if (t.errKind) {
      const why = checkErrorOutcome(t.errKind, classifyNative(await replayNativeAsync(san, t.path!)));
      if (why) problems.push(`${name}: ${why}`);
      return;
    }
    const native = await replayNativeAsync(completedExe, t.path!);
    if (checkStdout) {
      const why = stdoutDiffers(t.path!, native.stdout);
      if (why) problems.push(`${name}: ${why}`);
    }
    const o = classifyNative(native);
    if (o.kind !== 'exit' || o.code === REPLAY_ERROR_EXIT) {
      problems.push(`${name} (a completed path) replayed natively ended with ${describeOutcome(o)}${c.mode === 'O0' ? ' (sanitized build: an error tsklee missed?)' : ''}`);
      return;
    }
    codes.push(o.code);
    if (!nativeDiffers && t.exitStatus !== undefined && t.exitStatus !== o.code) problems.push(`${name}: tsklee recorded exit status ${t.exitStatus}, the native run exited with ${o.code}`);
  });
  const hist = want.replay?.exitCodes ?? want.exitCodes;
  if (hist && checkHistogram) {
    const bad = matchExitCodes(hist, codes);
    if (bad) problems.push(`completed-path tests: ${bad}`);
  }
  return { problems, replayed: tests.length, run: r };
}

/**
 * Why a completed path's recorded stdout (testN.stdout beside testN.ktest, evaluated under the
 * test's inputs) is not what the native program printed on them, or undefined: values read
 * from moved objects must come out right.
 */
function stdoutDiffers(ktest: string, native: string): string | undefined {
  const file = ktest.replace(/\.ktest$/, '.stdout');
  const recorded = existsSync(file) ? readFileSync(file, 'utf8') : '';
  return native === recorded ? undefined : `recorded stdout ${JSON.stringify(recorded)}, native ${JSON.stringify(native)}`;
}
