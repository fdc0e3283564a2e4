/**
 * A KLEE user's command line under `tsklee run`: KLEE's option spellings, unknown options,
 * `--max-time` forms, `.ll` and `.c` inputs, and C library calls without `--libc`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, INCLUDE, readOutDir, tsklee } from '../support/tsklee-cli.js';
import { parseTimeSpan } from '../../src/cli/commands/run.js';

let dir: string;

const BRANCHY = `#include <klee/klee.h>
int main(void) {
  int x; klee_make_symbolic(&x, sizeof x, "x");
  int a[4] = {0};
  if (x > 10) return 1;
  if (x < 0) return 2;
  return a[x];
}`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-klee-cli-'));
  compileProgram(dir, 'branchy', BRANCHY);
});

describe('KLEE option spellings', () => {
  it('gives the same run for -name=value, -name value and --name=value', () => {
    const a = tsklee(['run', '-search=dfs', '-max-forks', '100', '-emit-all-errors', '-output-dir=s1', 'branchy.bc'], dir);
    const b = tsklee(['run', '--search', 'dfs', '--max-forks=100', '--emit-all-errors=true', '--output-dir', 's2', 'branchy.bc'], dir);
    expect([a.code, b.code]).toEqual([0, 0]);
    const [o1, o2] = [readOutDir(join(dir, 's1')), readOutDir(join(dir, 's2'))];
    // x > 10, x < 0, 0..3 in bounds, 4..10 out of bounds
    expect(o1.done).toEqual({ completed: 3, partial: 1, generated: 4 });
    expect(o1.errors).toEqual(['ptr']);
    expect(o2.done).toEqual(o1.done);
    expect(o1.read('info')).toContain('BEGIN searcher description\ndfs\nEND searcher description');
  });

  it('refuses an unknown option in one line naming the nearest known one, exit 1', () => {
    const r = tsklee(['run', '--exit-on-eror', '-search=dfs', 'branchy.bc'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("tsklee: error: unknown option '--exit-on-eror' (did you mean --exit-on-error?)\n");
    const s = tsklee(['run', '-serach', 'dfs', 'branchy.bc'], dir);
    expect(s.stderr).toBe("tsklee: error: unknown option '-serach' (did you mean --search?)\n");
  });

  it('refuses an option given twice in one line (it used to crash the parser), but lets a list option repeat', () => {
    const r = tsklee(['run', '--max-solver-time=1s', '--max-solver-time=2s', 'branchy.bc'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("tsklee: error: --max-solver-time=2s: --max-solver-time may only occur zero or one times (already given as '--max-solver-time=1s')\n");
    const n = tsklee(['run', '-max-forks', '1', '-max-forks=2', 'branchy.bc'], dir);
    expect([n.code, n.stderr]).toEqual([1, "tsklee: error: -max-forks=2: --max-forks may only occur zero or one times (already given as '-max-forks')\n"]);
    const l = tsklee(['run', '-search=dfs', '-search=bfs', '-output-dir=rep1', 'branchy.bc'], dir);
    expect(l.code).toBe(0);
    expect(readOutDir(join(dir, 'rep1')).read('info')).toContain('BEGIN searcher description\ninterleaved(dfs, bfs)\nEND searcher description');
  });

  it('passes everything after the input to the program, dashes included', () => {
    const prog = `#include <string.h>
int main(int argc, char **argv) { return argc == 3 && strcmp(argv[1], "-search=bfs") == 0 && strcmp(argv[2], "--x") == 0 ? 7 : 0; }`;
    compileProgram(dir, 'argv', prog);
    const r = tsklee(['run', '-output-dir=a1', 'argv.bc', '-search=bfs', '--x'], dir);
    expect(r.code).toBe(0);
    expect(readOutDir(join(dir, 'a1')).read('exit-status.txt')).toBe('test000001 7\n');
  });
});

describe('--max-time', () => {
  it("takes KLEE's time spans", () => {
    expect(parseTimeSpan('10', 'max-time')).toBe(10);
    expect(parseTimeSpan('10s', 'max-time')).toBe(10);
    expect(parseTimeSpan('5min', 'max-time')).toBe(300);
    expect(parseTimeSpan('1h30min', 'max-time')).toBe(5400);
    expect(parseTimeSpan('1.5s', 'max-time')).toBe(1.5);
    expect(() => parseTimeSpan('5 minutes', 'max-time')).toThrow("--max-time: invalid time span '5 minutes'");
  });

  it('stops a run given as -max-time 1s', () => {
    writeFileSync(join(dir, 'spin.c'), `#include <klee/klee.h>
int main(void) { unsigned n; klee_make_symbolic(&n, sizeof n, "n"); unsigned s = 0; for (unsigned i = 0; i < 400000000u; i++) s += i ^ n; return s == 7; }`);
    const r = tsklee(['run', '-max-time', '1s', '-output-dir=t1', 'spin.c'], dir);
    expect(r.code).toBe(0);
    expect(readOutDir(join(dir, 't1')).read('info')).toMatch(/^Halted: HaltTimer invoked$/m);
  });
});

describe('inputs', () => {
  it('assembles .ll from clang 14 (typed pointers) and clang 19 with llvm-as', () => {
    writeFileSync(join(dir, 'll.c'), BRANCHY);
    for (const v of [14, 19]) {
      const r0 = spawnSync(`clang-${v}`, ['-S', '-emit-llvm', '-g', `-I${INCLUDE}`, 'll.c', '-o', `ll${v}.ll`], { cwd: dir });
      expect(r0.status).toBe(0);
      const r = tsklee(['run', '-search=dfs', `-output-dir=ll${v}`, `ll${v}.ll`], dir);
      expect(r.code).toBe(0);
      expect(readOutDir(join(dir, `ll${v}`)).done).toEqual({ completed: 3, partial: 1, generated: 4 });
    }
    writeFileSync(join(dir, 'bad.ll'), 'define i32 @main( {\n');
    const bad = tsklee(['run', 'bad.ll'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tsklee: error: bad\.ll: not valid LLVM assembly \(.*bad\.ll:\d+:\d+: error: .*\)\n$/);
  });

  it('compiles .c with the clang the runtime is built with', () => {
    writeFileSync(join(dir, 'c1.c'), BRANCHY);
    const r = tsklee(['run', '-search=dfs', '-output-dir=c1', 'c1.c'], dir);
    expect(r.code).toBe(0);
    expect(readOutDir(join(dir, 'c1')).read('assembly.ll')).toMatch(/^!\d+ = .*producer: "[^"]*clang version 19\./m);
  });
});

describe('C library calls without --libc', () => {
  const PROGRAM = `#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void) {
  char s[3]; klee_make_symbolic(s, sizeof s, "s"); s[2] = 0;
  printf("len %zu\\n", strlen(s));
  if (atoi(s) == 42) puts("answer");
  return memcmp(s, "x", 1) == 0;
}`;

  it('links what the libc defines on demand; console output goes to testN.stdout', () => {
    compileProgram(dir, 'libc', PROGRAM);
    const r = tsklee(['run', '-search=dfs', '-output-dir=l1', 'libc.bc'], dir);
    expect(r.code).toBe(0);
    const o = readOutDir(join(dir, 'l1'));
    expect(o.errors).toEqual([]);
    expect(o.read('warnings.txt')).not.toMatch(/undefined reference|external/);
    // strlen of 0, 1 or 2 bytes; atoi == 42 only for "42"; memcmp splits on 'x'
    const outs = o.files.filter((f) => f.endsWith('.stdout')).map((f) => o.read(f));
    expect(outs.length).toBe(o.tests);
    expect(outs).toContain('len 2\nanswer\n');
    expect(new Set(outs.map((t) => t.split('\n')[0]))).toEqual(new Set(['len 0', 'len 1', 'len 2']));
  });

  it('leaves only what neither the program nor the libc defines as an external error', () => {
    compileProgram(dir, 'ext', `#include <string.h>
int not_anywhere(int);
int main(void) { return (int)strlen("ab") + not_anywhere(1); }`);
    const r = tsklee(['run', '-output-dir=e1', 'ext.bc'], dir);
    expect(r.code).toBe(0);
    const o = readOutDir(join(dir, 'e1'));
    expect(o.errors).toEqual(['external']);
    expect(o.read(o.files.find((f) => f.endsWith('.external.err'))!)).toMatch(/^Error: .*not_anywhere/);
  });

  it('does the same under --posix-runtime without --libc', () => {
    const r = tsklee(['run', '-search=dfs', '-posix-runtime', '-output-dir=l2', 'libc.bc'], dir);
    expect(r.code).toBe(0);
    const o = readOutDir(join(dir, 'l2'));
    expect(o.errors).toEqual([]);
    expect(o.files.filter((f) => f.endsWith('.stdout')).map((f) => o.read(f))).toContain('len 2\nanswer\n');
  });
});
