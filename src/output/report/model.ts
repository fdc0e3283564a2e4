/**
 * Everything a report shows about one output directory, read from its files: the command and
 * summary (info), the statistics over time (run.stats), the program's source coverage
 * (coverage.lcov and the source files it names), the errors (.err files with their test's
 * inputs and a command that replays it), and every test's ending (exit-status.txt, .err,
 * .early). Missing files leave their part empty; a directory that is no output directory is
 * an error.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseErrFile, type ParsedErrFile } from '../err-file.js';
import { readExitStatuses } from '../exit-status.js';
import { readKTestFile, type KTest } from '../ktest.js';
import { parseLcov, type SourceFileCoverage } from '../lcov.js';
import { readRunStats } from '../run-stats.js';

export interface TestInputObject {
  name: string;
  size: number;
  hex: string;
  /** Printable characters as they are, others as \xNN. */
  text: string;
}

export interface ReportError {
  test: string;
  /** The .err suffix: ptr, div, assert, … */
  kind: string;
  message: string;
  file?: string;
  line?: number;
  stack: ParsedErrFile['stack'];
  info?: string;
  inputs: TestInputObject[];
  /** A command that re-runs the test in tsklee's interpreter. */
  replay: string;
}

export interface ReportTest {
  test: string;
  /** "exit 0", "error: ptr", "early: …", or "no test file". */
  ending: string;
}

export interface ReportSource extends SourceFileCoverage {
  /** The file's text, or null when it cannot be read any more. */
  text: string | null;
}

export interface RunReport {
  dir: string;
  /** The `tsklee run …` command line (info's first line). */
  command: string;
  /** info's "KLEE: done:" numbers by name ("total instructions" → 1234). */
  done: Record<string, number>;
  /** info's tsklee coverage lines. */
  coverageLines: string[];
  haltReason?: string;
  stats: { columns: string[]; rows: number[][] } | null;
  sources: ReportSource[];
  errors: ReportError[];
  tests: ReportTest[];
}

export class ReportInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportInputError';
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** A shell word: quoted when it holds anything but safe characters. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

function inputObject(o: KTest['objects'][number]): TestInputObject {
  let text = '';
  let hex = '';
  for (const b of o.bytes) {
    hex += b.toString(16).padStart(2, '0');
    text += b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return { name: o.name, size: o.bytes.length, hex, text };
}

/** `tsklee replay` with the run's program and runtime options, for one test. */
function replayCommand(runArgs: string[], program: string, ktestPath: string): string {
  const opts: string[] = [];
  for (let i = 0; i < runArgs.length; i++) {
    const a = runArgs[i]!;
    const m = /^--?(libc|entry-point)(?:=(.*))?$/.exec(a);
    if (m !== null) opts.push(`--${m[1]}=${m[2] ?? runArgs[++i] ?? ''}`);
    else if (/^--?posix-runtime$/.test(a)) opts.push('--posix-runtime');
  }
  return ['tsklee', 'replay', ...opts, program, ktestPath].map(shellQuote).join(' ');
}

export async function loadRunReport(dir: string): Promise<RunReport> {
  const info = readText(join(dir, 'info'));
  if (info === null) throw new ReportInputError(`${dir}: not an output directory (no info file)`);
  const infoLines = info.split('\n');
  const command = infoLines[0] ?? '';
  const done: Record<string, number> = {};
  for (const m of info.matchAll(/^KLEE: done: (.*?) = (\d+)$/gm)) done[m[1]!] = Number(m[2]);
  const coverageLines = infoLines.filter((l) => l.startsWith('tsklee: ') && l.includes('coverage'));
  const haltReason = /^Halted: (.*)$/m.exec(info)?.[1];
  let stats: RunReport['stats'] = null;
  if (existsSync(join(dir, 'run.stats'))) {
    try {
      stats = await readRunStats(join(dir, 'run.stats'));
    } catch (e) {
      throw new ReportInputError(`${join(dir, 'run.stats')}: unreadable (${(e as Error).message.split('\n')[0]})`);
    }
  }
  const lcov = readText(join(dir, 'coverage.lcov'));
  const sources: ReportSource[] = lcov === null ? [] : parseLcov(lcov).map((f) => ({ ...f, text: readText(f.path) }));
  const files = readdirSync(dir).sort();
  const statuses = readExitStatuses(dir);
  const runArgs = command.split(' ').slice(2);
  const errors: ReportError[] = [];
  const tests: ReportTest[] = [];
  for (const f of files) {
    const m = /^(test\d+)\.ktest$/.exec(f);
    if (m === null) continue;
    const stem = m[1]!;
    const err = files.find((x) => x.startsWith(`${stem}.`) && x.endsWith('.err'));
    const early = files.includes(`${stem}.early`) ? readText(join(dir, `${stem}.early`))?.trim() : undefined;
    const status = statuses.get(stem);
    let ending = status !== undefined && status !== null ? `exit ${status}` : early !== undefined ? `early: ${early}` : 'ended';
    if (err !== undefined) {
      const kind = err.slice(stem.length + 1, -'.err'.length);
      ending = `error: ${kind}`;
      let ktest: KTest | null = null;
      try {
        ktest = readKTestFile(join(dir, f));
      } catch {
        ktest = null;
      }
      const parsed = parseErrFile(readText(join(dir, err)) ?? '');
      errors.push({
        test: stem,
        kind,
        ...parsed,
        inputs: ktest?.objects.map(inputObject) ?? [],
        replay: replayCommand(runArgs, ktest?.args[0] ?? '<program>', join(dir, f)),
      });
    }
    tests.push({ test: stem, ending });
  }
  return { dir, command, done, coverageLines, haltReason, stats, sources, errors, tests };
}
