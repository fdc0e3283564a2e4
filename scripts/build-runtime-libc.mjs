#!/usr/bin/env node
// Builds tsklee's C library (runtime/libc/**/*.c).
//
//   runtime/build/libc.bc            every source compiled to bitcode and linked into one
//                                    module (what `--libc=tsklee` links into programs)
//   runtime/build/libtsklee-libc-test.a  (with --native) the same sources compiled natively,
//                                    every symbol they define renamed NAME -> tsklee_NAME,
//                                    so a test program can call glibc's strtol and ours
//                                    (tsklee_strtol) side by side
//
// Usage: node scripts/build-runtime-libc.mjs [--native] [--force] [--quiet]
// Environment: TSKLEE_CLANG (default clang-19), TSKLEE_LLVM_LINK (default llvm-link-19).
//
// Flags: -O1 -gline-tables-only (bitcode; -g natively); -fno-builtin so that clang neither turns our loops into calls to the very
// functions they implement (memset calling memset) nor folds calls to our functions into
// its own idea of them; the host glibc headers are used (programs are compiled against
// them, so our definitions must match their declarations).
//
// Outputs are rebuilt when missing or older than any source, header or this script; they
// are written under temporary names and renamed, so concurrent runs (parallel jest workers)
// never see half-written files.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeMemberIndex } from './runtime-index.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '..');
export const LIBC_DIR = join(ROOT, 'runtime', 'libc');
export const BUILD_DIR = join(ROOT, 'runtime', 'build');
export const LIBC_BC = join(BUILD_DIR, 'libc.bc');
export const NATIVE_LIB = join(BUILD_DIR, 'libtsklee-libc-test.a');
/** Prefix given to every symbol of the native test library. */
export const NATIVE_PREFIX = 'tsklee_';

const CLANG = process.env.TSKLEE_CLANG ?? 'clang-19';
const LLVM_LINK = process.env.TSKLEE_LLVM_LINK ?? 'llvm-link-19';
const LLVM_NM = process.env.TSKLEE_LLVM_NM ?? 'llvm-nm-19';

const COMMON = ['-c', '-O1', '-g', '-fno-builtin', '-fno-stack-protector', '-fno-common', '-std=gnu11',
  '-Wall', '-Wextra', '-Wno-unused-parameter', '-Werror=implicit-function-declaration'];
// -fno-pic: position-independent code would turn switch tables into llvm.load.relative
// lookups, an intrinsic the engine has no use for
// no --target: the host clang's default triple, the one users' programs get (no llvm-link warning)
// -gline-tables-only: file:line for error reports and stacks in runtime code, without the
// type/variable metadata of -g, which made reading the bitcode ~1.4x slower on every run
const BITCODE_FLAGS = [...COMMON.filter((f) => f !== '-g'), '-gline-tables-only', '-emit-llvm', '-fno-pic', '-fno-pie'];
const NATIVE_FLAGS = [...COMMON, '-fPIC'];

function walk(dir, ext) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, ext));
    else if (e.name.endsWith(ext)) out.push(p);
  }
  return out.sort();
}

export function sources() {
  return walk(LIBC_DIR, '.c');
}

function newestInput() {
  const files = [...walk(LIBC_DIR, '.c'), ...walk(LIBC_DIR, '.h'), ...walk(LIBC_DIR, '.inc'), fileURLToPath(import.meta.url)];
  return Math.max(...files.map((f) => statSync(f).mtimeMs));
}

function upToDate(out, newest) {
  return existsSync(out) && statSync(out).mtimeMs >= newest;
}

const tmpName = (p) => `${p}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (e) {
    const msg = `${cmd} ${args.join(' ')} failed:\n${e.stderr ?? ''}${e.stdout ?? ''}`;
    throw new Error(msg);
  }
}

function compileAll(flags, objDir, ext) {
  const objs = [];
  for (const src of sources()) {
    const rel = relative(LIBC_DIR, src).replace(/\.c$/, ext).replaceAll('/', '__');
    const obj = join(objDir, rel);
    const tmp = tmpName(obj);
    run(CLANG, [...flags, '-I', LIBC_DIR, src, '-o', tmp]);
    renameSync(tmp, obj);
    objs.push(obj);
  }
  return objs;
}

/** Builds runtime/build/libc.bc; returns its path. */
export function buildBitcode({ force = false, quiet = false } = {}) {
  const newest = newestInput();
  if (!force && upToDate(LIBC_BC, newest) && existsSync(join(BUILD_DIR, 'libc.index.json'))) return LIBC_BC;
  const objDir = join(BUILD_DIR, 'libc-bc');
  mkdirSync(objDir, { recursive: true });
  const objs = compileAll(BITCODE_FLAGS, objDir, '.bc');
  const tmp = tmpName(LIBC_BC);
  run(LLVM_LINK, [...objs, '-o', tmp]);
  writeMemberIndex(LLVM_NM, objs, BUILD_DIR, join(BUILD_DIR, 'libc.index.json'));
  renameSync(tmp, LIBC_BC);
  if (!quiet) process.stderr.write(`built ${relative(ROOT, LIBC_BC)} from ${objs.length} sources\n`);
  return LIBC_BC;
}

/** Names of the external symbols libc.bc defines (functions and variables). */
export function definedSymbols() {
  buildBitcode({ quiet: true });
  const out = run(LLVM_NM, ['--defined-only', '--extern-only', '--format=just-symbols', LIBC_BC]);
  return [...new Set(out.split('\n').map((s) => s.trim()).filter(Boolean))].sort();
}

/** Builds the native test library with prefixed symbols; returns its path. */
export function buildNative({ force = false, quiet = false } = {}) {
  const newest = newestInput();
  if (!force && upToDate(NATIVE_LIB, newest)) return NATIVE_LIB;
  const objDir = join(BUILD_DIR, 'libc-native');
  mkdirSync(objDir, { recursive: true });
  const objs = compileAll(NATIVE_FLAGS, objDir, '.o');
  const combined = tmpName(join(objDir, 'combined.o'));
  run('ld', ['-r', ...objs, '-o', combined]);
  // every globally defined symbol -> tsklee_<name>; references to them inside the library
  // follow, references to anything else (write, _exit, malloc…) stay glibc's
  const nm = run('nm', ['--defined-only', '--extern-only', '--format=posix', combined]);
  const names = nm
    .split('\n')
    .map((l) => l.split(' ')[0])
    .filter((n) => n && !n.startsWith('.'));
  const symFile = tmpName(join(objDir, 'redefine.txt'));
  writeFileSync(symFile, names.map((n) => `${n} ${NATIVE_PREFIX}${n}`).join('\n') + '\n');
  run('objcopy', [`--redefine-syms=${symFile}`, combined]);
  const lib = tmpName(NATIVE_LIB);
  run('ar', ['rcs', lib, combined]);
  renameSync(lib, NATIVE_LIB);
  rmSync(combined, { force: true });
  rmSync(symFile, { force: true });
  if (!quiet) process.stderr.write(`built ${relative(ROOT, NATIVE_LIB)} (${names.length} symbols, prefix ${NATIVE_PREFIX})\n`);
  return NATIVE_LIB;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const quiet = args.includes('--quiet');
  try {
    mkdirSync(BUILD_DIR, { recursive: true });
    buildBitcode({ force, quiet });
    if (args.includes('--native')) buildNative({ force, quiet });
  } catch (e) {
    process.stderr.write(`build-runtime-libc: ${e.message}\n`);
    process.exit(1);
  }
}
