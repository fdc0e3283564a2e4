/**
 * Vectors (element-wise operations, extract/insert/shuffle) and aggregate values
 * (extractvalue/insertvalue). Vector and aggregate registers are JS arrays of element values.
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, FALSE, type Expr } from '../expr/expr.js';
import { Opcode } from '../ir/opcodes.js';
import { TypeKind, type Type, type VectorType } from '../ir/types.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import type { KInst } from './prepare/kinst.js';
import { castValue } from './prepare/constants.js';
import { Msg, Termination } from './errors.js';
import { checkError, fpOperand, selectValue, wideOperand } from './exec-arith.js';
import { wideFloat } from './wide-float.js';
import { fcmp, fpBinary, icmp, intCast, intOpKind, intWidth, isFloatKind, zeroValue } from './scalar.js';
import { intBinary, toExpr, toUNum, type Scalar, type Val } from './values.js';
import { ExprKind } from '../expr/kinds.js';

function elemOf(t: Type): Type {
  return (t as VectorType).element;
}

export function execVecOp(ex: Executor, st: ExecutionState, ki: KInst): void {
  const op = ki.aux as Opcode;
  const regs = st.top.regs;
  const inst = ki.inst;
  const t = inst.type;
  if (op === Opcode.Select) {
    const c = regs[ki.a] as Val[];
    const a = regs[ki.b] as Val[];
    const b = regs[ki.c] as Val[];
    const et = elemOf(t);
    ex.bindLocal(
      st,
      ki,
      c.map((ci, i) => (typeof ci !== 'object' ? (ci !== 0 ? a[i]! : b[i]!) : selectValue(ex, st, et, ci as Expr, a[i]!, b[i]!))),
    );
    return;
  }
  if (op === Opcode.ICmp || op === Opcode.FCmp) {
    const x = regs[ki.a] as Val[];
    const y = regs[ki.b] as Val[];
    const ot = elemOf(inst.ops[0]!.type);
    if (op === Opcode.ICmp) {
      const w = intWidth(ot);
      ex.bindLocal(st, ki, x.map((xi, i) => icmp(ki.imm, w, xi as Scalar, y[i] as Scalar)));
    } else if (wideFloat(ot.kind) !== null) {
      const wf = wideFloat(ot.kind)!;
      ex.bindLocal(st, ki, x.map((xi, i) => wf.fcmp(ki.imm, wideOperand(ex, st, xi, wf), wideOperand(ex, st, y[i]!, wf))));
    } else ex.bindLocal(st, ki, x.map((xi, i) => fcmp(ki.imm, fpOperand(ex, st, xi, ot.kind), fpOperand(ex, st, y[i]!, ot.kind))));
    return;
  }
  if (op === Opcode.FNeg) {
    const et = elemOf(t);
    const wf = wideFloat(et.kind);
    if (wf !== null) ex.bindLocal(st, ki, (regs[ki.a] as Val[]).map((x) => wf.neg(wideOperand(ex, st, x, wf))));
    else ex.bindLocal(st, ki, (regs[ki.a] as Val[]).map((x) => -fpOperand(ex, st, x, et.kind)));
    return;
  }
  if (op >= Opcode.Trunc && op <= Opcode.AddrSpaceCast) {
    const from = inst.ops[0]!.type;
    const x = regs[ki.a] as Val[];
    const fe = elemOf(from);
    const te = elemOf(t);
    const out = x.map((xi) => {
      if (typeof xi === 'object' && !Array.isArray(xi)) {
        if (op === Opcode.Trunc || op === Opcode.ZExt || op === Opcode.SExt) return intCast(op, xi, intWidth(fe), intWidth(te));
        if (op === Opcode.PtrToInt || op === Opcode.IntToPtr) {
          const fw = intWidth(fe);
          const tw = intWidth(te);
          return fw === tw ? xi : intCast(fw > tw ? Opcode.Trunc : Opcode.ZExt, xi, fw, tw);
        }
        const wf = wideFloat(fe.kind);
        if (wf !== null) return castValue(op, fe, te, wideOperand(ex, st, xi, wf), ex.km.dl);
        if (isFloatKind(fe.kind)) return castValue(op, fe, te, fpOperand(ex, st, xi, fe.kind), ex.km.dl);
        return castValue(op, fe, te, ex.concretize(st, xi, intWidth(fe), 'floating point'), ex.km.dl);
      }
      return castValue(op, fe, te, xi, ex.km.dl);
    });
    ex.bindLocal(st, ki, out);
    return;
  }
  // binary
  const x = regs[ki.a] as Val[];
  const y = regs[ki.b] as Val[];
  const et = elemOf(t);
  const wf = wideFloat(et.kind);
  if (wf !== null) {
    ex.bindLocal(st, ki, x.map((xi, i) => wf.binary(op, wideOperand(ex, st, xi, wf), wideOperand(ex, st, y[i]!, wf))));
    return;
  }
  if (isFloatKind(et.kind)) {
    ex.bindLocal(st, ki, x.map((xi, i) => fpBinary(op, et.kind, fpOperand(ex, st, xi, et.kind), fpOperand(ex, st, y[i]!, et.kind))));
    return;
  }
  const w = intWidth(et);
  const kind = intOpKind(op);
  let target: ExecutionState | null = st;
  const isDiv = kind === ExprKind.UDiv || kind === ExprKind.SDiv || kind === ExprKind.URem || kind === ExprKind.SRem;
  const isShift = kind === ExprKind.Shl || kind === ExprKind.LShr || kind === ExprKind.AShr;
  if ((isDiv && ex.opts.checkDivZero) || (isShift && ex.opts.checkOvershift && !ki.poisonShift)) {
    let bad: Expr = FALSE;
    for (const yi of y) {
      const e = toExpr(yi as Scalar, w);
      bad = builder.or(bad, isDiv ? builder.eq(e, constantFromBV(0, w)) : builder.uge(e, toExpr(w, w)));
    }
    if (bad.kind === ExprKind.Constant) {
      if (bad.bv === 1) {
        const [msg, suffix] = isDiv ? [Msg.divByZero, 'div.err'] : [Msg.overshift, 'overshift.err'];
        ex.terminateOnError(st, msg, Termination.ReportError, undefined, suffix);
        return;
      }
    } else target = isDiv ? checkError(ex, st, bad, Msg.divByZero, 'div.err') : checkError(ex, st, bad, Msg.overshift, 'overshift.err');
  }
  if (target === null) return;
  ex.bindLocal(target, ki, x.map((xi, i) => intBinary(kind, w, xi as Scalar, y[i] as Scalar)));
}

/** A constant vector index, or null when it is out of range (the state ended). */
function vectorIndex(ex: Executor, st: ExecutionState, v: number | bigint, w: number, len: number, what: string): number | null {
  const i = toUNum(v, w);
  if (i >= len) {
    ex.terminateOnError(st, `Out of bounds ${what}`, Termination.BadVectorAccess);
    return null;
  }
  return i;
}

/**
 * The state where a symbolic vector index is in range, or null. The out-of-range side ends
 * with KLEE's out-of-bounds error (`what`: "read when extracting element", …).
 */
function indexInRange(ex: Executor, st: ExecutionState, idx: Expr, w: number, len: number, what: string): ExecutionState | null {
  const inRange = builder.ult(idx, toExpr(len, w));
  if (ex.mustBeTrue(st, inRange)) return st;
  const [ok, bad] = ex.fork(st, inRange);
  if (bad !== null) ex.terminateOnError(bad, `Out of bounds ${what}`, Termination.BadVectorAccess);
  return ok;
}

/**
 * Floating-point lanes stay concrete (tsklee, like KLEE, concretizes symbolic floats): one
 * state per feasible lane, each with the index fixed, bound by `bind`.
 */
function forkPerLane(ex: Executor, st: ExecutionState, idx: Expr, w: number, len: number, bind: (s: ExecutionState, lane: number) => void): void {
  let rest: ExecutionState | null = st;
  for (let i = 0; i < len && rest !== null; i++) {
    const [hit, other]: [ExecutionState | null, ExecutionState | null] = ex.fork(rest, builder.eq(idx, toExpr(i, w)));
    if (hit !== null) bind(hit, i);
    rest = other;
  }
}

function isIntLike(t: Type): boolean {
  return t.kind === TypeKind.Integer || t.kind === TypeKind.Pointer;
}

export function execExtractElement(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const vec = regs[ki.a] as Val[];
  const idx = regs[ki.b] as Scalar;
  const et = elemOf(ki.inst.ops[0]!.type);
  if (typeof idx === 'object') {
    const ok = indexInRange(ex, st, idx, ki.w2, vec.length, 'read when extracting element');
    if (ok === null) return;
    if (!isIntLike(et)) {
      forkPerLane(ex, ok, idx, ki.w2, vec.length, (s, i) => ex.bindLocal(s, ki, vec[i]!));
      return;
    }
    // an integer lane at a symbolic index is a select among the lanes, without forking
    let r: Val = vec[vec.length - 1]!;
    for (let i = vec.length - 2; i >= 0; i--) r = selectValue(ex, ok, et, builder.eq(idx, toExpr(i, ki.w2)), vec[i]!, r);
    ex.bindLocal(ok, ki, r);
    return;
  }
  const i = vectorIndex(ex, st, idx, ki.w2, vec.length, 'read when extracting element');
  if (i !== null) ex.bindLocal(st, ki, vec[i]!);
}

export function execInsertElement(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const vec = regs[ki.a] as Val[];
  const idx = regs[ki.c] as Scalar;
  const v = regs[ki.b]!;
  if (typeof idx === 'object') {
    // every lane becomes "index == lane ? value : old lane" (concretizing the index would
    // drop the other lanes' paths and the out-of-bounds one)
    const ok = indexInRange(ex, st, idx, ki.w2, vec.length, 'write when inserting element');
    if (ok === null) return;
    const et = elemOf(ki.inst.type);
    if (!isIntLike(et)) {
      forkPerLane(ex, ok, idx, ki.w2, vec.length, (s, i) => ex.bindLocal(s, ki, vec.map((old, j) => (j === i ? v : old))));
      return;
    }
    ex.bindLocal(ok, ki, vec.map((old, i) => selectValue(ex, ok, et, builder.eq(idx, toExpr(i, ki.w2)), v, old)));
    return;
  }
  const i = vectorIndex(ex, st, idx, ki.w2, vec.length, 'write when inserting element');
  if (i === null) return;
  const out = vec.slice();
  out[i] = v;
  ex.bindLocal(st, ki, out);
}

export function execShuffleVector(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const a = regs[ki.a] as Val[];
  const b = regs[ki.b] as Val[];
  const mask = ki.aux as number[];
  const et = elemOf(ki.inst.type);
  ex.bindLocal(
    st,
    ki,
    mask.map((m) => (m < 0 ? zeroValue(et) : m < ki.w ? a[m]! : b[m - ki.w]!)),
  );
}

export function execExtractValue(ex: Executor, st: ExecutionState, ki: KInst): void {
  let v = st.top.regs[ki.a]!;
  for (const i of ki.aux as number[]) v = (v as Val[])[i]!;
  ex.bindLocal(st, ki, v);
}

export function execInsertValue(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const idx = ki.aux as number[];
  const insert = (agg: Val[], depth: number): Val[] => {
    const out = agg.slice();
    const i = idx[depth]!;
    out[i] = depth === idx.length - 1 ? regs[ki.b]! : insert(agg[i] as Val[], depth + 1);
    return out;
  };
  ex.bindLocal(st, ki, insert(regs[ki.a] as Val[], 0));
}
