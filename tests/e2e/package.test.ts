/**
 * The npm package as a user gets it: `npm pack` of this checkout (its prepack rebuilds only
 * what is stale, scripts/prepack.mjs), `npm install -g --prefix TMP` of the tarball from a
 * throwaway registry serving this checkout's node_modules (tests/support/local-registry.ts: no
 * network, nothing from npm's cache), the installed tree made read-only, and everything run
 * from there in temporary directories, as another user when the tests run as root (root
 * ignores file modes): the README's main job, a KLEE-style example with `tsklee ktest` and
 * `tsklee replay` (in the interpreter, and natively with the replay library built from the
 * package's sources), the library with its types, the code cache, and one-line errors for
 * missing tools and a damaged installation. Also the tarball's content and size.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative, resolve } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLocalRegistry } from '../support/local-registry.js';

const ROOT = resolve('.');
/** The tarball today is ~2.4 MB (README, "Install from npm"); more means something unintended got in. */
const MAX_TARBALL_BYTES = 2.9e6;
/** What the tarball may hold (paths under package/). */
const ALLOWED = [
  /^(package\.json|README\.md|LICENSE|bin\/tsklee|bin\/tsklee-cc)$/,
  /^dist\/.+\.(js|cjs|d\.ts|d\.cts)$/,
  /^dist\/cli\/tsklee-bundle\.cache$/,
  /^runtime\/include\/klee\/klee\.h$/,
  /^runtime\/build\/(posix\.bc|libc\.index\.json|libc-bc\/[\w-]+\.bc)$/,
  /^runtime\/replay\/(Makefile|replay\.c|ktest-read\.[ch])$/,
  /^examples\/(hello|bounds)\.(c|bc)$/,
];
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;
/** Drops root's privileges for runAs (util-linux). */
const SETPRIV = asRoot ? spawnSync('sh', ['-c', 'command -v setpriv'], { encoding: 'utf8' }).stdout.trim() : '';
if (asRoot && SETPRIV === '') throw new Error('setpriv (util-linux) is needed to run the installed package as another user when the tests run as root');

let tmp: string;
let tarball: string;
let prefix: string;
let pkg: string;
let command: string;
let bareTools: string;
let snapshotBefore: string[];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without npm's lifecycle variables and without this checkout on PATH. */
function cleanEnv(path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_|^NODE_OPTIONS$|^TSKLEE_/i.test(k)) env[k] = v;
  env['PATH'] = path;
  return env;
}

const fullPath = (): string => [join(prefix, 'bin'), ...(process.env['PATH'] ?? '').split(delimiter).filter((d) => d !== '' && !resolve(d).startsWith(ROOT))].join(delimiter);

/** Runs `cmd` in `cwd` as a user who cannot write the installed package (nobody, when we are root). */
function runAs(cmd: string, args: string[], cwd: string, o: { path?: string; env?: NodeJS.ProcessEnv } = {}): Result {
  const env = { ...cleanEnv(o.path ?? fullPath()), HOME: cwd, ...o.env };
  const [file, argv] = asRoot ? [SETPRIV, [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', cmd, ...args]] : [cmd, args];
  const r = spawnSync(file, argv, { cwd, env, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const tsklee = (args: string[], cwd: string, o: { path?: string; env?: NodeJS.ProcessEnv } = {}): Result => runAs(command, args, cwd, o);

/** A fresh directory that the user of runAs can write. */
function workDir(name: string): string {
  const d = join(tmp, 'work', name);
  mkdirSync(d, { recursive: true });
  chmodSync(d, 0o777);
  return d;
}

/** A copy of one of the installed package's examples in `dir`. */
function example(name: string, dir: string): string {
  cpSync(join(pkg, 'examples', name), join(dir, name));
  return name;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) out.push(...walk(p));
  }
  return out;
}

/** Every path of the installed tree with its mode, size and modification time. */
function snapshot(): string[] {
  return walk(prefix).map((p) => {
    const s = lstatSync(p);
    return `${relative(prefix, p)} ${s.mode.toString(8)} ${s.size} ${s.mtimeMs}`;
  });
}

/** A writable copy of the installed package at tmp/name, sharing its node_modules. */
function installedCopy(name: string): string {
  const copy = join(tmp, name);
  cpSync(pkg, copy, { recursive: true, filter: (src) => src !== join(pkg, 'node_modules') });
  symlinkSync(join(pkg, 'node_modules'), join(copy, 'node_modules'));
  execFileSync('chmod', ['-R', 'u+w', copy]);
  return copy;
}

/** A klee-out directory's test files (.ktest, .stdout, .err, exit-status.txt) with their bytes. */
function testFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort()) if (/\.(ktest|stdout|err)$|^exit-status\.txt$/.test(f)) out[f] = readFileSync(join(dir, f)).toString('base64');
  return out;
}

/** The non-relative modules that the declaration file `entry` and those it imports (relatively) import. */
function bareImportsOf(entry: string): string[] {
  const seen = new Set<string>();
  const bare = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // import/export ... from '…' and import('…'), outside comments
    const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'([^']+)'/g)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) queue.push(resolve(join(file, '..'), spec.replace(/\.js$/, '.d.ts')));
      else bare.add(spec);
    }
  }
  return [...bare].sort();
}

function npmInstall(registry: string): Promise<void> {
  const npmrc = join(tmp, 'npmrc');
  writeFileSync(npmrc, '');
  const args = ['install', '--global', '--prefix', prefix, tarball, `--registry=${registry}`, `--cache=${join(tmp, 'npm-cache')}`, `--userconfig=${npmrc}`,
    // anything but the local registry would go through a proxy that is not there
    '--proxy=http://127.0.0.1:9', '--https-proxy=http://127.0.0.1:9', '--noproxy=127.0.0.1', '--no-audit', '--no-fund', '--no-update-notifier'];
  // asynchronous: the registry answers from this process
  return new Promise((done, fail) => {
    execFile('npm', args, { cwd: tmp, env: cleanEnv(process.env['PATH'] ?? ''), maxBuffer: 1 << 26 }, (err, _stdout, stderr) => (err ? fail(new Error(`npm install failed: ${stderr}`)) : done()));
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'tsklee-package-'));
  chmodSync(tmp, 0o755);
  const packDir = join(tmp, 'pack');
  mkdirSync(packDir);
  execFileSync('npm', ['pack', '--silent', `--pack-destination=${packDir}`], { cwd: ROOT, env: cleanEnv(process.env['PATH'] ?? ''), stdio: 'pipe' });
  tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
  prefix = join(tmp, 'prefix');
  const registry = await startLocalRegistry(ROOT);
  try {
    await npmInstall(registry.url);
  } catch (e) {
    throw new Error(`${(e as Error).message}\nnot in the local registry: ${registry.missing.join(', ')}`);
  } finally {
    await registry.close();
  }
  pkg = join(prefix, 'lib', 'node_modules', 'tsklee');
  command = join(prefix, 'bin', 'tsklee');
  execFileSync('chmod', ['-R', 'a-w', prefix]);
  // a PATH with what bin/tsklee itself runs, and no clang, llvm or solver
  bareTools = join(tmp, 'bare-tools');
  mkdirSync(bareTools);
  for (const t of ['node', 'readlink']) symlinkSync(execFileSync('sh', ['-c', `command -v ${t}`], { encoding: 'utf8' }).trim(), join(bareTools, t));
  snapshotBefore = snapshot();
}, 300_000);

afterAll(() => {
  if (prefix !== undefined && existsSync(prefix)) execFileSync('chmod', ['-R', 'u+w', prefix]);
  if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds what runs (bin, dist with the bundle and its cache, the runtime bitcode, headers and replay sources) and no test, fixture or source', () => {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l !== '' && !l.endsWith('/'))
      .map((l) => l.replace(/^package\//, ''));
    const unexpected = entries.filter((e) => !ALLOWED.some((re) => re.test(e)));
    expect(unexpected).toEqual([]);
    expect(entries.filter((e) => /^(tests|fixtures|src|scripts|runtime\/(libc|posix))\/|\.map$/.test(e))).toEqual([]);
    const index = JSON.parse(readFileSync(join(ROOT, 'runtime', 'build', 'libc.index.json'), 'utf8')) as { members: Record<string, unknown> };
    const required = ['bin/tsklee', 'bin/tsklee-cc', 'LICENSE', 'README.md', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/launch.cjs', 'dist/cli/tsklee-bundle.cjs', 'dist/cli/tsklee-bundle.cache',
      'runtime/build/posix.bc', 'runtime/build/libc.index.json', ...Object.keys(index.members).map((m) => `runtime/build/${m}`), 'runtime/include/klee/klee.h',
      'runtime/replay/Makefile', 'runtime/replay/replay.c', 'runtime/replay/ktest-read.c', 'runtime/replay/ktest-read.h', 'examples/hello.bc', 'examples/bounds.c'];
    expect(required.filter((f) => !entries.includes(f))).toEqual([]);
    expect(statSync(tarball).size).toBeLessThan(MAX_TARBALL_BYTES);
  });
});

describe('the installed package (read-only, run as another user)', () => {
  it("runs the README's main job with no clang or solver on PATH, as the checkout does", () => {
    const dir = workDir('hello');
    const args = ['run', '--libc=tsklee', '--posix-runtime', example('hello.bc', dir), '--sym-args', '0', '1', '2'];
    const r = tsklee(args, dir, { path: bareTools });
    expect(r.stderr).toMatch(/^KLEE: done: generated tests = 11$/m);
    expect(r.code).toBe(0);
    const ref = join(tmp, 'ref');
    mkdirSync(ref);
    cpSync(join(ROOT, 'examples', 'hello.bc'), join(ref, 'hello.bc'));
    const checkout = spawnSync(join(ROOT, 'bin', 'tsklee'), args, { cwd: ref, encoding: 'utf8' });
    expect(checkout.status).toBe(0);
    // the same console but for the output directory's name
    expect(r.stderr.replaceAll(dir, '<dir>')).toBe(checkout.stderr.replaceAll(ref, '<dir>'));
    const files = testFiles(join(dir, 'klee-out-0'));
    expect(Object.keys(files).filter((f) => f.endsWith('.ktest'))).toHaveLength(11);
    expect(files).toEqual(testFiles(join(ref, 'klee-out-0')));
  });

  it('links its clang-19 runtime into a program from another clang (a .c input compiled by clang-16)', () => {
    const dir = workDir('hello-clang16');
    const r = tsklee(['run', '--libc=tsklee', '--posix-runtime', example('hello.c', dir), '--sym-args', '0', '1', '2'], dir, { env: { TSKLEE_CLANG: 'clang-16' } });
    expect(r.stderr).toMatch(/^KLEE: done: generated tests = 11$/m);
    expect(r.code).toBe(0);
  });

  it('runs a KLEE-style program from C, prints its error test with `tsklee ktest` and replays it in the interpreter and natively', () => {
    const dir = workDir('bounds');
    const run = tsklee(['run', example('bounds.c', dir)], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^KLEE: ERROR: .*bounds\.c:9: memory error: out of bound pointer$/m);
    expect(run.stderr).toMatch(/^KLEE: done: generated tests = 3$/m);
    const out = join(dir, 'klee-out-0');
    const errTest = readdirSync(out).find((f) => f.endsWith('.ptr.err'))!.replace(/\.ptr\.err$/, '.ktest');

    const ktest = tsklee(['ktest', `klee-out-0/${errTest}`], dir);
    expect(ktest.code).toBe(0);
    expect(ktest.stdout).toMatch(/^num objects: 1$/m);
    expect(ktest.stdout).toMatch(/^object 0: name: 'i'$/m);
    expect(Number(/^object 0: int : (-?\d+)$/m.exec(ktest.stdout)?.[1])).toBeGreaterThanOrEqual(4);

    const replay = tsklee(['replay', 'bounds.c', 'klee-out-0'], dir);
    expect(replay.code).toBe(0);
    expect(replay.stdout.trimEnd().split('\n').sort()).toEqual(
      ['test000001.ktest', 'test000002.ktest', 'test000003.ktest'].map((t) => (t === errTest ? expect.stringMatching(`^${t}: error: ptr: memory error: out of bound pointer`) : `${t}: exit 0`)),
    );

    // the replay library from the package's sources, built outside the package
    const make = runAs('make', ['-s', '-C', join(pkg, 'runtime', 'replay'), `BUILD=${join(dir, 'replay-lib')}`], dir);
    expect(make).toMatchObject({ code: 0, stderr: '' });
    const cc = runAs('cc', ['-I', join(pkg, 'runtime', 'include'), 'bounds.c', join(dir, 'replay-lib', 'libtskleeRuntest.a'), '-o', 'bounds'], dir);
    expect(cc).toMatchObject({ code: 0, stderr: '' });
    const native = tsklee(['replay', '--native', './bounds', 'klee-out-0'], dir);
    expect(native.code).toBe(0);
    const lines = native.stdout.split('\n').filter((l) => l.startsWith('test'));
    expect(lines.filter((l) => !l.startsWith(errTest))).toEqual([expect.stringMatching(/: exit \d, stdout 0 bytes: as recorded$/), expect.stringMatching(/: exit \d, stdout 0 bytes: as recorded$/)]);
  });

  it('serves `import { loadProgram, explore } from "tsklee"` with types', () => {
    const dir = workDir('library');
    example('hello.bc', dir);
    const project = join(tmp, 'library-user');
    mkdirSync(join(project, 'node_modules'), { recursive: true });
    symlinkSync(pkg, join(project, 'node_modules', 'tsklee'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')],
        },
        files: ['use.ts'],
      }),
    );
    writeFileSync(
      join(project, 'use.ts'),
      `import { explore, loadProgram, MemoryOutput, type ExploreResult } from 'tsklee';
const { module, entryPoint } = await loadProgram(['hello.bc'], { libc: 'tsklee', posixRuntime: true });
const result: ExploreResult = await explore(module, { entryPoint, libc: 'tsklee', posixRuntime: true, programName: 'hello.bc', programArgs: ['--sym-args', '0', '1', '2'] });
const tests = result.output instanceof MemoryOutput ? result.output.tests.length : -1;
console.log(JSON.stringify({ completedPaths: result.completedPaths, generatedTests: result.generatedTests, tests }));
export function typed(): Promise<ExploreResult> {
  // @ts-expect-error the options are typed: search takes searcher names
  return explore(module, { search: 42 });
}
`,
    );
    // skipLibCheck, as most users have it (checking every declaration file took ~4x longer): the
    // package's own declarations that the entry reaches must then import only what it ships
    expect(bareImportsOf(join(pkg, 'dist', 'index.d.ts')).filter((m) => !m.startsWith('node:'))).toEqual([]);
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    chmodSync(project, 0o755);
    const r = runAs(process.execPath, [join(project, 'out', 'use.js')], dir);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ completedPaths: 11, generatedTests: 11, tests: 11 });
  });

  it("runs from the bundle's code cache, and silently without it when this node rejects it", () => {
    const cli = join(pkg, 'dist', 'cli');
    const bundle = readFileSync(join(cli, 'tsklee-bundle.cjs'));
    const cache = readFileSync(join(cli, 'tsklee-bundle.cache'));
    // the bundle, not the per-module build, whatever the file times npm gave: a copy whose
    // per-module CLI fails if loaded, and is newer than the bundle, still runs
    const copy = installedCopy('bundle-used');
    writeFileSync(join(copy, 'dist', 'cli', 'cli.js'), "throw new Error('per-module build loaded');\n");
    const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
    expect(runAs(join(copy, 'bin', 'tsklee'), ['--version'], workDir('bundle-used'))).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    // and the cache is this bundle's and accepted by this node
    expect(cache.readUInt32LE(0)).toBe(crc32(bundle));
    expect(new Script(bundle.toString('latin1'), { filename: join(cli, 'tsklee-bundle.cjs'), cachedData: cache.subarray(8) }).cachedDataRejected).toBe(false);
    const dir = workDir('cache');
    cpSync(join(ROOT, 'examples', 'bounds.bc'), join(dir, 'bounds.bc'));
    const args = ['run', '--search=dfs', '--output-dir=out-plain', 'bounds.bc'];
    const plain = runAs(process.execPath, [join(cli, 'launch.cjs'), ...args], dir);
    expect(plain.code).toBe(0);
    // V8 rejects a cache made under other flags, as it does one from another node
    const rejected = runAs(process.execPath, ['--no-opt', join(cli, 'launch.cjs'), ...args.map((a) => a.replace('out-plain', 'out-no-opt'))], dir);
    expect(rejected).toEqual({ ...plain, stderr: plain.stderr.replaceAll('out-plain', 'out-no-opt') });
  });

  it('says in one line which Debian package to install when a command needs a missing tool', () => {
    const dir = workDir('no-tools');
    example('hello.c', dir);
    example('hello.bc', dir);
    const noClang = "no clang found (tried clang-19, clang-16, clang-14, clang on PATH): install Debian's clang-19 package (apt-get install clang-19), or set TSKLEE_CLANG";
    const cases: [string[], string][] = [
      [['run', 'hello.c'], `hello.c: ${noClang}`],
      [['cc', '-c', 'hello.c'], `cc: ${noClang}`],
      [['run', '--solver-backend=z3-native', 'hello.bc'], "--solver-backend=z3-native: 'z3' not found on PATH (install Debian's z3 package)"],
      [['run', '--solver-backend=cvc5', 'hello.bc'], "--solver-backend=cvc5: 'cvc5' not found on PATH (install Debian's cvc5 package)"],
    ];
    for (const [args, message] of cases) expect({ args, ...tsklee(args, dir, { path: bareTools }) }).toEqual({ args, code: 1, stdout: '', stderr: `tsklee: error: ${message}\n` });
    expect(readdirSync(dir).sort()).toEqual(['hello.bc', 'hello.c']);
  });

  it('says in one line when its runtime bitcode is missing, and builds nothing', () => {
    const dir = workDir('damaged');
    example('hello.bc', dir);
    for (const [missing, option] of [['posix.bc', '--posix-runtime'], ['libc.index.json', '--libc=tsklee']] as const) {
      const copy = installedCopy(`damaged-${missing}`);
      rmSync(join(copy, 'runtime', 'build', missing));
      const r = runAs(join(copy, 'bin', 'tsklee'), ['run', option, 'hello.bc'], dir);
      const part = missing === 'posix.bc' ? 'posix' : 'libc';
      expect(r).toEqual({ code: 1, stdout: '', stderr: `tsklee: error: runtime/build/${part}.bc is missing from this installation of tsklee (${copy}): reinstall the tsklee package\n` });
    }
  });

  it('was not written to by any of this', () => {
    expect(snapshot()).toEqual(snapshotBefore);
  });
});
