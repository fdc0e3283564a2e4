/**
 * setjmp/longjmp (glibc's `_setjmp`, `setjmp`, `__sigsetjmp`; `longjmp`, `_longjmp`,
 * `siglongjmp`, `__longjmp_chk`). KLEE has none of them (its states end with an external-call
 * error); coreutils' ls sorts under a setjmp, test exits through longjmp.
 *
 * setjmp records, in the jmp_buf itself (so a fork copies it with the rest of memory), where
 * it was called: a tag, the depth of the calling frame, the pc of the call and a hash of the
 * caller's name; it returns 0. longjmp reads that back, checks the frame is still on the
 * stack (jumping into a function that returned is undefined behaviour: an error here), pops
 * every frame above it (freeing their allocas, as returns do) and resumes after the setjmp
 * call with its result set to the value given (1 for 0). Registers keep their current
 * values; the signal mask is not saved (signals are never delivered asynchronously).
 */
import { builder } from '../../expr/builder.js';
import { constantFromBV } from '../../expr/expr.js';
import { IntegerType } from '../../ir/types.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import { Termination } from '../errors.js';
import { readAt, resolveAccess, writeAt } from '../exec-memory.js';
import { fromExpr, toUNum, type Scalar } from '../values.js';
import { argWidth } from './util.js';

const U64 = IntegerType.get(64);
/** "tsklee-j" little-endian: marks a jmp_buf that setjmp filled. */
const TAG = 0x6a2d65656c6b7374n;
/** Tag, depth, pc, caller hash: 32 of the jmp_buf's 200 bytes. */
const WORDS = 4;

/** A 32-bit FNV-1a hash of a function name (identifies the frame setjmp was called in). */
function nameHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export const handleSetjmp: SpecialHandler = (ex, st, ki, args) => {
  const depth = st.stack.length;
  const words = [TAG, BigInt(depth), BigInt(st.prevPc), BigInt(nameHash(st.top.kf.fn.name))];
  for (const a of resolveAccess(ex, st, args[0] as Scalar, 8 * WORDS)) {
    let ok = true;
    for (let i = 0; i < WORDS && ok; i++) {
      const off = typeof a.offset === 'number' ? a.offset + 8 * i : builder.add(a.offset, constantFromBV(BigInt(8 * i), 64));
      ok = writeAt(ex, { ...a, offset: off }, U64, words[i]!);
    }
    if (ok) ex.bindLocal(a.st, ki, 0);
  }
};

function jumpError(ex: Executor, st: ExecutionState, why: string): void {
  ex.terminateOnError(st, `longjmp: ${why}`, Termination.Execution);
}

export const handleLongjmp: SpecialHandler = (ex, st, ki, args) => {
  const w = argWidth(ki, 1);
  const v = args[1] as Scalar;
  const value = typeof v === 'object' ? fromExpr(builder.select(builder.eq(v, constantFromBV(0n, w)), constantFromBV(1n, w), v)) : toUNum(v, w) === 0 ? 1 : v;
  for (const a of resolveAccess(ex, st, args[0] as Scalar, 8 * WORDS)) {
    const words: bigint[] = [];
    for (let i = 0; i < WORDS; i++) {
      const off = typeof a.offset === 'number' ? a.offset + 8 * i : builder.add(a.offset, constantFromBV(BigInt(8 * i), 64));
      const x = readAt(ex, { ...a, offset: off }, U64) as Scalar;
      if (typeof x === 'object') break;
      words.push(BigInt(x));
    }
    jumpTo(ex, a.st, words, value);
  }
};

function jumpTo(ex: Executor, st: ExecutionState, words: bigint[], value: Scalar): void {
  if (words.length < WORDS || words[0] !== TAG) {
    jumpError(ex, st, 'the jmp_buf was not filled by setjmp');
    return;
  }
  const depth = Number(words[1]);
  const pc = Number(words[2]);
  const frame = st.stack[depth - 1];
  if (depth > st.stack.length || frame === undefined || nameHash(frame.kf.fn.name) !== Number(words[3]) || frame.kf.insts[pc] === undefined) {
    jumpError(ex, st, 'the function that called setjmp has returned');
    return;
  }
  while (st.stack.length > depth) ex.releaseFrame(st, st.stack.pop()!);
  const caller = st.thawTop();
  const call = caller.kf.insts[pc]!;
  st.pc = pc + 1;
  st.prevPc = pc;
  if (call.dest >= 0) caller.regs[call.dest] = value;
}
