/**
 * Runs a natively built program on one test (the role of KLEE's klee-replay): argv, files and
 * stdin from the test (./posix-inputs.ts), KTEST_FILE naming the test for programs linked
 * with runtime/replay, in a fresh temporary directory that is removed afterwards.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { NativeInputs } from './posix-inputs.js';

export interface NativeResult {
  /** Exit status, or null when killed by a signal / the timeout. */
  status: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: Buffer;
  stderr: Buffer;
}

export interface NativeRunOptions {
  /** argv[0] the program sees (tsklee records output with the test's first argument). */
  argv0: string;
  /** Absolute path of the .ktest, passed as KTEST_FILE. */
  ktestPath: string;
  timeoutMs: number;
  /**
   * The program's environment, `NAME=VALUE` strings: what `tsklee run` gave it (its fixed
   * default or --environ), not the replayer's, so that a program reading $SHELL or $HOME
   * takes the recorded path. Coverage and sanitizer runtimes' variables of the replayer
   * (GCOV_*, LLVM_PROFILE_FILE, ASAN/UBSAN_OPTIONS) are added.
   */
  environment: readonly string[];
}

/** The replayer's variables the native build's instrumentation reads (not the program). */
const TOOL_VARIABLES = /^(GCOV_PREFIX|GCOV_PREFIX_STRIP|LLVM_PROFILE_FILE|ASAN_OPTIONS|UBSAN_OPTIONS|LSAN_OPTIONS)$/;

function programEnvironment(o: NativeRunOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const kv of o.environment) env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
  for (const [k, v] of Object.entries(process.env)) if (TOOL_VARIABLES.test(k)) env[k] = v;
  env.KTEST_FILE = resolve(o.ktestPath);
  return env;
}

/** Program output kept per stream; more is cut (and then differs from any sane recording). */
const MAX_OUTPUT = 64 * 1024 * 1024;

/**
 * bash decodes each argument from printf escapes and runs the program with its argv[0]: an
 * argument is bytes, and Node hands strings to exec as UTF-8 (byte 0x80 would arrive as C2 80).
 */
const BYTE_EXACT_EXEC = 'p=$1; a0=$2; shift 2; n=$#; while [ "$n" -gt 0 ]; do v=$(printf -- "$1"x); set -- "$@" "${v%x}"; shift; n=$((n - 1)); done; exec -a "$a0" "$p" "$@"';

/** One byte per character (the test's bytes as latin1) → a printf format that prints exactly them. */
export function printfEscape(arg: string): string {
  let out = '';
  for (let i = 0; i < arg.length; i++) {
    const c = arg.charCodeAt(i);
    out += c >= 0x20 && c < 0x7f && c !== 0x5c && c !== 0x25 ? arg[i] : `\\${c.toString(8).padStart(3, '0')}`;
  }
  return out;
}

/** bash from the replayer's PATH (the program's own environment may have none), else /bin/bash. */
function bashPath(): string {
  for (const d of (process.env.PATH ?? '').split(':')) if (d !== '' && existsSync(join(d, 'bash'))) return join(d, 'bash');
  return '/bin/bash';
}

/**
 * The command that passes `args` to `binary` byte for byte: the program itself when every
 * argument is ASCII, else the program run by bash's `exec` (BYTE_EXACT_EXEC).
 */
export function byteExactCommand(binary: string, args: readonly string[], argv0: string): [string, string[], string] {
  if (args.every((a) => [...a].every((ch) => ch.charCodeAt(0) < 0x80))) return [binary, [...args], argv0];
  return [bashPath(), ['--norc', '--noprofile', '-c', BYTE_EXACT_EXEC, 'tsklee-replay', binary, argv0, ...args.map(printfEscape)], 'bash'];
}

export function runNative(binary: string, inputs: NativeInputs, o: NativeRunOptions): NativeResult {
  const root = mkdtempSync(join(tmpdir(), 'tsklee-replay-'));
  let stdinFd: number | undefined;
  try {
    // the program runs in root/cwd with its files; stdin (when the test has one) is a file
    // beside it, as the model's symbolic stdin is a file (seekable, with a size)
    const cwd = join(root, 'cwd');
    mkdirSync(cwd);
    for (const f of inputs.files) {
      const p = join(cwd, f.name);
      writeFileSync(p, f.bytes);
      chmodSync(p, f.mode);
    }
    if (inputs.stdin !== null) {
      writeFileSync(join(root, 'stdin'), inputs.stdin);
      stdinFd = openSync(join(root, 'stdin'), 'r');
    }
    const [file, args, argv0] = byteExactCommand(resolve(binary), inputs.args, o.argv0);
    const r = spawnSync(file, args, {
      argv0,
      cwd,
      // no stdin object: the console's stdin, empty (a pipe closed at once)
      stdio: [stdinFd ?? 'pipe', 'pipe', 'pipe'],
      input: stdinFd === undefined ? '' : undefined,
      env: programEnvironment(o),
      timeout: o.timeoutMs,
      killSignal: 'SIGKILL',
      maxBuffer: MAX_OUTPUT,
    });
    const code = (r.error as NodeJS.ErrnoException | undefined)?.code;
    // EPIPE: the program ended without reading its (empty) stdin; ENOBUFS: output cut at MAX_OUTPUT
    if (r.error !== undefined && code !== 'ETIMEDOUT' && code !== 'ENOBUFS' && code !== 'EPIPE') {
      const err = r.error as NodeJS.ErrnoException;
      if (code === 'ENOENT' && file !== resolve(binary)) throw new Error('bash was not found: it passes arguments with bytes 0x80-0xff to the native program');
      if (code === 'ENOENT' || code === 'EACCES') err.path = binary;
      throw err;
    }
    return { status: r.status, signal: r.signal, timedOut: code === 'ETIMEDOUT', stdout: r.stdout ?? Buffer.alloc(0), stderr: r.stderr ?? Buffer.alloc(0) };
  } finally {
    if (stdinFd !== undefined) closeSync(stdinFd);
    removeTree(root);
  }
}

/**
 * Removes the test's directory even when the program took its permissions away (`chmod 000
 * .`, `chmod -R a-w`): every directory made writable and searchable again first.
 */
function removeTree(root: string): void {
  try {
    rmSync(root, { recursive: true, force: true });
    return;
  } catch {
    // fall through: restore permissions and try again
  }
  const restore = (dir: string): void => {
    try {
      chmodSync(dir, 0o700);
      for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) restore(join(dir, e.name));
    } catch {
      // not ours to change: rmSync below says so
    }
  };
  restore(root);
  rmSync(root, { recursive: true, force: true });
}
