/**
 * Does a native run reach what tsklee recorded for the test? Exited paths: the same exit
 * status (or death by signal n for a recorded 128 + n) and the same stdout, byte for byte. Abort and assertion failures: the program dies
 * of SIGABRT. Other error paths (out-of-bounds, …) and paths stopped early have no defined
 * native behaviour: not compared, only described.
 */
import { constants } from 'node:os';
import { REPLAY_ERROR_EXIT_CODE } from '../output/ktest.js';
import type { NativeResult } from './native.js';
import type { RecordedOutcome } from './recorded.js';

export type Verdict = 'match' | 'differ' | 'not compared';

export interface Comparison {
  verdict: Verdict;
  /** One line: what the native run did and, for a difference, how it differs. */
  text: string;
}

const ABORT_KINDS = new Set(['abort', 'assert']);

export function describeNative(r: NativeResult, timeoutMs: number): string {
  if (r.timedOut) return `timeout after ${timeoutMs / 1000} s`;
  if (r.signal !== null) return `signal ${r.signal}`;
  return `exit ${r.status}`;
}

function signalNumber(name: NodeJS.Signals): number | undefined {
  return (constants.signals as Record<string, number>)[name];
}

/** Where two outputs first differ, for the message. */
function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** `compareStdout` false: only the exit status counts (the run had --sym-stdout). */
export function compareRun(rec: RecordedOutcome, r: NativeResult, timeoutMs: number, compareStdout = true): Comparison {
  const native = describeNative(r, timeoutMs);
  if (r.timedOut) return { verdict: 'differ', text: native };
  if (r.status === REPLAY_ERROR_EXIT_CODE) {
    const why = r.stderr.toString('utf8').split('\n').find((l) => l.trim() !== '') ?? '';
    // a path stopped early (--max-time) or ended by an error before it reached all its
    // klee_make_symbolic / klee_range calls recorded only the objects made so far: running
    // out of them natively is what its test says, not a difference (a wrong name or size is)
    if ((rec.early || rec.errKind !== undefined) && /out of inputs/.test(why)) {
      return { verdict: 'not compared', text: `exit ${REPLAY_ERROR_EXIT_CODE}: the recorded path ${rec.early ? 'was stopped early' : `ended with a ${rec.errKind} error`} before all its inputs were made (${why.trim()})` };
    }
    return { verdict: 'differ', text: `exit ${REPLAY_ERROR_EXIT_CODE}: the test does not fit the program's klee_make_symbolic calls${why !== '' ? ` (${why.trim()})` : ''}` };
  }
  if (rec.exit !== undefined) {
    if (r.signal !== null && signalNumber(r.signal) === rec.exit - 128) {
      // tsklee's libc ends a program that raises a terminating signal with _exit(128 + n), the
      // status a shell reports for death by signal n (the model has no process to kill)
      return { verdict: 'match', text: `${native}: as recorded (exit ${rec.exit} = 128 + ${r.signal})` };
    }
    if (r.status !== rec.exit) return { verdict: 'differ', text: `${native}, recorded exit ${rec.exit}` };
    if (!compareStdout) return { verdict: 'match', text: `${native}: as recorded (stdout not compared: --sym-stdout)` };
    if (!r.stdout.equals(rec.stdout)) {
      const at = firstDifference(r.stdout, rec.stdout);
      return { verdict: 'differ', text: `${native}, stdout differs from the recorded one at byte ${at} (native ${r.stdout.length} bytes, recorded ${rec.stdout.length})` };
    }
    return { verdict: 'match', text: `${native}, stdout ${r.stdout.length} bytes: as recorded` };
  }
  if (rec.errKind !== undefined && ABORT_KINDS.has(rec.errKind)) {
    if (r.signal === 'SIGABRT') return { verdict: 'match', text: `${native}: as recorded (${rec.errKind})` };
    return { verdict: 'differ', text: `${native}, recorded ${rec.errKind} (expected SIGABRT)` };
  }
  if (rec.errKind !== undefined) return { verdict: 'not compared', text: `${native}; recorded a ${rec.errKind} error (no defined native outcome)` };
  if (rec.early) return { verdict: 'not compared', text: `${native}; the recorded path was stopped early` };
  return { verdict: 'not compared', text: `${native}; nothing recorded to compare with` };
}
