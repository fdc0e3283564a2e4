/**
 * Concrete semantics against native execution: the programs in fixtures/concrete have no
 * symbolic input. Each is compiled natively (-DNATIVE) with the same clang and -O level as its
 * bitcode and prints its results ("R <index> <value>", up to 64 64-bit values); those values go
 * into a header the tsklee build includes (see fixtures/concrete/concrete.h), whose finish()
 * compares every result and calls klee_report_error("result N differs", "concrete.err") at
 * the first difference. tsklee must finish with exactly one completed path, one test and no
 * error. So every recorded value is compared, not just an exit code.
 *
 * Configurations: clang 19 at -O0 and -O2, clang 16 at -O0. Both builds use
 * -ffp-contract=off (no fused multiply-add either way). Before that, each program is checked
 * free of undefined behaviour natively (clang 19 -O0 with ASan + UBSan). Native builds are
 * cached in fixtures/concrete/build/; everything runs two processes at a time in beforeAll.
 * Filters: TSKLEE_CONCRETE_FIXTURES=a,b, TSKLEE_CLANG_VERSIONS=16,19.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  compileBitcodeAsync,
  compileNativeCached,
  CONCRETE_DIR,
  configId,
  describeRun,
  pool,
  runAsync,
  runTskleeCachedAsync,
  SANITIZER_ENV,
  tskleeRunUnavailable,
  writeFile,
  type Config,
  type TskleeRun,
} from '../support/engine-harness.js';

const FP = ['-ffp-contract=off'];
const BUILD = join(CONCRETE_DIR, 'build');
const DEPS = [join(CONCRETE_DIR, 'concrete.h')];

function envList(name: string): string[] | undefined {
  const v = process.env[name];
  return v ? v.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

interface Program {
  name: string;
  src: string;
  /** Extra `tsklee run` options from a `// tsklee-args: …` line in the source (e.g. --libc=tsklee). */
  args: string[];
  /** Extra flags for the native builds from a `// native-args: …` line (e.g. -lquadmath). */
  nativeArgs: string[];
}

const programs: Program[] = (() => {
  const only = envList('TSKLEE_CONCRETE_FIXTURES');
  return readdirSync(CONCRETE_DIR)
    .filter((f) => f.endsWith('.c'))
    .map((f) => basename(f, '.c'))
    .filter((n) => !only || only.includes(n))
    .sort()
    .map((name) => {
      const src = join(CONCRETE_DIR, `${name}.c`);
      const text = readFileSync(src, 'utf8');
      const words = (key: string): string[] => new RegExp(`^// ${key}:(.*)$`, 'm').exec(text)?.[1]!.trim().split(/\s+/) ?? [];
      return { name, src, args: words('tsklee-args'), nativeArgs: words('native-args') };
    });
})();

const configs: Config[] = (() => {
  const wanted = envList('TSKLEE_CLANG_VERSIONS')?.map(Number);
  const all: Config[] = [
    { clang: 19, mode: 'O0' },
    { clang: 19, mode: 'O2' },
    { clang: 16, mode: 'O0' },
  ];
  return all.filter((c) => !wanted || wanted.includes(c.clang));
})();

/**
 * Programs whose mismatch is a documented limitation of tsklee, not a regression: their test is
 * expected to fail (test.failing) and starts failing loudly the day the engine gets them right.
 */
const KNOWN_GAPS: Record<string, string> = {};

const cases = programs.flatMap((p) => configs.map((c) => ({ id: configId(p.name, c), program: p, config: c })));

/** Runs a -DNATIVE build and returns its results by index; throws with its stderr when it fails. */
async function nativeResults(exe: string, sanitized = false): Promise<Map<number, bigint>> {
  const r = await runAsync(exe, [], { timeoutMs: 60_000, env: { PATH: process.env.PATH ?? '', ...(sanitized ? SANITIZER_ENV : {}) } });
  if (r.status !== 0) throw new Error(`native ${basename(exe)} failed (status ${r.status ?? r.signal}):\n${r.stderr}`);
  const out = new Map<number, bigint>();
  for (const line of r.stdout.split('\n')) {
    const m = /^R (\d+) (\d+)$/.exec(line.trim());
    if (m) out.set(Number(m[1]), BigInt(m[2]));
  }
  if (out.size === 0) throw new Error(`native ${basename(exe)} printed no results:\n${r.stdout}`);
  return out;
}

/** The header the tsklee build of a concrete program includes: the natively computed results. */
function expectedHeader(results: Map<number, bigint>): string {
  const n = Math.max(...results.keys()) + 1;
  const vals = Array.from({ length: n }, (_, i) => `${results.get(i) ?? 0n}ULL`);
  const used = Array.from({ length: n }, (_, i) => (results.has(i) ? 1 : 0));
  return `#define CONCRETE_EXPECTED 1\nstatic const unsigned long long concrete_expected[${n}] = {${vals.join(', ')}};\nstatic const unsigned char concrete_used[${n}] = {${used.join(', ')}};\n#define CONCRETE_COUNT ${n}\n`;
}

/** Every difference between tsklee's run of a concrete program and the native results. */
function checkRun(r: TskleeRun, name: string, native: Map<number, bigint>): string[] {
  const problems: string[] = [];
  if (r.exitCode !== 0) problems.push(`tsklee exited with ${r.exitCode ?? r.signal}`);
  for (const t of r.tests) {
    if (!t.errKind) continue;
    const msg = /^Error: (.*)$/m.exec(t.errText ?? '')?.[1] ?? '(no message)';
    const idx = /result (\d+) differs/.exec(msg);
    if (idx) {
      const i = Number(idx[1]);
      const v = native.get(i) ?? 0n;
      problems.push(`result ${i} differs from the native value ${v} (0x${v.toString(16)}) — see put() call number ${i} in fixtures/concrete/${name}.c`);
    } else {
      problems.push(`test${t.id}.${t.errKind}.err: ${msg}${t.errText ? `\n      ${t.errText.split('\n').slice(0, 6).join('\n      ')}` : ''}`);
    }
  }
  if (!r.info) problems.push('no "KLEE: done:" totals');
  else {
    if (r.info.completedPaths !== 1) problems.push(`expected 1 completed path, got ${r.info.completedPaths}`);
    if (r.info.partiallyCompletedPaths !== 0) problems.push(`expected 0 partially completed paths, got ${r.info.partiallyCompletedPaths}`);
    if (r.info.generatedTests !== 1) problems.push(`expected 1 generated test, got ${r.info.generatedTests}`);
  }
  return problems;
}

test('there are at least 30 concrete programs', () => {
  if (process.env.TSKLEE_CONCRETE_FIXTURES) return; // filtered run
  expect(programs.length).toBeGreaterThanOrEqual(30);
});

describe('concrete programs are free of undefined behaviour natively (no tsklee needed)', () => {
  const verdicts: (Error | number)[] = [];
  beforeAll(async () => {
    await pool(programs, async (p, i) => {
      try {
        const exe = await compileNativeCached(p.src, { clang: 19, opt: ['-O0'], sanitize: true, flags: ['-DNATIVE', '-fsanitize=undefined', ...FP, ...p.nativeArgs, '-lm'], out: join(BUILD, `${p.name}.clang19.ubsan`), deps: DEPS });
        verdicts[i] = (await nativeResults(exe, true)).size; // throws with the sanitizer's report on a failure
      } catch (e) {
        verdicts[i] = e as Error;
      }
    });
  }, 1_800_000);

  test.each(programs.map((p, i): [string, number] => [p.name, i]))('%s', (_name, i) => {
    const v = verdicts[i];
    if (v instanceof Error) throw v;
    expect(v).toBeGreaterThan(0);
    expect(v).toBeLessThanOrEqual(64);
  });
});

describe('concrete programs: tsklee computes what the native build computes', () => {
  const unavailable = tskleeRunUnavailable();
  if (unavailable) {
    test('tsklee run is available', () => {
      throw new Error(`cannot run the ${cases.length} concrete program configurations: ${unavailable}`);
    });
    return;
  }

  const verdicts: (string[] | Error)[] = [];
  const runs: (TskleeRun | undefined)[] = [];
  beforeAll(async () => {
    await pool(cases, async ({ program: p, config: c }, i) => {
      try {
        const stem = `${p.name}.clang${c.clang}.${c.mode}`;
        const exe = await compileNativeCached(p.src, { clang: c.clang, opt: [c.mode === 'O0' ? '-O0' : '-O2'], flags: ['-DNATIVE', ...FP, ...p.nativeArgs, '-lm'], out: join(BUILD, `${stem}.native`), deps: DEPS });
        const native = await nativeResults(exe);
        const header = join(BUILD, `${stem}.expected.h`);
        writeFile(header, expectedHeader(native));
        // the bitcode holds the expected values (and this stable header path), so cached runs stay valid
        const bc = await compileBitcodeAsync(p.src, { ...c, flags: [...FP, '-include', header], outDir: BUILD, stem: `${p.name}.expected` });
        const r = await runTskleeCachedAsync(bc, { args: p.args });
        runs[i] = r;
        verdicts[i] = checkRun(r, p.name, native);
      } catch (e) {
        verdicts[i] = e as Error;
      }
    });
  }, 3_600_000);

  const check = (id: string, i: number): void => {
    const v = verdicts[i];
    if (v === undefined) throw new Error(`concrete ${id}: not run`);
    if (v instanceof Error) throw v;
    if (v.length) throw new Error(`concrete ${id}: ${v.join('; ')}\n${runs[i] ? describeRun(runs[i]!) : ''}`);
  };
  const exact = cases.flatMap((c, i): [string, number][] => (KNOWN_GAPS[c.program.name] ? [] : [[c.id, i]]));
  const gaps = cases.flatMap((c, i): [string, number][] => (KNOWN_GAPS[c.program.name] ? [[`${c.id} (known gap: ${KNOWN_GAPS[c.program.name]})`, i]] : []));
  test.each(exact)('%s', (id, i) => check(id, i));
  if (gaps.length) test.failing.each(gaps)('%s', (id, i) => check(id, i));
});
