/**
 * Killing `npm run fuzz` (scripts/fuzz.mjs) mid-run leaves nothing behind: not the native
 * program, not clang, not the tsklee run it started (each runs in its own process group and
 * session, so a terminal's Ctrl-C or a `timeout` never reaches them by itself). SIGINT and
 * SIGTERM go through the fuzzer's handlers; SIGKILL, which no handler sees, through the
 * parent-death signal every child is started with (scripts/fuzz/proc.mjs).
 *
 * Seed 922 at -O0 keeps tsklee busy for ~30 s (its loops run ~40 ms natively), so a child
 * that survives the kill is still there when the test looks. Linux only: the processes are
 * found through /proc.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

const SCRIPT = resolve('scripts/fuzz.mjs');
const out = mkdtempSync(join(tmpdir(), 'tsklee-fuzz-kill-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Proc {
  pid: number;
  ppid: number;
  sid: number;
  start: string;
  cmd: string;
}

/** Every process now: pid, parent, session, start time (tells a reused pid apart) and command line. */
function processes(): Proc[] {
  const list: Proc[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // after the command: state ppid pgrp session …, start time is field 22 of the whole line
      list.push({ pid: Number(d), ppid: Number(f[1]), sid: Number(f[3]), start: f[19], cmd });
    } catch {
      // ended while we looked
    }
  }
  return list;
}

function descendants(root: number, all: Proc[]): Proc[] {
  const found: Proc[] = [];
  const parents = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!parents.has(p.pid) && parents.has(p.ppid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a process recorded earlier (same pid and start time) is still there. */
function alive(p: Proc): boolean {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] === p.start;
  } catch {
    return false;
  }
}

describe('killing the fuzzer mid-run', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)('%s leaves no child running', async (signal) => {
    const fuzz = spawn(process.execPath, [SCRIPT, '--seeds', '922', '--jobs', '1', '--out', join(out, signal)], { stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => fuzz.on('exit', (code, sig) => r(code ?? (sig === signal ? -1 : null))));
    // wait until a tsklee run is among its children, keeping every descendant seen
    const seen = new Map<string, Proc>();
    let tsklee = false;
    const deadline = Date.now() + 120_000;
    while (!tsklee && Date.now() < deadline) {
      const now = descendants(fuzz.pid!, processes());
      for (const p of now) seen.set(`${p.pid}:${p.start}`, p);
      // the node process itself (not the setpriv/timeout/nice in front of it, which name it too)
      tsklee = now.some((p) => /^\S*node \S*dist\/cli\/(main\.js|launch\.cjs) run /.test(p.cmd));
      if (!tsklee) await sleep(20);
    }
    expect(tsklee).toBe(true);
    for (const p of descendants(fuzz.pid!, processes())) seen.set(`${p.pid}:${p.start}`, p);
    fuzz.kill(signal);
    const code = await exited;
    expect(code).toBe(signal === 'SIGKILL' ? -1 : signal === 'SIGINT' ? 130 : 143);
    // SIGKILL: the parent-death signal reaches each group at once, SIGKILL follows 2 s later
    const ours = sessionOf(process.pid);
    const sessions = new Set([...seen.values()].map((p) => p.sid).filter((s) => s !== ours));
    let left: Proc[] = [];
    for (let i = 0; i < 60; i++) {
      left = [...seen.values()].filter(alive);
      // an orphan, reparented away from the fuzzer, still sits in its child's session
      left.push(...processes().filter((p) => sessions.has(p.sid) && !left.some((q) => q.pid === p.pid)));
      if (left.length === 0) break;
      await sleep(100);
    }
    expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
    expect(existsSync(join(out, signal))).toBe(true);
  }, 180_000);
});

function sessionOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[3]);
}
