/**
 * --debug-print-instructions (KLEE's printDebugInstructions): the state runs one instruction
 * at a time, each announced through ExploreEvents.onInstruction before it runs — `all`:
 * source location, assembly.ll line and the instruction; `src`: location and line;
 * `compact`: the line. Only used when the option is set: the hot loop stays as it is.
 */
import { printInstruction } from '../ir/printer/index.js';
import { siteText } from './exec-memory.js';
import type { Executor } from './executor.js';
import { interpret } from './interpreter.js';
import type { KInst } from './prepare/kinst.js';
import { StateStatus, type ExecutionState } from './state.js';

export type TraceFormat = 'all' | 'src' | 'compact';

/** Runs st for up to `budget` instructions, one at a time (stops where interpret would). */
export function interpretTraced(ex: Executor, st: ExecutionState, budget: number, format: TraceFormat): number {
  let n = 0;
  while (n < budget && st.status === StateStatus.Running && st.stack.length > 0) {
    const ki = st.top.kf.insts[st.pc];
    if (ki !== undefined && st.pendingError === null) ex.events.onInstruction?.(traceLine(ki, ex.writer.assemblyLineOf(ki), format));
    const k = interpret(ex, st, 1);
    n += k;
    if (k === 0 || ex.added.length !== 0 || st.status !== StateStatus.Running) break;
  }
  return n;
}

export function traceLine(ki: KInst, asmLine: number, format: TraceFormat): string {
  if (format === 'compact') return String(asmLine);
  // KLEE's getSourceLocation(): "[no debug info]" for instructions without a location
  const where = `     ${ki.file !== '' ? `${ki.file}:${ki.line}` : '[no debug info]'}:${asmLine}`;
  if (format === 'src') return where;
  let text: string;
  try {
    text = siteText(printInstruction(ki.inst));
  } catch {
    text = `<instruction ${ki.index}>`;
  }
  return `${where}:  ${text}`;
}
