/**
 * tsklee's POSIX environment model (runtime/posix).
 *
 * `scripts/build-runtime-posix.mjs --native` compiles the model natively with every symbol
 * renamed tsklee_NAME; drivers/model.c links it with fake klee_* functions that give fixed
 * values and checks argv construction, the ktest objects (names, sizes, order) and the file
 * descriptor semantics. The bitcode build must be read by llvm-dis and tsklee's reader, and
 * (when dist/ is built) run end to end under `tsklee run`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readBitcodeFile } from '../../../src/bitcode/index.js';
import { printModule } from '../../../src/ir/printer/index.js';
import { decodeKTest } from '../../../src/output/ktest.js';

const ROOT = resolve('.');
const SCRIPT = join(ROOT, 'scripts', 'build-runtime-posix.mjs');
const POSIX_BC = join(ROOT, 'runtime', 'build', 'posix.bc');
const LIBC_BC = join(ROOT, 'runtime', 'build', 'libc.bc');
const NATIVE_LIB = join(ROOT, 'runtime', 'build', 'libtsklee-posix-test.a');
const HERE = join(ROOT, 'tests', 'unit', 'posix');
const INCLUDE = join(ROOT, 'runtime', 'include');

let dir: string;
let driver: string;

beforeAll(() => {
  execFileSync(process.execPath, [SCRIPT, '--native', '--quiet'], { stdio: ['ignore', 'inherit', 'inherit'] });
  dir = mkdtempSync(join(tmpdir(), 'tsklee-posix-'));
  driver = join(dir, 'model');
  execFileSync('gcc', ['-O1', '-w', join(HERE, 'drivers', 'model.c'), NATIVE_LIB, '-o', driver]);
}, 300_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  objects: string[];
  argv: string[];
  checks: number;
  failures: string[];
  stdout: string;
}

function runScenario(name: string, env: Record<string, string> = {}): Run {
  const r = spawnSync(driver, [name], { encoding: 'latin1', env: { ...process.env, ...env } });
  const lines = r.stdout.split('\n');
  const m = /SUMMARY checks=(\d+) mismatches=(\d+)/.exec(r.stdout);
  return {
    status: r.status,
    objects: lines.filter((l) => l.startsWith('OBJ ')).map((l) => l.slice(4)),
    argv: lines.filter((l) => l.startsWith('ARGV ')).map((l) => l.split(' ').slice(2).join(' ')),
    checks: m ? Number(m[1]) : 0,
    failures: lines.filter((l) => l.startsWith('CHECK failed') || l.startsWith('unexpected')),
    stdout: r.stdout,
  };
}

describe('environment setup (klee_init_env)', () => {
  test('objects are named, sized and ordered as by KLEE; argv is rebuilt', () => {
    const r = runScenario('args', { FAKE_RANGE: '2' });
    expect(r.failures).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.objects).toEqual([
      'n_args 4', 'arg00 4', 'arg01 4', 'arg02 3',
      'A_data 8', 'A_data_stat 144', 'B_data 8', 'B_data_stat 144',
      'stdin 5', 'stdin_stat 144',
      'read_fail 4', 'write_fail 4', 'close_fail 4', 'ftruncate_fail 4', 'getcwd_fail 4',
      'stdout 1024', 'stdout_stat 144',
      'model_version 4',
    ]);
    // each symbolic argument: max-len bytes, then a NUL the model writes
    expect(r.argv).toEqual(['prog', 'xxx', 'xxx', 'xx', 'plain']);
  });

  test('the number of --sym-args arguments comes from n_args', () => {
    const r0 = runScenario('args', { FAKE_RANGE: '0' });
    expect(r0.argv).toEqual(['prog', 'xx', 'plain']);
    expect(r0.objects.slice(0, 2)).toEqual(['n_args 4', 'arg00 3']);
    const r3 = runScenario('args', { FAKE_RANGE: '3' });
    expect(r3.argv).toEqual(['prog', 'xxx', 'xxx', 'xxx', 'xx', 'plain']);
    expect(r3.objects.slice(0, 5)).toEqual(['n_args 4', 'arg00 4', 'arg01 4', 'arg02 4', 'arg03 3']);
  });

  test('--sym-args MIN MAX with MIN == MAX: no n_args object (klee_range of one value)', () => {
    const r = runScenario('fixed');
    expect(r.failures).toEqual([]);
    expect(r.objects).toEqual(['arg00 2', 'arg01 2', 'arg02 1', 'model_version 4']);
    expect(r.argv).toEqual(['prog', 'x', 'x', '']);
  });

  test('a bad option is a user error (klee_report_error, user.err)', () => {
    const r = runScenario('bad');
    expect(r.status).toBe(3);
    expect(r.stdout).toContain('REPORT_ERROR user.err Invalid range to --sym-args');
  });

  test('--sym-stdout: writes to fd 1 go to the symbolic stdout file, fd 2 stays the console', () => {
    const r = runScenario('symstdout');
    expect(r.failures).toEqual([]);
    expect(r.objects).toEqual(['stdout 1024', 'stdout_stat 144', 'model_version 4']);
  });
});

describe('file descriptors over the model', () => {
  test('open/read/lseek/pread/dup/fcntl/close, names, stat, stdin/stdout, created files, directories, cwd', () => {
    const r = runScenario('files');
    expect(r.failures).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.checks).toBeGreaterThanOrEqual(100);
  });

  test('--max-fail: the read numbered read_fail fails with EIO, once', () => {
    const r = runScenario('readfail', { FAKE_READ_FAIL: '2', FAKE_GETCWD_FAIL: '1' });
    expect(r.failures).toEqual([]);
    expect(r.status).toBe(0);
    expect(r.checks).toBe(8);
  });
});

describe('runtime/build/posix.bc', () => {
  const nm = (args: string[], file: string) =>
    execFileSync('llvm-nm-19', [...args, '--format=just-symbols', file], { encoding: 'utf8' })
      .split('\n').map((s) => s.trim()).filter(Boolean);

  test('llvm-dis accepts it', () => {
    const r = spawnSync('llvm-dis-19', [POSIX_BC, '-o', '/dev/null'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  test('only the documented externals are left undefined', () => {
    expect([...new Set(nm(['--undefined-only'], POSIX_BC))].sort()).toEqual([
      '__errno_location', '__tsklee_write_console', '__user_main', 'free',
      'klee_assume', 'klee_get_valuel', 'klee_is_symbolic', 'klee_make_symbolic', 'klee_mark_global', 'klee_posix_prefer_cex', 'klee_prefer_cex',
      'klee_range', 'klee_report_error', 'klee_warning_once', 'malloc', 'raise',
    ]);
  });

  test('defines what stdio and the coreutils list need, and nothing the libc defines', () => {
    const defined = new Set(nm(['--defined-only', '--extern-only'], POSIX_BC));
    for (const f of ['__tsklee_posix_main', 'klee_init_env', 'read', 'write', 'open', 'open64', 'openat', 'close',
      'lseek', 'lseek64', 'isatty', 'fstat', 'fstat64', 'stat', 'stat64', 'lstat', 'fstatat', 'fstatat64', '__xstat',
      'fcntl', 'ioctl', 'dup', 'dup2', 'getcwd', 'chdir', 'fchdir', 'unlink', 'rmdir', 'mkdir', 'readlink',
      'opendir', 'fdopendir', 'readdir', 'closedir', 'dirfd', 'access', 'faccessat', 'umask', 'getuid', 'getpid',
      'time', 'clock_gettime', 'gettimeofday', 'sysconf', 'getpagesize', 'uname', 'getrlimit', 'ftruncate',
      'posix_fadvise', 'kill', 'sigaltstack', 'pread', 'pwrite', 'rename', 'renameat', 'realpath',
      'canonicalize_file_name', 'mkstemp', 'getpwuid', 'getgrgid', 'fstatfs', 'chown', 'fchown', 'utimensat', 'statx']) {
      expect(defined.has(f) ? f : `missing ${f}`).toBe(f);
    }
    if (existsSync(LIBC_BC)) {
      // the libc's weak fallbacks (stdio's sysfallback.c) give way to the model's definitions
      const strong = execFileSync('llvm-nm-19', ['--defined-only', '--extern-only', LIBC_BC], { encoding: 'utf8' })
        .split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f.length >= 3 && !/^[WwVv]$/.test(f[1]!))
        .map((f) => f[2]!);
      const libc = new Set(strong);
      expect([...defined].filter((s) => libc.has(s))).toEqual([]);
      // linked together, nothing is left undefined but what the engine provides
      const both = join(dir, 'libc-posix.bc');
      execFileSync('llvm-link-19', [LIBC_BC, POSIX_BC, '-o', both]);
      const undef = new Set(nm(['--undefined-only'], both));
      for (const s of ['read', 'write', 'open', 'close', 'lseek', 'isatty', 'fstat']) expect(undef.has(s) ? `undefined ${s}` : s).toBe(s);
    }
  });

  test("tsklee's bitcode reader reads it", () => {
    const mods = readBitcodeFile(POSIX_BC);
    expect(mods.length).toBe(1);
    const text = printModule(mods[0]!);
    expect(text).toMatch(/define [^@]*@__tsklee_posix_main\(/);
    expect(text).toMatch(/define [^@]*@read\(/);
  });
});

describe('end to end under tsklee run (when dist/ is built)', () => {
  const cli = join(ROOT, 'dist', 'cli', 'main.js');

  function runProgram(name: string, args: string[]): { status: number | null; stderr: string; tests: { name: string; bytes: Uint8Array }[][] } {
    const progBc = join(dir, `${name}.bc`);
    const startBc = join(dir, `${name}-start.bc`);
    const linked = join(dir, `${name}-linked.bc`);
    const out = join(dir, `${name}-out`);
    const flags = ['-c', '-emit-llvm', '-g', '-O0', '-Xclang', '-disable-O0-optnone', '-w', `-I${INCLUDE}`];
    execFileSync('clang-19', [...flags, '-Dmain=__user_main', join(HERE, 'programs', `${name}.c`), '-o', progBc]);
    const argList = args.map((a) => JSON.stringify(a)).join(',');
    execFileSync('clang-19', [...flags, `-DARGS=${argList}`, join(HERE, 'programs', 'start.c'), '-o', startBc]);
    execFileSync('llvm-link-19', [startBc, progBc, POSIX_BC, '-o', linked]);
    const r = spawnSync(process.execPath, [cli, 'run', '--search=dfs', `--output-dir=${out}`, linked], { encoding: 'utf8' });
    const tests = existsSync(out)
      ? readdirSync(out).filter((f) => f.endsWith('.ktest')).sort()
        .map((f) => decodeKTest(readFileSync(join(out, f))).objects.map((o) => ({ name: o.name, bytes: o.bytes })))
      : [];
    return { status: r.status, stderr: r.stderr, tests };
  }

  test('a program reading a symbolic file: one path per outcome, KLEE object names', () => {
    if (!existsSync(cli)) return;
    const r = runProgram('read-file', ['--sym-files', '1', '4']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/completed paths = 3\b/);
    expect(r.tests).toHaveLength(3);
    for (const t of r.tests) expect(t.map((o) => `${o.name} ${o.bytes.length}`)).toEqual(['A_data 4', 'A_data_stat 144', 'model_version 4']);
    const firsts = r.tests.map((t) => String.fromCharCode(t[0]!.bytes[0]!, t[0]!.bytes[1]!));
    expect(firsts).toContain('hi');
  }, 180_000);

  test('symbolic argument and stdin', () => {
    if (!existsSync(cli)) return;
    const r = runProgram('args-stdin', ['--sym-arg', '2', '--sym-stdin', '1']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/completed paths = 3\b/);
    for (const t of r.tests) expect(t.map((o) => `${o.name} ${o.bytes.length}`)).toEqual(['arg00 3', 'stdin 1', 'stdin_stat 144', 'model_version 4']);
  }, 180_000);

  test('a symbolic file name: the one-character names of the symbolic files fork, other names are concretized', () => {
    if (!existsSync(cli)) return;
    const r = runProgram('open-arg', ['--sym-arg', '2', '--sym-files', '1', '2']);
    expect(r.status).toBe(0);
    // "" / two characters / one character other than A (ENOENT), "A" then '!' or not
    expect(r.stderr).toMatch(/completed paths = 5\b/);
    const names = r.tests.map((t) => t[0]!.bytes);
    expect(names.some((b) => b[0] === 0x41 && b[1] === 0)).toBe(true);
  }, 180_000);

  test('open(O_DIRECTORY) reads no mode argument (O_TMPFILE includes the O_DIRECTORY bit)', () => {
    if (!existsSync(cli)) return;
    const r = runProgram('open-dir', ['--sym-files', '1', '1']);
    expect(r.status).toBe(0);
    // one path: /tmp opens, the regular file A is not a directory; no memory error
    expect(r.stderr).toMatch(/completed paths = 1\b/);
    expect(r.stderr).not.toMatch(/ERROR/);
  }, 180_000);

  test('--max-fail 1: a path where the read fails with EIO, one where it does not', () => {
    if (!existsSync(cli)) return;
    const r = runProgram('read-fail', ['--sym-files', '1', '1', '--max-fail', '1']);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/completed paths = 2\b/);
    for (const t of r.tests) {
      expect(t.map((o) => o.name)).toEqual(['A_data', 'A_data_stat', 'read_fail', 'write_fail', 'close_fail',
        'ftruncate_fail', 'getcwd_fail', 'model_version']);
    }
    const fails = r.tests.map((t) => new DataView(t[2]!.bytes.buffer, t[2]!.bytes.byteOffset).getInt32(0, true));
    expect(fails.filter((n) => n === 1)).toHaveLength(1);
  }, 180_000);
});
