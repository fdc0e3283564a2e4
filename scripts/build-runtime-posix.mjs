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
// Flags as for the libc (runtime-build-common.mjs), plus -I runtime/include for <klee/klee.h>.
// Outputs are rebuilt when missing or older than a source, a header or a build script.

import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BITCODE_FLAGS, BUILD_DIR, INCLUDE_DIR, NATIVE_FLAGS, ROOT, compileTo, linkBitcode, newestOf, prefixedNativeLibrary, runAsMain, upToDate,
} from './runtime-build-common.mjs';

export const POSIX_DIR = join(ROOT, 'runtime', 'posix');
export const POSIX_BC = join(BUILD_DIR, 'posix.bc');
export const NATIVE_LIB = join(BUILD_DIR, 'libtsklee-posix-test.a');

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
  return newestOf([...list(POSIX_DIR, '.c'), ...list(POSIX_DIR, '.h'), join(INCLUDE_DIR, 'klee', 'klee.h')], fileURLToPath(import.meta.url));
}

function compileAll(flags, objDir, ext) {
  mkdirSync(objDir, { recursive: true });
  return sources().map((src) => compileTo(flags, src, join(objDir, relative(POSIX_DIR, src).replace(/\.c$/, ext)), [POSIX_DIR, INCLUDE_DIR]));
}

/** Builds runtime/build/posix.bc; returns its path. */
export function buildBitcode({ force = false, quiet = false } = {}) {
  if (!force && upToDate(POSIX_BC, newestInput())) return POSIX_BC;
  const objs = compileAll(BITCODE_FLAGS, join(BUILD_DIR, 'posix-bc'), '.bc');
  linkBitcode(objs, POSIX_BC);
  if (!quiet) process.stderr.write(`built ${relative(ROOT, POSIX_BC)} from ${objs.length} sources\n`);
  return POSIX_BC;
}

/** Builds the native test library with prefixed symbols; returns its path. */
export function buildNative({ force = false, quiet = false } = {}) {
  if (!force && upToDate(NATIVE_LIB, newestInput())) return NATIVE_LIB;
  const objDir = join(BUILD_DIR, 'posix-native');
  return prefixedNativeLibrary(compileAll(NATIVE_FLAGS, objDir, '.o'), objDir, NATIVE_LIB, quiet);
}

runAsMain(import.meta.url, 'build-runtime-posix', buildBitcode, buildNative);
