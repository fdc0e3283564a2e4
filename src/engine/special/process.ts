/**
 * Functions that end a path: abort, exit, assertion failures, klee_abort, klee_silent_exit,
 * klee_report_error (KLEE's SpecialFunctionHandler, same messages and error kinds).
 */
import type { SpecialHandler } from '../prepare/kinst.js';
import { Msg, Termination } from '../errors.js';
import { readString } from './util.js';

export const handleAbort: SpecialHandler = (ex, st) => {
  ex.terminateOnError(st, Msg.abort, Termination.Abort);
};

export const handleExit: SpecialHandler = (ex, st, _ki, args) => {
  st.exitValue = args[0];
  ex.terminateOnExit(st);
};

/** __assert_fail(expr, file, line, function) and its relatives: the first argument is the message. */
export const handleAssertFail: SpecialHandler = (ex, st, _ki, args) => {
  const s = readString(ex, st, args[0]!);
  if (s === null) return;
  ex.terminateOnError(st, Msg.assertFail(s), Termination.Assert);
};

export const handleSilentExit: SpecialHandler = (ex, st) => {
  ex.terminateSilently(st);
};

/** klee_report_error(file, line, message, suffix): the suffix names the file (e.g. "div.err"). */
export const handleReportError: SpecialHandler = (ex, st, _ki, args) => {
  const message = readString(ex, st, args[2]!);
  if (message === null) return;
  const suffix = readString(ex, st, args[3]!);
  if (suffix === null) return;
  ex.terminateOnError(st, message, Termination.ReportError, undefined, suffix);
};
