/**
 * Bitcode of the experiment's programs: each C source is compiled once per program instance
 * (its size's -D flags) with the clang `tsklee cc` finds, into the results directory. A
 * bitcode file already there from the same command is kept (a rerun compiles nothing).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findClang } from '../cc/toolchain.js';
import { packageRoot } from '../util/package-root.js';
import type { Experiment } from './experiment-file.js';
import { instanceBitcode, programInstances } from './matrix.js';
import { ExperimentFileError } from './experiment-file.js';

/** Compiles what needs compiling; returns the bitcode path of each instance key. */
export function buildPrograms(x: Experiment): Map<string, string> {
  const out = new Map<string, string>();
  let clang: string | undefined;
  for (const inst of programInstances(x)) {
    const bc = instanceBitcode(x, inst);
    out.set(inst.key, bc);
    if (inst.source === undefined) {
      if (!existsSync(bc)) throw new ExperimentFileError(`${x.file}: program '${inst.program}': ${bc}: no such file`);
      continue;
    }
    if (!existsSync(inst.source)) throw new ExperimentFileError(`${x.file}: program '${inst.program}': ${inst.source}: no such file`);
    clang ??= findClang('experiment', x.clang);
    const args = ['-emit-llvm', '-c', `-I${join(packageRoot(import.meta.url), 'runtime', 'include')}`, ...inst.cflags, inst.source, '-o', bc];
    const stamp = `${bc}.cmd`;
    const command = JSON.stringify([clang, ...args]);
    const fresh = existsSync(bc) && existsSync(stamp) && readFileSync(stamp, 'utf8') === command && statSync(bc).mtimeMs >= statSync(inst.source).mtimeMs;
    if (fresh) continue;
    mkdirSync(dirname(bc), { recursive: true });
    try {
      execFileSync(clang, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    } catch (e) {
      const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim().split('\n')[0] ?? '';
      throw new ExperimentFileError(`${x.file}: program '${inst.key}': ${clang} failed: ${stderr}`);
    }
    writeFileSync(stamp, command);
  }
  return out;
}
