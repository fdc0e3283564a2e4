#!/usr/bin/env node
// Builds the bitcode fixtures used by the differential tests.
//
// For every fixtures/dis/*.c, every clang version in CLANG_VERSIONS and every mode in
// MODES, writes fixtures/dis/build/<name>.clang<V>.<mode>.bc plus the reference
// textual IR <…>.ll produced by llvm-dis-<V> from that very .bc.
//
// Usage: node scripts/build-fixtures.mjs [--large] [--only-large] [--force] [--jobs N] [--json]
//   --large       also build fixtures/large/large.c into fixtures/large/build/
//   --only-large  build only the large program
//   --force       rebuild even when the outputs are up to date
//   --jobs N      number of parallel workers (default 2)
//   --json        print the list of fixtures as JSON on stdout (summary goes to stderr)
//
// Environment: TSKLEE_CLANG_VERSIONS=14,19 restricts the clang versions.
//
// Outputs are considered up to date when both exist and are newer than the source and
// than this script. Files are written to a temporary name and renamed, so concurrent
// runs (e.g. parallel jest workers) never observe half-written outputs.

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '..');
export const DIS_DIR = join(ROOT, 'fixtures', 'dis');
export const LARGE_DIR = join(ROOT, 'fixtures', 'large');
export const CLANG_VERSIONS = [14, 16, 19];
export const MODES = {
  O0: ['-O0', '-Xclang', '-disable-O0-optnone'],
  O2: ['-O2'],
};
const COMMON_FLAGS = ['-g', '-c', '-emit-llvm', '--target=x86_64-unknown-linux-gnu', '-w'];

function selectedVersions() {
  const env = process.env.TSKLEE_CLANG_VERSIONS;
  if (!env) return CLANG_VERSIONS;
  return env
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((v) => CLANG_VERSIONS.includes(v));
}

function tool(name, version) {
  const onPath = `${name}-${version}`;
  const inLib = `/usr/lib/llvm-${version}/bin/${name}`;
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, onPath))) return onPath;
  }
  if (existsSync(inLib)) return inLib;
  return onPath; // let execFile report the failure
}

/** Lists the build jobs: one per (source, clang, mode). */
export function plan({ large = false, onlyLarge = false } = {}) {
  const sources = [];
  if (!onlyLarge) {
    for (const f of readdirSync(DIS_DIR).sort()) {
      if (f.endsWith('.c')) sources.push({ src: join(DIS_DIR, f), outDir: join(DIS_DIR, 'build') });
    }
  }
  if (large || onlyLarge) {
    sources.push({ src: join(LARGE_DIR, 'large.c'), outDir: join(LARGE_DIR, 'build') });
  }
  const jobs = [];
  for (const { src, outDir } of sources) {
    const name = basename(src, '.c');
    for (const clang of selectedVersions()) {
      for (const mode of Object.keys(MODES)) {
        const stem = join(outDir, `${name}.clang${clang}.${mode}`);
        jobs.push({ name, clang, mode, src, bcPath: `${stem}.bc`, llPath: `${stem}.ll` });
      }
    }
  }
  return jobs;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

export function isUpToDate(job) {
  const newest = Math.max(mtime(job.src), mtime(fileURLToPath(import.meta.url)));
  const bc = mtime(job.bcPath);
  const ll = mtime(job.llPath);
  return bc >= newest && ll >= newest;
}

function run(cmd, args) {
  return new Promise((resolvePromise, reject) => {
    execFile(cmd, args, { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const msg = [`${cmd} ${args.join(' ')}`, String(stderr || err.message).trim()].join('\n');
        reject(new Error(msg));
      } else {
        resolvePromise({ stdout, stderr });
      }
    });
  });
}

async function buildOne(job) {
  mkdirSync(dirname(job.bcPath), { recursive: true });
  const tag = `${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  const bcTmp = `${job.bcPath}.${tag}.tmp`;
  const llTmp = `${job.llPath}.${tag}.tmp`;
  try {
    await run(tool('clang', job.clang), [...MODES[job.mode], ...COMMON_FLAGS, job.src, '-o', bcTmp]);
    // Publish the .bc first so that llvm-dis records its final name as the ModuleID; the
    // job only counts as up to date once the .ll (renamed last) is newer than the source.
    renameSync(bcTmp, job.bcPath);
    await run(tool('llvm-dis', job.clang), [job.bcPath, '-o', llTmp]);
    renameSync(llTmp, job.llPath);
  } finally {
    rmSync(bcTmp, { force: true });
    rmSync(llTmp, { force: true });
  }
}

/**
 * Builds everything that is out of date with `jobs` workers.
 * Resolves to { fixtures, built, upToDate, seconds }; rejects with the first tool error.
 */
export async function buildFixtures({ large = false, onlyLarge = false, force = false, jobs = 2 } = {}) {
  const started = Date.now();
  const all = plan({ large, onlyLarge });
  const todo = force ? all : all.filter((j) => !isUpToDate(j));
  let next = 0;
  let failure = null;
  const worker = async () => {
    while (failure === null && next < todo.length) {
      const job = todo[next++];
      try {
        await buildOne(job);
      } catch (e) {
        failure ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  if (failure) throw failure;
  const fixtures = all.map(({ name, clang, mode, bcPath, llPath }) => ({ name, clang, mode, bcPath, llPath }));
  return { fixtures, built: todo.length, upToDate: all.length - todo.length, seconds: (Date.now() - started) / 1000 };
}

function parseArgs(argv) {
  const opts = { large: false, onlyLarge: false, force: false, jobs: 2, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--large') opts.large = true;
    else if (a === '--only-large') opts.onlyLarge = true;
    else if (a === '--force') opts.force = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--jobs') opts.jobs = Number(argv[++i]);
    else if (a.startsWith('--jobs=')) opts.jobs = Number(a.slice('--jobs='.length));
    else throw new Error(`unknown argument: ${a}`);
  }
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1) throw new Error('--jobs needs a positive integer');
  return opts;
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`build-fixtures: ${e.message}`);
    process.exit(2);
  }
  try {
    const r = await buildFixtures(opts);
    const programs = new Set(r.fixtures.map((f) => f.name)).size;
    const line =
      `build-fixtures: ${r.fixtures.length} fixtures (${programs} programs x ${selectedVersions().length} clangs x ` +
      `${Object.keys(MODES).length} modes): ${r.built} built, ${r.upToDate} up to date, ${r.seconds.toFixed(1)}s`;
    if (opts.json) {
      console.error(line);
      process.stdout.write(JSON.stringify(r.fixtures) + '\n');
    } else {
      console.log(line);
    }
  } catch (e) {
    console.error(`build-fixtures: FAILED\n${e.message}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
