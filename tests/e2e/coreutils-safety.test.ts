/**
 * Nothing reaches the host (issue 13, item 6): programs that delete, move, chmod, chown,
 * truncate, touch, link and kill, explored as root by `tsklee run --posix-runtime` with
 * concrete arguments naming a canary directory tree and a canary process, and symbolic ones,
 * leave both untouched; so does replaying every test natively inside the coverage step's
 * sandbox (scripts/subjects/lib/sandbox.mjs). The same program run natively outside the
 * sandbox destroys a second canary: the check can fail.
 *
 * With GNU coreutils built by `node scripts/subjects/coreutils.mjs --steps fetch,build`
 * (cache: $TSKLEE_SUBJECTS or ~/.cache/tsklee/subjects), the real `rm` and `kill` get the
 * same treatment; `node scripts/subjects/safety.mjs` runs all eleven destructive utilities.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
// @ts-expect-error plain JavaScript module without types
import { canaryDamage, killCanary, makeCanary } from '../../scripts/subjects/lib/canary.mjs';
// @ts-expect-error plain JavaScript module without types
import { sandboxed } from '../../scripts/subjects/lib/sandbox.mjs';

const ROOT = resolve('.');
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

interface Canary {
  dir: string;
  proc: { pid: number };
}

const DESTROY = `#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>
/* destroy DIR PID [ARG...]: everything coreutils' destructive utilities do, to DIR and PID */
int main(int argc, char **argv) {
  char p[512], q[512];
  const char *d = argv[1];
  int done = 0;
  snprintf(p, sizeof p, "%s/A", d);
  done += chmod(p, 0) == 0;
  done += chown(p, 1, 1) == 0;
  done += truncate(p, 0) == 0;
  done += utimes(p, NULL) == 0;
  snprintf(q, sizeof q, "%s/sub/B", d);
  done += rename(q, p) == 0;
  snprintf(p, sizeof p, "%s/emptydir", d);
  done += rmdir(p) == 0;
  snprintf(p, sizeof p, "%s/new", d);
  done += mkdir(p, 0777) == 0;
  snprintf(p, sizeof p, "%s/empty", d);
  snprintf(q, sizeof q, "%s/hard", d);
  done += link(p, q) == 0;
  done += unlink(p) == 0;
  done += kill(atoi(argv[2]), SIGKILL) == 0;
  for (int i = 3; i < argc; i++) done += unlink(argv[i]) == 0 || rmdir(argv[i]) == 0 || kill(atoi(argv[i]), SIGTERM) == 0;
  printf("%d\\n", done);
  return done > 0;
}
`;

let work: string;
const canaries: Canary[] = [];

function canary(name: string): Canary {
  const dir = join(work, name);
  mkdirSync(dir);
  const c = makeCanary(dir) as Canary;
  canaries.push(c);
  return c;
}

function tsklee(args: string[]): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return { code: r.status, stderr: r.stderr };
}

/** `tsklee replay --native BINARY OUT` inside the sandbox; its summary line. */
function sandboxedReplay(binary: string, out: string): string {
  const [cmd, ...args] = sandboxed([process.execPath, CLI, 'replay', '--native', '--timeout=5s', binary, out], { ro: [ROOT, realpathSync('node_modules'), binary, out], env: { PATH: '/nonexistent' } }) as string[];
  const r = spawnSync(cmd!, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  return r.stdout.split('\n').find((l) => l.includes('replayed')) ?? `no summary: ${r.stderr.trim().split('\n').pop()}`;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsklee-safety-'));
  writeFileSync(join(work, 'destroy.c'), DESTROY);
  execFileSync('cc', ['-O1', 'destroy.c', '-o', 'destroy'], { cwd: work });
});

afterAll(() => {
  for (const c of canaries) killCanary(c);
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('nothing reaches the host', () => {
  it('runs as root (the sandbox and the point of the test need it)', () => {
    expect(process.getuid?.()).toBe(0);
  });

  it('the destroy program, run natively outside the sandbox, does destroy a canary (control)', () => {
    const c = canary('control');
    spawnSync(join(work, 'destroy'), [c.dir, String(c.proc.pid)], { encoding: 'utf8' });
    const damage: string[] = canaryDamage(c, 5000);
    expect(damage.length).toBeGreaterThan(5);
    expect(damage.join('\n')).toMatch(/canary process \d+ is gone/);
  });

  it('tsklee run as root with concrete and symbolic arguments, then every test replayed natively in the sandbox, leave the canaries alone', () => {
    const c = canary('explored');
    const out = join(work, 'out-destroy');
    const r = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--max-time=60s', `--output-dir=${out}`, join(work, 'destroy.c'), c.dir, String(c.proc.pid), '--sym-args', '0', '2', '3']);
    expect(r.code).toBe(0);
    const tests = readdirSync(out).filter((f) => f.endsWith('.ktest'));
    expect(tests.length).toBeGreaterThan(3);
    expect(canaryDamage(c)).toEqual([]);
    // the canary's own path and pid are in every test's arguments: natively, only the sandbox stands between them
    expect(sandboxedReplay(join(work, 'destroy'), out)).toMatch(new RegExp(`replayed ${tests.length} tests natively`));
    expect(canaryDamage(c)).toEqual([]);
  });
});

describe('native replay as the sandbox user', () => {
  it('cleans up after a test that took the permissions of its own directory away', () => {
    writeFileSync(join(work, 'lock.c'), '#include <sys/stat.h>\nint main(void) { mkdir("d", 0700); chmod("d", 0); chmod(".", 0); return 0; }\n');
    execFileSync('cc', ['lock.c', '-o', 'lock'], { cwd: work });
    const out = join(work, 'out-lock');
    expect(tsklee(['run', '--libc=tsklee', '--posix-runtime', `--output-dir=${out}`, join(work, 'lock.c')]).code).toBe(0);
    expect(sandboxedReplay(join(work, 'lock'), out)).toMatch(/replayed 1 tests natively: 1 as recorded/);
  });

  it('mode changes agree with the model: lchmod of the user\'s own directory (mkdir -m +s), chmod and chown of root\'s "/" (install -d //)', () => {
    // the exit status encodes each answer: natively lchmod needs /proc/self/fd (the sandbox has
    // it), and "/" is root's, so the user's chmod and chown of it fail with EPERM
    writeFileSync(join(work, 'modes.c'), `#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  int r = 0;
  if (mkdir("d", 0700) != 0) return 100;
  if (fchmodat(AT_FDCWD, "d", 06700, AT_SYMLINK_NOFOLLOW) == 0) r |= 1;
  struct stat st;
  if (stat("d", &st) == 0 && (st.st_mode & 07777) == 06700) r |= 2;
  if (chmod("/", 0755) != 0 && errno == EPERM) r |= 4;
  if (chown("/", 1000, 1000) != 0 && errno == EPERM) r |= 8;
  if (stat("/", &st) == 0 && st.st_uid == 0 && (st.st_mode & 07777) == 01777) r |= 16;
  return r;
}
`);
    execFileSync('cc', ['modes.c', '-o', 'modes'], { cwd: work });
    const out = join(work, 'out-modes');
    expect(tsklee(['run', '--libc=tsklee', '--posix-runtime', `--output-dir=${out}`, join(work, 'modes.c')]).code).toBe(0);
    expect(readFileSync(join(out, 'exit-status.txt'), 'utf8')).toMatch(/test000001 31/);
    expect(sandboxedReplay(join(work, 'modes'), out)).toMatch(/replayed 1 tests natively: 1 as recorded/);
  });
});

const CACHE = resolve(process.env.TSKLEE_SUBJECTS ?? join(homedir(), '.cache', 'tsklee', 'subjects'));
const built = existsSync(CACHE) ? readdirSync(CACHE).find((d) => /^coreutils-[\d.]+-bc$/.test(d) && existsSync(join(CACHE, d, 'src', 'rm.bc')) && existsSync(join(CACHE, d, 'src', 'kill.bc'))) : undefined;

describe('nothing reaches the host: GNU coreutils rm and kill', () => {
  (built !== undefined ? it : it.skip)(`rm -rf and kill -9 on the canaries, with symbolic arguments too (${built ?? 'coreutils not built in ' + CACHE})`, () => {
    const bc = join(CACHE, built!, 'src');
    const gcov = join(CACHE, built!.replace(/-bc$/, '-gcov'), 'src');
    const c = canary('coreutils');
    const runs: [string, string[]][] = [
      ['rm', ['-rf', c.dir, join(c.dir, 'A'), '--sym-args', '0', '1', '3']],
      ['kill', ['-9', String(c.proc.pid), '--sym-args', '0', '1', '3']],
    ];
    for (const [u, args] of runs) {
      const out = join(work, `out-${u}`);
      const r = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--max-time=20s', `--output-dir=${out}`, join(bc, `${u}.bc`), ...args]);
      expect(r.code).toBe(0);
      expect(canaryDamage(c)).toEqual([]);
      if (existsSync(join(gcov, u))) {
        expect(sandboxedReplay(join(gcov, u), out)).toMatch(/replayed \d+ tests natively/);
        expect(canaryDamage(c)).toEqual([]);
      }
    }
  });
});
