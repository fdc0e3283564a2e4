// What the runtime build scripts (build-runtime-libc.mjs, build-runtime-posix.mjs) share: the
// tools, the compile flags, freshness checks, atomic outputs, the native test library with
// prefixed symbols, and the command line.
//
// Flags: -O1; -fno-builtin so that clang neither turns our loops into calls to the very
// functions they implement (memset calling memset) nor folds calls to our functions into its
// own idea of them; the host glibc headers (programs are compiled against them, so our
// definitions must match their declarations).
//
// Outputs are written under temporary names and renamed, so concurrent runs (parallel jest
// workers) never see half-written files.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BUILD_DIR = join(ROOT, 'runtime', 'build');
export const INCLUDE_DIR = join(ROOT, 'runtime', 'include');
/** Prefix given to every symbol of a native test library. */
export const NATIVE_PREFIX = 'tsklee_';

export const CLANG = process.env.TSKLEE_CLANG ?? 'clang-19';
export const LLVM_LINK = process.env.TSKLEE_LLVM_LINK ?? 'llvm-link-19';
export const LLVM_NM = process.env.TSKLEE_LLVM_NM ?? 'llvm-nm-19';

const COMMON = ['-c', '-O1', '-g', '-fno-builtin', '-fno-stack-protector', '-fno-common', '-std=gnu11',
  '-Wall', '-Wextra', '-Wno-unused-parameter', '-Werror=implicit-function-declaration'];
// -fno-pic: position-independent code would turn switch tables into llvm.load.relative
// lookups, an intrinsic the engine has no use for
// no --target: the host clang's default triple, the one users' programs get (no llvm-link warning)
// -gline-tables-only: file:line for error reports and stacks in runtime code, without the
// type/variable metadata of -g, which made reading the bitcode ~1.4x slower on every run
export const BITCODE_FLAGS = [...COMMON.filter((f) => f !== '-g'), '-gline-tables-only', '-emit-llvm', '-fno-pic', '-fno-pie'];
export const NATIVE_FLAGS = [...COMMON, '-fPIC'];

/** The newest modification time of `files`, this module and the calling script. */
export function newestOf(files, script) {
  return Math.max(...[...files, fileURLToPath(import.meta.url), script].map((f) => statSync(f).mtimeMs));
}

export function upToDate(out, newest) {
  return existsSync(out) && statSync(out).mtimeMs >= newest;
}

export const tmpName = (p) => `${p}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

export function run(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stderr ?? ''}${e.stdout ?? ''}`);
  }
}

/** Compiles `src` to `obj` with clang, atomically. */
export function compileTo(flags, src, obj, includes) {
  const tmp = tmpName(obj);
  run(CLANG, [...flags, ...includes.flatMap((d) => ['-I', d]), src, '-o', tmp]);
  renameSync(tmp, obj);
  return obj;
}

/** Links bitcode `objs` into `out`, atomically. */
export function linkBitcode(objs, out) {
  const tmp = tmpName(out);
  run(LLVM_LINK, [...objs, '-o', tmp]);
  renameSync(tmp, out);
}

/**
 * Archives native `objs` into `lib` with every globally defined symbol renamed NAME ->
 * tsklee_NAME: references inside the library follow, references to anything else (write,
 * _exit, malloc…) stay glibc's, so tests call ours and glibc's side by side.
 */
export function prefixedNativeLibrary(objs, objDir, lib, quiet) {
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
  const tmp = tmpName(lib);
  run('ar', ['rcs', tmp, combined]);
  renameSync(tmp, lib);
  rmSync(combined, { force: true });
  rmSync(symFile, { force: true });
  if (!quiet) process.stderr.write(`built ${relative(ROOT, lib)} (${names.length} symbols, prefix ${NATIVE_PREFIX})\n`);
  return lib;
}

/** `node SCRIPT [--native] [--force] [--quiet]` when `scriptUrl` is the script node runs. */
export function runAsMain(scriptUrl, name, buildBitcode, buildNative) {
  if (!process.argv[1] || resolve(process.argv[1]) !== fileURLToPath(scriptUrl)) return;
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const quiet = args.includes('--quiet');
  try {
    mkdirSync(BUILD_DIR, { recursive: true });
    buildBitcode({ force, quiet });
    if (args.includes('--native')) buildNative({ force, quiet });
  } catch (e) {
    process.stderr.write(`${name}: ${e.message}\n`);
    process.exit(1);
  }
}
