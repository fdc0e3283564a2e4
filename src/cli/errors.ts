/**
 * How the CLI reports failures: one line on stderr, `tsklee: error: <file>: <message>`,
 * exit code 1 for problems with the input or the command line, 2 for internal errors (bugs).
 * Stack traces only with TSKLEE_DEBUG=1.
 */
import { BitcodeError, escapeControlChars } from '../bitcode/errors.js';
import { DataLayoutError } from '../ir/datalayout.js';
import { LinkError } from '../ir/linker.js';
import { InputError } from '../load.js';
import { consolePrefix } from './console.js';

export const EXIT_USER_ERROR = 1;
export const EXIT_INTERNAL_ERROR = 2;

/** A problem with the command line or the user's request, reported without a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * An error KLEE itself reports with klee_error (a missing entry function, EXITING ON ERROR):
 * printed as `KLEE: ERROR: …` under KLEE's console prefix (console.ts), else `tsklee: error: …`.
 */
export class KleeError extends UsageError {}

/** A one-line error followed by a report printed as it is (--exit-on-error's error report, as KLEE prints it). */
export class ReportedError extends KleeError {
  constructor(
    message: string,
    readonly report: string,
  ) {
    super(message);
  }
}

const SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EMFILE: 'too many open files',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EEXIST: 'file exists',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};

function isSystemError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

function singleLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}

/** The message line and exit code for an error thrown by a command. */
export function describeError(e: unknown): { line: string; code: number } {
  if (e instanceof BitcodeError) return { line: e.oneLine(), code: EXIT_USER_ERROR };
  // these may quote bytes of the input (a corrupt data layout string, a symbol name): escaped, so the line stays one line
  if (e instanceof InputError) return { line: escapeControlChars(`${e.file}: ${e.message}`), code: EXIT_USER_ERROR };
  if (e instanceof LinkError || e instanceof DataLayoutError) return { line: escapeControlChars(e.message), code: EXIT_USER_ERROR };
  if (e instanceof UsageError) return { line: e.message, code: EXIT_USER_ERROR };
  if (isSystemError(e) && e.code !== undefined && SYSTEM_ERRORS[e.code] !== undefined) {
    const what = SYSTEM_ERRORS[e.code];
    return { line: e.path !== undefined ? `${e.path}: ${what}` : `${what} (${e.syscall})`, code: EXIT_USER_ERROR };
  }
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { line: `${msg} (internal error; run with TSKLEE_DEBUG=1 for a stack trace)`, code: EXIT_INTERNAL_ERROR };
}

/** Writes the report of `e` to stderr and returns the exit code. */
export function reportError(e: unknown): number {
  const { line, code } = describeError(e);
  const head = e instanceof KleeError && consolePrefix() === 'KLEE' ? 'KLEE: ERROR:' : 'tsklee: error:';
  process.stderr.write(`${head} ${singleLine(line)}\n`);
  if (e instanceof ReportedError) process.stderr.write(`${e.report.trimEnd()}\n`);
  if (process.env.TSKLEE_DEBUG === '1' && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  return code;
}

export function isEpipe(e: unknown): boolean {
  return e instanceof Error && (e as NodeJS.ErrnoException).code === 'EPIPE';
}

/** Writes to stdout and resolves once the data is handed to the OS; rejects with EPIPE when the reader went away. */
export function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    process.stdout.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
