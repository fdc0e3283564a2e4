#!/usr/bin/env node
// Builds tsklee's POSIX environment model (runtime/posix/*.c).
//
//   runtime/build/posix.bc                 every source compiled to bitcode and linked into one
//                                          module (what `--posix-runtime` links into programs)
//   runtime/build/libtsklee-posix-test.a   (with --native) the same sources compiled natively,
//                                          every symbol they define renamed NAME -> tsklee_NAME
//                                          (tests call tsklee_open, tsklee_read… beside glibc's)
//
// Usage: node scripts/build-runtime-posix.mjs [--native] [--force] [--quiet]
// Environment: TSKLEE_CLANG (default clang-19), TSKLEE_LLVM_LINK (default llvm-link-19).
//
// Flags as for the libc (scripts/build-runtime-libc.mjs): -O1 -gline-tables-only -fno-builtin -fno-pic, the
// host glibc headers, -I runtime/include for <klee/klee.h>. Outputs are rebuilt when missing
// or older than a source, a header or this script, and are written under temporary names and
// renamed (parallel jest workers never see half-written files).

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '..');
export const POSIX_DIR = join(ROOT, 'runtime', 'posix');
export const INCLUDE_DIR = join(ROOT, 'runtime', 'include');
export const BUILD_DIR = join(ROOT, 'runtime', 'build');
export const POSIX_BC = join(BUILD_DIR, 'posix.bc');
export const NATIVE_LIB = join(BUILD_DIR, 'libtsklee-posix-test.a');
/** Prefix given to every symbol of the native test library. */
export const NATIVE_PREFIX = 'tsklee_';

const CLANG = process.env.TSKLEE_CLANG ?? 'clang-19';
const LLVM_LINK = process.env.TSKLEE_LLVM_LINK ?? 'llvm-link-19';
const LLVM_NM = process.env.TSKLEE_LLVM_NM ?? 'llvm-nm-19';

const COMMON = ['-c', '-O1', '-g', '-fno-builtin', '-fno-stack-protector', '-fno-common', '-std=gnu11',
  '-Wall', '-Wextra', '-Wno-unused-parameter', '-Werror=implicit-function-declaration'];
// -gline-tables-only: file:line for error reports and stacks in runtime code, without the
// type/variable metadata of -g, which made reading the bitcode ~1.4x slower on every run
const BITCODE_FLAGS = [...COMMON.filter((f) => f !== '-g'), '-gline-tables-only', '-emit-llvm', '-fno-pic', '-fno-pie'];
const NATIVE_FLAGS = [...COMMON, '-fPIC'];

function list(dir, ext) {
  return readdirSync(dir)
    .filter((n) => n.endsWith(ext))
    .map((n) => join(dir, n))
    .sort();
}

export function sources() {
  return list(POSIX_DIR, '.c');
}

function newestInput() {
  const files = [...list(POSIX_DIR, '.c'), ...list(POSIX_DIR, '.h'), join(INCLUDE_DIR, 'klee', 'klee.h'),
    fileURLToPath(import.meta.url)];
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
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

function compileAll(flags, objDir, ext) {
  const objs = [];
  for (const src of sources()) {
    const obj = join(objDir, relative(POSIX_DIR, src).replace(/\.c$/, ext));
    const tmp = tmpName(obj);
    run(CLANG, [...flags, '-I', POSIX_DIR, '-I', INCLUDE_DIR, src, '-o', tmp]);
    renameSync(tmp, obj);
    objs.push(obj);
  }
  return objs;
}

/** Builds runtime/build/posix.bc; returns its path. */
export function buildBitcode({ force = false, quiet = false } = {}) {
  const newest = newestInput();
  if (!force && upToDate(POSIX_BC, newest)) return POSIX_BC;
  const objDir = join(BUILD_DIR, 'posix-bc');
  mkdirSync(objDir, { recursive: true });
  const objs = compileAll(BITCODE_FLAGS, objDir, '.bc');
  const tmp = tmpName(POSIX_BC);
  run(LLVM_LINK, [...objs, '-o', tmp]);
  renameSync(tmp, POSIX_BC);
  if (!quiet) process.stderr.write(`built ${relative(ROOT, POSIX_BC)} from ${objs.length} sources\n`);
  return POSIX_BC;
}

function nmList(args) {
  buildBitcode({ quiet: true });
  const out = run(LLVM_NM, [...args, '--format=just-symbols', POSIX_BC]);
  return [...new Set(out.split('\n').map((s) => s.trim()).filter(Boolean))].sort();
}

/** Names of the external symbols posix.bc defines. */
export function definedSymbols() {
  return nmList(['--defined-only', '--extern-only']);
}

/** Names posix.bc uses without defining them. */
export function undefinedSymbols() {
  return nmList(['--undefined-only']);
}

/** Builds the native test library with prefixed symbols; returns its path. */
export function buildNative({ force = false, quiet = false } = {}) {
  const newest = newestInput();
  if (!force && upToDate(NATIVE_LIB, newest)) return NATIVE_LIB;
  const objDir = join(BUILD_DIR, 'posix-native');
  mkdirSync(objDir, { recursive: true });
  const objs = compileAll(NATIVE_FLAGS, objDir, '.o');
  const combined = tmpName(join(objDir, 'combined.o'));
  run('ld', ['-r', ...objs, '-o', combined]);
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
    process.stderr.write(`build-runtime-posix: ${e.message}\n`);
    process.exit(1);
  }
}
