/**
 * End-to-end harness for the engine: C programs written for KLEE (fixtures/engine/*.c) and
 * concrete programs (fixtures/concrete/*.c) compiled with clang, run with `tsklee run`, their
 * output directories parsed, and their tests replayed natively.
 *
 * Pieces:
 *  - fixtures and expectations: listEngineFixtures(), fixtureCases(), resolveExpectation()
 *    (fixtures/engine/README.md has the expect.json format and KLEE's counting rules);
 *  - compiling: compileBitcodeAsync() (bitcode for tsklee, cached under
 *    fixtures/<dir>/build/), compileNativeCached() (a native executable, optionally with
 *    sanitizers and the replay library from runtime/replay);
 *  - running tsklee: runTskleeAsync(), runTskleeCachedAsync() (a cache shared by the test
 *    files), runFixtureConfigs(); parseOutputDir(), parseInfo();
 *  - native replay: replayNativeAsync(), classifyNative() and the mapping from a test's .err
 *    kind to the native outcome it must produce (NATIVE_ERROR_MAP, checkErrorOutcome());
 *  - exit-code histograms: matchExitCodes().
 *
 * Child processes run asynchronously, two at a time (pool()): the suites compute everything in
 * beforeAll and each test then checks one configuration's results.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { decodeKTest, type KTest } from '../../src/output/ktest.js';
import { readExitStatuses } from '../../src/output/exit-status.js';

// ---- locations ---------------------------------------------------------------------------

function findRoot(): string {
  let dir = resolve(process.cwd());
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fixtures'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`engine-harness: cannot find the repository root from ${process.cwd()}`);
    dir = up;
  }
}

export const ROOT = findRoot();
export const ENGINE_DIR = join(ROOT, 'fixtures', 'engine');
export const CONCRETE_DIR = join(ROOT, 'fixtures', 'concrete');
export const INCLUDE_DIR = join(ROOT, 'runtime', 'include');
export const REPLAY_DIR = join(ROOT, 'runtime', 'replay');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

// ---- configurations ----------------------------------------------------------------------

export type Mode = 'O0' | 'O2';
export const MODE_FLAGS: Record<Mode, string[]> = {
  O0: ['-O0', '-Xclang', '-disable-O0-optnone'],
  O2: ['-O2'],
};
const TARGET = '--target=x86_64-unknown-linux-gnu';

export interface Config {
  clang: number;
  mode: Mode;
}

function envList(name: string): string[] | undefined {
  const v = process.env[name];
  if (!v) return undefined;
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Clang versions for the engine fixtures: 16 and 19, plus 14 for fixtures marked "clang14" (TSKLEE_CLANG_VERSIONS filters). */
export function engineConfigs(clang14: boolean): Config[] {
  const wanted = envList('TSKLEE_CLANG_VERSIONS')?.map(Number);
  const modes = (envList('TSKLEE_ENGINE_MODES') as Mode[] | undefined) ?? ['O0', 'O2'];
  const out: Config[] = [];
  for (const clang of clang14 ? [14, 16, 19] : [16, 19]) {
    if (wanted && !wanted.includes(clang)) continue;
    for (const mode of modes) out.push({ clang, mode });
  }
  return out;
}

/** `name clangNN MODE`, the prefix of every failure message. */
export function configId(name: string, c: Config): string {
  return `${name} clang${c.clang} ${c.mode}`;
}

// ---- expectations ------------------------------------------------------------------------

/** Completed-path exit codes: "3" → 2 means two completed paths exit with 3; "0|1" → 1 means one path exits with 0 or 1. */
export type ExitCodeHistogram = Record<string, number>;

export interface Expectation {
  /** KLEE's "completed paths". */
  paths: number;
  /** KLEE's "partially completed paths" (error states, silent exits, merged-away states). */
  partial: number;
  /** KLEE's "generated tests" (.ktest files). */
  tests: number;
  /** Number of testN.<kind>.err files per kind. */
  errors: Record<string, number>;
  exitCodes?: ExitCodeHistogram;
  /** Names of the symbolic objects in every test, in order. */
  objects?: string[];
  /** Values every test must hold: the object decoded as a little-endian integer is one of oneOf. */
  ktestValues?: { object: string; type: 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64'; oneOf: (number | string)[] }[];
  /** Extra `tsklee run` options (before the bitcode). */
  args?: string[];
  clang14?: boolean;
  notes: string;
  /** Overrides per optimisation level, then per clang and level. */
  modes?: Partial<Record<Mode, Partial<Expectation>>>;
  clangs?: Record<string, Partial<Record<Mode, Partial<Expectation>>>>;
  /** Native replay differences (e.g. klee_is_symbolic answers 0 natively). */
  replay?: { exitCodes?: ExitCodeHistogram; skip?: string };
  /** Hints for fixtures/engine/tools/oracle.mjs; unused by the tests. */
  oracle?: unknown;
}

export interface EngineFixture {
  name: string;
  src: string;
  expect: Expectation;
  /** Extra clang flags of both the bitcode and the native builds (e.g. -DENTRIES=4); the name must then be unique to them. */
  flags?: string[];
}

/** Every fixtures/engine/<name>.c with its <name>.expect.json (TSKLEE_ENGINE_FIXTURES=a,b filters). */
export function listEngineFixtures(): EngineFixture[] {
  const only = envList('TSKLEE_ENGINE_FIXTURES');
  return readdirSync(ENGINE_DIR)
    .filter((f) => f.endsWith('.c'))
    .map((f) => basename(f, '.c'))
    .filter((n) => !only || only.includes(n))
    .sort()
    .map((name) => {
      const expPath = join(ENGINE_DIR, `${name}.expect.json`);
      if (!existsSync(expPath)) throw new Error(`fixtures/engine/${name}.c has no ${name}.expect.json`);
      return { name, src: join(ENGINE_DIR, `${name}.c`), expect: JSON.parse(readFileSync(expPath, 'utf8')) as Expectation };
    });
}

/** The expectation of one configuration: the base fields, then modes[mode], then clangs[clang][mode]. */
export function resolveExpectation(e: Expectation, c: Config): Expectation {
  return { ...e, ...(e.modes?.[c.mode] ?? {}), ...(e.clangs?.[String(c.clang)]?.[c.mode] ?? {}) };
}

export interface FixtureCase {
  /** `name clangNN MODE` */
  id: string;
  fixture: EngineFixture;
  config: Config;
}

/** Every fixture in every configuration it is tested in. */
export function fixtureCases(fixtures: readonly EngineFixture[]): FixtureCase[] {
  return fixtures.flatMap((fixture) => engineConfigs(fixture.expect.clang14 === true).map((config) => ({ id: configId(fixture.name, config), fixture, config })));
}

// ---- compiling ---------------------------------------------------------------------------

export function clangBinary(version: number): string {
  const inLib = `/usr/lib/llvm-${version}/bin/clang`;
  return existsSync(inLib) ? inLib : `clang-${version}`;
}

function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; input?: string } = {}): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    encoding: 'utf8',
    env: opts.env ?? process.env,
    timeout: opts.timeoutMs,
    input: opts.input,
    maxBuffer: 256 * 1024 * 1024,
  });
}

function mustRun(what: string, cmd: string, args: string[]): string {
  const r = run(cmd, args);
  if (r.error) throw new Error(`${what}: ${cmd} could not run: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what}: ${cmd} ${args.join(' ')} failed (status ${r.status ?? r.signal}):\n${r.stderr}`);
  return r.stdout;
}

function mtime(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return -1;
  }
}

function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

export interface BitcodeOptions extends Config {
  /** Extra clang flags (e.g. -DEXPECTED=…). */
  flags?: string[];
  /** Directory for the output (default: <source dir>/build). */
  outDir?: string;
  /** Name stem of the output (default: the source's base name). */
  stem?: string;
}

/** The clang command of compileBitcode and whether the cached bitcode is up to date. */
function bitcodeCommand(src: string, o: BitcodeOptions): { bc: string; args: string[]; fresh: boolean } {
  const outDir = o.outDir ?? join(dirname(src), 'build');
  mkdirSync(outDir, { recursive: true });
  const stem = o.stem ?? basename(src, '.c');
  const bc = join(outDir, `${stem}.clang${o.clang}.${o.mode}.bc`);
  const newest = Math.max(mtime(src), mtime(join(INCLUDE_DIR, 'klee', 'klee.h')));
  const args = ['-c', '-emit-llvm', '-g', '-w', TARGET, '-I', INCLUDE_DIR, ...MODE_FLAGS[o.mode], ...(o.flags ?? []), src];
  return { bc, args, fresh: !o.flags?.length && mtime(bc) >= newest };
}

/** Sanitizers for the native replay of error tests: ASan for memory errors, UBSan for division by zero and over-wide shifts. */
export const SANITIZE_FLAGS = ['-fsanitize=address,integer-divide-by-zero,shift-exponent', '-fno-sanitize-recover=all', '-fno-omit-frame-pointer'];
/** Sanitizer run-time options: no leak reports, distinct exit codes, no symbolisation (speed). */
export const SANITIZER_ENV: NodeJS.ProcessEnv = {
  ASAN_OPTIONS: 'detect_leaks=0:exitcode=86:symbolize=0:handle_abort=0:detect_stack_use_after_return=0',
  UBSAN_OPTIONS: 'exitcode=87:print_stacktrace=0:symbolize=0',
};

export interface NativeOptions {
  clang: number;
  /** Optimisation flags (default -O0). */
  opt?: string[];
  sanitize?: boolean;
  /** Link the replay library (klee_* from a .ktest). */
  replayLib?: string;
  flags?: string[];
  out: string;
  /** Headers the source includes (a newer one means a rebuild). */
  deps?: string[];
}

function nativeArgs(srcs: string[], o: NativeOptions): string[] {
  return ['-g', '-w', '-I', INCLUDE_DIR, ...(o.opt ?? ['-O0']), ...(o.sanitize ? SANITIZE_FLAGS : []), ...(o.flags ?? []), ...srcs, ...(o.replayLib ? [o.replayLib] : [])];
}

let replayLibCache: string | undefined;

/** Builds runtime/replay's library (libtskleeRuntest.a) with its Makefile, once per process, into a temporary directory. */
export function buildReplayLib(): string {
  if (replayLibCache && existsSync(replayLibCache)) return replayLibCache;
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-replaylib-'));
  mustRun('building runtime/replay', 'make', ['-s', '-C', REPLAY_DIR, `BUILD=${dir}`]);
  const lib = join(dir, 'libtskleeRuntest.a');
  if (!existsSync(lib)) throw new Error(`building runtime/replay produced no ${lib}`);
  return (replayLibCache = lib);
}

// ---- asynchronous child processes (two at a time: the machine has two cores) --------------

export interface ProcResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs a process to its end without blocking the event loop; kills it after timeoutMs. */
export function runAsync(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcResult> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          child.kill('SIGKILL');
        }, opts.timeoutMs)
      : undefined;
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const finish = (status: number | null, signal: NodeJS.Signals | null, extra = ''): void => {
      if (timer) clearTimeout(timer);
      done({ status, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') + extra, timedOut });
    };
    child.on('error', (e) => finish(null, null, `\n[harness] ${cmd}: ${e.message}`));
    child.on('close', (status, signal) => finish(status, signal, timedOut ? `\n[harness] killed after ${opts.timeoutMs} ms` : ''));
  });
}

/** Calls fn on every item, at most `limit` at once (TSKLEE_E2E_JOBS overrides, default 2); results in item order. */
export async function pool<T, R>(items: readonly T[], fn: (item: T, index: number) => Promise<R>, limit = Number(process.env.TSKLEE_E2E_JOBS ?? 2)): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

/**
 * Compiles a C file to bitcode for tsklee: `clang-V -c -emit-llvm -g -I runtime/include
 * <mode flags>`. The result is cached (rebuilt when older than the source or klee.h; always
 * with extra flags) and written atomically, so parallel jest workers can share it.
 */
export async function compileBitcodeAsync(src: string, o: BitcodeOptions): Promise<string> {
  const { bc, args, fresh } = bitcodeCommand(src, o);
  if (fresh) return bc;
  const tmp = `${bc}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const r = await runAsync(clangBinary(o.clang), [...args, '-o', tmp]);
  if (r.status !== 0) throw new Error(`compiling ${basename(src)} (clang${o.clang} ${o.mode}) failed (status ${r.status ?? r.signal}):\n${r.stderr}`);
  renameSync(tmp, bc);
  return bc;
}

/**
 * A native build cached in `out` (rebuilt when older than the source, klee.h or runtime/replay),
 * without blocking. Written atomically: two jest workers may build the same file.
 */
export async function compileNativeCached(src: string, o: NativeOptions): Promise<string> {
  const newest = Math.max(mtime(src), mtime(join(INCLUDE_DIR, 'klee', 'klee.h')), newestMtime(REPLAY_DIR, 'build'), ...(o.deps ?? []).map(mtime));
  if (mtime(o.out) >= newest) return o.out;
  mkdirSync(dirname(o.out), { recursive: true });
  const tmp = `${o.out}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const r = await runAsync(clangBinary(o.clang), [...nativeArgs([src], o), '-o', tmp]);
  if (r.status !== 0) throw new Error(`native build of ${basename(src)} (clang${o.clang}) failed (status ${r.status ?? r.signal}):\n${r.stderr}`);
  renameSync(tmp, o.out);
  return o.out;
}

// ---- running tsklee ----------------------------------------------------------------------

/** Why `tsklee run` cannot be used, or undefined when it can. */
export function tskleeRunUnavailable(): string | undefined {
  if (!existsSync(CLI)) return `${CLI} is missing: run \`npm run build\` first`;
  const r = run(process.execPath, [CLI, 'run', '--help'], { timeoutMs: 60_000 });
  if (r.status !== 0) return `\`tsklee run --help\` failed (status ${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim().split('\n').slice(0, 3).join(' | ')}`;
  return undefined;
}

export interface InfoTotals {
  completedPaths: number;
  partiallyCompletedPaths: number;
  generatedTests: number;
  exploredPaths?: number;
  instructions?: number;
}

/** Reads KLEE's "KLEE: done: … = N" lines (from the info file or stderr); null when the totals are missing. */
export function parseInfo(text: string): InfoTotals | null {
  const get = (label: string): number | undefined => {
    const m = new RegExp(`KLEE: done: ${label} = (\\d+)`).exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const completedPaths = get('completed paths');
  const partiallyCompletedPaths = get('partially completed paths');
  const generatedTests = get('generated tests');
  if (completedPaths === undefined || generatedTests === undefined) return null;
  return {
    completedPaths,
    partiallyCompletedPaths: partiallyCompletedPaths ?? 0,
    generatedTests,
    exploredPaths: get('explored paths'),
    instructions: get('total instructions'),
  };
}

export interface TskleeTest {
  /** The test number (1 for test000001). */
  id: number;
  /** Path of the .ktest, when written. */
  path?: string;
  ktest?: KTest;
  /** The error kind from testN.<kind>.err ("ptr", "div", "custom", …). */
  errKind?: string;
  errFile?: string;
  errText?: string;
  /** testN.early exists (the state ended early: timeout, memory cap, halt). */
  early?: boolean;
  /** The test has its line in exit-status.txt (every .ktest must). */
  exitLine?: boolean;
  /** From exit-status.txt: the exit status (0..255) of a path that exited, as a shell sees it. */
  exitStatus?: number;
}

export interface TskleeRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  outDir: string;
  tests: TskleeTest[];
  /** Totals from the info file (or, failing that, from stderr). */
  info: InfoTotals | null;
  infoText: string;
  /** The command line, for messages. */
  command: string;
}

/** Reads an output directory: the tests (.ktest, .err, .early, exit-status.txt) and the info totals. */
export function parseOutputDir(dir: string): { tests: TskleeTest[]; info: InfoTotals | null; infoText: string } {
  const byId = new Map<number, TskleeTest>();
  const entry = (id: number): TskleeTest => {
    let t = byId.get(id);
    if (!t) byId.set(id, (t = { id }));
    return t;
  };
  const files = existsSync(dir) ? readdirSync(dir) : [];
  for (const f of files) {
    const m = /^test(\d+)\.(.+)$/.exec(f);
    if (!m) continue;
    const t = entry(Number(m[1]));
    const suffix = m[2];
    const full = join(dir, f);
    if (suffix === 'ktest') {
      t.path = full;
      t.ktest = decodeKTest(readFileSync(full), full);
    } else if (suffix.endsWith('.err')) {
      t.errKind = suffix.slice(0, -'.err'.length);
      t.errFile = full;
      t.errText = readFileSync(full, 'utf8');
    } else if (suffix === 'early') {
      t.early = true;
    }
  }
  if (files.length > 0) {
    for (const [stem, status] of readExitStatuses(dir)) {
      const t = entry(Number(stem.slice('test'.length)));
      t.exitLine = true;
      if (status !== null) t.exitStatus = status;
    }
  }
  const infoPath = join(dir, 'info');
  const infoText = existsSync(infoPath) ? readFileSync(infoPath, 'utf8') : '';
  return { tests: [...byId.values()].sort((a, b) => a.id - b.id), info: parseInfo(infoText), infoText };
}

export interface RunOptions {
  /** Extra options before the bitcode (e.g. --use-merge). */
  args?: string[];
  /** Searcher (default dfs, for determinism). */
  search?: string;
  /** Output directory to create (default: a fresh temporary directory). */
  outDir?: string;
  timeoutMs?: number;
}

/** The `node dist/cli/main.js run …` argument vector. */
function tskleeArgv(bc: string, outDir: string, opts: RunOptions): string[] {
  return [CLI, 'run', `--output-dir=${outDir}`, `--search=${opts.search ?? 'dfs'}`, ...(opts.args ?? []), bc];
}

function commandText(argv: string[]): string {
  return `node ${argv.map((a) => (a.startsWith(ROOT) ? a.slice(ROOT.length + 1) : a)).join(' ')}`;
}

/** Runs `node dist/cli/main.js run --output-dir=<dir> --search=<s> [args] <bc>` and parses what it wrote. */
export async function runTskleeAsync(bc: string, opts: RunOptions = {}): Promise<TskleeRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const outDir = opts.outDir ?? join(mkdtempSync(join(tmpdir(), 'tsklee-e2e-')), 'out');
  const argv = tskleeArgv(bc, outDir, opts);
  let r = await runAsync(process.execPath, argv, { timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  // dist/ rewritten under the run by a concurrent `npm run build`: wait for it and run again
  for (let retry = 0; retry < 3 && r.status !== 0 && DIST_IN_FLUX.test(r.stderr); retry++) {
    await sleep(10_000);
    rmSync(outDir, { recursive: true, force: true });
    r = await runAsync(process.execPath, argv, { timeoutMs: opts.timeoutMs ?? RUN_TIMEOUT_MS });
  }
  return withParsedDir({ exitCode: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, outDir, command: commandText(argv) });
}

/** How Node fails to load a dist/ that is being rebuilt (modules of two builds mixed, or missing). */
const DIST_IN_FLUX = /SyntaxError: The requested module|ERR_MODULE_NOT_FOUND|Cannot find module '\/.*\/dist\//;

/** A tsklee run gets this long (on a loaded 2-core machine) before it counts as hung. */
const RUN_TIMEOUT_MS = 180_000;

type RunRecord = Omit<TskleeRun, 'tests' | 'info' | 'infoText'>;

function withParsedDir(m: RunRecord): TskleeRun {
  const parsed = parseOutputDir(m.outDir);
  return { ...m, tests: parsed.tests, info: parsed.info ?? parseInfo(m.stderr), infoText: parsed.infoText };
}

/** The newest modification time of the files under dir (not in subdirectories named `skip`). */
function newestMtime(dir: string, skip?: string): number {
  let m = -1;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== skip) walk(p);
      } else m = Math.max(m, mtime(p));
    }
  };
  if (existsSync(dir)) walk(dir);
  return m;
}

/** A hash of the JavaScript in dist/ (a rebuild that changes nothing keeps cached runs valid). */
/** A hash of the built tsklee: dist/'s code and the C runtime's bitcode (a run links the libc and POSIX model). */
function hashDist(): string {
  const h = createHash('sha1');
  const walk = (d: string, exts: string[]): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p, exts);
      else if (exts.some((x) => e.name.endsWith(x))) h.update(e.name).update(readFileSync(p));
    }
  };
  if (existsSync(join(ROOT, 'dist'))) walk(join(ROOT, 'dist'), ['.js', '.wasm']);
  const rt = join(ROOT, 'runtime', 'build');
  for (const f of existsSync(rt) ? readdirSync(rt).filter((n) => n.endsWith('.bc')).sort() : []) h.update(f).update(readFileSync(join(rt, f)));
  return h.digest('hex');
}

let distHash: string | undefined;
const CACHE_ROOT = join(tmpdir(), 'tsklee-e2e-cache');
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function cacheEntry(bc: string, opts: RunOptions): string {
  distHash ??= hashDist();
  const key = createHash('sha1')
    .update(readFileSync(bc))
    .update(JSON.stringify([opts.args ?? [], opts.search ?? 'dfs', distHash]))
    .digest('hex')
    .slice(0, 20);
  return join(CACHE_ROOT, key);
}

function readCached(entry: string): TskleeRun | undefined {
  const meta = join(entry, 'run.json');
  return existsSync(meta) ? withParsedDir(JSON.parse(readFileSync(meta, 'utf8')) as RunRecord) : undefined;
}

/** Removes cache entries older than a day (each holds one output directory). */
function pruneCache(): void {
  const old = Date.now() - 24 * 3600_000;
  for (const e of existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : []) {
    const p = join(CACHE_ROOT, e);
    if (mtime(p) < old) rmSync(p, { recursive: true, force: true });
  }
}

/** Whether the process that holds the claim directory `lock` is gone. */
function claimIsStale(lock: string): boolean {
  try {
    const pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EPERM' && mtime(lock) < Date.now() - 5_000;
  }
}

/**
 * The tsklee run of (bc, opts), from a cache shared by the test files of a jest run (the same
 * fixture configuration is checked by engine-fixtures and native-replay) or made now. The key
 * is the bitcode's bytes, the options and a hash of dist/. A run being made by another worker
 * (its claim directory exists) is waited for, not repeated. TSKLEE_NO_RUN_CACHE=1 always runs.
 */
export async function runTskleeCachedAsync(bc: string, opts: RunOptions = {}): Promise<TskleeRun> {
  if (process.env.TSKLEE_NO_RUN_CACHE || opts.outDir) return runTskleeAsync(bc, opts);
  mkdirSync(CACHE_ROOT, { recursive: true });
  const entry = cacheEntry(bc, opts);
  const lock = `${entry}.claim`;
  for (;;) {
    const hit = readCached(entry);
    if (hit) return hit;
    try {
      mkdirSync(lock);
    } catch {
      if (claimIsStale(lock)) rmSync(lock, { recursive: true, force: true });
      else await sleep(200);
      continue;
    }
    try {
      writeFileSync(join(lock, 'pid'), String(process.pid));
      const staging = mkdtempSync(`${entry}.`);
      const r = await runTskleeAsync(bc, { ...opts, outDir: join(staging, 'out') });
      const record: RunRecord = { exitCode: r.exitCode, signal: r.signal, stdout: r.stdout, stderr: r.stderr, outDir: join(entry, 'out'), command: r.command };
      writeFileSync(join(staging, 'run.json'), JSON.stringify(record));
      try {
        renameSync(staging, entry);
      } catch {
        rmSync(staging, { recursive: true, force: true }); // a worker that took a stale claim finished first
      }
      return withParsedDir(record);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/**
 * Every engine fixture configuration compiled and run (or found in the cache), two at a time.
 * A failure to compile is returned as the error of that configuration.
 */
export async function runFixtureConfigs(cases: readonly FixtureCase[]): Promise<(TskleeRun | Error)[]> {
  pruneCache();
  return pool(cases, async ({ fixture, config }) => {
    try {
      const bc = await compileBitcodeAsync(fixture.src, config);
      return await runTskleeCachedAsync(bc, { args: resolveExpectation(fixture.expect, config).args });
    } catch (e) {
      return e as Error;
    }
  });
}

/** A short description of a run for failure messages. */
export function describeRun(r: TskleeRun): string {
  const files = r.tests.map((t) => `test${String(t.id).padStart(6, '0')}${t.path ? '.ktest' : ''}${t.errKind ? ` .${t.errKind}.err` : ''}${t.early ? ' .early' : ''}`);
  const tail = (s: string): string => s.trim().split('\n').slice(-12).join('\n      ');
  return [
    `    command: ${r.command}`,
    `    exit: ${r.exitCode ?? r.signal}`,
    `    info: ${r.info ? JSON.stringify(r.info) : '(no totals)'}`,
    `    tests: ${files.join(', ') || '(none)'}`,
    r.stderr.trim() ? `    stderr (last lines):\n      ${tail(r.stderr)}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** testNNNNNN.<kind>.err counts. */
export function countErrors(tests: TskleeTest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of tests) if (t.errKind) out[t.errKind] = (out[t.errKind] ?? 0) + 1;
  return out;
}

// ---- exit-code histograms ----------------------------------------------------------------

/**
 * Checks observed exit codes against a histogram: every bucket ("0", or "0|1" for one path that
 * may exit with either) must receive exactly its count of codes. Returns null when they match,
 * else a message.
 */
export function matchExitCodes(expected: ExitCodeHistogram, observed: number[]): string | null {
  const buckets: { codes: Set<number>; label: string }[] = [];
  for (const [label, n] of Object.entries(expected)) {
    const codes = new Set(label.split('|').map(Number));
    for (let i = 0; i < n; i++) buckets.push({ codes, label });
  }
  const fmt = (): string => `expected exit codes ${JSON.stringify(expected)}, got [${[...observed].sort((a, b) => a - b).join(', ')}]`;
  if (buckets.length !== observed.length) return `${fmt()} (${observed.length} completed tests for ${buckets.length} expected paths)`;
  // bipartite matching (small sizes): augmenting paths
  const owner = new Array<number>(buckets.length).fill(-1);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (let b = 0; b < buckets.length; b++) {
      if (seen[b] || !buckets[b].codes.has(observed[i])) continue;
      seen[b] = true;
      if (owner[b] === -1 || tryAssign(owner[b], seen)) {
        owner[b] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < observed.length; i++) if (!tryAssign(i, new Array<boolean>(buckets.length).fill(false))) return fmt();
  return null;
}

// ---- ktest checks ------------------------------------------------------------------------

export function decodeInt(bytes: Uint8Array, type: string): bigint {
  const width = Number(type.slice(1));
  const n = width / 8;
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] ?? 0);
  return type.startsWith('i') ? BigInt.asIntN(width, v) : v;
}

// ---- native replay -----------------------------------------------------------------------

export const REPLAY_ERROR_EXIT = 90;

export interface NativeResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut?: boolean;
}

/** Runs a natively built program with KTEST_FILE=<ktest> (the variable runtime/replay reads). */
export async function replayNativeAsync(exe: string, ktestPath: string, timeoutMs = 20_000): Promise<NativeResult> {
  const r = await runAsync(exe, [], { env: { PATH: process.env.PATH ?? '', KTEST_FILE: ktestPath, ...SANITIZER_ENV }, timeoutMs });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
}

/** How a native run ended, in the terms of tsklee's error kinds. */
export type NativeOutcome =
  | { kind: 'exit'; code: number }
  | { kind: 'asan'; what: string }
  | { kind: 'ubsan-div' }
  | { kind: 'ubsan-shift' }
  | { kind: 'assert' }
  | { kind: 'report'; text: string }
  | { kind: 'abort' }
  | { kind: 'signal'; signal: string }
  | { kind: 'replay-error'; text: string }
  | { kind: 'timeout' };

export function classifyNative(r: NativeResult): NativeOutcome {
  const err = r.stderr;
  const asan = /ERROR: AddressSanitizer: (.*)/.exec(err);
  if (asan) return { kind: 'asan', what: asan[1].trim() };
  if (/runtime error: (integer )?division by zero|runtime error: division by zero/.test(err)) return { kind: 'ubsan-div' };
  if (/runtime error: shift exponent/.test(err)) return { kind: 'ubsan-shift' };
  if (r.timedOut) return { kind: 'timeout' };
  if (/tsklee-replay: error:|KLEE_RUN_TEST_ERROR/.test(err) && r.status === REPLAY_ERROR_EXIT) return { kind: 'replay-error', text: err.trim() };
  if (r.signal === 'SIGABRT') {
    if (/Assertion .* failed/.test(err)) return { kind: 'assert' };
    if (/^tsklee-replay: /m.test(err)) return { kind: 'report', text: err.trim() };
    return { kind: 'abort' };
  }
  if (r.signal) return { kind: 'signal', signal: r.signal };
  return { kind: 'exit', code: r.status ?? -1 };
}

/**
 * What a natively replayed error test must do, by the kind of its .err file (built with
 * SANITIZE_FLAGS at -O0, so undefined behaviour is caught at the source level):
 *   ptr        an ASan report (out of bounds, use after free, null or wild access reported as
 *              SEGV, double free / bad free — KLEE reports a bad free as "invalid pointer: free")
 *              or a plain SIGSEGV/SIGBUS
 *   free       an ASan report about free (free of a stack or global object: "attempting free on
 *              address which was not malloc()-ed", or a double free)
 *   div        UBSan "division by zero" (or SIGFPE)
 *   overshift  UBSan "shift exponent … is too large"
 *   assert     SIGABRT with glibc's "Assertion `…' failed"
 *   abort      SIGABRT
 *   anything else (klee_report_error's own suffix, user) — the replay library prints
 *              "tsklee-replay: FILE:LINE: MESSAGE (SUFFIX)" and aborts; a KLEE user error from
 *              an impossible klee_assume shows up natively as the replay library's klee_assume
 *              error (exit 90)
 */
export const NATIVE_ERROR_MAP: Record<string, (o: NativeOutcome) => boolean> = {
  ptr: (o) => o.kind === 'asan' || (o.kind === 'signal' && (o.signal === 'SIGSEGV' || o.signal === 'SIGBUS')),
  free: (o) => o.kind === 'asan' && /free|malloc/.test(o.what),
  div: (o) => o.kind === 'ubsan-div' || (o.kind === 'signal' && o.signal === 'SIGFPE'),
  overshift: (o) => o.kind === 'ubsan-shift',
  assert: (o) => o.kind === 'assert',
  abort: (o) => o.kind === 'abort',
};

export function describeOutcome(o: NativeOutcome): string {
  switch (o.kind) {
    case 'exit':
      return `exit ${o.code}`;
    case 'asan':
      return `ASan: ${o.what}`;
    case 'signal':
      return o.signal;
    case 'report':
    case 'replay-error':
      return `${o.kind}: ${o.text.split('\n')[0]}`;
    default:
      return o.kind;
  }
}

/** Null when a replayed error test of this kind ended as it should, else why not. */
export function checkErrorOutcome(errKind: string, o: NativeOutcome): string | null {
  const ok = NATIVE_ERROR_MAP[errKind] ?? ((x: NativeOutcome) => x.kind === 'report' || (errKind === 'user' && x.kind === 'replay-error'));
  return ok(o) ? null : `a .${errKind}.err test replayed natively ended with ${describeOutcome(o)}`;
}

export function writeFile(path: string, data: string): void {
  writeAtomic(path, data);
}
