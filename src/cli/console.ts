/**
 * The run's console lines as KLEE prints them: `KLEE: output directory is "…"`, `KLEE: ERROR:
 * file:line: …`, `KLEE: WARNING: …`, `KLEE: done: …`, all on stderr (KLEE writes them through
 * llvm::errs()). --console-prefix=tsklee gives the older `tsklee: …` form. tsklee's own CLI
 * errors (bad arguments, unreadable files) keep `tsklee: error:` (cli/errors.ts).
 */

export const CONSOLE_PREFIXES = ['KLEE', 'tsklee'] as const;
export type ConsolePrefix = (typeof CONSOLE_PREFIXES)[number];

/** KLEE's, unless --console-prefix says otherwise. */
export const DEFAULT_CONSOLE_PREFIX: ConsolePrefix = 'KLEE';

let prefix: ConsolePrefix = DEFAULT_CONSOLE_PREFIX;

export function setConsolePrefix(p: ConsolePrefix): void {
  prefix = p;
}

export function consolePrefix(): ConsolePrefix {
  return prefix;
}

/** One console line: `KLEE: text` (or `tsklee: text`), newline added. */
export function consoleLine(text: string): string {
  return `${prefix}: ${text}\n`;
}

/** Text whose lines start with `KLEE: ` (formatDoneSummary and the like) in the chosen prefix. */
export function consoleText(kleeText: string): string {
  return prefix === 'KLEE' ? kleeText : kleeText.replace(/^KLEE: /gm, `${prefix}: `);
}

/** Writes a console line to stderr, where KLEE writes its own. */
export function consoleWrite(text: string): void {
  process.stderr.write(consoleLine(text));
}
