/**
 * Starts the CLI, as CommonJS: `bin/tsklee` runs this file directly (no ES module loader to
 * set up: ~10 ms of a short run), and `dist/cli/main.js` loads it.
 *
 * Loading the CLI as ~100 ES modules (resolving, reading and compiling each) was most of a
 * short run's time, so `npm run build` also bundles the CLI into one script,
 * tsklee-bundle.cjs, and records V8's compiled code for it in tsklee-bundle.cache
 * (scripts/bundle.mjs). This file runs the bundle from that cache.
 *
 * - No bundle (a plain `tsc` build), or, in a source checkout, a bundle older than tsc's cli.js
 *   (tsc run without the bundle step): the per-module build is imported as before. An
 *   installed package has no src/ and is never partly rebuilt, and npm gives its files the
 *   time they were unpacked, in any order: there the bundle is used whatever the times.
 * - A missing, stale or rejected cache (another node or V8 flags) only costs compile time. The
 *   launcher writes a cache only when TSKLEE_CODE_CACHE_OUT names a file (the build's training
 *   run), never into dist on its own.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import * as zlib from 'node:zlib';

type Cli = typeof import('./cli.js');

const BUNDLE = join(__dirname, 'tsklee-bundle.cjs');
const CACHE = join(__dirname, 'tsklee-bundle.cache');

/**
 * The cache file: CRC-32 of the bundle, CRC-32 of V8's data, V8's data. V8 itself only checks
 * the source's length, and takes damaged data without a word (measured: a truncated cache is
 * "accepted"), so a cache from another build of the same length, or a damaged one, would run
 * the wrong code. zlib.crc32 is Node >= 20.15; without it, no cache.
 */
const HEADER_BYTES = 8;
const crc32 = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;

/** In a source checkout, tsc's output is newer than the bundle (tsc was run alone). */
function olderThanModules(bundleTime: number): boolean {
  const modulesTime = statSync(join(__dirname, 'cli.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  return modulesTime > bundleTime && existsSync(join(__dirname, '..', '..', 'src', 'cli', 'cli.ts'));
}

/** The bundled CLI, or undefined when there is none (or a stale one). */
function loadBundle(): Cli | undefined {
  const bundleTime = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs;
  if (bundleTime === undefined || olderThanModules(bundleTime)) return undefined;
  const bytes = readFileSync(BUNDLE);
  const bundleCrc = crc32?.(bytes);
  // latin1: the bundle is ASCII, and a one-byte string is V8's cheapest
  const script = new Script(bytes.toString('latin1'), { filename: BUNDLE, cachedData: readCache(bundleCrc) });
  const cacheOut = process.env.TSKLEE_CODE_CACHE_OUT;
  // at exit, so that the cache also holds the functions this run compiled lazily
  if (cacheOut && bundleCrc !== undefined) process.on('exit', () => writeCache(cacheOut, bundleCrc, script.createCachedData()));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} };
  // the bundle imports by path what esbuild could not follow (runtime build scripts) through importModule
  const importModule = (specifier: string): Promise<unknown> => import(specifier);
  wrapper(module.exports, createRequire(BUNDLE), module, BUNDLE, __dirname, pathToFileURL(BUNDLE).href, importModule);
  return module.exports as Cli;
}

/** V8's data from the cache file, if it was made for this bundle and is intact. */
function readCache(bundleCrc: number | undefined): Buffer | undefined {
  let file: Buffer;
  try {
    file = readFileSync(CACHE);
  } catch {
    return undefined; // compiled from source
  }
  if (bundleCrc === undefined || file.length < HEADER_BYTES || file.readUInt32LE(0) !== bundleCrc) return undefined;
  const data = file.subarray(HEADER_BYTES);
  return file.readUInt32LE(4) === crc32!(data) ? data : undefined;
}

function writeCache(path: string, bundleCrc: number, data: Buffer): void {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(bundleCrc, 0);
  header.writeUInt32LE(crc32!(data), 4);
  writeFileSync(path, Buffer.concat([header, data]));
}

/**
 * The JavaScript heap a `tsklee run` needs, in MB: more than its --max-memory (default
 * 2000, DEFAULT_OPTIONS.maxMemory), so that tsklee's own cap (engine/memory-cap.ts) acts
 * before V8 runs out of heap and kills the process; with no cap (0), the machine's memory.
 * Undefined for other commands. The words are scanned up to the input file (KLEE's
 * spellings: -max-memory=N, --max-memory N, …); what follows is the program's.
 */
function heapNeededMB(argv: readonly string[]): number | undefined {
  if (argv[2] !== 'run') return undefined;
  let cap = 2000;
  for (let i = 3; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--' || /\.(bc|ll|c|bca|a|o)$/.test(a)) break;
    const m = /^--?max-memory(?:=(.*))?$/.exec(a);
    if (m === null) continue;
    const v = Number(m[1] ?? argv[++i]);
    if (Number.isFinite(v)) cap = v; // a bad value is the CLI's error to report
  }
  const MB = 1024 * 1024;
  if (cap <= 0) return Math.floor(totalmem() / MB);
  return Math.ceil(cap + Math.max(512, cap / 4));
}

/**
 * Runs this launcher again in a node whose heap limit is `mb` (--max-old-space-size), and
 * exits as it does. Only for runs whose cap the default heap (a quarter of the machine's
 * memory, at most ~4 GB) cannot hold: any V8 flag makes V8 reject the bundle's code cache,
 * so such a start compiles the bundle (~70 ms more), which a run that long does not notice.
 * Ctrl-C reaches both processes (one process group); the child handles it, this one waits.
 */
function relaunchWithHeap(mb: number): void {
  // required here: child_process (with net and dgram) costs every other start a few ms
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load in CommonJS
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, [`--max-old-space-size=${mb}`, __filename, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TSKLEE_HEAP_MB: String(mb) },
  });
  const forward = (sig: NodeJS.Signals): void => void child.kill(sig);
  process.on('SIGINT', () => {}); // the terminal sends it to the child too
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  child.on('error', (e) => {
    process.stderr.write(`tsklee: error: cannot start node with a ${mb} MB heap: ${e.message}\n`);
    process.exitCode = 70;
  });
  child.on('exit', (code, signal) => {
    if (signal !== null) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 70;
  });
}

/** Runs the CLI on process.argv (the bundle, else the per-module build). */
async function start(): Promise<void> {
  const heapMB = process.env.TSKLEE_HEAP_MB === undefined ? heapNeededMB(process.argv) : undefined;
  if (heapMB !== undefined && heapMB > getHeapStatistics().heap_size_limit / (1024 * 1024)) {
    relaunchWithHeap(heapMB);
    return;
  }
  const cli = loadBundle() ?? ((await import('./cli.js')) as Cli);
  await cli.main(process.argv);
  // a training run also renders the help, whose code then comes from the cache too
  if (process.env.TSKLEE_CODE_CACHE_OUT && !process.exitCode) await cli.main([...process.argv.slice(0, 2), '--help']);
}

/**
 * The CLI's module (the bundle, else the per-module build), for a worker thread of `tsklee run
 * --jobs N` (src/engine/parallel/coordinator.ts), which loads it through this file too.
 */
export async function loadCli(): Promise<Cli> {
  return loadBundle() ?? ((await import('./cli.js')) as Cli);
}

// a worker thread of --jobs marks itself before it loads this file: it only loads the CLI (loadCli)
if ((globalThis as { tskleeParallelWorker?: boolean }).tskleeParallelWorker !== true) {
  start().catch((e: unknown) => {
    // cli.main reports what it expects; this is a failure to load it at all
    process.stderr.write(`tsklee: error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 70;
  });
}
