/**
 * The `info` file of an output directory, laid out as KLEE's main writes it:
 *
 *   tsklee run prog.bc --max-time=10s          the command line, words joined by spaces
 *   PID: 4242
 *   Using monotonic steady clock with 1/1000000000s resolution
 *   Started: 2026-01-02 03:04:05              local time
 *   BEGIN searcher description                (optional: what the engine chose)
 *   DFSSearcher
 *   END searcher description
 *   Finished: 2026-01-02 03:04:15
 *   Elapsed: 00:00:10
 *   Halted: HaltTimer invoked                 (tsklee's addition: why the run stopped early)
 *   KLEE: done: explored paths = 5
 *   KLEE: done: avg. constructs per query = 17 (only when there were queries)
 *   KLEE: done: total queries = 12
 *   KLEE: done: valid queries = 4
 *   KLEE: done: invalid queries = 8
 *   KLEE: done: query cex = 8
 *
 *   KLEE: done: total instructions = 1234
 *   KLEE: done: completed paths = 4
 *   KLEE: done: partially completed paths = 1
 *   KLEE: done: generated tests = 5
 *
 * The "KLEE: done:" wording is kept so that scripts written for KLEE's output keep working.
 * The last four lines (after the blank line) are also what KLEE prints on stderr at the end:
 * formatDoneSummary.
 */

/** What KLEE writes to messages.txt when --max-time expires. */
export const HALT_TIMER_MESSAGE = 'HaltTimer invoked';
/** What KLEE writes to messages.txt when it stops with states left and turns them into tests. */
export const DUMP_STATES_MESSAGE = 'halting execution, dumping remaining states';

/** Node's monotonic clock (process.hrtime) counts nanoseconds; KLEE reports std::chrono's period here. */
export const CLOCK_INFO = 'Using monotonic steady clock with 1/1000000000s resolution';

export interface RunDoneStats {
  /** Forks during the run; KLEE reports explored paths as 1 + forks. */
  forks: number;
  queries: number;
  queriesValid: number;
  queriesInvalid: number;
  queryCex: number;
  queryConstructs: number;
  instructions: number;
  completedPaths: number;
  partiallyCompletedPaths: number;
  generatedTests: number;
}

export interface RunInfo {
  /** The command line, e.g. ['tsklee', 'run', 'prog.bc']. */
  argv: readonly string[];
  pid: number;
  start: Date;
  /** Name of the searcher (KLEE prints the searcher's description between BEGIN/END lines). */
  searcher?: string;
  end?: Date;
  /** Why the run stopped before exploring everything (e.g. HALT_TIMER_MESSAGE); omitted when it finished. */
  haltReason?: string;
  done?: RunDoneStats;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** strftime's "%Y-%m-%d %H:%M:%S" in local time, as KLEE prints Started/Finished. */
export function formatLocalTime(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** HH:MM:SS from whole seconds (hours are not wrapped at 24, as in KLEE). */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
}

/** The header written when the run starts: command line, PID, clock, start time (and searcher). */
export function formatInfoHeader(info: Pick<RunInfo, 'argv' | 'pid' | 'start' | 'searcher'>): string {
  let s = `${info.argv.join(' ')}\n`;
  s += `PID: ${info.pid}\n`;
  s += `${CLOCK_INFO}\n`;
  s += `Started: ${formatLocalTime(info.start)}\n`;
  if (info.searcher !== undefined) s += `BEGIN searcher description\n${info.searcher}\nEND searcher description\n`;
  return s;
}

/** The four lines KLEE prints on stderr when done (and at the end of info). */
export function formatDoneSummary(d: RunDoneStats): string {
  return (
    `KLEE: done: total instructions = ${d.instructions}\n` +
    `KLEE: done: completed paths = ${d.completedPaths}\n` +
    `KLEE: done: partially completed paths = ${d.partiallyCompletedPaths}\n` +
    `KLEE: done: generated tests = ${d.generatedTests}\n`
  );
}

/** The lines written at the end of the run: finish time, elapsed time, halt reason, statistics. */
export function formatInfoFooter(info: Pick<RunInfo, 'start' | 'end' | 'haltReason' | 'done'>): string {
  let s = '';
  if (info.end !== undefined) {
    // KLEE subtracts time_t values: whole seconds on the calendar clock.
    const secs = Math.floor(info.end.getTime() / 1000) - Math.floor(info.start.getTime() / 1000);
    s += `Finished: ${formatLocalTime(info.end)}\n`;
    s += `Elapsed: ${formatElapsed(secs)}\n`;
  }
  if (info.haltReason !== undefined && info.haltReason !== '') s += `Halted: ${info.haltReason}\n`;
  const d = info.done;
  if (d !== undefined) {
    s += `KLEE: done: explored paths = ${1 + d.forks}\n`;
    if (d.queries > 0) s += `KLEE: done: avg. constructs per query = ${Math.floor(d.queryConstructs / d.queries)}\n`;
    s += `KLEE: done: total queries = ${d.queries}\n`;
    s += `KLEE: done: valid queries = ${d.queriesValid}\n`;
    s += `KLEE: done: invalid queries = ${d.queriesInvalid}\n`;
    s += `KLEE: done: query cex = ${d.queryCex}\n`;
    s += `\n${formatDoneSummary(d)}`;
  }
  return s;
}

/** The whole info file for `info` (header, then footer for what is known). */
export function formatInfo(info: RunInfo): string {
  return formatInfoHeader(info) + formatInfoFooter(info);
}
