/**
 * tsklee's C library (runtime/libc), differentially against the host glibc.
 *
 * `scripts/build-runtime-libc.mjs --native` compiles the library natively with every symbol
 * renamed to tsklee_NAME; each driver in drivers/ links it next to glibc and compares the
 * two on edge cases and random inputs, printing one line per mismatch and a final
 * "SUMMARY checks=N mismatches=M". The bitcode build (runtime/build/libc.bc) must be
 * accepted by llvm-dis and by tsklee's own reader.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readBitcodeFile } from '../../../src/bitcode/index.js';
import { printModule } from '../../../src/ir/printer/index.js';

const ROOT = resolve('.');
const SCRIPT = join(ROOT, 'scripts', 'build-runtime-libc.mjs');
const LIBC_BC = join(ROOT, 'runtime', 'build', 'libc.bc');
const NATIVE_LIB = join(ROOT, 'runtime', 'build', 'libtsklee-libc-test.a');
const DRIVERS = join(ROOT, 'tests', 'unit', 'libc', 'drivers');

let dir: string;

beforeAll(() => {
  execFileSync(process.execPath, [SCRIPT, '--native', '--quiet'], { stdio: ['ignore', 'inherit', 'inherit'] });
  dir = mkdtempSync(join(tmpdir(), 'tsklee-libc-'));
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface DriverResult {
  checks: number;
  mismatches: number;
  lines: string[];
  stdout: string;
}

function runDriver(name: string, env: Record<string, string> = {}): DriverResult {
  const exe = join(dir, name);
  execFileSync('gcc', ['-O1', '-w', '-I', DRIVERS, join(DRIVERS, `${name}.c`), NATIVE_LIB, '-lm', '-o', exe]);
  const r = spawnSync(exe, [], { encoding: 'latin1', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  expect(r.status).toBe(0);
  const m = /SUMMARY checks=(\d+) mismatches=(\d+)/.exec(r.stdout);
  if (!m) throw new Error(`driver ${name} printed no summary:\n${r.stdout.slice(-2000)}\n${r.stderr}`);
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('MISMATCH'));
  return { checks: Number(m[1]), mismatches: Number(m[2]), lines, stdout: r.stdout };
}

function expectClean(res: DriverResult, minChecks: number): void {
  expect(res.checks).toBeGreaterThanOrEqual(minChecks);
  // show the first mismatches in the failure message
  expect(res.lines.slice(0, 20)).toEqual([]);
  expect(res.mismatches).toBe(0);
}

describe('runtime/libc against glibc (native, tsklee_ prefix)', () => {
  test('string.h / strings.h, strerror, strsignal, strverscmp', () => {
    expectClean(runDriver('string'), 100_000);
  });

  test('ctype.h tables for all 384 indices, wide classification, multibyte (C locale)', () => {
    expectClean(runDriver('ctype'), 15_000);
  });

  test('strtol family (bases 0/2..36, signs, 0x, overflow, endptr, errno), atoi, abs, div', () => {
    expectClean(runDriver('strtol'), 500_000);
  });

  test('strtod/strtof/strtold: bit-exact, endptr, errno (incl. halfway cases and hex floats)', () => {
    const res = runDriver('strtod');
    const rates = res.stdout.split('\n').filter((l) => l.startsWith('RATE'));
    expect(rates.length).toBe(7);
    expectClean(res, 400_000);
  });

  test('getopt, getopt_long, getopt_long_only: returns, globals, permutation, stderr', () => {
    expectClean(runDriver('getopt'), 15_000);
  });

  test('fnmatch (all flags but FNM_EXTMATCH), __sched_cpucount', () => {
    expectClean(runDriver('fnmatch'), 70_000);
  });

  test('qsort/bsearch, environment, exit handlers, locale, time/strftime, signals, fortify', () => {
    expectClean(runDriver('stdlib'), 50_000);
  });
});

describe('runtime/build/libc.bc', () => {
  test('llvm-dis accepts it', () => {
    expect(existsSync(LIBC_BC)).toBe(true);
    const r = spawnSync('llvm-dis-19', [LIBC_BC, '-o', '/dev/null'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('only the documented externals are left undefined', () => {
    const out = execFileSync('llvm-nm-19', ['--undefined-only', '--format=just-symbols', LIBC_BC], { encoding: 'utf8' });
    const undef = out.split('\n').map((s) => s.trim()).filter(Boolean).sort();
    // _exit, abort, malloc, free, __tsklee_write_console: engine special functions (write is a weak
    // console fallback that the POSIX model's write replaces)
    expect(undef).toEqual(['__tsklee_write_console', '_exit', 'abort', 'free', 'malloc']);
  });

  test('defines the priority functions of the coreutils list', () => {
    const out = execFileSync('llvm-nm-19', ['--defined-only', '--format=just-symbols', LIBC_BC], { encoding: 'utf8' });
    const defined = new Set(out.split('\n').map((s) => s.trim()));
    for (const f of ['__ctype_b_loc', '__ctype_get_mb_cur_max', '__errno_location', 'atexit', 'exit', 'iswprint', 'mbrtowc',
      'mbsinit', 'memcmp', 'memcpy', 'memset', 'nl_langinfo', 'setlocale', 'strcmp', 'strlen', 'strncmp', 'strrchr',
      'getopt_long', 'strchr', 'memmove', 'getenv', 'strtoumax', 'tolower', 'toupper', 'qsort', 'strtod', 'strftime',
      'localtime_r', 'mktime', 'sigaction', 'raise', 'fnmatch']) {
      expect(defined.has(f) ? f : `missing ${f}`).toBe(f);
    }
  });

  test.each([['-O0'], ['-O2'], ['-O2 -D_FORTIFY_SOURCE=2'], ['-O1 -D_FORTIFY_SOURCE=2 -std=gnu2x']])(
    'a coreutils-like program compiled with %s links against it with no other undefined symbol',
    (flags) => {
      const src = join(ROOT, 'tests', 'unit', 'libc', 'programs', 'uses-libc.c');
      const bc = join(dir, 'prog.bc');
      const linked = join(dir, 'linked.bc');
      execFileSync('clang-19', ['-w', '-c', '-emit-llvm', '-g', ...flags.split(' '), src, '-o', bc]);
      execFileSync('llvm-link-19', [bc, LIBC_BC, '-o', linked]);
      const out = execFileSync('llvm-nm-19', ['--undefined-only', '--format=just-symbols', linked], { encoding: 'utf8' });
      expect(out.split('\n').map((s) => s.trim()).filter(Boolean).sort()).toEqual(['__tsklee_write_console', '_exit', 'abort', 'free', 'malloc']);
    },
  );

  test("tsklee's bitcode reader reads it and prints every function", () => {
    const mods = readBitcodeFile(LIBC_BC);
    expect(mods.length).toBe(1);
    const text = printModule(mods[0]!);
    expect(text).toMatch(/define [^@]*@strtod\(/);
    expect(text).toMatch(/define [^@]*@getopt_long\(/);
  });

  test('tsklee run executes a concrete program linked with it like the native build (when dist/ is built)', () => {
    const cli = join(ROOT, 'dist', 'cli', 'main.js');
    if (!existsSync(cli)) return;
    const src = join(ROOT, 'tests', 'unit', 'libc', 'programs', 'concrete-mix.c');
    const exe = join(dir, 'concrete-mix');
    execFileSync('gcc', ['-w', src, '-o', exe]);
    const native = spawnSync(exe, []).status;
    expect(native).not.toBeNull();
    const bc = join(dir, 'concrete-mix.bc');
    const linked = join(dir, 'concrete-mix-linked.bc');
    execFileSync('clang-19', ['-w', '-c', '-emit-llvm', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-DEXPECT=${native}`, src, '-o', bc]);
    execFileSync('llvm-link-19', [bc, LIBC_BC, '-o', linked]);
    const out = join(dir, 'klee-out-concrete');
    const r = spawnSync(process.execPath, [cli, 'run', `--output-dir=${out}`, linked], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    // one completed path, no error (an abort would mean a difference from glibc)
    expect(r.stderr).toMatch(/completed paths = 1\b/);
    const errs = readdirSync(out).filter((f) => f.endsWith('.err'));
    expect(errs).toEqual([]);
  }, 120_000);

  test('the built CLI disassembles it (when dist/ is built)', () => {
    const cli = join(ROOT, 'dist', 'cli', 'main.js');
    if (!existsSync(cli)) return; // `npm run build` first; the reader itself is tested above
    const r = spawnSync(process.execPath, [cli, 'dis', LIBC_BC], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
