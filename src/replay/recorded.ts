/**
 * What `tsklee run` recorded about a test, beside its .ktest (/work/notes/runtime-contract.md,
 * written by the engine): testN.stdout / testN.stderr (console output; missing = empty),
 * testN.exit (the exit status as a shell sees it, only for paths that exited), and the
 * .err / .early reports of paths that did not.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface RecordedOutcome {
  /** Exit status, when the path exited. */
  exit?: number;
  stdout: Buffer;
  /** The kind of the .err file (`ptr`, `abort`, `assert`, …), when the path ended with an error. */
  errKind?: string;
  /** The path was stopped early (.early). */
  early: boolean;
  /** Whether any recording exists (runs before the sidecars existed have none). */
  present: boolean;
}

/** `dirNames`: the directory's file names, when the caller has listed it already (many tests). */
export function readRecorded(ktestPath: string, dirNames?: readonly string[]): RecordedOutcome {
  const dir = dirname(ktestPath);
  const stem = basename(ktestPath, '.ktest');
  const file = (suffix: string): string => join(dir, `${stem}.${suffix}`);
  const exitFile = file('exit');
  const stdoutFile = file('stdout');
  let exit: number | undefined;
  if (existsSync(exitFile)) {
    const text = readFileSync(exitFile, 'utf8').trim();
    if (/^\d+$/.test(text)) exit = Number(text);
  }
  const stdout = existsSync(stdoutFile) ? readFileSync(stdoutFile) : Buffer.alloc(0);
  const errFile = (dirNames ?? readdirSync(dir)).find((n) => n.startsWith(`${stem}.`) && n.endsWith('.err'));
  const errKind = errFile?.slice(stem.length + 1, -'.err'.length);
  const early = existsSync(file('early'));
  return { exit, stdout, errKind, early, present: exit !== undefined || errKind !== undefined || early || existsSync(stdoutFile) };
}
