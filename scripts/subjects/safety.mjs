#!/usr/bin/env node
/**
 * Nothing reaches the host, on the real utilities: each of coreutils' destructive utilities
 * (rm, rmdir, mv, chmod, chown, kill, mkdir, ln, touch, shred, truncate) explored as root by
 * `tsklee run --libc=tsklee --posix-runtime` with concrete arguments that name a canary
 * directory tree and a canary process plus KLEE's symbolic arguments, then every test replayed
 * natively on the gcov build in the replay sandbox; the canaries are checked after each step.
 *
 *   nice -n 19 node scripts/subjects/safety.mjs [--max-time 30s] [--cache DIR]
 *
 * Needs `node scripts/subjects/coreutils.mjs --steps fetch,build` first. Exits 1 on any damage.
 * tests/e2e/coreutils-safety.test.ts does the same for rm and kill (and a C program doing all).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canaryDamage, DESTRUCTIVE, killCanary, makeCanary } from './lib/canary.mjs';
import { checkSandbox, sandboxed } from './lib/sandbox.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'launch.cjs');

/** Concrete arguments aimed at the canary, before the symbolic ones. */
function aimedArgs(u, dir, pid) {
  const f = join(dir, 'A');
  switch (u) {
    case 'kill':
      return ['-9', String(pid)];
    case 'rm':
      return ['-rf', dir];
    case 'rmdir':
      return [join(dir, 'emptydir')];
    case 'mv':
      return [f, join(dir, 'moved')];
    case 'chmod':
      return ['000', f];
    case 'chown':
      return ['1:1', f];
    case 'mkdir':
      return [join(dir, 'new')];
    case 'ln':
      return ['-f', f, join(dir, 'empty')];
    case 'touch':
      return [f];
    case 'shred':
      return ['-u', f];
    case 'truncate':
      return ['-s0', f];
    default:
      return [dir];
  }
}

function main() {
  const argv = process.argv.slice(2);
  const opt = (n, d) => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : d);
  const maxTime = opt('--max-time', '30s');
  const cache = resolve(opt('--cache', process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects')));
  const bcDir = existsSync(cache) ? readdirSync(cache).find((d) => /^coreutils-[\d.]+-bc$/.test(d)) : undefined;
  if (bcDir === undefined) {
    process.stderr.write(`safety: error: no coreutils build in ${cache}: run node scripts/subjects/coreutils.mjs --steps fetch,build first\n`);
    process.exit(1);
  }
  checkSandbox();
  const work = mkdtempSync(join(tmpdir(), 'tsklee-safety-'));
  const canaryDir = join(work, 'canary');
  spawnSync('mkdir', [canaryDir]);
  const c = makeCanary(canaryDir);
  let failed = false;
  try {
    for (const u of DESTRUCTIVE) {
      const bc = join(cache, bcDir, 'src', `${u}.bc`);
      const native = join(cache, bcDir.replace(/-bc$/, '-gcov'), 'src', u);
      const out = join(work, `out-${u}`);
      const args = [...aimedArgs(u, canaryDir, c.proc.pid), '--sym-args', '0', '1', '10', '--sym-args', '0', '2', '2', '--sym-files', '1', '8', '--sym-stdin', '8'];
      const r = spawnSync(process.execPath, [CLI, 'run', '--no-echo-program-output', '--libc=tsklee', '--posix-runtime', `--max-time=${maxTime}`, `--output-dir=${out}`, bc, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
      const tests = existsSync(out) ? readdirSync(out).filter((f) => f.endsWith('.ktest')).length : 0;
      let damage = canaryDamage(c);
      let replay = '';
      if (damage.length === 0 && tests > 0) {
        const [cmd, ...rest] = sandboxed([process.execPath, CLI, 'replay', '--native', '--timeout=5s', native, out], { ro: [ROOT, realpathSync(join(ROOT, 'node_modules')), native, out], env: { PATH: '/nonexistent' } });
        const rr = spawnSync(cmd, rest, { encoding: 'utf8', maxBuffer: 1 << 28 });
        replay = rr.stdout.split('\n').find((l) => l.includes('replayed')) ?? `replay failed: ${rr.stderr.trim().split('\n').pop()}`;
        damage = canaryDamage(c);
      }
      failed ||= damage.length > 0 || r.status !== 0;
      process.stdout.write(`${u.padEnd(9)} tsklee run exit ${r.status}, ${tests} tests; ${replay.replace(/^tsklee: /, '')}; canaries: ${damage.length === 0 ? 'untouched' : damage.join('; ')}\n`);
    }
  } finally {
    killCanary(c);
    rmSync(work, { recursive: true, force: true });
  }
  process.exitCode = failed ? 1 : 0;
}

main();
