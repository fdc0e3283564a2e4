/**
 * The end of a halted run (KLEE's dumpStates): every live state ends, with a test while the
 * budget after the halt lasts (--dump-states-on-halt), silently after it. The loop yields
 * every 50 ms so a second interrupt is seen.
 */
import type { Executor } from './executor.js';
import { Msg, Termination } from './errors.js';
import { StateStatus } from './state.js';

export async function endLiveStates(ex: Executor, dump: boolean, budgetMs: number): Promise<void> {
  if (dump) ex.message('halting execution, dumping remaining states');
  const leaves = dump ? (ex.quantified?.endPausedAtHalt() ?? 0) : 0;
  if (leaves > 0) ex.message(`${leaves} states paused at the exits of unreleased quantified merge regions ended without a test (one test per exit)`);
  const deadline = Date.now() + budgetMs;
  let lastYield = Date.now();
  let notDumped = 0;
  for (const st of [...ex.liveStateSet].sort((a, b) => a.id - b.id)) {
    if (st.status !== StateStatus.Running) continue;
    const now = Date.now();
    if (dump && now < deadline) ex.terminateEarly(st, Msg.halting, Termination.Interrupted);
    else {
      if (dump) notDumped++;
      ex.terminateSilently(st, Termination.Interrupted);
    }
    if (now - lastYield >= 50) {
      lastYield = now;
      await new Promise<void>((r) => setImmediate(r));
    }
  }
  if (notDumped > 0) ex.message(`${notDumped} remaining states ended without a test (dumping stops ${budgetMs / 1000} s after an interrupt)`);
  ex.updateStates(null);
}
