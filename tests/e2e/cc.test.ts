/**
 * `tsklee cc`, end to end through the built CLI (`node dist/cli/main.js`; run `npm run build`
 * first): a configure script and a Makefile with CC="tsklee cc" build a native program and its
 * whole-program bitcode; single files; bitcode-only outputs; --clang; errors. Also the
 * argument classifier (src/cc/args.ts) on its own.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseClangArgs } from '../../src/cc/args.js';
import { readElfSection } from '../../src/cc/elf-section.js';

const CLI = resolve('dist/cli/main.js');
const TSKLEE_CC = `${process.execPath} ${CLI} cc`;
let dir: string;

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function tsklee(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  return sh(process.execPath, [CLI, ...args], cwd, env);
}

/** The functions a bitcode file defines, from `tsklee dis`. */
function definedFunctions(bc: string): string[] {
  const r = tsklee(['dis', bc], dir);
  expect(r.code).toBe(0);
  return [...r.stdout.matchAll(/^define [^@]*@([\w.]+)\(/gm)].map((m) => m[1]!).sort();
}

function isBitcode(file: string): boolean {
  const b = readFileSync(file);
  return b[0] === 0x42 && b[1] === 0x43 && b[2] === 0xc0 && b[3] === 0xde;
}

const PROJECT: Record<string, string> = {
  'configure': `#!/bin/sh
# A configure script in the usual style: can $CC compile and link, does a header exist.
CC=\${CC:-cc}
echo 'int main(void) { return 0; }' > conftest.c
$CC -o conftest conftest.c || { echo "configure: error: C compiler cannot create executables" >&2; exit 1; }
./conftest || { echo "configure: error: cannot run C compiled programs" >&2; exit 1; }
echo '#include <string.h>' > conftest.c
if $CC -E conftest.c > /dev/null; then echo '#define HAVE_STRING_H 1' > config.h; else : > config.h; fi
echo 'int f(void) { return 0; }' > conftest.c
$CC -c conftest.c -o conftest.o || exit 1
rm -f conftest conftest.c conftest.o conftest.bc .conftest.o.bc
echo "CC = $CC" > config.mk
`,
  'Makefile': `include config.mk
CFLAGS = -O2 -Wall
all: greet
libutil.a: util.o unused.o
	ar rcs $@ $^
greet: main.o libutil.a
	$(CC) $(CFLAGS) -o $@ main.o -L. -lutil
%.o: %.c config.h
	$(CC) $(CFLAGS) -MMD -MF $*.d -c $< -o $@
`,
  'main.c': `#include <stdio.h>
#include "config.h"
#include "util.h"
int main(int argc, char **argv) {
#ifdef HAVE_STRING_H
  printf("%d\\n", twice(argc) + (int)util_len(argv[0]) * 0);
#endif
  return 0;
}
`,
  'util.h': '#include <stddef.h>\nint twice(int x);\nsize_t util_len(const char *s);\n',
  'util.c': '#include <string.h>\n#include "util.h"\nint twice(int x) { return 2 * x; }\nsize_t util_len(const char *s) { return strlen(s); }\n',
  'unused.c': 'int never_linked(void) { return 42; }\n',
};

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the e2e tests (npm run build && npm test)`);
  dir = mkdtempSync(join(tmpdir(), 'tsklee-cc-test-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** bin/tsklee cc: the bash front end (bin/tsklee-cc), Node only where it hands over. */
const BIN_CC = `${resolve('bin/tsklee')} cc`;

test.each([
  ['the Node driver', TSKLEE_CC, 'proj'],
  ['the bash front end (bin/tsklee cc)', BIN_CC, 'proj-bash'],
])('CC="tsklee cc" ./configure && make: a native program and its whole-program bitcode (%s)', (_name, cc, name) => {
  const proj = join(dir, name);
  mkdirSync(proj);
  for (const [name, text] of Object.entries(PROJECT)) writeFileSync(join(proj, name), text);
  chmodSync(join(proj, 'configure'), 0o755);
  const conf = sh('./configure', [], proj, { CC: cc });
  expect(conf.stderr).toBe('');
  expect(conf.code).toBe(0);
  expect(readFileSync(join(proj, 'config.h'), 'utf8')).toContain('HAVE_STRING_H');
  const make = sh('make', [], proj);
  expect(make.code).toBe(0);
  // the native program works as the normal build's would
  expect(sh('./greet', ['x', 'y'], proj).stdout).toBe('6\n');
  // its bitcode holds exactly the code the linker used: not the unused archive member
  expect(isBitcode(join(proj, 'greet.bc'))).toBe(true);
  expect(definedFunctions(join(proj, 'greet.bc'))).toEqual(['main', 'twice', 'util_len']);
  // the dependency file is the native compile's, not overwritten by the bitcode compile
  expect(readFileSync(join(proj, 'main.d'), 'utf8')).toMatch(/^main\.o: main\.c config\.h util\.h/);
  // each object records where its bitcode is
  const recorded = Buffer.from(readElfSection(join(proj, 'util.o'), '.llvm_bc') ?? []).toString();
  expect(recorded).toBe(`${join(proj, '.util.o.bc')}\n`);
  // the bitcode is -O0 with debug info, whatever CFLAGS say: twice() keeps its stack slot
  const dis = tsklee(['dis', join(proj, 'greet.bc')], proj);
  expect(dis.stdout).toMatch(/define [^\n]*@twice[^\n]*\{\n[^}]*alloca/);
  expect(dis.stdout).toContain('!DISubprogram(name: "twice"');
});

test.each([
  ['the Node driver', TSKLEE_CC, 'conf-only'],
  ['the bash front end (bin/tsklee cc)', BIN_CC, 'conf-only-bash'],
])('TSKLEE_CC_CONFIGURE_ONLY=1 (gllvm\'s WLLVM_CONFIGURE_ONLY): configure runs clang alone, make builds the bitcode (%s)', (_name, cc, name) => {
  const proj = join(dir, name);
  mkdirSync(proj);
  for (const [name, text] of Object.entries(PROJECT)) writeFileSync(join(proj, name), text);
  chmodSync(join(proj, 'configure'), 0o755);
  const conf = sh('./configure', [], proj, { CC: cc, TSKLEE_CC_CONFIGURE_ONLY: '1' });
  expect(conf.code).toBe(0);
  expect(readFileSync(join(proj, 'config.h'), 'utf8')).toContain('HAVE_STRING_H');
  // the same compile and link as configure's, by hand: objects and programs without bitcode
  writeFileSync(join(proj, 'probe.c'), 'int main(void) { return 3; }\n');
  const [tool, ...pre] = cc.split(' ');
  expect(sh(tool!, [...pre, '-c', 'probe.c', '-o', 'probe.o'], proj, { TSKLEE_CC_CONFIGURE_ONLY: '1' }).code).toBe(0);
  expect(existsSync(join(proj, '.probe.o.bc'))).toBe(false);
  expect(readElfSection(join(proj, 'probe.o'), '.llvm_bc')).toBeUndefined();
  expect(sh(tool!, [...pre, 'probe.c', '-o', 'probe'], proj, { TSKLEE_CC_CONFIGURE_ONLY: '1' }).code).toBe(0);
  expect(sh(join(proj, 'probe'), [], proj).code).toBe(3);
  expect(existsSync(join(proj, 'probe.bc'))).toBe(false);
  // "0" or empty is off: make (with CC from config.mk) builds the program and its bitcode
  const make = sh('make', [], proj, { TSKLEE_CC_CONFIGURE_ONLY: '0' });
  expect(make.code).toBe(0);
  expect(definedFunctions(join(proj, 'greet.bc'))).toEqual(['main', 'twice', 'util_len']);
});

test('the bash front end: its errors and hand-overs are the Node driver\'s', () => {
  const d = join(dir, 'bash-errors');
  mkdirSync(d);
  const bin = resolve('bin/tsklee');
  writeFileSync(join(d, 'bad.c'), 'int main(void) { return undeclared; }\n');
  writeFileSync(join(d, 'ok.c'), 'int main(void) { return 0; }\n');
  // clang's own failure keeps clang's status and diagnostics, shown once
  const bad = sh(bin, ['cc', '-c', 'bad.c', '-o', 'bad.o'], d);
  expect(bad.code).toBe(1);
  expect(bad.stderr.match(/use of undeclared identifier/g)).toHaveLength(1);
  // an object whose recorded bitcode is gone
  expect(sh(bin, ['cc', '-c', 'ok.c', '-o', 'ok.o'], d).code).toBe(0);
  rmSync(join(d, '.ok.o.bc'));
  const gone = sh(bin, ['cc', 'ok.o', '-o', 'ok'], d);
  expect(gone.code).toBe(1);
  expect(gone.stderr).toBe(`tsklee: error: cc: recorded bitcode ${join(d, '.ok.o.bc')} is gone (rebuild the objects with tsklee cc)\n`);
  // a link of objects clang built: the native program, and the warning
  expect(sh('clang-19', ['-c', 'ok.c', '-o', 'plain.o'], d).code).toBe(0);
  const plain = sh(bin, ['cc', 'plain.o', '-o', 'plain'], d);
  expect(plain.code).toBe(0);
  expect(plain.stderr).toBe('tsklee: warning: cc: plain: no bitcode recorded (none of its objects was built by tsklee cc); no plain.bc written\n');
  // what it hands to Node gives Node's results (-E; a bitcode output)
  expect(sh(bin, ['cc', '-E', 'ok.c'], d).stdout).toContain('int main(void)');
  expect(sh(bin, ['cc', '-c', 'ok.c', '-o', 'only.bc'], d).code).toBe(0);
  expect(isBitcode(join(d, 'only.bc'))).toBe(true);
});

test('the bash front end: a link of sources only is clang\'s one step beside the bitcode compiles, with -l libraries\' bitcode added', () => {
  const d = join(dir, 'bash-sources');
  mkdirSync(d);
  const bin = resolve('bin/tsklee');
  writeFileSync(join(d, 'main.c'), 'int two(void);\nint util(void);\nint main(void) { return two() + util(); }\n');
  writeFileSync(join(d, 'two.c'), 'int two(void) { return 2; }\n');
  writeFileSync(join(d, 'util.c'), 'int util(void) { return 40; }\n');
  writeFileSync(join(d, 'bad.c'), 'int main(void) { return undeclared; }\n');
  // one source, as configure links conftest.c
  expect(sh(bin, ['cc', 'two.c', '-c', '-o', 'two.o'], d).code).toBe(0);
  writeFileSync(join(d, 'solo.c'), 'int main(void) { return 7; }\n');
  expect(sh(bin, ['cc', '-O2', 'solo.c', '-o', 'solo'], d).code).toBe(0);
  expect(sh(join(d, 'solo'), [], d).code).toBe(7);
  expect(definedFunctions(join(d, 'solo.bc'))).toEqual(['main']);
  // sources and a library built by tsklee cc: its recorded bitcode joins the program's
  expect(sh(bin, ['cc', '-c', 'util.c', '-o', 'util.o'], d).code).toBe(0);
  expect(sh('ar', ['rcs', 'libutil.a', 'util.o'], d).code).toBe(0);
  expect(sh(bin, ['cc', 'main.c', 'two.c', '-o', 'prog', '-L.', '-lutil'], d).code).toBe(0);
  expect(sh(join(d, 'prog'), [], d).code).toBe(42);
  expect(definedFunctions(join(d, 'prog.bc'))).toEqual(['main', 'two', 'util']);
  // clang's failure: its status and diagnostics, once; no bitcode
  const bad = sh(bin, ['cc', 'bad.c', '-o', 'bad'], d);
  expect(bad.code).toBe(1);
  expect(bad.stderr.match(/use of undeclared identifier/g)).toHaveLength(1);
  expect(existsSync(join(d, 'bad.bc'))).toBe(false);
});

test('single files: prog + prog.bc, -c x.o + .x.o.bc, bitcode-only outputs', () => {
  const d = join(dir, 'single');
  mkdirSync(d);
  writeFileSync(join(d, 'hello.c'), '#include <stdio.h>\nint main(void) { puts("hello"); return 3; }\n');
  expect(tsklee(['cc', 'hello.c', '-o', 'hello'], d).code).toBe(0);
  const run = sh('./hello', [], d);
  expect([run.code, run.stdout]).toEqual([3, 'hello\n']);
  expect(definedFunctions(join(d, 'hello.bc'))).toEqual(['main']);

  expect(tsklee(['cc', '-c', 'hello.c'], d).code).toBe(0);
  expect(isBitcode(join(d, 'hello.o'))).toBe(false);
  expect(isBitcode(join(d, '.hello.o.bc'))).toBe(true);

  expect(tsklee(['cc', '-c', 'hello.c', '-o', 'only.bc'], d).code).toBe(0);
  expect(isBitcode(join(d, 'only.bc'))).toBe(true);
  expect(tsklee(['cc', '-c', '-emit-llvm', '-S', 'hello.c', '-o', 'only.ll'], d).code).toBe(0);
  expect(readFileSync(join(d, 'only.ll'), 'utf8')).toContain('define dso_local i32 @main()');
  // a bitcode-only link of a source and a tsklee-built object
  writeFileSync(join(d, 'two.c'), 'int two(void) { return 2; }\n');
  expect(tsklee(['cc', '-c', 'two.c'], d).code).toBe(0);
  expect(tsklee(['cc', 'hello.c', 'two.o', '-o', 'linked.bc'], d).code).toBe(0);
  expect(definedFunctions(join(d, 'linked.bc'))).toEqual(['main', 'two']);
  expect(existsSync(join(d, 'linked'))).toBe(false);
});

test('--clang and TSKLEE_CLANG choose the compiler (and its llvm-link)', () => {
  const d = join(dir, 'clang16');
  mkdirSync(d);
  writeFileSync(join(d, 'a.c'), 'int main(void) { return 0; }\n');
  const verbose = { TSKLEE_CC_VERBOSE: '1' };
  const a = tsklee(['cc', '--clang=clang-16', 'a.c', '-o', 'a'], d, verbose);
  expect(a.code).toBe(0);
  expect(a.stderr).toMatch(/^tsklee cc: \S*clang-16 .*-emit-llvm/m);
  expect(a.stderr).toMatch(/^tsklee cc: \S*llvm-16\S*\/llvm-link /m);
  expect(isBitcode(join(d, 'a.bc'))).toBe(true);
  const b = tsklee(['cc', 'a.c', '-o', 'b'], d, { ...verbose, TSKLEE_CLANG: 'clang-14' });
  expect(b.code).toBe(0);
  expect(b.stderr).toMatch(/^tsklee cc: \S*llvm-14\S*\/llvm-link /m);
  // without a choice: clang-19 first
  expect(tsklee(['cc', 'a.c', '-o', 'c'], d, { ...verbose, TSKLEE_CLANG: '' }).stderr).toMatch(/^tsklee cc: \S*clang-19 /m);
});

test('errors: one line, non-zero exit, no stack trace; clang failures keep clang exit status', () => {
  const d = join(dir, 'errors');
  mkdirSync(d);
  const noClang = tsklee(['cc', '--clang=/nonexistent/clang', 'x.c'], d);
  expect(noClang.code).toBe(1);
  expect(noClang.stderr).toBe("tsklee: error: cc: clang '/nonexistent/clang' not found or not executable\n");
  const noArgs = tsklee(['cc'], d);
  expect(noArgs.code).toBe(1);
  expect(noArgs.stderr).toMatch(/^tsklee: error: cc: no arguments[^\n]*\n$/);
  writeFileSync(join(d, 'bad.c'), 'int main(void) { return undeclared; }\n');
  const bad = tsklee(['cc', '-c', 'bad.c'], d);
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain("use of undeclared identifier 'undeclared'");
  expect(bad.stderr).not.toContain('    at ');
  expect(existsSync(join(d, '.bad.o.bc'))).toBe(false);
});

describe('the clang argument classifier', () => {
  test('modes', () => {
    expect(parseClangArgs(['-c', 'a.c']).mode).toBe('compile');
    expect(parseClangArgs(['-E', 'a.c']).mode).toBe('preprocess');
    expect(parseClangArgs(['-S', 'a.c']).mode).toBe('assemble-only');
    expect(parseClangArgs(['-S', '-emit-llvm', 'a.c']).mode).toBe('compile');
    expect(parseClangArgs(['a.o', '-lm', '-o', 'p']).mode).toBe('link');
    expect(parseClangArgs(['--version']).mode).toBe('info');
    expect(parseClangArgs(['-Wl,-r', 'a.o']).relocatable).toBe(true);
  });
  test('inputs, option values and what a bitcode compile leaves out', () => {
    const args = ['-I', 'inc', '-DX=1', '-O2', '-MMD', '-MF', 'a.d', '-x', 'c', 'a.src', '-x', 'none', 'b.s', '-o', 'out.o', '-c', '-flto=thin'];
    const p = parseClangArgs(args);
    expect(p.inputs.map((i) => [i.path, i.lang])).toEqual([
      ['a.src', 'c'],
      ['b.s', undefined],
    ]);
    expect(p.output?.path).toBe('out.o');
    expect([...p.notForBitcode].map((i) => args[i]).sort()).toEqual(['-MF', '-MMD', '-O2', '-flto=thin', '-o', 'a.d', 'out.o'].sort());
    expect(parseClangArgs(['-ofoo', 'x.c']).output?.path).toBe('foo');
  });
});
