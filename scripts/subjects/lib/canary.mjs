/**
 * Canaries for "nothing reaches the host": a directory tree (files, a subdirectory, a
 * symbolic link, modes and times) and a process, whose state is recorded when made and
 * compared afterwards. A program that deleted, moved, renamed, chmod-ed, chown-ed, touched,
 * truncated or killed any of them shows up in `canaryDamage`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The utilities that delete, move, change or kill (the list). */
export const DESTRUCTIVE = ['rm', 'rmdir', 'mv', 'chmod', 'chown', 'kill', 'mkdir', 'ln', 'touch', 'shred', 'truncate'];

function snapshot(dir) {
  const out = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const s = lstatSync(p);
      out[p] = { mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, data: s.isFile() ? readFileSync(p, 'latin1') : undefined };
      if (s.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Makes the tree under `dir` (which must exist) and starts the canary process. */
export function makeCanary(dir) {
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'A'), 'canary file A\n');
  writeFileSync(join(dir, 'sub', 'B'), 'canary file B\n');
  writeFileSync(join(dir, 'empty'), '');
  mkdirSync(join(dir, 'emptydir'));
  symlinkSync('A', join(dir, 'link'));
  chmodSync(join(dir, 'A'), 0o640);
  const old = new Date('2001-02-03T04:05:06Z');
  for (const f of ['A', 'sub/B', 'empty']) utimesSync(join(dir, f), old, old);
  // never ends by itself (a `sleep 600` canary ran out during a 10-minute safety run)
  const proc = spawn('sleep', ['infinity'], { stdio: 'ignore', detached: true });
  return { dir, proc, before: snapshot(dir) };
}

/** The process's state letter from /proc (a killed child stays a zombie, Z, until reaped), or 'gone'. */
function processState(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'latin1').replace(/^.*\) /s, '')[0];
  } catch {
    return 'gone';
  }
}

/**
 * What changed in the tree since it was made, and whether the process died: [] when untouched.
 * `settleMs`: how long a signal sent just before may take to land (a busy machine schedules
 * the target late).
 */
export function canaryDamage(c, settleMs = 0) {
  const damage = [];
  const until = Date.now() + settleMs;
  let state = processState(c.proc.pid);
  while (!['gone', 'Z', 'X'].includes(state) && Date.now() < until) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    state = processState(c.proc.pid);
  }
  if (state === 'gone' || state === 'Z' || state === 'X') damage.push(`canary process ${c.proc.pid} is gone (${state})`);
  const after = snapshot(c.dir);
  for (const [p, s] of Object.entries(c.before)) {
    const a = after[p];
    if (a === undefined) damage.push(`${p} is gone`);
    else for (const k of Object.keys(s)) if (s[k] !== a[k]) damage.push(`${p}: ${k} changed`);
  }
  for (const p of Object.keys(after)) if (c.before[p] === undefined) damage.push(`${p} appeared`);
  return damage;
}

export function killCanary(c) {
  try {
    process.kill(c.proc.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
