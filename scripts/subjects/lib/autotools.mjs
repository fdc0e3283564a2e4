/**
 * One configured build of an autotools source tree (a VPATH build directory beside the
 * source), incremental: configure runs only when the build directory has no config.status
 * or was configured with other settings (kept in `tsklee-configure.json`); make runs only
 * when `make -q` says a target is out of date. Output of configure and make goes to
 * configure.log and make.log in the build directory.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SubjectError } from './errors.mjs';

const STAMP = 'tsklee-configure.json';

/** Runs a command with its output appended to `logFile`; resolves to the exit status. */
function runLogged(cmd, args, { cwd, env, logFile }) {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logFile, { flags: 'a' });
    log.write(`\n$ ${[cmd, ...args].join(' ')}\n`);
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', reject);
    child.on('close', (code, signal) => log.end(() => resolvePromise(code ?? 128 + (signal === 'SIGKILL' ? 9 : 15))));
  });
}

/** A make variable's value as the configured Makefile has it (GNU make's --eval). */
export function makeVariable(buildDir, name) {
  const target = 'tsklee-print-variable';
  const r = spawnSync('make', ['-s', '--no-print-directory', `--eval=${target}: ; @echo $(${name})`, target], { cwd: buildDir, encoding: 'utf8' });
  if (r.status !== 0) throw new SubjectError(`make could not print $(${name}) in ${buildDir}: ${r.stderr.trim().split('\n').pop()}`);
  return r.stdout.trim();
}

/**
 * Configures `srcDir` into `buildDir` (unless already configured the same way).
 * `env`: CC, CFLAGS, … given to configure (config.status keeps them for make).
 */
export async function configure({ srcDir, buildDir, env, args, log }) {
  mkdirSync(buildDir, { recursive: true });
  const settings = JSON.stringify({ srcDir, env, args }, null, 2);
  const stampFile = join(buildDir, STAMP);
  if (existsSync(join(buildDir, 'config.status')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === settings) {
    return { configured: false };
  }
  log(`configuring ${relative(process.cwd(), buildDir) || buildDir} (CC=${env.CC}; log: configure.log)`);
  const started = Date.now();
  // coreutils' configure refuses root unless told (Debian's build sets the same)
  const code = await runLogged(join(srcDir, 'configure'), args, { cwd: buildDir, env: { ...process.env, FORCE_UNSAFE_CONFIGURE: '1', ...env }, logFile: join(buildDir, 'configure.log') });
  if (code !== 0) throw new SubjectError(`configure failed in ${buildDir} (exit ${code}): see ${join(buildDir, 'configure.log')}`);
  writeFileSync(stampFile, settings);
  return { configured: true, seconds: (Date.now() - started) / 1000 };
}

/** Whether every target is up to date (`make -q`). */
export function upToDate(buildDir, targets, vars = []) {
  return spawnSync('make', ['-q', ...vars, ...targets], { cwd: buildDir, stdio: 'ignore' }).status === 0;
}

/**
 * `make -k -j JOBS VARS TARGETS` in `buildDir` (VARS: `NAME=VALUE` overrides); resolves to
 * { ran: false } when nothing was out of date, else the exit status (targets that failed are
 * the caller's to find: -k goes on).
 */
export async function make({ buildDir, targets, jobs, vars = [] }) {
  if (upToDate(buildDir, targets, vars)) return { ran: false, code: 0 };
  const started = Date.now();
  const code = await runLogged('make', ['-k', `-j${jobs}`, ...vars, ...targets], { cwd: buildDir, env: process.env, logFile: join(buildDir, 'make.log') });
  return { ran: true, code, seconds: (Date.now() - started) / 1000 };
}
