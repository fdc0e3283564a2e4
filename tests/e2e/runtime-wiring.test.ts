/**
 * tsklee's C runtime wired into `tsklee run` (issue 5): --libc=tsklee, --posix-runtime with
 * --sym-args / --sym-files / --sym-stdin, the per-test console sidecars
 * (testNNNNNN.stdout/.stderr) and exit statuses (exit-status.txt), program arguments passed
 * through untouched, and failed external calls. Every recorded output is checked against the
 * same program compiled natively and run on the test's inputs (argv from argNN, file A from
 * A_data, stdin).
 *
 * Needs `npm run build` (dist/ and runtime/build/*.bc); tsklee runs as child processes, two
 * at a time.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeKTest, type KTest } from '../../src/output/ktest.js';
import { readExitStatuses } from '../../src/output/exit-status.js';

const ROOT = resolve('.');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const INCLUDE = join(ROOT, 'runtime', 'include');
let dir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function tskleeAsync(args: string[]): Promise<Run> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [CLI, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** Runs the jobs two at a time (the machine has two cores). */
async function runAll(jobs: Record<string, string[]>): Promise<Record<string, Run>> {
  const names = Object.keys(jobs);
  const out: Record<string, Run> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const n = names[next++]!;
      out[n] = await tskleeAsync(jobs[n]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

const LIBC_PROG = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int c, n = 0;
  opterr = 0;
  while ((c = getopt(argc, argv, "nv:")) != -1) {
    if (c == 'n') n++;
    else if (c == 'v') printf("v=%d\\n", atoi(optarg));
    else printf("unknown option %c\\n", optopt);
  }
  for (int i = optind; i < argc; i++) printf("arg[%d] '%s' len %zu\\n", i, argv[i], strlen(argv[i]));
  printf("%Lf %.3Lf %Lg %.2f\\n", 1.5L, (long double)n / 3, 0.1L, 2.25);
  fprintf(stderr, "n=%d\\n", n);
  return n + 40;
}
`;

const ARGS_PROG = `#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc == 1) { puts("no args"); return 0; }
  if (strcmp(argv[1], "-n") == 0) { printf("flag n, %d more\\n", argc - 2); return 3; }
  if (argc == 3 && argv[2][0] == 'z') { fprintf(stderr, "z second: %s\\n", argv[2]); return 4; }
  printf("first has %zu chars\\n", strlen(argv[1]));
  return 1;
}
`;

const FILES_PROG = `#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  char buf[8];
  int fd = open("A", O_RDONLY);
  if (fd < 0) { printf("no A\\n"); return 1; }
  ssize_t n = read(fd, buf, 4);
  if (n == 4 && buf[0] == 'k') printf("k-file %c\\n", buf[1] == 'q' ? 'q' : '-'); else printf("file %zd\\n", n);
  close(fd);
  n = read(0, buf, 4);
  if (n > 0 && buf[0] == '!') { printf("bang\\n"); return 5; }
  printf("stdin %zd\\n", n);
  return 0;
}
`;

const EXTERNAL_PROG = `#include <stdio.h>
#include <klee/klee.h>
int mystery(int);
int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x > 10) return mystery(x);
  printf("small\\n");
  return 7;
}
`;

/** A program defining a function the libc defines too: its own wins (natively as well). */
const OWN_STRLEN_PROG = `#include <stdio.h>
#include <string.h>
size_t strlen(const char *s) { size_t n = 0; while (s[n]) n++; return n + 100; }
int main(void) { char b[] = "abc"; printf("%zu %s\\n", strlen(b), strchr("xyz", 'y')); return 0; }
`;

/** rand/random/rand_r: the same sequences as glibc, so tests replay the same natively. */
const RAND_PROG = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  unsigned seed = 7;
  int first = rand();
  printf("%d %d\\n", first, rand());
  srand(42);
  for (int i = 0; i < 40; i++) printf("%d ", rand());
  srandom(0);
  long r = random();
  int a = rand_r(&seed);
  printf("%ld %d %d\\n", r, a, rand_r(&seed));
  return rand() % 7;
}
`;

/** Program arguments given after the input: tsklee must pass them on untouched. */
const LIBC_ARGS = ['-n', '-v', '42', '-q', '-n', 'foo', '', '0x10', '1e3', '--', '--max-time', '5', '--search=bfs'];

let runs: Record<string, Run>;

function compile(name: string, src: string, withNative = true): { bc: string; native: string } {
  const c = join(dir, `${name}.c`);
  writeFileSync(c, src);
  const bc = join(dir, `${name}.bc`);
  const native = join(dir, `${name}.native`);
  execFileSync('clang-16', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, c, '-o', bc]);
  if (withNative) execFileSync('clang-16', ['-O0', '-w', c, '-o', native]);
  return { bc, native };
}

interface Test {
  id: string;
  ktest: KTest;
  stdout: Buffer;
  stderr: Buffer;
  /** From exit-status.txt (which must list every test): the exit status, null for a path that did not exit. */
  exit: number | null;
  files: string[];
}

function readTests(out: string): Test[] {
  const files = readdirSync(join(dir, out));
  const ids = [...new Set(files.map((f) => /^(test\d{6})\./.exec(f)?.[1]).filter((x): x is string => x !== undefined))].sort();
  const side = (id: string, ext: string): Buffer => {
    const p = join(dir, out, `${id}.${ext}`);
    return existsSync(p) ? readFileSync(p) : Buffer.alloc(0);
  };
  const statuses = readExitStatuses(join(dir, out));
  expect([...statuses.keys()].sort()).toEqual(ids);
  return ids.map((id) => ({
    id,
    ktest: decodeKTest(readFileSync(join(dir, out, `${id}.ktest`)), id),
    stdout: side(id, 'stdout'),
    stderr: side(id, 'stderr'),
    exit: statuses.get(id) ?? null,
    files: files.filter((f) => f.startsWith(`${id}.`)),
  }));
}

function object(t: KTest, name: string): Uint8Array | undefined {
  return t.objects.find((o) => o.name === name)?.bytes;
}

/** A NUL-terminated string from a test object. */
function cString(b: Uint8Array): string {
  const end = b.indexOf(0);
  return Buffer.from(end < 0 ? b : b.subarray(0, end)).toString('latin1');
}

/** Runs the native program on a POSIX-model test: argv from argNN, file A, stdin. */
function replayNatively(native: string, t: KTest): { stdout: Buffer; stderr: Buffer; status: number | null } {
  const args = t.objects.filter((o) => /^arg\d\d$/.test(o.name)).map((o) => cString(o.bytes));
  const cwd = mkdtempSync(join(dir, 'replay-'));
  const a = object(t, 'A_data');
  if (a !== undefined) writeFileSync(join(cwd, 'A'), a);
  const stdin = object(t, 'stdin');
  const r = spawnSync(native, args, { cwd, input: stdin ?? Buffer.alloc(0) });
  rmSync(cwd, { recursive: true, force: true });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const built: Record<string, { bc: string; native: string }> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-runtime-'));
  built.libc = compile('libc', LIBC_PROG);
  built.args = compile('args', ARGS_PROG);
  built.files = compile('files', FILES_PROG);
  built.ext = compile('ext', EXTERNAL_PROG, false);
  built.own = compile('own', OWN_STRLEN_PROG);
  built.rand = compile('rand', RAND_PROG);
  mkdirSync(join(dir, 'typed'));
  execFileSync('clang-14', ['-emit-llvm', '-c', '-O0', join(dir, 'args.c'), '-o', join(dir, 'typed', 'args14.bc')]);
  runs = await runAll({
    // tsklee's options before the input, with and without '=' (a global one before `run`)
    libc: ['--log-level', 'warn', 'run', '--search', 'dfs', '--output-dir', 'out-libc', '--libc=tsklee', '--emit-all-errors', 'libc.bc', ...LIBC_ARGS],
    args: ['run', '--search=dfs', '--output-dir=out-args', '--libc=tsklee', '--posix-runtime', 'args.bc', '--sym-args', '0', '2', '3'],
    files: ['run', '--search=dfs', '--output-dir=out-files', '--libc=tsklee', '--posix-runtime', 'files.bc', '--sym-files', '1', '4', '--sym-stdin', '4'],
    ext: ['run', '--search=dfs', '--output-dir=out-ext', '--libc=tsklee', 'ext.bc'],
    own: ['run', '--output-dir=out-own', '--libc=tsklee', 'own.bc'],
    rand: ['run', '--output-dir=out-rand', '--libc=tsklee', 'rand.bc'],
    badLibc: ['run', '--libc=musl', 'args.bc'],
    typed: ['run', '--libc=tsklee', '--posix-runtime', 'typed/args14.bc'],
  });
}, 300_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

describe('--libc=tsklee', () => {
  it('passes the arguments after the input untouched and prints what the native program prints', () => {
    const r = runs.libc!;
    expect(r.stderr).not.toMatch(/ERROR|error:/);
    expect(r.code).toBe(0);
    const tests = readTests('out-libc');
    expect(tests).toHaveLength(1);
    const t = tests[0]!;
    expect(t.ktest.args).toEqual(['libc.bc', ...LIBC_ARGS]);
    const native = spawnSync(built.libc!.native, LIBC_ARGS);
    expect(native.stdout.toString()).toContain("arg[13] '--search=bfs' len 12"); // the native run saw every argument
    expect(t.stdout.toString('latin1')).toBe(native.stdout.toString('latin1'));
    expect(t.stderr.toString('latin1')).toBe(native.stderr.toString('latin1'));
    expect(t.exit).toBe(native.status);
  });

  it("lets the program's own definition of a libc function win", () => {
    expect(runs.own!.code).toBe(0);
    const [t] = readTests('out-own');
    const native = spawnSync(built.own!.native);
    expect(native.stdout.toString()).toBe('103 yz\n');
    expect(t!.stdout.toString()).toBe(native.stdout.toString());
  });

  it('generates the same rand/random/rand_r sequences as glibc', () => {
    expect(runs.rand!.code).toBe(0);
    const [t] = readTests('out-rand');
    const native = spawnSync(built.rand!.native);
    expect(native.stdout.toString().split(' ').length).toBeGreaterThan(40);
    expect(t!.stdout.toString()).toBe(native.stdout.toString());
    expect(t!.exit).toBe(native.status);
  });

  it('refuses an unknown C library in one line naming the choices', () => {
    const r = runs.badLibc!;
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim()).toBe('tsklee: error: --libc=musl: unknown C library (choices: none, tsklee, klee, uclibc)');
  });

  it('refuses a typed-pointer (clang-14) program clearly', () => {
    const r = runs.typed!;
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/typed pointers .*clang ≥ 15/);
  });
});

describe('--posix-runtime', () => {
  it('--sym-args 0 2 3: several paths, KLEE object names, each recorded output equal to the native run', () => {
    const r = runs.args!;
    expect(r.code).toBe(0);
    const tests = readTests('out-args');
    expect(tests.length).toBeGreaterThanOrEqual(6);
    const exits = new Set<number>();
    for (const t of tests) {
      const names = t.ktest.objects.map((o) => o.name);
      expect(names[0]).toBe('n_args');
      expect(names[names.length - 1]).toBe('model_version');
      const n = Buffer.from(object(t.ktest, 'n_args')!).readInt32LE(0);
      expect(names.slice(1, -1)).toEqual(Array.from({ length: n }, (_, i) => `arg${String(i).padStart(2, '0')}`));
      for (const a of names.slice(1, -1)) expect(object(t.ktest, a)).toHaveLength(4);
      const native = replayNatively(built.args!.native, t.ktest);
      expect({ id: t.id, stdout: t.stdout.toString('latin1'), stderr: t.stderr.toString('latin1'), exit: t.exit }).toEqual({
        id: t.id,
        stdout: native.stdout.toString('latin1'),
        stderr: native.stderr.toString('latin1'),
        exit: native.status,
      });
      exits.add(t.exit!);
    }
    // every outcome of the program was reached: no args, -n, z second, plain
    expect([...exits].sort((a, b) => a - b)).toEqual([0, 1, 3, 4]);
  });

  // the k-file line prints a byte chosen by a select on file data (clang emits `select` for the
  // ?: even at -O0): the console holds a symbolic byte, written out under each test's model
  it('--sym-files 1 4 --sym-stdin 4: reading the file and stdin forks, outputs equal the native run', () => {
    const r = runs.files!;
    expect(r.code).toBe(0);
    const tests = readTests('out-files');
    expect(tests.length).toBe(4);
    const outputs = new Set<string>();
    for (const t of tests) {
      expect(t.ktest.objects.map((o) => o.name)).toEqual(['A_data', 'A_data_stat', 'stdin', 'stdin_stat', 'model_version']);
      const native = replayNatively(built.files!.native, t.ktest);
      expect({ id: t.id, stdout: t.stdout.toString('latin1'), exit: t.exit }).toEqual({
        id: t.id,
        stdout: native.stdout.toString('latin1'),
        exit: native.status,
      });
      outputs.add(t.stdout.toString('latin1'));
    }
    expect(outputs.size).toBe(4);
  });
});

describe('unmodelled external functions', () => {
  it('end their path with .external.err naming the function; the other path goes on', () => {
    const r = runs.ext!;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/ERROR: .*ext\.c:7: failed external call: mystery/);
    const tests = readTests('out-ext');
    expect(tests).toHaveLength(2);
    const failed = tests.filter((t) => t.files.some((f) => f.endsWith('.external.err')));
    expect(failed).toHaveLength(1);
    const err = readFileSync(join(dir, 'out-ext', `${failed[0]!.id}.external.err`), 'utf8');
    expect(err).toMatch(/^Error: failed external call: mystery$/m);
    expect(failed[0]!.exit).toBeNull();
    const ok = tests.find((t) => t !== failed[0])!;
    expect(ok.stdout.toString()).toBe('small\n');
    expect(ok.exit).toBe(7);
  });
});
