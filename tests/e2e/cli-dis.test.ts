/**
 * The built CLI (`node dist/cli/main.js`), end to end. Needs `npm run build` first (the
 * project's test command is `npm run build && npm test`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { functionBodies } from '../support/llvm-normalize.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

function tsklee(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function clang(name: string, source: string, extra: string[] = ['-O0'], version = 19): string {
  const c = join(dir, `${name}.c`);
  const bc = join(dir, `${name}.bc`);
  writeFileSync(c, source);
  execFileSync(`clang-${version}`, ['-c', '-emit-llvm', '-g', ...extra, c, '-o', bc]);
  return bc;
}

/** Asserts a clean one-line failure that names `file`. */
function expectOneLineError(r: { code: number | null; stdout: string; stderr: string }, file: string, pattern?: RegExp): void {
  expect(r.code).toBe(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^tsklee: error: /);
  expect(lines[0]).toContain(file);
  if (pattern) expect(lines[0]).toMatch(pattern);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const MAIN_C = `
#include <stdio.h>
int helper(int x);
static int twice(int x) { return 2 * x; }
int main(int argc, char **argv) {
  for (int i = 0; i < argc; i++) printf("%s %d\\n", argv[i], helper(twice(i)));
  return 0;
}
`;
const UTIL_C = `
static int twice(int x) { return x + x + 1; }
int helper(int x) { return twice(x) * 3; }
`;

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the e2e tests (npm run build && npm test)`);
  dir = mkdtempSync(join(tmpdir(), 'tsklee-cli-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('--version and --help', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const v = tsklee(['--version']);
  expect(v.code).toBe(0);
  expect(v.stdout.trim()).toBe(pkg.version);
  const h = tsklee(['--help']);
  expect(h.code).toBe(0);
  expect(h.stdout).toMatch(/tsklee dis <files\.\.>/);
});

test('usage errors are one line, exit 1', () => {
  const none = tsklee([]);
  expect(none.code).toBe(1);
  expect(none.stderr).toMatch(/^tsklee: error: no command given/);
  const bad = tsklee(['frobnicate']);
  expect(bad.code).toBe(1);
  expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
});

test.each(['-O0', '-O2'])('dis matches llvm-dis-19 function bodies (%s)', (opt) => {
  const bc = clang(`main${opt}`, MAIN_C, [opt]);
  const r = tsklee(['dis', bc]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const reference = execFileSync('llvm-dis-19', [bc, '-o', '-'], { encoding: 'utf8' });
  const bodies = functionBodies(r.stdout);
  expect(bodies.size).toBeGreaterThan(0);
  expect(bodies).toEqual(functionBodies(reference));
});

test('dis -o writes the file', () => {
  const bc = clang('util', UTIL_C);
  const out = join(dir, 'util.ll');
  const r = tsklee(['dis', bc, '-o', out]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe('');
  expect(readFileSync(out, 'utf8')).toMatch(/define [^\n]*@helper\(/);
});

test('dis of several files and of an archive links them', () => {
  const main = clang('main', MAIN_C);
  const util = clang('util', UTIL_C);
  const r = tsklee(['dis', main, util]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/define [^\n]*@main\(/);
  expect(r.stdout).toMatch(/define [^\n]*@helper\(/);
  expect(r.stdout).not.toMatch(/declare [^\n]*@helper\(/);
  expect(r.stdout).toMatch(/@twice\.1\(/);

  const lib = join(dir, 'libutil.a');
  execFileSync('llvm-ar-19', ['rc', lib, util]);
  const a = tsklee(['dis', main, lib]);
  expect(a.stderr).toBe('');
  expect(a.stdout).toMatch(/define [^\n]*@helper\(/);
});

const LINK1_C = `
#include <stdio.h>
struct point { int x, y; };
int norm(struct point *p);
int helper(int x);
extern int table[];
int f();
static int twice(int x) { return 2 * x; }
__attribute__((weak)) int get(void) { return 1; }
__attribute__((constructor)) static void init1(void) { puts("init1"); }
int main(int argc, char **argv) {
  for (int i = 0; i < argc; i++) printf("%s %d %d\\n", argv[i], helper(twice(i)), table[i % 4]);
  struct point p = { argc, 2 };
  return get() + f(3) + norm(&p);
}
`;
const LINK2_C = `
#include <stdio.h>
struct point { int x, y; };
int norm(struct point *p) { struct point q = *p; return q.x * q.x + q.y * q.y; }
int table[10] = {1, 2, 3, 4};
static int twice(int x) { return x + x + 1; }
int helper(int x) { printf("helper %d\\n", x); return twice(x) * 3; }
int get(void) { return 2; }
int f(int x) { return x * table[2]; }
__attribute__((constructor)) static void init2(void) { puts("init2"); }
`;

test.each([
  [19, '-O0'],
  [19, '-O2'],
  [14, '-O0'],
])('dis of two files matches llvm-link + llvm-dis (clang-%i %s)', (version, opt) => {
  const a = clang(`link1-${version}${opt}`, LINK1_C, [opt, '-Wno-deprecated-non-prototype'], version);
  const b = clang(`link2-${version}${opt}`, LINK2_C, [opt], version);
  const r = tsklee(['dis', a, b]);
  expect(r.stderr).toBe('');
  const linked = join(dir, `linked-${version}${opt}.bc`);
  execFileSync(`llvm-link-${version}`, [a, b, '-o', linked]);
  const reference = execFileSync(`llvm-dis-${version}`, [linked, '-o', '-'], { encoding: 'utf8' });
  expect(r.stdout.match(/^%struct\.point(\.\d+)? = type/gm)).toEqual(['%struct.point = type']);
  // Renamed local symbols get different suffixes (llvm-link: @twice.8, tsklee: @twice.1).
  const bodies = (text: string): Map<string, string[]> => functionBodies(text.replace(/(@\.str|@twice)(\.\d+)+/g, '$1'));
  expect(bodies(r.stdout)).toEqual(bodies(reference));
  expect(r.stdout.match(/^define internal i32 @twice(\.\d+)?\(/gm) ?? []).toHaveLength(opt === '-O0' ? 2 : 0);
});

test('conflicting definitions: one line, exit 1', () => {
  const a = clang('a', 'int f(void) { return 1; }');
  const b = clang('b', 'int f(void) { return 2; }');
  const r = tsklee(['dis', a, b]);
  expectOneLineError(r, a, /multiple definitions of @f/);
});

test('a file that is not bitcode', () => {
  const f = join(dir, 'notes.txt');
  writeFileSync(f, 'hello, world\n');
  expectOneLineError(tsklee(['dis', f]), f, /not an LLVM bitcode file/);
});

test('a missing file', () => {
  const f = join(dir, 'nope.bc');
  expectOneLineError(tsklee(['dis', f]), f, /no such file/);
});

test('aarch64 bitcode is refused with a target message', () => {
  const bc = clang('arm', 'int f(int x) { return x + 1; }', ['-O0', '--target=aarch64-linux-gnu']);
  expectOneLineError(tsklee(['dis', bc]), bc, /target.*aarch64/);
});

test('truncated bitcode', () => {
  const bc = clang('trunc', MAIN_C);
  const bytes = readFileSync(bc);
  const cut = join(dir, 'cut.bc');
  for (const len of [6, 40, Math.floor(bytes.length / 2), bytes.length - 3]) {
    writeFileSync(cut, bytes.subarray(0, len));
    expectOneLineError(tsklee(['dis', cut]), cut);
  }
});

test('a directory where a file is expected', () => {
  expectOneLineError(tsklee(['dis', dir]), dir, /is a directory/);
});

test('error classification: user errors exit 1, anything else is internal (exit 2)', async () => {
  const { describeError } = await import('../../src/cli/errors.js');
  const { LinkError } = await import('../../src/ir/linker.js');
  const { BitcodeError } = await import('../../src/bitcode/errors.js');
  expect(describeError(new LinkError('multiple definitions of @f (in a.bc and b.bc)'))).toEqual({
    line: 'multiple definitions of @f (in a.bc and b.bc)',
    code: 1,
  });
  const be = new BitcodeError('bad abbrev', 80);
  be.file = 'x.bc';
  expect(describeError(be)).toEqual({ line: 'x.bc: bad abbrev (at byte 0xa, bit 0)', code: 1 });
  const internal = describeError(new TypeError("Cannot read properties of undefined (reading 'x')"));
  expect(internal.code).toBe(2);
  expect(internal.line).toMatch(/\(internal error; run with TSKLEE_DEBUG=1 for a stack trace\)$/);
});

test('a closed pipe on stdout ends quietly', () => {
  // Far more output than a pipe buffers, so the writer really meets the closed pipe.
  const fns = Array.from({ length: 400 }, (_, i) => `int f${i}(int x) { return x * ${i} + ${i}; }`).join('\n');
  const bc = clang('big', fns);
  const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" dis "${bc}" | head -c 10 >/dev/null`], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
});
