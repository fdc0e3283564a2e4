/**
 * Finds the LLVM tools `tsklee cc` drives: clang (`--clang=PATH`, else $TSKLEE_CLANG, else
 * the first of clang-19, clang-16, clang-14, clang on PATH), and the llvm-link and
 * llvm-objcopy of the same LLVM (beside the real clang binary, else `-<major>` suffixed on
 * PATH). Bitcode must be linked by the llvm-link of the clang that wrote it.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { UsageError } from '../cli/errors.js';

export const CLANG_CANDIDATES = ['clang-19', 'clang-16', 'clang-14', 'clang'];

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
  if (found === undefined) throw new UsageError(`cc: ${tool} for clang ${major} not found (looked beside ${clang} and for ${tool}-${major} on PATH)`);
  return found;
}

/** The toolchain for an explicit clang (from --clang or $TSKLEE_CLANG) or the preferred installed one. */
export function findToolchain(explicit?: string): Toolchain {
  const wanted = explicit ?? process.env.TSKLEE_CLANG;
  let clang: string | undefined;
  if (wanted !== undefined && wanted !== '') {
    clang = whichTool(wanted);
    if (clang === undefined) throw new UsageError(`cc: clang '${wanted}' not found or not executable`);
  } else {
    for (const c of CLANG_CANDIDATES) if ((clang = whichTool(c)) !== undefined) break;
    if (clang === undefined) throw new UsageError(`cc: no clang found (tried ${CLANG_CANDIDATES.join(', ')}; set --clang=PATH or TSKLEE_CLANG)`);
  }
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
