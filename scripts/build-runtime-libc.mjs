#!/usr/bin/env node
// Builds tsklee's C library (runtime/libc/**/*.c).
//
//   runtime/build/libc.bc            every source compiled to bitcode and linked into one
//                                    module (what `--libc=tsklee` links into programs), with
//                                    libc.index.json (its members' symbols: runtime-index.mjs)
//   runtime/build/libtsklee-libc-test.a  (with --native) the same sources compiled natively,
//                                    every symbol they define renamed NAME -> tsklee_NAME,
//                                    so a test program can call glibc's strtol and ours
//                                    (tsklee_strtol) side by side
//
// Usage: node scripts/build-runtime-libc.mjs [--native] [--force] [--quiet]
// Environment: TSKLEE_CLANG (default clang-19), TSKLEE_LLVM_LINK (default llvm-link-19).
// Flags, freshness and atomic outputs: runtime-build-common.mjs. Outputs are rebuilt when
// missing or older than any source, header or build script.

import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeMemberIndex } from './runtime-index.mjs';
import {
  BITCODE_FLAGS, BUILD_DIR, LLVM_NM, NATIVE_FLAGS, ROOT, compileTo, linkBitcode, newestOf, prefixedNativeLibrary, runAsMain, upToDate,
} from './runtime-build-common.mjs';

export const LIBC_DIR = join(ROOT, 'runtime', 'libc');
export const LIBC_BC = join(BUILD_DIR, 'libc.bc');
export const NATIVE_LIB = join(BUILD_DIR, 'libtsklee-libc-test.a');
const INDEX = join(BUILD_DIR, 'libc.index.json');

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
  return newestOf([...walk(LIBC_DIR, '.c'), ...walk(LIBC_DIR, '.h'), ...walk(LIBC_DIR, '.inc')], fileURLToPath(import.meta.url));
}

function compileAll(flags, objDir, ext) {
  mkdirSync(objDir, { recursive: true });
  // sources in subdirectories share one object directory: stdio/x.c -> stdio__x.bc
  return sources().map((src) => compileTo(flags, src, join(objDir, relative(LIBC_DIR, src).replace(/\.c$/, ext).replaceAll('/', '__')), [LIBC_DIR]));
}

/** Builds runtime/build/libc.bc and its member index; returns its path. */
export function buildBitcode({ force = false, quiet = false } = {}) {
  if (!force && upToDate(LIBC_BC, newestInput()) && existsSync(INDEX)) return LIBC_BC;
  const objs = compileAll(BITCODE_FLAGS, join(BUILD_DIR, 'libc-bc'), '.bc');
  writeMemberIndex(LLVM_NM, objs, BUILD_DIR, INDEX); // before libc.bc: a fresh libc.bc implies its index
  linkBitcode(objs, LIBC_BC);
  if (!quiet) process.stderr.write(`built ${relative(ROOT, LIBC_BC)} from ${objs.length} sources\n`);
  return LIBC_BC;
}

/** Builds the native test library with prefixed symbols; returns its path. */
export function buildNative({ force = false, quiet = false } = {}) {
  if (!force && upToDate(NATIVE_LIB, newestInput())) return NATIVE_LIB;
  const objDir = join(BUILD_DIR, 'libc-native');
  return prefixedNativeLibrary(compileAll(NATIVE_FLAGS, objDir, '.o'), objDir, NATIVE_LIB, quiet);
}

runAsMain(import.meta.url, 'build-runtime-libc', buildBitcode, buildNative);
