/**
 * A `.c` input of `tsklee run` / `tsklee replay`, compiled to bitcode the way the docs say
 * (`-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone`), with tsklee's <klee/klee.h> on the
 * include path. The clang is the one `tsklee cc` would use (toolchain.ts): the runtime
 * bitcode tsklee links is read by tsklee itself, so any clang the reader supports will do.
 */
import { spawnSync } from 'node:child_process';
import { basename, join } from 'node:path';
import { UsageError } from '../cli/errors.js';
import { packageRoot } from '../util/package-root.js';
import { findClang } from './toolchain.js';

/** Compiles `input` into `outDir`; returns the bitcode's path. Clang's diagnostics go to stderr. */
export function compileC(input: string, outDir: string): string {
  const clang = findClang(input);
  const bc = join(outDir, `${basename(input, '.c')}.bc`);
  const include = join(packageRoot(import.meta.url), 'runtime', 'include');
  const r = spawnSync(clang, ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${include}`, input, '-o', bc], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.error !== undefined) throw new UsageError(`${input}: cannot run ${clang}: ${r.error.message}`);
  if (r.status !== 0) throw new UsageError(`${input}: ${basename(clang)} failed (exit status ${r.status ?? r.signal ?? '?'})`);
  return bc;
}
