/**
 * Finds the LLVM tools `tsklee cc` drives: clang (`--clang=PATH`, else $TSKLEE_CLANG, else
 * the first of clang-19, clang-16, clang-14, clang on PATH; also what compiles a `.c` input of
 * `tsklee run`), and the llvm-link and llvm-objcopy of the same LLVM (beside the real clang
 * binary, else `-<major>` suffixed on PATH). Bitcode must be linked by the llvm-link of the
 * clang that wrote it. A missing tool is a one-line error naming the Debian package that
 * installs it (tsklee reads bitcode without any of them: only C input needs them).
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../cli/errors.js';

export const CLANG_CANDIDATES = ['clang-19', 'clang-16', 'clang-14', 'clang'];
/** Debian's package for the preferred clang (Debian 12 has it among its updates). */
export const CLANG_PACKAGE = 'clang-19';

export interface Toolchain {
  clang: string;
  llvmLink: string;
  objcopy: string;
  major: number;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `name` resolved on PATH (or as given when it contains a slash), else undefined. */
export function whichTool(name: string): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function companion(clang: string, major: number, tool: string, fallback?: string): string {
  const beside = join(dirname(realpathSync(clang)), tool);
  const found = (isAbsolute(beside) && isExecutable(beside) ? beside : undefined) ?? whichTool(`${tool}-${major}`) ?? whichTool(tool) ?? (fallback !== undefined ? whichTool(fallback) : undefined);
  if (found === undefined) {
    throw new UsageError(`cc: ${tool} for clang ${major} not found (looked beside ${clang} and for ${tool}-${major} on PATH): install Debian's llvm-${major} package`);
  }
  return found;
}

/**
 * The clang to run: `explicit` (--clang), else $TSKLEE_CLANG, else the first candidate on PATH.
 * `who` starts the error when there is none (`cc`, or the input file of `tsklee run`).
 */
export function findClang(who: string, explicit?: string): string {
  const wanted = explicit ?? process.env.TSKLEE_CLANG;
  if (wanted !== undefined && wanted !== '') {
    const clang = whichTool(wanted);
    if (clang === undefined) throw new UsageError(`${who}: clang '${wanted}' not found or not executable`);
    return clang;
  }
  for (const c of CLANG_CANDIDATES) {
    const clang = whichTool(c);
    if (clang !== undefined) return clang;
  }
  throw new UsageError(
    `${who}: no clang found (tried ${CLANG_CANDIDATES.join(', ')} on PATH): install Debian's ${CLANG_PACKAGE} package (apt-get install ${CLANG_PACKAGE}), or set TSKLEE_CLANG`,
  );
}

/** The toolchain for an explicit clang (from --clang or $TSKLEE_CLANG) or the preferred installed one. */
export function findToolchain(explicit?: string): Toolchain {
  const clang = findClang('cc', explicit);
  let version: string;
  try {
    version = execFileSync(clang, ['-dumpversion'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    throw new UsageError(`cc: '${clang} -dumpversion' failed: is it clang?`);
  }
  const major = Number.parseInt(version, 10);
  if (!Number.isFinite(major)) throw new UsageError(`cc: cannot read the version of ${clang} ('${version}')`);
  return { clang, major, llvmLink: companion(clang, major, 'llvm-link'), objcopy: companion(clang, major, 'llvm-objcopy', 'objcopy') };
}
