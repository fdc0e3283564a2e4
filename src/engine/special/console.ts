/**
 * The program's console: `__tsklee_write_console(fd, buf, count)` (called by the POSIX
 * model's write() on fds 1 and 2) appends to the state's stdout/stderr record, and each test
 * gets that record beside its .ktest (testNNNNNN.stdout / .stderr, written only when not empty),
 * plus the exit status of a path that exited (its line in exit-status.txt: `status & 255`, as a
 * shell sees it; src/output/exit-status.ts).
 * Format: runtime/posix/README.md ("Contract with the engine"); `tsklee replay --native` compares them.
 *
 * Symbolic bytes are kept as expressions and evaluated under the test's own model when the
 * test is written, so the recorded output is exactly what the program prints when run natively
 * on that test's inputs. Nothing forks here. The record is a persistent list of chunks: a
 * fork shares it, a write adds one chunk.
 */
import type { Expr } from '../../expr/expr.js';
import type { ExprArray } from '../../expr/array.js';
import { Evaluator, type Assignment } from '../../expr/evaluate.js';
import type { KTest } from '../../output/ktest.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import type { ExecutionState } from '../state.js';
import { resolveAccess } from '../exec-memory.js';
import { fromExpr, type Scalar, type Val } from '../values.js';
import { argWidth, concreteU, readByte } from './util.js';

/**
 * One write to the console (newest first: `prev` is the write before). A merged state's record
 * is a `choice` between the records of the paths it stands for (merging/core.ts): the test
 * shows the one its model selects, so merging never waits for paths to print alike.
 */
export interface ConsoleChunk {
  readonly fd: 1 | 2;
  readonly bytes: readonly (number | Expr)[];
  readonly prev: ConsoleChunk | null;
  readonly choice?: { readonly cond: Expr; readonly then: ConsoleChunk | null; readonly else: ConsoleChunk | null };
}

/** __tsklee_write_console(int fd, const void *buf, size_t count). */
export const handleWriteConsole: SpecialHandler = (ex, st, ki, args) => {
  const fd = concreteU(ex, st, args[0]!, argWidth(ki, 0), 'console fd');
  const count = concreteU(ex, st, args[2]!, argWidth(ki, 2), 'console write size');
  if (count === 0 || (fd !== 1 && fd !== 2)) return;
  for (const a of resolveAccess(ex, st, args[1] as Scalar, count)) {
    const os = a.st.memory.stateOf(a.mo)!;
    const bytes: (number | Expr)[] = new Array<number | Expr>(count);
    for (let i = 0; i < count; i++) bytes[i] = readByte(os, a.offset, i);
    a.st.console = { fd, bytes, prev: a.st.console };
    const echo = ex.events.onProgramOutput;
    // a symbolic byte is shown as a value the path allows, not fixed to it (KLEE's native
    // write sees some such value too)
    if (echo !== undefined) echo(fd, Uint8Array.from(bytes, (b) => (typeof b === 'number' ? b : Number(ex.getValue(a.st, b).value) & 0xff)));
  }
};

/** The assignment of a test's objects to the state's symbolic arrays. */
function assignmentOf(st: ExecutionState, ktest: KTest | null, aux: Assignment | null): Assignment | null {
  if (ktest === null) return null;
  const m = new Map<ExprArray, Uint8Array>(aux ?? []);
  st.symbolics.forEach((s, i) => {
    const o = ktest.objects[i];
    if (o !== undefined) m.set(s.array, o.bytes);
  });
  return m;
}

/**
 * The test's model over the solver's view of an expression: recorded bytes may read objects
 * the relocatable model has moved (their address symbols are no test input).
 */
class ModelView {
  private readonly ev: Evaluator;
  constructor(
    private readonly st: ExecutionState,
    a: Assignment,
  ) {
    this.ev = new Evaluator(a);
  }
  valueOf(e: Expr): ReturnType<Evaluator['valueOf']> {
    return this.ev.valueOf(this.st.memory.solverView(e));
  }
  isTrue(e: Expr): boolean {
    return this.ev.isTrue(this.st.memory.solverView(e));
  }
}

/** The byte value of a recorded byte under the model ('?' when there is none). */
function concreteByte(b: number | Expr, ev: ModelView | null): number {
  if (typeof b === 'number') return b;
  if (ev === null) return 0x3f;
  return Number(ev.valueOf(b)) & 0xff;
}

/** The exit status a shell would see for an exit value. */
function exitStatus(v: Val, ev: ModelView | null): number | null {
  if (typeof v === 'number') return v & 0xff;
  if (typeof v === 'bigint') return Number(v & 0xffn);
  if (Array.isArray(v)) return null;
  if (ev === null) return null;
  return Number(BigInt(ev.valueOf(v)) & 0xffn);
}

/**
 * What a test records of its path's console: `files.stdout` / `files.stderr` when the path
 * wrote to them, and `exitStatus` when `exited` (the path ended by returning from main or
 * calling exit) with a value.
 */
/**
 * `aux`: the test's values of the state's auxiliary arrays (quantified merges' counts),
 * which its outputs may depend on though they are no test inputs.
 */
export function consoleRecord(st: ExecutionState, ktest: KTest | null, exited: boolean, aux: Assignment | null = null): { files: Record<string, Uint8Array>; exitStatus?: number } {
  const files: Record<string, Uint8Array> = {};
  let v = exited ? st.exitValue : undefined;
  // a value the path condition fixes is that constant (it may read arrays that are no test
  // input, as --make-concrete-symbolic's)
  if (v !== undefined && typeof v === 'object' && !Array.isArray(v)) v = fromExpr(st.constraints.simplify(v));
  // most paths print nothing and exit with a constant: no model to evaluate under then
  const needsModel = st.console !== null || (v !== undefined && typeof v === 'object' && !Array.isArray(v));
  const a = needsModel ? assignmentOf(st, ktest, aux) : null;
  const ev = a !== null ? new ModelView(st, a) : null;
  if (st.console !== null) {
    const chunks: ConsoleChunk[] = [];
    for (let c: ConsoleChunk | null = st.console; c !== null; ) {
      if (c.choice !== undefined) {
        c = ev === null || ev.isTrue(c.choice.cond) ? c.choice.then : c.choice.else;
        continue;
      }
      chunks.push(c);
      c = c.prev;
    }
    chunks.reverse();
    for (const fd of [1, 2] as const) {
      const out: number[] = [];
      for (const c of chunks) if (c.fd === fd) for (const b of c.bytes) out.push(concreteByte(b, ev));
      if (out.length > 0) files[fd === 1 ? 'stdout' : 'stderr'] = Uint8Array.from(out);
    }
  }
  const s = v !== undefined ? exitStatus(v, ev) : null;
  return s !== null ? { files, exitStatus: s } : { files };
}
