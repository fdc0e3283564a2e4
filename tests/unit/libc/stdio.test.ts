/**
 * tsklee's stdio (runtime/libc/stdio), differentially against the host glibc.
 *
 * Same machinery as libc.test.ts: the native test library has every symbol renamed to
 * tsklee_NAME, so each driver calls glibc's snprintf and tsklee_snprintf side by side and
 * prints "SUMMARY checks=N mismatches=M" (plus one MISMATCH line per difference).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  dir = mkdtempSync(join(tmpdir(), 'tsklee-stdio-'));
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runDriver(name: string, libs: string[] = []): { checks: number; mismatches: number; lines: string[] } {
  const exe = join(dir, name);
  execFileSync('gcc', ['-O1', '-w', '-I', DRIVERS, join(DRIVERS, `${name}.c`), NATIVE_LIB, ...libs, '-lm', '-o', exe]);
  const r = spawnSync(exe, [], { encoding: 'latin1', maxBuffer: 1 << 28 });
  expect(r.status).toBe(0);
  const m = /SUMMARY checks=(\d+) mismatches=(\d+)/.exec(r.stdout);
  if (!m) throw new Error(`driver ${name} printed no summary:\n${r.stdout.slice(-2000)}\n${r.stderr}`);
  const lines = r.stdout.split('\n').filter((l) => l.startsWith('MISMATCH'));
  return { checks: Number(m[1]), mismatches: Number(m[2]), lines };
}

function expectClean(res: { checks: number; mismatches: number; lines: string[] }, minChecks: number): void {
  expect(res.checks).toBeGreaterThanOrEqual(minChecks);
  expect(res.lines.slice(0, 20)).toEqual([]);
  expect(res.mismatches).toBe(0);
}

describe('runtime/libc/stdio against glibc (native, tsklee_ prefix)', () => {
  test('printf family: all flags/width/precision on integers, strings, %p %n %m, exact %e %f %g %a of doubles and long doubles', () => {
    expectClean(runDriver('stdio_printf'), 700_000);
  }, 120_000);

  test('__float128 text: strfromf128 against glibc, quadmath_snprintf against libquadmath', () => {
    expectClean(runDriver('stdio_float128', ['-lquadmath']), 5_000);
  }, 60_000);

  test('scanf family: returns, assigned values, %n, %[...], widths, failures, %m allocation', () => {
    expectClean(runDriver('stdio_scanf'), 20_000);
  }, 60_000);

  test('FILE streams on temp files (fopen/fwrite/fread/fgets/fseek/ungetc/getline/append/fdopen), inline getc/putc', () => {
    expectClean(runDriver('stdio_file'), 8_000);
  }, 60_000);
});

describe('stdio streams of a whole (native) program', () => {
  function runProgram(name: string, code: string, input = ''): { status: number | null; stdout: string; stderr: string } {
    const src = join(dir, `${name}.c`);
    writeFileSync(src, code);
    const exe = join(dir, name);
    execFileSync('gcc', ['-O1', '-w', src, NATIVE_LIB, '-lm', '-o', exe]);
    const r = spawnSync(exe, [], { encoding: 'latin1', input });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  test('stdout is flushed by exit(), stderr is unbuffered, error() prints "prog: msg: strerror" and exits', () => {
    const r = runProgram('exitflush', `#include <stddef.h>
extern char *tsklee_program_invocation_name;
extern void *tsklee_stdout, *tsklee_stderr;
int tsklee_printf(const char *, ...);
int tsklee_fprintf(void *, const char *, ...);
int tsklee_puts(const char *);
unsigned long tsklee___fpending(void *);
void tsklee_error(int, int, const char *, ...);
int main(void) {
  tsklee_program_invocation_name = "prog";
  int n = tsklee_puts("first");
  tsklee_printf("pending=%lu puts=%d\\n", tsklee___fpending(tsklee_stdout), n);
  tsklee_fprintf(tsklee_stderr, "unbuffered %d\\n", 1);
  tsklee_error(3, 2, "cannot open %s", "x");
  return 0;
}
`);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('first\npending=6 puts=6\n');
    expect(r.stderr).toBe('unbuffered 1\nprog: cannot open x: No such file or directory\n');
  });

  test('stdin through scanf, getchar and fgets (buffered, EOF)', () => {
    const r = runProgram('stdinread', `#include <stddef.h>
extern void *tsklee_stdin;
int tsklee_printf(const char *, ...);
int tsklee___isoc99_scanf(const char *, ...);
int tsklee_getchar(void);
char *tsklee_fgets(char *, int, void *);
int tsklee_fflush(void *);
int main(void) {
  int a = 0, b = 0; char w[32], line[64];
  int n = tsklee___isoc99_scanf("%d %d %31s", &a, &b, w);
  int c = tsklee_getchar();
  char *l = tsklee_fgets(line, sizeof line, tsklee_stdin);
  tsklee_printf("n=%d a=%d b=%d w=%s c=%d line=[%s]\\n", n, a, b, w, c, l ? line : "(null)");
  tsklee_printf("eof=%d\\n", tsklee_getchar());
  tsklee_fflush(NULL);
  return 0;
}
`, '12 -7 word\nrest of line\n');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('n=3 a=12 b=-7 w=word c=10 line=[rest of line\n]\neof=-1\n');
  });
});

describe('stdio in runtime/build/libc.bc', () => {
  test('defines the stdio entry points programs compiled against glibc 2.36 headers call', () => {
    const out = execFileSync('llvm-nm-19', ['--defined-only', '--format=just-symbols', LIBC_BC], { encoding: 'utf8' });
    const defined = new Set(out.split('\n').map((s) => s.trim()));
    for (const f of ['printf', 'fprintf', 'sprintf', 'snprintf', 'vfprintf', 'vsnprintf', 'asprintf', 'dprintf',
      '__printf_chk', '__fprintf_chk', '__sprintf_chk', '__snprintf_chk', '__vfprintf_chk', '__isoc99_sscanf',
      '__isoc99_fscanf', '__isoc99_scanf', 'sscanf', 'fopen', 'fclose', 'fflush', 'fwrite', 'fread', 'fgets', 'fputs',
      'puts', 'putchar', 'fputc', 'getc', 'ungetc', 'getline', 'getdelim', '__uflow', '__overflow', '__fpending',
      '__freading', '__fwriting', '__fpurge', 'error', 'error_at_line', 'perror', 'stdin', 'stdout', 'stderr',
      'fwrite_unlocked', 'ferror_unlocked', 'fseeko', 'ftello', 'setvbuf', 'clearerr', 'fileno', 'remove']) {
      expect(defined.has(f) ? f : `missing ${f}`).toBe(f);
    }
  });

  test('a program using stdio (-O2, fortify) links with no new undefined symbol', () => {
    const src = join(dir, 'uses-stdio.c');
    writeFileSync(src, `#include <stdio.h>
#include <error.h>
#include <stdio_ext.h>
int main(int argc, char **argv) {
  char buf[32]; int x = 0;
  snprintf(buf, sizeof buf, "%d %5.2f %s", argc, 3.5, argv[0]);
  sscanf(buf, "%d", &x);
  printf("%s %d %Lg\\n", buf, x, 1.0L);
  fputs("err\\n", stderr);
  if (__fpending(stdout) > 100) error(1, 0, "x");
  putc_unlocked('a', stdout);
  return getc_unlocked(stdin) == EOF;
}
`);
    const bc = join(dir, 'uses-stdio.bc');
    const linked = join(dir, 'uses-stdio-linked.bc');
    execFileSync('clang-19', ['-w', '-c', '-emit-llvm', '-g', '-O2', '-D_FORTIFY_SOURCE=2', src, '-o', bc]);
    execFileSync('llvm-link-19', [bc, LIBC_BC, '-o', linked]);
    const out = execFileSync('llvm-nm-19', ['--undefined-only', '--format=just-symbols', linked], { encoding: 'utf8' });
    expect(out.split('\n').map((s) => s.trim()).filter(Boolean).sort()).toEqual(['__tsklee_write_console', '_exit', 'abort', 'free', 'malloc']);
  });

  test("tsklee's bitcode reader prints the stdio functions", () => {
    const text = printModule(readBitcodeFile(LIBC_BC)[0]!);
    expect(text).toMatch(/define [^@]*@vfprintf\(/);
    expect(text).toMatch(/define [^@]*@__isoc99_vfscanf\(/);
    expect(text).toMatch(/define [^@]*@__uflow\(/);
  });

  test('the built CLI disassembles it (when dist/ is built)', () => {
    const cli = join(ROOT, 'dist', 'cli', 'main.js');
    if (!existsSync(cli)) return;
    const r = spawnSync(process.execPath, [cli, 'dis', LIBC_BC], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
