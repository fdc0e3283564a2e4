/**
 * `tsklee replay` end to end (needs `npm run build`): concrete replay of a klee-out directory
 * in the interpreter, and `--native` replay of a natively built program against what
 * `tsklee run` recorded (exit status, stdout), including POSIX-style argv, files and stdin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { writeKTestFile, type KTestObject } from '../../src/output/ktest.js';
import { EXIT_STATUS_FILE, readExitStatuses } from '../../src/output/exit-status.js';

const CLI = resolve('dist/cli/main.js');
const INCLUDE = resolve('runtime/include');
let dir: string;
let lib: string;

function tsklee(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PROG = `#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int x; char buf[4];
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(buf, sizeof buf, "buf");
  if (x == 3) abort();
  if (x > 100 && x < 200) return buf[x - 100];
  if (x < 0) return 1;
  return 0;
}
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-replay-cli-'));
  writeFileSync(join(dir, 'p.c'), PROG);
  const r = tsklee(['run', '--search=dfs', '--output-dir', 'out', 'p.c']);
  if (r.code !== 0) throw new Error(`tsklee run failed: ${r.stderr}`);
  execFileSync('make', ['-s', '-C', resolve('runtime/replay'), `BUILD=${join(dir, 'build')}`], { stdio: 'pipe' });
  lib = join(dir, 'build', 'libtskleeRuntest.a');
}, 60_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tsklee replay (interpreter)', () => {
  it('says where each test of a klee-out directory ends, as the run reported', () => {
    const r = tsklee(['replay', 'p.c', 'out']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'out'));
    const tests = files.filter((f) => f.endsWith('.ktest')).sort();
    const statuses = readExitStatuses(join(dir, 'out'));
    expect([...statuses.keys()].map((stem) => `${stem}.ktest`)).toEqual(tests);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split(':')[0])).toEqual(tests);
    for (const [i, t] of tests.entries()) {
      const stem = t.slice(0, -'.ktest'.length);
      const line = lines[i]!.slice(t.length + 2);
      const status = statuses.get(stem);
      if (status !== undefined && status !== null) expect(line).toBe(`exit ${status}`);
      else if (files.includes(`${stem}.abort.err`)) expect(line).toBe('abort');
      else if (files.includes(`${stem}.ptr.err`)) expect(line).toMatch(/^error: ptr: memory error: out of bound pointer at .*p\.c:9$/);
      else throw new Error(`unexpected test outcome files for ${stem}`);
    }
    expect(lines.some((l) => l.endsWith(': abort'))).toBe(true);
    expect(lines.some((l) => l.endsWith(': exit 1'))).toBe(true);
  });

  it('refuses a test whose objects do not fit the program, in one line', () => {
    writeFileSync(join(dir, 'q.c'), '#include <klee/klee.h>\nint main(void) { short y; klee_make_symbolic(&y, sizeof y, "y"); return y > 3; }\n');
    const r = tsklee(['replay', 'q.c', join('out', 'test000002.ktest')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "tsklee: error: out/test000002.ktest: object mismatch: klee_make_symbolic #1 asks for 'y' (2 bytes), the test's object 1 is 'x' (4 bytes)\n",
    );
  });

  it('refuses an unreadable test before replaying anything', () => {
    writeFileSync(join(dir, 'bad.ktest'), 'KTEST garbage');
    const r = tsklee(['replay', 'p.c', join('out', 'test000001.ktest'), 'bad.ktest']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^tsklee: error: bad\.ktest: (unsupported \.ktest version|truncated \.ktest)[^\n]*\n$/);
  });
});

describe('tsklee replay (interpreter), time limit', () => {
  it('stops a test that runs too long and says so', () => {
    writeFileSync(join(dir, 'inf.c'), '#include <klee/klee.h>\nint main(void) { int x; klee_make_symbolic(&x, 4, "x"); if (x == 5) for (;;) ; return 0; }\n');
    const five = new Uint8Array(new Int32Array([5]).buffer);
    writeKTestFile(join(dir, 'inf5.ktest'), { version: 3, args: ['inf.c'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'x', bytes: five }] });
    const r = tsklee(['replay', '--timeout=1s', 'inf.c', 'inf5.ktest']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('inf5.ktest: stopped: timeout after 1 s\n');
  });
});

describe('tsklee replay --native', () => {
  it('runs a program linked with runtime/replay on each test: exit status and stdout as recorded', () => {
    const prog = join(dir, 'p');
    execFileSync('cc', ['-I', INCLUDE, join(dir, 'p.c'), lib, '-o', prog], { stdio: 'pipe' });
    const r = tsklee(['replay', '--native', prog, 'out']);
    expect(r.code).toBe(0);
    const n = readdirSync(join(dir, 'out')).filter((f) => f.endsWith('.ktest')).length;
    expect(r.stdout).toMatch(/: signal SIGABRT: as recorded \(abort\)$/m);
    expect(r.stdout).toMatch(/: exit 1, stdout 0 bytes: as recorded$/m);
    expect(r.stdout).toMatch(/: exit \d+; recorded a ptr error \(no defined native outcome\)$/m);
    expect(r.stdout).toContain(`tsklee: replayed ${n} tests natively: ${n - 1} as recorded, 0 different, 1 not compared\n`);

    // a recording the program does not reproduce: exit 1 and a DIFFERS line
    const statusFile = join(dir, 'out', EXIT_STATUS_FILE);
    const recorded = readFileSync(statusFile, 'utf8');
    const [stem, status] = [...readExitStatuses(join(dir, 'out'))].find(([, s]) => s !== null)!;
    writeFileSync(statusFile, recorded.replace(`${stem} ${status}\n`, `${stem} 77\n`));
    try {
      const bad = tsklee(['replay', '--native', prog, 'out']);
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(new RegExp(`^${stem}\\.ktest: DIFFERS: exit ${status}, recorded exit 77$`, 'm'));
      expect(bad.stderr).toBe(`tsklee: error: 1 of ${n} tests did not replay as recorded\n`);
    } finally {
      writeFileSync(statusFile, recorded);
    }
  });

  it('gives a POSIX test its argv, files and stdin, and compares stdout byte for byte', () => {
    writeFileSync(
      join(dir, 'cat.c'),
      `#include <stdio.h>
int main(int argc, char **argv) {
  printf("argv0=%s argc=%d", argv[0], argc);
  for (int i = 1; i < argc; i++) printf(" [%s]", argv[i]);
  FILE *f = fopen("A", "r");
  int c;
  printf("\\nA:");
  if (f) { while ((c = fgetc(f)) != EOF) putchar(c); fclose(f); }
  printf("\\nstdin:");
  while ((c = getchar()) != EOF) putchar(c);
  putchar('\\n');
  return argc;
}
`,
    );
    const prog = join(dir, 'cat');
    execFileSync('cc', [join(dir, 'cat.c'), '-o', prog], { stdio: 'pipe' });
    const t = join(dir, 'posix');
    execFileSync('mkdir', ['-p', t]);
    const stat = new Uint8Array(144);
    new DataView(stat.buffer).setUint32(24, 0o100644, true);
    const le32 = (v: number): Uint8Array => new Uint8Array(new Int32Array([v]).buffer);
    const objects: KTestObject[] = [
      { name: 'arg00', bytes: new Uint8Array([0x2d, 0x6e, 0, 0x41]) }, // "-n", bytes after the NUL ignored
      { name: 'n_args', bytes: le32(1) },
      { name: 'arg01', bytes: new TextEncoder().encode('xy\0\0') },
      { name: 'A_data', bytes: new TextEncoder().encode('fileA') },
      { name: 'A_data_stat', bytes: stat },
      { name: 'stdin', bytes: new TextEncoder().encode('in!') },
      { name: 'stdin_stat', bytes: stat },
      { name: 'model_version', bytes: le32(1) },
    ];
    const args = ['prog.bc', '--sym-arg', '3', 'lit', '--sym-args', '0', '2', '3', '--sym-files', '1', '5', '--sym-stdin', '3'];
    writeKTestFile(join(t, 'test000001.ktest'), { version: 3, args, symArgvs: 0, symArgvLen: 0, objects });
    const expected = 'argv0=prog.bc argc=4 [-n] [lit] [xy]\nA:fileA\nstdin:in!\n';
    writeFileSync(join(t, 'test000001.stdout'), expected);
    writeFileSync(join(t, EXIT_STATUS_FILE), 'test000001 4\n');
    const r = tsklee(['replay', '--native', prog, join(t, 'test000001.ktest')]);
    expect(r.stdout).toBe(
      `test000001.ktest: exit 4, stdout ${expected.length} bytes: as recorded\ntsklee: replayed 1 tests natively: 1 as recorded, 0 different, 0 not compared\n`,
    );
    expect(r.code).toBe(0);

    writeFileSync(join(t, 'test000001.stdout'), expected.replace('xy', 'xz'));
    const bad = tsklee(['replay', '--native', prog, t]);
    expect(bad.code).toBe(1);
    const at = expected.indexOf('xy') + 1;
    expect(bad.stdout).toContain(`test000001.ktest: DIFFERS: exit 4, stdout differs from the recorded one at byte ${at} (native ${expected.length} bytes, recorded ${expected.length})\n`);
  });

  it('stops a test that runs too long', () => {
    writeFileSync(join(dir, 'loop.c'), 'int main(void) { for (;;) ; }\n');
    const prog = join(dir, 'loop');
    execFileSync('cc', [join(dir, 'loop.c'), '-o', prog], { stdio: 'pipe' });
    const t0 = Date.now();
    const r = tsklee(['replay', '--native', '--timeout=0.5s', prog, join('out', 'test000002.ktest')]);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^test000002\.ktest: DIFFERS: timeout after 0\.5 s$/m);
  });

  it('skips a test whose path was stopped before the model made all its inputs; any other such test is an error', () => {
    const out = mkdtempSync(join(dir, 'early-'));
    const le32 = (v: number): Uint8Array => new Uint8Array(new Int32Array([v]).buffer);
    // --max-time stopped this path between the two n_args of --sym-args and its arg01
    const partial = { version: 3, args: ['prog.bc', '--sym-args', '0', '1', '2', '--sym-args', '0', '2', '2'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'n_args', bytes: le32(0) }, { name: 'n_args', bytes: le32(1) }] };
    writeKTestFile(join(out, 'test000001.ktest'), partial);
    writeFileSync(join(out, 'test000001.early'), 'Execution halting.\n');
    const r = tsklee(['replay', '--native', '/bin/true', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^test000001\.ktest: not replayed: the path was stopped early before all its inputs were made \(the test has no object for argument 1 of --sym-args 0 2 \(its objects: n_args, n_args\)\)$/m);
    expect(r.stdout).toMatch(/replayed 1 tests natively: 0 as recorded, 0 different, 1 not compared/);
    rmSync(join(out, 'test000001.early'));
    const bad = tsklee(['replay', '--native', '/bin/true', out]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/test000001\.ktest: the test has no object/);
  });
});
