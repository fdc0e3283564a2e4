/**
 * The exploration step: `tsklee run` on every utility's bitcode, several at once (p-limit),
 * resumable. Each utility gets OUT/NAME/ with klee-out/ (tsklee's output), run.log (its
 * stderr) and run.json, written last: a utility with a run.json for the same command line that
 * finished is not run again; one without (an interrupted run) or whose run failed starts afresh.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { kleeRunOptions, programArgs, runOptions } from './coreutils-args.mjs';
import { readKleeOut } from './klee-out.mjs';

/** A run is killed this long after its --max-time (loading, the last tests, a long solver query). */
const GRACE_SECONDS = 300;

function spawnLogged(cmd, args, logFile, timeoutMs) {
  return new Promise((resolvePromise, reject) => {
    const log = createWriteStream(logFile);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log.end(() => resolvePromise({ code, signal, killed }));
    });
  });
}

/** The last line of a log that is not a progress or summary line: why a failed run failed. */
function lastError(logFile) {
  const lines = readFileSync(logFile, 'utf8').split(/\r?\n/).filter((l) => l.trim() !== '' && !/^(KLEE|tsklee): done:/.test(l));
  return (lines.find((l) => /error|Error|ERROR|FATAL|at /.test(l)) ?? lines.pop() ?? '').trim().slice(0, 300);
}

export function runDir(out, utility) {
  return join(out, utility);
}

export function readRun(out, utility) {
  const f = join(runDir(out, utility), 'run.json');
  return existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : undefined;
}

/** The default options without those --tsklee-args gives again (`--max-memory=2000` replaces the default's). */
function overridden(defaults, extraArgs) {
  const name = (a) => a.split('=')[0];
  const given = new Set(extraArgs.filter((a) => a.startsWith('--')).map(name));
  return defaults.filter((a) => !given.has(name(a)));
}

/** Runs (or reuses) one utility's exploration; resolves to its run.json content. */
async function runOne({ utility, bitcode, out, maxTime, maxTimeSeconds, tsklee, klee, extraArgs = [], rerun, log }) {
  const dir = runDir(out, utility);
  const outputDir = `--output-dir=${join(dir, 'klee-out')}`;
  const command =
    klee !== undefined
      ? [klee, ...kleeRunOptions(maxTime), outputDir, bitcode, ...programArgs(utility)]
      : [tsklee, 'run', '--no-echo-program-output', ...overridden(runOptions(maxTime), extraArgs), ...extraArgs, outputDir, bitcode, ...programArgs(utility)];
  const previous = readRun(out, utility);
  // a run that failed to start or crashed is tried again (the cause may have been passing: a
  // dependency being reinstalled); one that finished, or overran and was killed, is kept
  const finished = previous !== undefined && (previous.exitCode === 0 || previous.killedAfterGrace);
  if (!rerun && finished && JSON.stringify(previous.command) === JSON.stringify(command)) return { ...previous, reused: true };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`run ${utility}`);
  const started = Date.now();
  const r = await spawnLogged(command[0], command.slice(1), join(dir, 'run.log'), (maxTimeSeconds + GRACE_SECONDS) * 1000);
  const seconds = (Date.now() - started) / 1000;
  const kleeOut = readKleeOut(join(dir, 'klee-out'));
  const loaded = existsSync(join(dir, 'klee-out', 'info'));
  const record = {
    utility,
    command,
    startedAt: new Date(started).toISOString(),
    seconds,
    exitCode: r.code,
    signal: r.signal,
    killedAfterGrace: r.killed,
    loaded,
    failure: r.code === 0 ? null : r.killed ? `killed ${GRACE_SECONDS} s after --max-time` : lastError(join(dir, 'run.log')),
    ...kleeOut,
  };
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify(record, null, 2)}\n`);
  log(`ran ${utility}: ${record.tests} tests, ${seconds.toFixed(0)} s${record.failure ? ` (FAILED: ${record.failure})` : ''}`);
  return record;
}

/** Every utility of `utilities` with bitcode, `jobs` at a time; resolves to their records by name. */
export async function runAll({ utilities, bitcodeOf, out, maxTime, maxTimeSeconds, jobs, tsklee, klee, extraArgs = [], rerun = false, log }) {
  const limit = pLimit(jobs);
  const records = await Promise.all(
    utilities.map((utility) =>
      limit(() => runOne({ utility, bitcode: bitcodeOf(utility), out, maxTime, maxTimeSeconds, tsklee, klee, extraArgs, rerun, log }).catch((e) => ({ utility, failure: `${klee ?? 'tsklee run'} could not start: ${e.message}`, loaded: false }))),
    ),
  );
  return new Map(records.map((r) => [r.utility, r]));
}
