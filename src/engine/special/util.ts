/** Helpers shared by the special functions and intrinsics. */
import { builder } from '../../expr/builder.js';
import { constantFromBV, type Expr } from '../../expr/expr.js';
import { ExprKind } from '../../expr/kinds.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { KInst } from '../prepare/kinst.js';
import { Termination } from '../errors.js';
import { fromExpr, toExpr, toUNum, type Scalar, type Val } from '../values.js';
import { intWidth } from '../scalar.js';
import type { ObjectState } from '../../memory/index.js';

/** Bit width of call argument i (pointers are 64). */
export function argWidth(ki: KInst, i: number): number {
  return intWidth(ki.inst.ops[i]!.type);
}

/** Bit width of the call's result. */
export function resultWidth(ki: KInst): number {
  return intWidth(ki.inst.type);
}

/**
 * A NUL-terminated string at p (KLEE's readStringAtAddress). Null when the state ended
 * with an error (symbolic or invalid pointer).
 */
export function readString(ex: Executor, st: ExecutionState, p: Val): string | null {
  let ptr = p as Scalar;
  if (typeof ptr === 'object') {
    const u = ex.toUnique(st, ptr);
    if (u.kind !== ExprKind.Constant) {
      ex.terminateOnError(st, 'Symbolic string pointer passed to one of the klee_ functions', Termination.User);
      return null;
    }
    ptr = fromExpr(u) as number | bigint;
  }
  const addr = toUNum(ptr, 64);
  const node = st.memory.objectAt(addr);
  if (node === null) {
    ex.terminateOnError(st, 'Invalid string pointer passed to one of the klee_ functions', Termination.User);
    return null;
  }
  const os = node.os!;
  const bytes: number[] = [];
  let terminated = false;
  for (let i = addr - node.mo.address; i < os.size; i++) {
    let b = os.read8(i);
    if (typeof b !== 'number') b = Number(ex.toConstant(st, b, 'string').value);
    if (b === 0) {
      terminated = true;
      break;
    }
    bytes.push(b);
  }
  if (!terminated) ex.warningOnce('string-unterminated', 'String not terminated by \\0 passed to one of the klee_ functions');
  return Buffer.from(bytes).toString('latin1');
}

/** A concrete unsigned value for v (concretizing a symbolic one, with a warning). */
export function concreteU(ex: Executor, st: ExecutionState, v: Val, w: number, reason: string): number {
  return toUNum(ex.concretize(st, v as Scalar, w, reason), w);
}

/** A width-1 condition "v != 0" for an argument of width w. */
export function nonZero(v: Val, w: number): Expr {
  if (w === 1) return toExpr(v as Scalar, 1);
  return builder.ne(toExpr(v as Scalar, w), constantFromBV(0, w));
}

/** Read byte i of an object at a numeric or symbolic offset. */
export function readByte(os: ObjectState, off: number | Expr, i: number): number | Expr {
  if (typeof off === 'number') return os.read8(off + i);
  os.recordSymbolicAccess(1);
  return os.read8Sym(builder.add(builder.extract(off, 0, 32), constantFromBV(i, 32)));
}

export function writeByte(os: ObjectState, off: number | Expr, i: number, v: number | Expr): void {
  if (typeof off === 'number') {
    os.write8(off + i, v);
    return;
  }
  os.recordSymbolicAccess(1);
  os.write8Sym(builder.add(builder.extract(off, 0, 32), constantFromBV(i, 32)), typeof v === 'number' ? constantFromBV(v, 8) : v);
}
