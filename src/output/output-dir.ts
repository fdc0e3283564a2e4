/**
 * The output directory of a run, in KLEE's layout:
 *
 *   klee-out-N/             N = the first number whose directory can be created, from 0
 *     test000001.ktest      one per test (KLEE's .ktest format, see ktest.ts)
 *     test000002.ptr.err    for a test that ends in an error: the report (see err-file.ts)
 *     test000003.early      for a state ended early (timeout, memory cap, halt): the reason
 *     test000004.stdout     the program's console output on the test's inputs, when it wrote
 *     test000004.stderr     any (the POSIX model's fds 1 and 2; missing = empty)
 *     exit-status.txt       one line per .ktest: how its path ended (see exit-status.ts);
 *                           created with the first test
 *     info                  command line, times, summary (see info.ts)
 *     messages.txt          "KLEE: ..." lines
 *     warnings.txt          "KLEE: WARNING: ..." lines
 *     run.stats             SQLite statistics (see run-stats.ts)
 *   klee-last -> klee-out-N (a relative symlink, replaced atomically)
 *
 * With `outputDir` the directory is created as given and must not exist yet: like KLEE,
 * tsklee refuses to write into (and so mix with or overwrite) an existing directory. Without
 * it, klee-out-N and klee-last go in `base`. KLEE puts them beside the input bitcode file
 * (the directory part of its path), so `tsklee run` passes that directory as `base`; the
 * default is the current directory.
 *
 * Messages and warnings are written line by line without buffering, so an interrupted run
 * keeps everything it reported. Test files go through a TestFileWriter: in order, on a worker
 * thread once a run has many (test-file-writer.ts says why and what it guarantees), and all
 * on disk before `info` is written and when the directory is closed.
 *
 * Test files are created directly (exclusive create, as KLEE does), not through a temporary
 * file and a rename like info and run.stats: the directory is new and ours, so nothing can be
 * clobbered, and the rename doubled the cost of a test (measured: 4096 tests, ~0.25 s direct
 * vs ~0.9 s with the rename on a quiet machine; file creation dominates fork-heavy runs).
 * A crash in the middle of a test's write can leave that one file short; its exit-status.txt
 * line, written after all its files, is then missing.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, symlinkSync, writeSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { formatInfo, type RunInfo } from './info.js';
import { EXIT_STATUS_FILE, formatExitStatusLine } from './exit-status.js';
import { encodeKTest, writeFileAtomic, type KTest } from './ktest.js';
import { RunStatsWriter, type RunStatsOptions } from './run-stats.js';
import { TestFileWriter, type TestFile } from './test-file-writer.js';

/** The prefix of every line of messages.txt and warnings.txt (KLEE's, for scripts that grep them). */
export const MESSAGE_PREFIX = 'KLEE: ';

/**
 * The `.err` suffixes KLEE uses (TerminationTypes.h), plus `div` and `overshift`, which KLEE's
 * runtime checks report through klee_report_error. `errKind` may be any other file-name-safe
 * word too (klee_report_error lets the program choose it).
 */
export const ERR_KINDS = [
  'ptr',
  'free',
  'div',
  'overshift',
  'assert',
  'abort',
  'user',
  'exec',
  'external',
  'model',
  'overflow',
  'read_only',
  'report_error',
  'solver',
  'bad_vector_access',
  'invalid_builtin_use',
  'implicit_truncation',
  'implicit_conversion',
  'unreachable_call',
  'missing_return',
  'invalid_load',
  'nullable_attribute',
] as const;

export type ErrKind = (typeof ERR_KINDS)[number];

const SUFFIX_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** A problem creating or using the output directory; the message is one line. */
export class OutputDirError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputDirError';
  }
}

export interface CreateOutputDirOptions {
  /** Use exactly this directory (it must not exist). */
  outputDir?: string;
  /** Where klee-out-N and klee-last go when outputDir is not given (default: the current directory). */
  base?: string;
}

export interface WriteTestExtras {
  /** Error kind: writes testNNNNNN.<errKind>.err with errText (e.g. 'ptr', 'div', 'assert'; 'div.err' works too). */
  errKind?: string;
  errText?: string;
  /** A state ended early: writes testNNNNNN.early with this text (KLEE's suffix for such states). */
  early?: string;
  /** The exit status of a path that exited (0..255), for exit-status.txt; absent: it did not exit. */
  exitStatus?: number;
  /** More files for this test, by suffix: { kquery: '...' } writes testNNNNNN.kquery. */
  files?: Record<string, string | Uint8Array>;
}

function errnoMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code !== undefined ? `${err.code}: ${err.message}` : String(e);
}

/** "test" + the id zero-padded to 6 digits, as KLEE names tests. */
export function testBaseName(id: number): string {
  const digits = String(id);
  return digits.length >= 6 ? `test${digits}` : `test${ZEROS[6 - digits.length]}${digits}`;
}
const ZEROS = ['', '0', '00', '000', '0000', '00000'];

export class OutputDir {
  private testCount = 0;
  private generated = 0;
  private messagesFd: number | undefined;
  private warningsFd: number | undefined;
  private readonly testFiles: TestFileWriter;
  private stats: RunStatsWriter | undefined;
  /** `path` and a separator: test files' paths start with it. */
  private readonly prefix: string;
  /** Where each test's .ktest is encoded (a fresh buffer per test cost more than encoding it). */
  private scratch = new Uint8Array(4096);

  /** @internal use createOutputDir (or attachOutputDir) */
  constructor(
    /** Absolute path of the directory. */
    readonly path: string,
    /** Absolute path of the klee-last link, when one was made. */
    readonly lastLink: string | undefined,
    /** A writer of tests only (attachOutputDir): no messages or warnings, its own exit-status file. */
    testsOnly?: { exitStatusFile: string },
  ) {
    this.prefix = path.endsWith(sep) ? path : path + sep;
    if (testsOnly === undefined) {
      this.warningsFd = openSync(join(path, 'warnings.txt'), 'w');
      this.messagesFd = openSync(join(path, 'messages.txt'), 'w');
    }
    this.testFiles = new TestFileWriter(join(path, testsOnly?.exitStatusFile ?? EXIT_STATUS_FILE));
  }

  /** Absolute path of a file in the directory. */
  file(name: string): string {
    return join(this.path, name);
  }

  /** Path of a test's file with this suffix, e.g. testPath(7, 'ptr.err'). */
  testPath(id: number, suffix: string): string {
    return this.pathOf(testBaseName(id), suffix);
  }

  private pathOf(base: string, suffix: string): string {
    // `path` is absolute and normalized: concatenation gives what join() would, far cheaper per test
    return `${this.prefix}${base}.${suffix}`;
  }

  /** Takes the next test number (1, 2, …); writeTest does this itself. */
  nextTestId(): number {
    return ++this.testCount;
  }

  /** Test numbers taken so far (including tests whose .ktest could not be produced). */
  get testsNumbered(): number {
    return this.testCount;
  }

  /** .ktest files written so far (KLEE's "generated tests"). */
  get testsGenerated(): number {
    return this.generated;
  }

  /**
   * Writes one test: testNNNNNN.ktest (unless `ktest` is null: KLEE still numbers a test whose
   * inputs could not be computed and writes its other files), the .err/.early file, the extra
   * files, and last its exit-status.txt line (only with a .ktest). Returns the test's number.
   * The files are on disk when writeInfo() or close() returns (usually well before).
   */
  writeTest(ktest: KTest | null, extras: WriteTestExtras = {}): number {
    return this.writeTestAs(this.nextTestId(), ktest, extras);
  }

  /**
   * writeTest with a number taken elsewhere (parallel exploration: the workers share one
   * counter, so the tests are numbered once over all of them).
   */
  writeTestAs(id: number, ktest: KTest | null, extras: WriteTestExtras = {}): number {
    if (id > this.testCount) this.testCount = id;
    const base = testBaseName(id);
    const files: TestFile[] = [];
    if (ktest !== null) {
      // into a buffer reused by every test: the writer has the bytes copied or written when write() returns
      const bytes = encodeKTest(ktest, this.scratch);
      if (bytes.buffer !== this.scratch.buffer) this.scratch = new Uint8Array(bytes.length * 2);
      files.push([this.pathOf(base, 'ktest'), bytes]);
      this.generated++;
    }
    if (extras.errKind !== undefined) {
      // klee_report_error's suffix usually already ends in ".err" ("div.err"); do not double it.
      const suffix = extras.errKind.endsWith('.err') ? extras.errKind : `${extras.errKind}.err`;
      files.push([this.checkedTestPath(id, suffix), extras.errText ?? '']);
    }
    if (extras.early !== undefined) files.push([this.testPath(id, 'early'), extras.early]);
    const extra = extras.files;
    if (extra !== undefined) for (const suffix in extra) files.push([this.checkedTestPath(id, suffix), extra[suffix]!]);
    // the line goes last: a line means the whole test is on disk
    this.testFiles.write(files, ktest !== null ? formatExitStatusLine(base, extras.exitStatus ?? null) : null);
    return id;
  }

  /** Writes one more file of test `id` (after the files of the tests written before). */
  writeTestFile(id: number, suffix: string, data: string | Uint8Array): void {
    this.testFiles.write([[this.checkedTestPath(id, suffix), data]], null);
  }

  private checkedTestPath(id: number, suffix: string): string {
    if (!SUFFIX_RE.test(suffix) || suffix.includes('..')) throw new OutputDirError(`bad test file suffix '${suffix}'`);
    return this.testPath(id, suffix);
  }

  /** Appends "KLEE: <text>" to messages.txt (one line per line of text). */
  appendMessage(text: string): void {
    this.appendLines(this.messagesFd, MESSAGE_PREFIX, text);
  }

  /**
   * Appends to warnings.txt with KLEE's prefixes: "KLEE: WARNING: ", "KLEE: WARNING ONCE: " or
   * "KLEE: ERROR: " (KLEE logs its errors in warnings.txt too).
   */
  appendWarning(text: string, kind: 'WARNING' | 'WARNING ONCE' | 'ERROR' = 'WARNING'): void {
    this.appendLines(this.warningsFd, `${MESSAGE_PREFIX}${kind}: `, text);
  }

  private appendLines(fd: number | undefined, prefix: string, text: string): void {
    if (fd === undefined) throw new OutputDirError(`${this.path}: output directory is closed`);
    const body = text.endsWith('\n') ? text.slice(0, -1) : text;
    // One write per call, unbuffered: the line is in the file even if the process dies next.
    const buf = Buffer.from(`${prefix}${body}\n`, 'utf8');
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
  }

  /**
   * Replaces the info file (atomically) with `info` formatted by info.ts, or with the text
   * given. Written at the start (header) and again at the end (header and footer); every test
   * written before is on disk first, so a finished info means a finished directory.
   */
  writeInfo(info: RunInfo | string): void {
    this.testFiles.drain();
    writeFileAtomic(this.file('info'), typeof info === 'string' ? info : formatInfo(info));
  }

  /** Creates run.stats and returns its writer (closed by close()). */
  async openRunStats(opts?: RunStatsOptions): Promise<RunStatsWriter> {
    if (this.stats !== undefined) throw new OutputDirError(`${this.path}: run.stats is already open`);
    this.stats = await RunStatsWriter.open(this.file('run.stats'), opts);
    return this.stats;
  }

  /** The run.stats writer, once opened. */
  get runStats(): RunStatsWriter | undefined {
    return this.stats;
  }

  /** Writes the queued tests, flushes run.stats and closes the files. Idempotent; call it on SIGINT too, or the last run.stats rows are lost. */
  close(): void {
    try {
      this.testFiles.close();
    } finally {
      this.stats?.close();
      for (const fd of [this.messagesFd, this.warningsFd]) if (fd !== undefined) closeSync(fd);
      this.messagesFd = undefined;
      this.warningsFd = undefined;
    }
  }
}

/** Points `link` at `target` (relative) by renaming a fresh symlink over it: no moment without one. */
function replaceSymlink(target: string, link: string): void {
  const tmp = `${link}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(target, tmp);
  try {
    renameSync(tmp, link);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Another writer of tests into an existing output directory (a worker thread of a parallel
 * exploration): tests numbered by the caller (writeTestAs), exit-status lines in a file of its
 * own that the directory's owner merges into exit-status.txt; no messages, warnings or info.
 */
export function attachOutputDir(path: string, exitStatusFile: string): OutputDir {
  return new OutputDir(resolve(path), undefined, { exitStatusFile });
}

/** Creates the output directory (see the module comment) and opens messages.txt and warnings.txt. */
export function createOutputDir(opts: CreateOutputDirOptions = {}): OutputDir {
  if (opts.outputDir !== undefined) {
    const dir = resolve(opts.outputDir);
    try {
      mkdirSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new OutputDirError(`${dir}: output directory already exists (refusing to overwrite it; choose a new --output-dir)`);
      if (code === 'ENOENT') throw new OutputDirError(`${dir}: cannot create output directory: its parent does not exist`);
      throw new OutputDirError(`${dir}: cannot create output directory (${errnoMessage(e)})`);
    }
    const out = new OutputDir(dir, undefined);
    out.appendMessage(`output directory is "${dir}"`);
    return out;
  }

  const base = resolve(opts.base ?? '.');
  let dir: string | undefined;
  let name = '';
  // mkdir is the test: it fails with EEXIST for a taken number, so two runs never share one.
  for (let i = 0; dir === undefined; i++) {
    if (i > 1_000_000) throw new OutputDirError(`${base}: cannot create an output directory: klee-out-0 … klee-out-${i - 1} all exist`);
    name = `klee-out-${i}`;
    const candidate = join(base, name);
    try {
      mkdirSync(candidate);
      dir = candidate;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new OutputDirError(`${candidate}: cannot create output directory (${errnoMessage(e)})`);
    }
  }
  const link = join(base, 'klee-last');
  let linkError: string | undefined;
  try {
    replaceSymlink(name, link);
  } catch (e) {
    linkError = errnoMessage(e);
  }
  const out = new OutputDir(dir, linkError === undefined ? link : undefined);
  out.appendMessage(`output directory is "${dir}"`);
  // As in KLEE, a missing klee-last is worth a warning, not the run.
  if (linkError !== undefined) out.appendWarning(`cannot create klee-last symlink: ${linkError}`);
  return out;
}
