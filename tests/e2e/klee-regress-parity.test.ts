/**
 * Fixes found by running KLEE's own regression programs through tsklee (README: "KLEE's
 * regression programs"). The programs here are ours, written for each fix.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { compileProgram, tsklee } from '../support/tsklee-cli.js';
import { compileC, disposeSolver, errorMessage, int32, objectBytes, runBitcode, runC } from '../unit/engine/support/run-c.js';

const dir = mkdtempSync(join(tmpdir(), 'tsklee-kreg-'));

afterAll(() => {
  disposeSolver();
  rmSync(dir, { recursive: true, force: true });
});

const H = '#include <klee/klee.h>\n#include <stdint.h>\n';

describe('vector lanes at a symbolic index', () => {
  it('insertelement: one path per lane value and the out-of-bounds write, no concretization', async () => {
    const r = await runC(`${H}
typedef uint32_t u4 __attribute__((vector_size(16)));
int main(void) {
  u4 v = {10, 20, 30, 40};
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  v[k] = 7;
  if (v[0] == 7) return 0;
  if (v[1] == 7) return 1;
  if (v[2] == 7) return 2;
  if (v[3] == 7) return 3;
  return 9;
}`);
    expect(r.warnings.join('\\n')).not.toMatch(/concretizing/);
    const oob = r.tests.filter((t) => t.err !== undefined);
    expect(oob.map(errorMessage)).toEqual(['Out of bounds write when inserting element']);
    expect(int32(objectBytes(oob[0]!, 'k')) >>> 0).toBeGreaterThanOrEqual(4);
    const lanes = r.tests.filter((t) => t.err === undefined).map((t) => int32(objectBytes(t, 'k')));
    expect(lanes.sort()).toEqual([0, 1, 2, 3]);
  });

  it('extractelement of a float vector: a path per lane (floats stay concrete), and the out-of-bounds read', async () => {
    const r = await runC(`${H}
typedef float f4 __attribute__((vector_size(16)));
int main(void) {
  f4 v = {1.5f, 2.5f, 3.5f, 4.5f};
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  float x = v[k];
  if (x == 3.5f) return 1;
  return 0;
}`);
    expect(r.warnings.join('\\n')).not.toMatch(/concretizing/);
    const errs = r.tests.filter((t) => t.err !== undefined).map(errorMessage);
    expect(errs).toEqual(['Out of bounds read when extracting element']);
    const hit = r.tests.filter((t) => t.err === undefined).map((t) => int32(objectBytes(t, 'k')));
    expect(hit.sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('UBSan handlers (a -fsanitize= build; KLEE --ubsan-runtime)', () => {
  it("each failed check ends its path with KLEE's runtime message and error file, at the program's line", async () => {
    const bc = compileC(
      `${H}
int tab[4];
int main(void) {
  int x, y; unsigned k; unsigned char c;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&k, sizeof k, "k");
  volatile int r;
  switch (k) {
  case 0: r = x + y; break;
  case 1: r = x << y; break;
  case 2: r = x / y; break;
  case 3: r = tab[y]; break;
  case 4: c = x; r = c; break;
  case 5: r = *(int *)(intptr_t)(x & 3); break;
  case 6: { unsigned u = (unsigned)x; r = u * 3u; break; }
  }
  return 0;
}`,
      ['-fsanitize=undefined,unsigned-integer-overflow,implicit-conversion'],
    );
    const r = await runBitcode(bc, { emitAllErrors: true });
    const errs = r.tests.filter((t) => t.err !== undefined).map((t) => `${t.err}: ${errorMessage(t)} @${/Line: (\d+)/.exec(t.errText ?? '')?.[1]}`);
    expect(errs.sort()).toEqual(
      [
        'overflow: signed-integer-overflow @12',
        'overflow: shift out of bounds @13',
        'overflow: shift out of bounds @13',
        'overflow: integer division overflow @14',
        'ptr: out-of-bounds-index @15',
        'implicit_conversion: implicit-signed-integer-truncation @16',
        'ptr: null-pointer-use @17',
        'ptr: misaligned-pointer-use @17',
        'overflow: unsigned-integer-overflow @18',
        'implicit_conversion: implicit-integer-sign-change @18',
      ].sort(),
    );
    expect(r.warnings.join('\n')).not.toMatch(/__ubsan/);
    // the overflow test's inputs do overflow
    const add = r.tests.find((t) => errorMessage(t) === 'signed-integer-overflow')!;
    const sum = int32(objectBytes(add, 'x')) + int32(objectBytes(add, 'y'));
    expect(sum > 2147483647 || sum < -2147483648).toBe(true);
  });

  it('a program that defines a handler runs its own', async () => {
    const bc = compileC(
      `${H}
int seen;
void __ubsan_handle_add_overflow(void *d, void *a, void *b) { seen = 1; }
int main(void) { int x = klee_int("x"); volatile int r = x + 1; return seen; }`,
      ['-fsanitize=signed-integer-overflow'],
    );
    const r = await runBitcode(bc);
    expect(r.tests.filter((t) => t.err !== undefined)).toHaveLength(0);
    expect(r.tests).toHaveLength(2);
  });
});

describe("the command line as KLEE's tests use it", () => {
  it('klee-stats --print-columns with the termination classes, and the one-dash -to-csv', () => {
    const bc = compileProgram(
      dir,
      'classes',
      `${H}#include <stdlib.h>
int main(void) {
  int k = klee_int("k");
  if (k == 1) abort();
  if (k == 2) klee_silent_exit(0);
  if (k == 3) klee_assume(k != 3);
  return 0;
}`,
      ['-fsanitize=signed-integer-overflow'],
    );
    const run = tsklee(['run', '--search=dfs', '--ubsan-runtime', '--output-dir=classes-out', bc], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: --ubsan-runtime: /);
    const cols = tsklee(['stats', '--print-columns', 'TermExit,TermProgrErr,TermUserErr,TermEarlyUser,Instrs', '--table-format=csv', 'classes-out'], dir);
    expect(cols.stderr).toBe('');
    const [head, row] = cols.stdout.trim().split('\n');
    expect(head).toBe('Path,TermExit,TermProgrErr,TermUserErr,TermEarlyUser,Instrs');
    expect(row!.split(',').slice(1, 5)).toEqual(['1', '1', '1', '1']);
    expect(tsklee(['stats', '--print-columns=Nope', 'classes-out'], dir).stderr).toMatch(/unknown column 'Nope'/);
    const csv = tsklee(['stats', '-to-csv', 'classes-out'], dir);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toMatch(/^Instructions,/);
  });

  it("a missing entry function is KLEE's one line, with or without the POSIX runtime", () => {
    const bc = compileProgram(dir, 'nomain', 'int helper(int x) { return x + 1; }\n');
    for (const extra of [[], ['--posix-runtime'], ['--libc=uclibc', '--posix-runtime'], ['--entry-point=missing']]) {
      const r = tsklee(['run', ...extra, `--output-dir=nomain-${extra.length}-${extra[0] ?? ''}`.replace(/[=-]+$/, ''), bc], dir);
      expect(r.code).toBe(1);
      const name = extra.includes('--entry-point=missing') ? 'missing' : 'main';
      expect(r.stderr).toMatch(new RegExp(`^KLEE: ERROR: (--posix-runtime: .*: )?Entry function '${name}' not found in module\\.$`, 'm'));
    }
  });

  it('--max-static-fork-pct says where it stops forking (once per branch)', () => {
    const bc = compileProgram(
      dir,
      'hot',
      `${H}
int main(void) {
  int x[6], n = 0;
  klee_make_symbolic(x, sizeof x, "x");
  for (int i = 0; i < 6; i++)
    if (x[i]) n++;
  return n;
}`,
    );
    const r = tsklee(['run', '-max-static-fork-pct=0.5', '-max-static-pct-check-delay=0s', '--output-dir=hot-out', bc], dir);
    expect(r.code).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('skipping fork'));
    expect(lines).toEqual([expect.stringMatching(/^KLEE: WARNING ONCE: skipping fork and concretizing condition \(MaxStatic\*Pct limit reached\) at .*hot\.c:8$/)]);
  });

  it('--write-kqueries writes KQuery files as KLEE does: arrays, then (query [constraints] false), labels shared', () => {
    const bc = compileProgram(
      dir,
      'kq',
      `${H}
unsigned char table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
int main(void) {
  unsigned char x[4];
  klee_make_symbolic(x, sizeof x, "x");
  if (x[2] >= 8) return 1;
  if (table[x[2]] == 3) return 2;
  return 3;
}`,
    );
    expect(tsklee(['run', '--search=dfs', '--write-kqueries', '--rewrite-equalities=false', '--output-dir=kq-out', bc], dir).code).toBe(0);
    const files = readdirSync(join(dir, 'kq-out')).filter((f) => f.endsWith('.kquery'));
    expect(files).toHaveLength(3);
    const texts = files.map((f) => readFileSync(join(dir, 'kq-out', f), 'utf8'));
    const two = texts.find((t) => /\n {8}\(Eq 3 /.test(t))!;
    // the byte x[2] is labelled where first printed and referred to by its label after
    expect(two).toMatch(/^array x\[4\] : w32 -> w8 = symbolic\narray \S+\[8\] : w32 -> w8 = \[1 2 3 4 5 6 7 8\]\n\(query \[\(Slt N0:\(ZExt w32 \(Read w8 2 x\)\) 8\)\n {8}\(Eq 3 \(Read w8 N0 \S+\)\)\]\n {8}false\)\n$/);
  });

  it('--readable-posix-inputs: symbolic arguments come out printable', () => {
    const bc = compileProgram(
      dir,
      'args',
      `#include <string.h>
int main(int argc, char **argv) { return argc > 1 && strlen(argv[1]) == 3 ? 1 : 0; }`,
    );
    const bytesOf = (out: string): number[] => {
      const r = tsklee(['run', '--posix-runtime', '--search=dfs', `--output-dir=${out}`, ...(out === 'readable' ? ['--readable-posix-inputs'] : []), bc, '--sym-arg', '3'], dir);
      expect(r.code).toBe(0);
      const shown = tsklee(['ktest', ...readdirSync(join(dir, out)).filter((f) => f.endsWith('.ktest')).map((f) => join(out, f))], dir).stdout;
      return [...shown.matchAll(/name: 'arg00'\n(?:.*\n){2}.*hex : 0x([0-9a-f]+)/g)].flatMap((m) => [...Buffer.from(m[1]!, 'hex')]);
    };
    const readable = bytesOf('readable');
    expect(readable.length).toBeGreaterThan(0);
    // every byte before an argument's end is printable (the end itself is NUL)
    expect(readable.filter((b) => b !== 0).every((b) => b >= 32 && b <= 126)).toBe(true);
    expect(bytesOf('plain').some((b) => b === 0 || b < 32 || b > 126)).toBe(true);
  });

  it("the program's writes reach tsklee's stdout and stderr by default, as KLEE's do; --no-echo-program-output keeps them to testN.stdout", () => {
    const bc = compileProgram(
      dir,
      'echo',
      `${H}#include <stdio.h>
int main(void) {
  int k = klee_int("k");
  if (k > 0) printf("positive\\n"); else fprintf(stderr, "not positive\\n");
  return 0;
}`,
    );
    for (const flag of [[], ['--echo-program-output']]) {
      const on = tsklee(['run', '--libc=tsklee', '--posix-runtime', ...flag, `--output-dir=echo-on${flag.length}`, bc], dir);
      expect(on.code).toBe(0);
      expect(on.stdout).toBe('positive\n');
      expect(on.stderr).toMatch(/^not positive$/m);
    }
    const off = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--no-echo-program-output', '--output-dir=echo-off', bc], dir);
    expect(off.stdout).toBe('');
    expect(off.stderr).not.toMatch(/positive/);
    const stdouts = readdirSync(join(dir, 'echo-off')).filter((f) => f.endsWith('.stdout'));
    expect(stdouts.map((f) => readFileSync(join(dir, 'echo-off', f), 'utf8')).join('')).toBe('positive\n');
    // --jobs: the workers' replays would repeat a path's prefix output, so no echo by default
    const jobs = tsklee(['run', '--jobs=2', '--libc=tsklee', '--posix-runtime', '--output-dir=echo-jobs2', bc], dir);
    expect(jobs.code).toBe(0);
    expect(jobs.stdout).toBe('');
    expect(tsklee(['run', '--jobs=2', '--echo-program-output', '--output-dir=echo-jobs', bc], dir).stderr).toMatch(/--jobs: --echo-program-output is not supported/);
  });

  it('a call through an unprototyped declaration links and runs (widths converted as KLEE does)', () => {
    // read() without <unistd.h>: `int read()` here, ssize_t read(int, void *, size_t) in the runtime
    const bc = compileProgram(
      dir,
      'implicit',
      `int main(void) {
  char b[8];
  long n = read(0, b, 5);
  if (n != 4) return 1;
  if (b[0] == 'x') return 2;
  return 0;
}`,
      ['-Wno-implicit-function-declaration'],
    );
    const r = tsklee(['run', '--posix-runtime', '--output-dir=implicit-out', bc, '--sym-stdin', '4'], dir);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const statuses = readFileSync(join(dir, 'implicit-out', 'exit-status.txt'), 'utf8').trim().split('\n').map((l) => l.split(' ')[1]);
    expect(new Set(statuses)).toEqual(new Set(['0', '2']));
  });

  it("--exit-on-error ends with KLEE's EXITING ON ERROR: and the error's report", () => {
    const bc = compileProgram(dir, 'stop', `${H}#include <stdlib.h>
int main(void) {
  if (klee_int("a"))
    abort();
  return 0;
}`);
    const r = tsklee(['run', '--exit-on-error', '--output-dir=stop-out', bc], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^KLEE: ERROR: EXITING ON ERROR:\nError: abort failure\nFile: .*stop\.c\nLine: 6\n/m);
  });

  it("KLEE's default wording for a double free and a use after free; --kdalloc's with it; no old-option errors", () => {
    const bc = compileProgram(dir, 'twice', `${H}#include <stdlib.h>
int main(void) {
  int c = klee_int("c");
  int *p = malloc(8); p[0] = 1; free(p);
  if (c == 1) return p[0];
  if (c == 2) free(p);
  return 0;
}`);
    const plain = tsklee(['run', '--libc=tsklee', '--output-dir=twice-plain', bc], dir);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/^KLEE: ERROR: .*twice\.c:7: memory error: out of bound pointer$/m);
    expect(plain.stderr).toMatch(/^KLEE: ERROR: .*twice\.c:8: memory error: invalid pointer: free$/m);
    const kd = tsklee(['run', '--libc=tsklee', '--kdalloc', '--output-dir=twice-kd', bc], dir);
    expect(kd.stderr).toMatch(/^KLEE: ERROR: .*twice\.c:7: memory error: use after free$/m);
    expect(kd.stderr).toMatch(/^KLEE: ERROR: .*twice\.c:8: memory error: double free$/m);
    // KLEE 2's spellings: --no-output writes no tests, --stop-after-n-instructions stops
    const old = tsklee(['run', '--libc=tsklee', '--no-output', '--stop-after-n-instructions=1', '--allow-external-sym-calls', '--output-dir=twice-old', bc], dir);
    expect(old.code).toBe(0);
    expect(old.stderr).toMatch(/^KLEE: done: total instructions = 1$/m);
    expect(readdirSync(join(dir, 'twice-old')).filter((f) => f.endsWith('.ktest'))).toEqual([]);
  });

  it('--external-calls=none refuses inline asm, as KLEE (which runs it as an external call)', () => {
    const bc = compileProgram(dir, 'asm', 'int main(void) {\n  __asm__ __volatile__("movl %eax, %eax");\n  return 0;\n}\n');
    const none = tsklee(['run', '--external-calls=none', '--output-dir=asm-none', bc], dir);
    expect(none.stderr).toMatch(/^KLEE: ERROR: .*asm\.c:2: external calls disallowed \(in particular inline asm\)$/m);
    expect(readdirSync(join(dir, 'asm-none')).filter((f) => f.endsWith('.user.err'))).toHaveLength(1);
    const ok = tsklee(['run', '--output-dir=asm-ok', bc], dir);
    expect(ok.stderr).not.toMatch(/ERROR/);
  });
});
