/**
 * Child processes for the fuzzer: asynchronous, with a timeout, optionally at the lowest CPU
 * priority (the fuzzer shares the machine), and the paths of the tools it calls.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
export const INCLUDE = join(ROOT, 'runtime', 'include');
export const CSMITH_INCLUDE = '/usr/include/csmith';

/** clang-V's binary (the versioned LLVM directory when it exists). */
export function clang(version) {
  const inLib = `/usr/lib/llvm-${version}/bin/clang`;
  return existsSync(inLib) ? inLib : `clang-${version}`;
}

/** Whether a command is on PATH. */
export function onPath(cmd) {
  return (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, cmd)));
}

/**
 * Runs cmd to its end; kills its process group after timeoutMs. Resolves to
 * { status, signal, stdout, stderr, timedOut, ms }. `nice` runs it under nice -n 19.
 */
export function run(cmd, args, opts = {}) {
  const [c, a] = opts.nice ? ['nice', ['-n', '19', cmd, ...args]] : [cmd, args];
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(c, a, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out = [];
    const err = [];
    let size = 0;
    let timedOut = false;
    const kill = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          kill();
        }, opts.timeoutMs)
      : undefined;
    const keep = (list) => (b) => {
      // csmith programs print a few lines; a runaway one is cut at 4 MB
      size += b.length;
      if (size <= 4 << 20) list.push(b);
      else kill();
    };
    child.stdout.on('data', keep(out));
    child.stderr.on('data', keep(err));
    const finish = (status, signal, extra = '') => {
      if (timer) clearTimeout(timer);
      done({
        status,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8') + extra,
        timedOut,
        ms: performance.now() - t0,
      });
    };
    child.on('error', (e) => finish(null, null, `\n${cmd}: ${e.message}`));
    child.on('close', (status, signal) => finish(status, signal));
  });
}

/** Calls fn on every item, at most `limit` at once, in order of the items. */
export async function pool(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
