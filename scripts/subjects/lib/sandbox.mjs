/**
 * Native replay of tests of programs that delete, move, chmod and kill: each `tsklee replay
 * --native` runs inside a throw-away sandbox (sandbox.sh under `unshare`): a new root with the
 * host's /usr and /etc read-only, only the paths it needs bound in (read-only but for one
 * writable directory, for the .gcda files), its own /dev, /tmp, pid namespace (`kill -9 -1`
 * reaches nothing outside), no network, no /proc, the POSIX model's host name and users, run as uid 1000
 * with no capabilities. Needs root and util-linux's unshare/setpriv (Debian: util-linux).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SubjectError } from './errors.mjs';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'sandbox.sh');
const NAMESPACES = ['--mount', '--pid', '--fork', '--net', '--ipc', '--uts', '--propagation', 'private'];

/**
 * The command line that runs `command` in a sandbox with `ro` and `rw` host paths visible and
 * only the variables of `env` in its environment (values without spaces).
 */
export function sandboxed(command, { ro = [], rw = [], env = {} }) {
  const vars = Object.entries(env).map(([k, v]) => {
    if (/\s/.test(String(v))) throw new SubjectError(`sandbox: the value of ${k} has a space: ${v}`);
    return ['--env', `${k}=${v}`];
  });
  return ['unshare', ...NAMESPACES, '--', 'sh', SCRIPT, ...ro.flatMap((p) => ['--ro', p]), ...rw.flatMap((p) => ['--rw', p]), ...vars.flat(), '--', ...command];
}

/** Refuses early, in one line, where the sandbox cannot be made. */
export function checkSandbox() {
  if (process.getuid?.() !== 0) throw new SubjectError('native replay runs in a sandbox made with unshare and chroot: run as root');
  const [cmd, ...args] = sandboxed(['/usr/bin/true'], {});
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.error !== undefined || r.status !== 0) {
    throw new SubjectError(`cannot make the replay sandbox (unshare/mount/chroot/setpriv): ${(r.error?.message ?? r.stderr).trim().split('\n').pop()}`);
  }
}
