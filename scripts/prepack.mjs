#!/usr/bin/env node
// Run by `npm pack` and `npm publish` (package.json "prepack"): builds what the package ships
// (package.json "files") when it is not current, then checks it. Any failure fails the pack.
//
// - dist/ (tsc, then the CLI bundle and its code cache: `npm run build`) is rebuilt only when
//   stale, so `npm pack` right after `npm run build` costs only these checks (~1 s). Stale:
//   a file missing (dist/index.js, index.d.ts, the bundle, its cache); an input (src/**,
//   tsconfig.json, package-lock.json, scripts/bundle.mjs and the training program it runs) newer
//   than the code cache, the build's last output; the bundle older than tsc's cli.js (tsc run
//   alone); the cache made for another bundle (CRC-32 header, src/cli/launch.cts); or a module in
//   dist whose source is gone, which would be shipped as an orphan: then dist is emptied first.
// - runtime/build/: the runtime build scripts, which rebuild only what is older than its
//   sources (clang-19, or $TSKLEE_CLANG). A libc member file its index does not list (left from
//   a removed source) is deleted, so that it is not shipped.
// - The runtime bitcode the package ships is read with dist's own bitcode reader, and must come
//   from an LLVM that reader is tested against with opaque pointers (what the runtime needs):
//   the installed package never builds it (src/engine/prepare/runtime-files.ts) and reads it
//   whatever clang the user has, or none.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32 } from 'node:zlib';
import { ROOT } from './runtime-build-common.mjs';
import * as libc from './build-runtime-libc.mjs';
import * as posix from './build-runtime-posix.mjs';

/** LLVM versions whose bitcode the reader is checked against (README) that have opaque pointers. */
const RUNTIME_LLVM_MAJORS = [16, 19];
const DIST = join(ROOT, 'dist');
const CLI = join(DIST, 'cli');
const BUNDLE = join(CLI, 'tsklee-bundle.cjs');
const CACHE = join(CLI, 'tsklee-bundle.cache');
const BUNDLE_FILES = new Set([BUNDLE, CACHE]);

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

const mtime = (p) => statSync(p).mtimeMs;

/** The src/ file that tsc compiled `distFile` from, or undefined for files tsc does not write. */
function sourceOf(distFile) {
  const rel = relative(DIST, distFile);
  const m = /^(.*?)(\.d)?\.(js|cjs|ts|cts)$/.exec(rel);
  if (m === null) return undefined; // source maps: not shipped
  return join(ROOT, 'src', `${m[1]}.${m[3] === 'cjs' || m[3] === 'cts' ? 'cts' : 'ts'}`);
}

/** Why dist must be rebuilt ({ reason, clean }), or null when it is current. */
function staleness() {
  for (const f of [join(DIST, 'index.js'), join(DIST, 'index.d.ts'), join(CLI, 'cli.js'), BUNDLE, CACHE]) {
    if (!existsSync(f)) return { reason: `${relative(ROOT, f)} is missing`, clean: false };
  }
  for (const f of walk(DIST)) {
    if (BUNDLE_FILES.has(f)) continue;
    const src = sourceOf(f);
    if (src !== undefined && !existsSync(src)) return { reason: `${relative(ROOT, f)} has no source any more`, clean: true };
  }
  const built = mtime(CACHE);
  const inputs = [...walk(join(ROOT, 'src')), ...['tsconfig.json', 'package-lock.json', 'scripts/bundle.mjs', 'examples/bounds.bc'].map((f) => join(ROOT, f))];
  const newer = inputs.find((f) => mtime(f) > built);
  if (newer !== undefined) return { reason: `${relative(ROOT, newer)} is newer than the build`, clean: false };
  if (mtime(join(CLI, 'cli.js')) > mtime(BUNDLE)) return { reason: 'the bundle is older than tsc output', clean: false };
  if (readFileSync(CACHE).readUInt32LE(0) !== crc32(readFileSync(BUNDLE))) return { reason: 'the code cache was made for another bundle', clean: false };
  return null;
}

/**
 * The libc members the package ships (runtime/build/libc-bc/*.bc): those in the index. A member
 * left from a source since removed is deleted rather than shipped unused.
 */
function libcMembers() {
  const build = join(ROOT, 'runtime', 'build');
  const members = Object.keys(JSON.parse(readFileSync(join(build, 'libc.index.json'), 'utf8')).members).map((m) => join(build, m));
  for (const f of readdirSync(join(build, 'libc-bc')).map((n) => join(build, 'libc-bc', n))) {
    if (f.endsWith('.bc') && !members.includes(f)) {
      process.stderr.write(`prepack: removing ${relative(ROOT, f)} (not a member of libc.index.json)\n`);
      rmSync(f);
    }
  }
  return members;
}

/** Reads every runtime bitcode file the package ships with dist's reader; returns the LLVM majors seen. */
async function checkRuntimeBitcode() {
  const { readBitcodeFile } = await import(pathToFileURL(join(DIST, 'bitcode', 'index.js')).href);
  const files = [posix.POSIX_BC, ...libcMembers()];
  const majors = new Set();
  for (const f of files) {
    const rel = relative(ROOT, f);
    let module;
    try {
      [module] = readBitcodeFile(f);
    } catch (e) {
      throw new Error(`${rel}: tsklee's reader cannot read it: ${e.message}`);
    }
    const major = Number(/^LLVM(\d+)\./.exec(module.producer)?.[1]);
    if (!RUNTIME_LLVM_MAJORS.includes(major) || module.typedPointers) {
      throw new Error(`${rel}: built by ${module.producer || 'an unknown producer'}; the runtime must come from LLVM ${RUNTIME_LLVM_MAJORS.join(' or ')} (set TSKLEE_CLANG, TSKLEE_LLVM_LINK, TSKLEE_LLVM_NM)`);
    }
    majors.add(major);
  }
  return { count: files.length, majors: [...majors] };
}

try {
  const stale = staleness();
  if (stale !== null) {
    process.stderr.write(`prepack: ${stale.reason}: npm run build\n`);
    if (stale.clean) rmSync(DIST, { recursive: true, force: true });
    // its output on stderr: stdout is npm pack's (--json)
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  } else {
    libc.buildBitcode({ quiet: true });
    posix.buildBitcode({ quiet: true });
  }
  const { count, majors } = await checkRuntimeBitcode();
  process.stderr.write(`prepack: dist ${stale === null ? 'was current' : 'rebuilt'}; ${count} runtime bitcode files read, built by LLVM ${majors.join(', ')}\n`);
} catch (e) {
  process.stderr.write(`prepack: ${e.message}\n`);
  process.exit(1);
}
