/**
 * `exit-status.txt`: how each test's path ended, one line per test that has a .ktest, so a run
 * writes one file here instead of one sidecar per test (creating files dominates fork-heavy
 * runs). Each line is
 *
 *   testNNNNNN STATUS
 *
 * where STATUS is the exit status a shell sees (`status & 255`, 0..255) for a path that exited
 * (returned from main or called exit), or `-` for one that did not (its .err or .early file
 * says how it ended; also an entry function without a return value). A line is appended with
 * one write after the test's .ktest is complete, so at any moment (Ctrl-C, --max-time, a
 * crash) every line names a complete .ktest. Lines are in the order tests are written, which
 * is test-number order. A reader ignores a line it cannot parse (the last one, cut short by a
 * crash in the middle of its write).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const EXIT_STATUS_FILE = 'exit-status.txt';

/** The line of test `stem` (e.g. "test000001"); `status` null: the path did not exit. */
export function formatExitStatusLine(stem: string, status: number | null): string {
  return `${stem} ${status === null ? '-' : status}\n`;
}

const LINE_RE = /^(test\d+) (-|\d{1,3})$/;

/** The statuses of `text` by test stem ("test000001" → 0; null: did not exit). */
export function parseExitStatuses(text: string): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const line of text.split('\n')) {
    const m = LINE_RE.exec(line);
    if (m !== null) out.set(m[1]!, m[2] === '-' ? null : Number(m[2]));
  }
  return out;
}

/** The statuses recorded in output directory `dir`; an empty map when it has no exit-status.txt. */
export function readExitStatuses(dir: string): Map<string, number | null> {
  let text: string;
  try {
    text = readFileSync(join(dir, EXIT_STATUS_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw e;
  }
  return parseExitStatuses(text);
}
