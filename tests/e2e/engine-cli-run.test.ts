/**
 * `tsklee run` end to end through the built CLI (needs `npm run build` first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { decodeKTest } from '../../src/output/ktest.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

function tsklee(args: string[], cwd = dir): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-run-'));
});

const PROG = `#include <klee/klee.h>
int main(void) {
  int a[4] = {0}; unsigned i; klee_make_symbolic(&i, sizeof i, "idx");
  if (i < 6) a[i] = 1;
  return 0;
}`;

describe('tsklee run', () => {
  it('compiles a .c file, explores it and writes KLEE-style output', () => {
    writeFileSync(join(dir, 'oob.c'), PROG);
    const r = tsklee(['run', '--search=dfs', '--output-dir', 'out1', 'oob.c']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^KLEE: ERROR: .*oob\.c:4: memory error: out of bound pointer$/m);
    expect(r.stderr).toMatch(/^KLEE: done: completed paths = \d+$/m);
    expect(r.stderr).toMatch(/^KLEE: done: generated tests = \d+$/m);
    const out = join(dir, 'out1');
    const files = readdirSync(out).sort();
    expect(files).toEqual(expect.arrayContaining(['info', 'messages.txt', 'warnings.txt', 'run.stats', 'test000001.ktest']));
    const errs = files.filter((f) => f.endsWith('.ptr.err'));
    expect(errs).toHaveLength(1);
    const err = readFileSync(join(out, errs[0]!), 'utf8');
    expect(err).toMatch(/^Error: memory error: out of bound pointer\nFile: .*oob\.c\nLine: 4\n/);
    // "assembly.ll line" points at the failing store in assembly.ll
    const asmLine = Number(/^assembly\.ll line: (\d+)$/m.exec(err)![1]);
    expect(readFileSync(join(out, 'assembly.ll'), 'utf8').split('\n')[asmLine - 1]).toMatch(/^ {2}store i32 1, ptr %\d+/);
    expect(err).toContain(`\t#0${String(asmLine).padStart(8, '0')} in main() at `);
    const t = decodeKTest(readFileSync(join(out, errs[0]!.replace('.ptr.err', '.ktest'))));
    expect(t.args).toEqual(['oob.c']);
    expect(t.objects.map((o) => [o.name, o.bytes.length])).toEqual([['idx', 4]]);
    const info = readFileSync(join(out, 'info'), 'utf8');
    expect(info).toMatch(/^KLEE: done: completed paths = \d+$/m);
    expect(info).toContain('BEGIN searcher description\ndfs\nEND searcher description');
    expect(readFileSync(join(out, 'messages.txt'), 'utf8')).toMatch(/KLEE: ERROR: .*oob\.c:4: memory error: out of bound pointer/);
  });

  it('makes klee-out-N and klee-last beside the input by default', () => {
    const r = tsklee(['run', '--search=dfs', 'oob.c']);
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'klee-out-0', 'info'))).toBe(true);
    expect(existsSync(join(dir, 'klee-last', 'info'))).toBe(true);
  });

  it('--max-time stops the run and keeps the tests', () => {
    writeFileSync(join(dir, 'loop.c'), `#include <klee/klee.h>
int main(void) { unsigned n; klee_make_symbolic(&n, sizeof n, "n"); unsigned s = 0; for (unsigned i = 0; i < 100000000; i++) s += i ^ n; return s == 7; }`);
    const r = tsklee(['run', '--search=dfs', '--max-time=2s', '--output-dir', 'out3', 'loop.c']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'out3', 'info'), 'utf8')).toMatch(/^Halted: HaltTimer invoked$/m);
    expect(readdirSync(join(dir, 'out3')).filter((f) => f.endsWith('.early')).length).toBeGreaterThan(0);
  });

  it('--max-time stops a solver query still running past it (no --max-solver-time), and the run ends', () => {
    // 2^89 - 1 is prime: no 48-bit factors exist, and proving it takes z3 far longer than the run
    writeFileSync(join(dir, 'hard.c'), `#include <klee/klee.h>
#include <stdlib.h>
int main(void) {
  unsigned long long p, q;
  klee_make_symbolic(&p, sizeof p, "p");
  klee_make_symbolic(&q, sizeof q, "q");
  if (p > 1 && q > 1 && p < (1ULL << 48) && q < (1ULL << 48)) {
    unsigned __int128 r = (unsigned __int128)p * q;
    if (r == (((unsigned __int128)1) << 89) - 1) abort();
    return 1;
  }
  return 0;
}`);
    const r = spawnSync(process.execPath, [CLI, 'run', '--search=dfs', '--max-time=1s', '--output-dir', 'out-hard', 'hard.c'], { encoding: 'utf8', cwd: dir, timeout: 300_000 });
    expect(r.signal).toBeNull(); // not killed by the guard above: the run ended by itself
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/^KLEE: ERROR: .*hard\.c:9: Query timed out \(fork\)\.$/m);
    expect(readFileSync(join(dir, 'out-hard', 'info'), 'utf8')).toMatch(/^Halted: HaltTimer invoked$/m);
    // the paths that ended before, and the one the timeout ended, all have their tests
    expect(readdirSync(join(dir, 'out-hard')).filter((f) => f.endsWith('.ktest')).length).toBeGreaterThanOrEqual(2);
  }, 320_000);

  it('rejects what it cannot do in one line', () => {
    const a = tsklee(['run', '--libc=musl', 'oob.c']);
    expect(a.code).toBe(1);
    expect(a.stderr.trim()).toBe('tsklee: error: --libc=musl: unknown C library (choices: none, tsklee, klee, uclibc)');
    const b = tsklee(['run', '--search=bogus', '--output-dir', 'out4', 'oob.c']);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/^tsklee: error: unknown searcher 'bogus'/);
    const c = tsklee(['run', '--entry-point=nope', '--output-dir', 'out5', 'oob.c']);
    expect(c.code).toBe(1);
    expect(c.stderr.trim()).toBe("KLEE: ERROR: Entry function 'nope' not found in module.");
  });
});
