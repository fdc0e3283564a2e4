/**
 * The input of `tsklee run` / `tsklee replay` as KLEE users give it:
 *
 *  - `.bc` (or a bitcode archive): read as it is;
 *  - `.ll` (textual IR): assembled with the installed `llvm-as` — the LLVM 19 one first, as
 *    the runtime's, then older ones (LLVM ≥ 17 no longer parses typed pointers, which a
 *    clang-14 `.ll` has);
 *  - `.c`: compiled as the docs say (`-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone
 *    -I<tsklee>/runtime/include`) with the clang `tsklee cc` finds (cc/compile-input.ts).
 *
 * The bitcode goes to `outDir` (a temporary directory the caller removes).
 */
import { execFileSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { UsageError } from './errors.js';
import { compileC } from '../cc/compile-input.js';

/** llvm-as binaries tried for a `.ll` input, newest first. */
export const LLVM_AS_CANDIDATES = ['llvm-as-19', 'llvm-as-16', 'llvm-as-14', 'llvm-as'];

/** Whether `input` needs compiling or assembling before it can be read. */
export function needsTranslation(input: string): boolean {
  return input.endsWith('.c') || input.endsWith('.ll');
}

/** Bitcode for `input` (compiled or assembled into `outDir` when it is C or textual IR). */
export function inputBitcode(input: string, outDir: string): string {
  if (input.endsWith('.c')) return compileC(input, outDir);
  if (input.endsWith('.ll')) return assembleLl(input, outDir);
  return input;
}

/** First line of a tool's stderr, for a one-line error. */
function firstLine(e: unknown): string {
  const err = e as { stderr?: Buffer | string };
  const text = err.stderr === undefined ? '' : String(err.stderr);
  return text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
}

/** Assemble textual IR with the first llvm-as that accepts it. */
export function assembleLl(input: string, outDir: string): string {
  const bc = join(outDir, `${basename(input, '.ll')}.bc`);
  let firstError: string | null = null;
  let found = false;
  for (const tool of LLVM_AS_CANDIDATES) {
    try {
      execFileSync(tool, [input, '-o', bc], { stdio: ['ignore', 'ignore', 'pipe'] });
      return bc;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      found = true;
      firstError ??= firstLine(e) || `${tool} failed`;
    }
  }
  if (!found) throw new UsageError(`${input}: llvm-as is needed to read textual IR (tried ${LLVM_AS_CANDIDATES.join(', ')}; or give a .bc file)`);
  throw new UsageError(`${input}: not valid LLVM assembly (${firstError})`);
}

/** opt binaries tried for --optimize, newest first (it must read the program's bitcode). */
export const OPT_CANDIDATES = ['opt-19', 'opt-16', 'opt-14', 'opt'];

/**
 * KLEE's --optimize: the module through LLVM's -O2 pipeline (dead code elimination, constant
 * propagation, CFG simplification, inlining of small functions, …) before execution, with
 * the installed `opt`. Vectorisation is off, as in KLEE's pass list (Optimize.cpp has none).
 * Functions marked `optnone` (clang -O0 without `-Xclang -disable-O0-optnone`) stay as they
 * are, as under KLEE.
 */
export function optimizeBitcode(bc: string, outDir: string): string {
  const out = join(outDir, `${basename(bc, '.bc')}.opt.bc`);
  let firstError: string | null = null;
  for (const tool of OPT_CANDIDATES) {
    try {
      execFileSync(tool, ['-O2', '-vectorize-loops=false', '-vectorize-slp=false', bc, '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
      return out;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
      firstError ??= firstLine(e) || `${tool} failed`;
    }
  }
  if (firstError === null) throw new UsageError(`--optimize needs LLVM's opt (tried ${OPT_CANDIDATES.join(', ')})`);
  throw new UsageError(`--optimize: opt failed on ${bc} (${firstError})`);
}
