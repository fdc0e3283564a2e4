/**
 * x86_fp80 (long double) in the engine, end to end through `tsklee run`:
 *   - a select on a symbolic condition between long doubles keeps both exact 80-bit patterns
 *     (one path per pattern, no concretization);
 *   - arithmetic on a symbolic long double concretizes it with a warning, as for double;
 *   - printf of long doubles through tsklee's libc and POSIX runtime prints what glibc prints.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeRun, INCLUDE_DIR, runTskleeAsync, tskleeRunUnavailable } from '../support/engine-harness.js';

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-fp80-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function bitcode(name: string, source: string, opt: string): string {
  const src = join(dir, `${name}.c`);
  writeFileSync(src, source);
  const bc = join(dir, `${name}.bc`);
  const o0 = opt === '-O0' ? ['-Xclang', '-disable-O0-optnone'] : [];
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', opt, ...o0, `-I${INCLUDE_DIR}`, src, '-o', bc], { stdio: ['ignore', 'ignore', 'pipe'] });
  return bc;
}

const SELECT = `
#include <klee/klee.h>
volatile long double a = 1.5L, b = -2.0L;
union ld { long double d; struct { unsigned long long m; unsigned short e; } p; };
int main(void) {
  int c;
  klee_make_symbolic(&c, sizeof c, "c");
  long double x = a, y = b;
  union ld u;
  u.d = c > 5 ? x : y;                 /* select x86_fp80 at -O2 */
  if (u.p.e == 0x3fff && u.p.m == 0xc000000000000000ull) { klee_warning("1.5"); return 1; }
  if (u.p.e == 0xc000 && u.p.m == 0x8000000000000000ull) { klee_warning("-2"); return 2; }
  return 3;
}
`;

const CONCRETIZE = `
#include <klee/klee.h>
int main(void) {
  long double x;
  klee_make_symbolic(&x, sizeof x, "x");
  long double y = x * 2;
  return y > 0 ? 1 : 2;
}
`;

const PRINTF = `
#include <stdio.h>
volatile long double one = 1.0L, three = 3.0L;
int main(void) {
  long double t = one / three;
  printf("%.20Lf\\n%.25Le\\n%La\\n%.30Lg\\n", t, t * 1e300L * 1e300L, t, (long double)0.1);
  return 0;
}
`;

const skip = tskleeRunUnavailable();

(skip ? describe.skip : describe)('x86_fp80 in tsklee run', () => {
  it('a select between long doubles on a symbolic condition keeps both exact patterns', async () => {
    const r = await runTskleeAsync(bitcode('select', SELECT, '-O2'));
    expect(r.exitCode).toBe(0);
    expect(r.tests.map((t) => t.exitStatus).sort()).toEqual([1, 2]);
    expect(r.tests.every((t) => !t.errKind)).toBe(true);
    expect(readFileSync(join(r.outDir, 'warnings.txt'), 'utf8')).not.toMatch(/concretizing/);
  });

  it('arithmetic on a symbolic long double concretizes it with a warning', async () => {
    const r = await runTskleeAsync(bitcode('concretize', CONCRETIZE, '-O0'));
    expect(r.exitCode).toBe(0);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]!.ktest!.objects[0]!.bytes).toHaveLength(16);
    expect(readFileSync(join(r.outDir, 'warnings.txt'), 'utf8')).toMatch(/silently concretizing \(reason: floating point\)/);
  });

  it('printf of long doubles (tsklee libc + POSIX runtime) prints what glibc prints', async () => {
    const bc = bitcode('printf', PRINTF, '-O0');
    const exe = join(dir, 'printf-native');
    execFileSync('clang-19', ['-O0', join(dir, 'printf.c'), '-o', exe]);
    const native = execFileSync(exe, { encoding: 'utf8' });
    expect(native).toMatch(/^0\.33333333333333333334\n/);
    const r = await runTskleeAsync(bc, { args: ['--libc=tsklee', '--posix-runtime'] });
    expect(r.tests).toHaveLength(1);
    const out = readFileSync(join(r.outDir, 'test000001.stdout'), 'utf8');
    expect({ out, run: out === native ? '' : describeRun(r) }).toEqual({ out: native, run: '' });
  });
});
