/**
 * KLEE's options about what a run writes, and those tsklee accepts with a note
 * (src/cli/commands/run-klee-output.ts), each run and checked for its effect.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { KLEE_NOTED_OPTIONS } from '../../src/cli/commands/run-klee-output.js';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';

let dir: string;
let bc: string;
let outs = 0;

const PROGRAM = `#include <klee/klee.h>
int main(void) {
  int x, y; klee_make_symbolic(&x, sizeof x, "x"); klee_make_symbolic(&y, sizeof y, "y");
  int n = 0;
  for (int i = 0; i < 3; i++) n += i;
  if (x > 10) n += 1;
  if (y == 3) n += 2;
  if (x == 99 && y == 3) { int a[2]; return a[x]; }
  return n;
}`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-klee-out-'));
  bc = compileProgram(dir, 'prog', PROGRAM);
});

function run(options: string[], program = bc): OutDir & { stderr: string; out: string } {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '-search=dfs', `-output-dir=${out}`, ...options, program], dir);
  if (r.code !== 0) throw new Error(`tsklee ${options.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return { ...readOutDir(out), stderr: r.stderr, out };
}

describe('test files', () => {
  it('--write-no-tests writes no test files at all', () => {
    const o = run(['-write-no-tests']);
    expect(o.files.filter((f) => f.startsWith('test'))).toEqual([]);
    expect(o.done.generated).toBe(0);
    expect(o.done.completed).toBe(5);
  });

  it('--write-paths and --write-sym-paths record the decisions; --replay-path follows one', () => {
    const o = run(['-write-paths', '-write-sym-paths']);
    const tests = o.files.filter((f) => f.endsWith('.ktest')).map((f) => f.slice(0, -'.ktest'.length));
    expect(tests).toHaveLength(6);
    for (const t of tests) {
      const path = o.read(`${t}.path`).split('\n').filter(Boolean);
      const sym = o.read(`${t}.sym.path`).split('\n').filter(Boolean);
      expect(path.every((b) => b === '0' || b === '1')).toBe(true);
      // the loop's 4 concrete branches are in .path, never in .sym.path
      expect(path.length).toBeGreaterThanOrEqual(sym.length + 4);
      expect(sym.length).toBeGreaterThanOrEqual(2);
    }
    // replaying the error test's path: exactly that path, no fork
    const errTest = o.files.find((f) => f.endsWith('.ptr.err'))!.slice(0, 10);
    writeFileSync(join(dir, 'err.path'), o.read(`${errTest}.path`));
    const r = run(['-replay-path=err.path']);
    expect(r.done).toEqual({ completed: 0, partial: 1, generated: 1 });
    expect(r.errors).toEqual(['ptr']);
    // and a completed one
    const ok = tests.find((t) => t !== errTest)!;
    writeFileSync(join(dir, 'ok.path'), o.read(`${ok}.path`));
    const r2 = run(['--replay-path', 'ok.path']);
    expect(r2.done).toEqual({ completed: 1, partial: 0, generated: 1 });
    expect(r2.read('exit-status.txt').trim().split(' ')[1]).toBe(o.read('exit-status.txt').split('\n').find((l) => l.startsWith(ok))!.split(' ')[1]);
  });

  it('--write-test-info, --write-cvcs, --write-xml-tests', () => {
    const o = run(['-write-test-info', '-write-cvcs']);
    expect(o.read('test000001.info')).toMatch(/^Time to generate test case: \d+\.\d+s\n$/);
    expect(o.read('test000001.cvc')).toMatch(/\(check-sat\)/);
    const x = run(['-write-xml-tests', '-write-test-info', '-xml-metadata-programfile=prog.c', '-xml-metadata-programhash=abc123']);
    expect(x.files.some((f) => f.endsWith('.info'))).toBe(false);
    const err = x.files.find((f) => f.endsWith('.ptr.err'))!.slice(0, 10);
    const xml = x.read(`${err}.xml`);
    expect(xml).toContain('<testcase coversError="true">');
    expect(xml).toContain('<input variable="x" type="x">99</input>');
    expect(xml).toContain('<input variable="y" type="y">3</input>');
    const meta = x.read('metadata.xml');
    expect(meta).toContain('<programfile>prog.c</programfile>');
    expect(meta).toContain('<programhash>abc123</programhash>');
    expect(meta).toContain('<entryfunction>main</entryfunction>');
  });

  it('--output-module writes the executed module; --output-source=false no assembly.ll', () => {
    const o = run(['-output-module']);
    expect(o.read('final.ll')).toMatch(/^define .*@main\(/m);
    expect(o.has('assembly.ll')).toBe(true);
    const n = run(['-output-source=false']);
    expect(n.errors).toEqual(['ptr']);
    expect(n.has('assembly.ll')).toBe(false);
  });
});

describe('messages and queries', () => {
  it('--warnings-only-to-file keeps warnings off the terminal', () => {
    const w = compileProgram(dir, 'warn', `#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); klee_warning("careful"); return 0; }`);
    const loud = run([], w);
    const quiet = run(['-warnings-only-to-file'], w);
    expect(loud.stderr).toContain('careful');
    expect(quiet.stderr).not.toContain('careful');
    expect(quiet.read('warnings.txt')).toContain('careful');
  });

  it('--use-query-log logs all queries and the solver backend\'s as SMT-LIB2', () => {
    const o = run(['-use-query-log=all:smt2,solver:kquery', '-use-fast-solver=false']);
    const all = readdirSync(join(o.out, 'all-queries'));
    const solver = readdirSync(join(o.out, 'solver-queries'));
    expect(all.length).toBeGreaterThan(0);
    expect(solver.length).toBeGreaterThan(0);
    // the caches answer some queries: fewer reach the backend
    expect(solver.length).toBeLessThanOrEqual(all.length);
    expect(o.read(`all-queries/${all[0]}`)).toMatch(/\(check-sat\)/);
    expect(tsklee(['run', '-use-query-log=some:thing', 'prog.bc'], dir).stderr).toMatch(/^tsklee: error: --use-query-log=some:thing: expected all:kquery/);
  });
});

describe('--debug-print-instructions', () => {
  it('announces every executed instruction, to instructions.txt or stderr, in KLEE\'s formats', () => {
    const plain = run([]);
    const all = run(['-debug-print-instructions=all:file']);
    expect(all.done).toEqual(plain.done);
    const total = Number(/^KLEE: done: total instructions = (\d+)$/m.exec(plain.read('info'))![1]);
    const lines = all.read('instructions.txt').trimEnd().split('\n');
    expect(lines).toHaveLength(total);
    expect(lines[0]).toMatch(/^ {5}\[no debug info\]:\d+: {2}%\d+ = alloca i32/);
    expect(lines).toContainEqual(expect.stringMatching(/^ {5}.*prog\.c:\d+:\d+: {2}call void @klee_make_symbolic\(/));
    const compact = run(['--debug-print-instructions', 'compact:stderr']);
    expect(compact.stderr.split('\n').filter((l) => /^\d+$/.test(l))).toHaveLength(total);
    expect(tsklee(['run', '-debug-print-instructions=all:file,src:file', 'prog.bc'], dir).stderr).toBe(
      'tsklee: error: --debug-print-instructions: one format at a time (all and src given)\n',
    );
  });
});

describe('refused and noted options', () => {
  it("--solver-backend=stp|metasmt|dummy: KLEE's solvers tsklee does not have, one line", () => {
    for (const b of ['stp', 'metasmt', 'dummy']) {
      const r = tsklee(['run', `-solver-backend=${b}`, 'prog.bc'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^tsklee: error: --solver-backend=${b}: tsklee has no .* backend; use one of z3, `));
      expect(r.stderr.split('\n')).toHaveLength(2);
    }
  });

  it('--libc=klee and --libc=uclibc link tsklee\'s libc (uclibc with a note)', () => {
    const p = compileProgram(dir, 'puts', `#include <stdio.h>
int main(void) { puts("hi"); return 0; }`);
    const k = run(['-libc=klee'], p);
    expect(k.read('test000001.stdout')).toBe('hi\n');
    const u = run(['-libc=uclibc'], p);
    expect(u.stderr).toContain("tsklee: warning: --libc=uclibc: tsklee links its own C library");
    expect(u.read('test000001.stdout')).toBe('hi\n');
  });

  it('accepts KLEE options it has no machinery for with one note each, and runs as without them', () => {
    const plain = run([]);
    // every noted option (the --kdalloc-* family included), with a value of KLEE's kind
    const sample = (name: string, type: string): string =>
      type === 'boolean' ? `-${name}` : name === 'external-call-warnings' ? `-${name}=all` : /address/.test(name) ? `-${name}=0x7ff30000000` : /size/.test(name) ? `-${name}=1` : `-${name}=2`;
    const words = Object.entries(KLEE_NOTED_OPTIONS).map(([n, spec]) => sample(n, spec.type));
    // kdalloc's nine options (--kdalloc itself sets the error wording), ubsan-runtime, solver-optimize-divides, const-array-opt, external-call-warnings,
    // and watchdog, max-instruction-time, use-forked-solver, simplify-sym-indices, equality-substitution, use-call-paths,
    // suppress-external-warnings, run-in-dir, write-exec-tree, debug-crosscheck-core-solver, use-timestamps and use-guided-search (a fork's)
    expect(words.length).toBe(25);
    const o = run(words);
    for (const name of Object.keys(KLEE_NOTED_OPTIONS)) expect(o.stderr).toMatch(new RegExp(`^tsklee: warning: --${name}: `, 'm'));
    expect(o.done).toEqual(plain.done);
    expect(o.errors).toEqual(plain.errors);
    expect(o.done.completed).toBe(5);
    expect(existsSync(join(o.out, 'info'))).toBe(true);
  });
});
