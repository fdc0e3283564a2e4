/**
 * Child processes for the fuzzer: asynchronous, with a timeout, optionally at the lowest CPU
 * priority (the fuzzer shares the machine), and the paths of the tools it calls.
 *
 * Every child leads its own process group (so a timeout kills what it started too) and none
 * outlives the fuzzer: `killChildren` ends every live group, and `endChildrenOnExit` calls it
 * on SIGINT, SIGTERM, SIGHUP and exit. Against a fuzzer that is SIGKILLed (no handler runs),
 * each child runs under `setpriv --pdeathsig TERM timeout -s KILL -k 2 T`: the parent's death
 * sends coreutils' timeout SIGTERM, which it forwards to the whole group (SIGKILL 2 s later),
 * and T, a little over the fuzzer's own timeout, ends a group that nobody watches any more.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');
/** What bin/tsklee runs: the CommonJS launcher, without main.js's ES module loader. */
export const LAUNCHER = join(ROOT, 'dist', 'cli', 'launch.cjs');

/**
 * The environment for tsklee: without NODE_EXTRA_CA_CERTS, which Node parses before any
 * script (tsklee opens no TLS connection; bin/tsklee drops it too). ~0.17 s of CPU a program.
 */
export function tskleeEnv() {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}
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

/** Process groups of the children still running (their leaders' pids). */
const live = new Set();

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** SIGKILLs every child's process group; synchronous, so it works in an 'exit' handler. */
export function killChildren() {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/**
 * Kills every child group when the fuzzer ends: on exit, and on SIGINT/SIGTERM/SIGHUP (then
 * exits 128 + the signal's number, as a shell reports it).
 */
export function endChildrenOnExit() {
  process.on('exit', killChildren);
  for (const [sig, n] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.on(sig, () => {
      killChildren();
      process.exit(128 + n);
    });
  }
}

/** Seconds the backstop `timeout` grants beyond the fuzzer's own timer (which fires first). */
const BACKSTOP_GRACE_S = 5;
const guarded = onPath('setpriv') && onPath('timeout');

/** The argv that runs cmd under the backstop (see the header) and, with `nice`, at nice 19. */
function wrap(cmd, args, opts) {
  const inner = opts.nice ? ['nice', '-n', '19', cmd, ...args] : [cmd, ...args];
  if (!guarded) return inner;
  const hard = opts.timeoutMs ? `${Math.ceil(opts.timeoutMs / 1000) + BACKSTOP_GRACE_S}s` : '0';
  return ['setpriv', '--pdeathsig', 'TERM', 'timeout', '-s', 'KILL', '-k', '2s', hard, ...inner];
}

/**
 * Runs cmd to its end in its own process group; kills the group after timeoutMs. Resolves to
 * { status, signal, stdout, stderr, timedOut, ms }. `nice` runs it under nice -n 19.
 */
export function run(cmd, args, opts = {}) {
  const [c, ...a] = wrap(cmd, args, opts);
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn(c, a, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid !== undefined) live.add(child.pid);
    const out = [];
    const err = [];
    let size = 0;
    let timedOut = false;
    const kill = () => {
      if (child.pid !== undefined) killGroup(child.pid);
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
      // a member that outlived the leader (it held no pipe) goes with it
      kill();
      live.delete(child.pid);
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
