/**
 * Output directories through the queue: packed with the system's GNU tar (gzip), unpacked on
 * the submitting machine. A directory on a shared store is copied instead.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

/** The largest packed output directory sent as a job's result (Redis holds it in memory). */
export const MAX_PAYLOAD_BYTES = 16 << 20;

export function packDir(dir: string): Buffer {
  return execFileSync('tar', ['-czf', '-', '-C', dir, '.'], { maxBuffer: 1 << 30 });
}

export function unpackInto(dir: string, tarGz: Buffer): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', '-', '-C', dir], { input: tarGz, maxBuffer: 1 << 20 });
}

/** Copies `from` to `to` through a temporary name beside it: a reader never sees half of it. */
export function copyDirAtomically(from: string, to: string): void {
  const tmp = `${to}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, tmp, { recursive: true });
  rmSync(to, { recursive: true, force: true });
  renameSync(tmp, to);
}
