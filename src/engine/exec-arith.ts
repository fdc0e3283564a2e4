/**
 * Integer and floating-point arithmetic, comparisons, casts and select: the general paths
 * (symbolic operands, wide integers, checked divisions and shifts).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind, type BinaryKind } from '../expr/kinds.js';
import { Opcode } from '../ir/opcodes.js';
import { TypeKind, type Type } from '../ir/types.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import { Op, type KInst } from './prepare/kinst.js';
import { bitcastValue } from './prepare/constants.js';
import { Msg, Termination } from './errors.js';
import {
  bitsToFp,
  fcmp,
  fpBinary,
  fpToBits,
  fpToInt,
  icmp,
  intCast,
  intToFp,
  intWidth,
  roundTo,
} from './scalar.js';
import { fromExpr, intBinary, toExpr, type Scalar, type Val } from './values.js';
import { FP128, wideFloat, X86_FP80, type WideFloat } from './wide-float.js';

const SMALL_KIND: Partial<Record<Op, BinaryKind>> = {
  [Op.Add32]: ExprKind.Add,
  [Op.Sub32]: ExprKind.Sub,
  [Op.Mul32]: ExprKind.Mul,
  [Op.And32]: ExprKind.And,
  [Op.Or32]: ExprKind.Or,
  [Op.Xor32]: ExprKind.Xor,
  [Op.Shl32]: ExprKind.Shl,
  [Op.LShr32]: ExprKind.LShr,
  [Op.AShr32]: ExprKind.AShr,
  [Op.UDiv32]: ExprKind.UDiv,
  [Op.SDiv32]: ExprKind.SDiv,
  [Op.URem32]: ExprKind.URem,
  [Op.SRem32]: ExprKind.SRem,
  [Op.Add64]: ExprKind.Add,
  [Op.Sub64]: ExprKind.Sub,
};

function isDivKind(k: BinaryKind): boolean {
  return k === ExprKind.UDiv || k === ExprKind.SDiv || k === ExprKind.URem || k === ExprKind.SRem;
}

function isShiftKind(k: BinaryKind): boolean {
  return k === ExprKind.Shl || k === ExprKind.LShr || k === ExprKind.AShr;
}

/**
 * Check a condition that means an error (a zero divisor, an overshift), as KLEE's runtime
 * checks do: when it must hold, the state fails now; when it may hold, the state forks and
 * the failing side reports when it next runs. Returns the state that continues (or null).
 */
export function checkError(
  ex: Executor,
  st: ExecutionState,
  bad: Expr,
  message: string,
  suffix: string,
): ExecutionState | null {
  const [badState, okState] = ex.fork(st, bad);
  if (badState !== null) {
    if (okState === null) ex.terminateOnError(badState, message, Termination.ReportError, undefined, suffix);
    else {
      badState.pendingError = { message, kind: Termination.ReportError, suffix };
      badState.yieldStep = true;
    }
  }
  return okState;
}

export function execIntBinary(ex: Executor, st: ExecutionState, ki: KInst): void {
  const kind = (ki.op === Op.IntBinWide ? ki.aux : SMALL_KIND[ki.op]) as BinaryKind;
  const regs = st.top.regs;
  const x = regs[ki.a] as Scalar;
  const y = regs[ki.b] as Scalar;
  const w = ki.w;
  let target: ExecutionState | null = st;
  if (isDivKind(kind) && ex.opts.checkDivZero) {
    if (typeof y !== 'object') {
      if (y === 0) {
        ex.terminateOnError(st, Msg.divByZero, Termination.ReportError, undefined, 'div.err');
        return;
      }
    } else target = checkError(ex, st, builder.eq(y, constantFromBV(0, w)), Msg.divByZero, 'div.err');
  } else if (isShiftKind(kind) && ex.opts.checkOvershift && !ki.poisonShift) {
    if (typeof y !== 'object') {
      if (y >= w || y < 0) {
        ex.terminateOnError(st, Msg.overshift, Termination.ReportError, undefined, 'overshift.err');
        return;
      }
    } else target = checkError(ex, st, builder.uge(y, constantFromBV(w, w)), Msg.overshift, 'overshift.err');
  }
  if (target === null) return;
  ex.bindLocal(target, ki, intBinary(kind, w, x, y));
}

export function execICmp(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  ex.bindLocal(st, ki, icmp(ki.imm, ki.w, regs[ki.a] as Scalar, regs[ki.b] as Scalar));
}

/**
 * A floating-point operand as a number (a symbolic one is concretized, as KLEE does). For
 * x86_fp80 and fp128 this is the nearest double: code that needs the exact value uses
 * wideOperand.
 */
export function fpOperand(ex: Executor, st: ExecutionState, v: Val, kind: TypeKind): number {
  if (typeof v === 'number') return v; // (in an x86_fp80 or fp128 register too: a double value)
  const wf = wideFloat(kind);
  if (wf !== null) return wf.toDouble(wideOperand(ex, st, v, wf));
  if (typeof v === 'bigint') return Number(v);
  const c = ex.toConstant(st, v as Expr, 'floating point');
  return bitsToFp(kind, fromExpr(c) as number | bigint);
}

/** The bit pattern of an x86_fp80 or fp128 operand (a symbolic one is concretized, as for double). */
export function wideOperand(ex: Executor, st: ExecutionState, v: Val, wf: WideFloat): bigint {
  if (typeof v === 'object') return ex.toConstant(st, v as Expr, 'floating point').value;
  return wf.fromReg(v as number | bigint);
}

/** The exact software type of an instruction's floating kind, when it is one (a cheap test). */
function wideOf(kind: TypeKind): WideFloat | null {
  return kind === TypeKind.X86_FP80 ? X86_FP80 : kind === TypeKind.FP128 ? FP128 : null;
}

function execWide(ex: Executor, st: ExecutionState, ki: KInst, wf: WideFloat): void {
  const regs = st.top.regs;
  const x = wideOperand(ex, st, regs[ki.a]!, wf);
  switch (ki.op) {
    case Op.FBin:
      ex.bindLocal(st, ki, wf.binary(ki.aux as Opcode, x, wideOperand(ex, st, regs[ki.b]!, wf)));
      return;
    case Op.FNeg:
      ex.bindLocal(st, ki, wf.neg(x));
      return;
    case Op.FCmp:
      ex.bindLocal(st, ki, wf.fcmp(ki.imm, x, wideOperand(ex, st, regs[ki.b]!, wf)));
      return;
  }
}

export function execFloat(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const kind = ki.w2 as TypeKind;
  if (kind === TypeKind.X86_FP80 || kind === TypeKind.FP128) {
    execWide(ex, st, ki, kind === TypeKind.X86_FP80 ? X86_FP80 : FP128);
    return;
  }
  switch (ki.op) {
    case Op.FBin: {
      const x = fpOperand(ex, st, regs[ki.a]!, kind);
      const y = fpOperand(ex, st, regs[ki.b]!, kind);
      ex.bindLocal(st, ki, fpBinary(ki.aux as Opcode, kind, x, y));
      return;
    }
    case Op.FNeg:
      ex.bindLocal(st, ki, -fpOperand(ex, st, regs[ki.a]!, kind));
      return;
    case Op.FCmp: {
      const x = fpOperand(ex, st, regs[ki.a]!, kind);
      const y = fpOperand(ex, st, regs[ki.b]!, kind);
      ex.bindLocal(st, ki, fcmp(ki.imm, x, y));
      return;
    }
  }
}

/** fptosi/fptoui, sitofp/uitofp, fpext/fptrunc with an x86_fp80 or fp128 side. */
function execWideCast(ex: Executor, st: ExecutionState, ki: KInst, v: Val): void {
  switch (ki.op) {
    case Op.FPToUI:
    case Op.FPToSI: {
      const wf = wideOf(ki.w2 as TypeKind)!;
      ex.bindLocal(st, ki, wf.toIntReg(wideOperand(ex, st, v, wf), ki.w, ki.op === Op.FPToSI));
      return;
    }
    case Op.UIToFP:
    case Op.SIToFP: {
      const n = ex.concretize(st, v as Scalar, ki.w2, 'floating point');
      ex.bindLocal(st, ki, wideOf(ki.w as TypeKind)!.fromIntReg(n, ki.w2, ki.op === Op.SIToFP));
      return;
    }
    default: {
      const from = ki.w2 as TypeKind;
      const to = ki.w as TypeKind;
      const wf = wideOf(from);
      if (wf !== null) ex.bindLocal(st, ki, wf.toKind(to, wideOperand(ex, st, v, wf)));
      else ex.bindLocal(st, ki, wideOf(to)!.fromKind(from, fpOperand(ex, st, v, from)));
    }
  }
}

export function execCast(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const v = regs[ki.a]!;
  switch (ki.op) {
    case Op.Trunc:
      ex.bindLocal(st, ki, intCast(Opcode.Trunc, v as Scalar, ki.w2, ki.w));
      return;
    case Op.ZExt:
      ex.bindLocal(st, ki, intCast(Opcode.ZExt, v as Scalar, ki.w2, ki.w));
      return;
    case Op.SExt:
      ex.bindLocal(st, ki, intCast(Opcode.SExt, v as Scalar, ki.w2, ki.w));
      return;
    case Op.IntResize:
      ex.bindLocal(st, ki, intCast(ki.w < ki.w2 ? Opcode.Trunc : Opcode.ZExt, v as Scalar, ki.w2, ki.w));
      return;
    case Op.FPToUI:
    case Op.FPToSI:
      if (ki.w2 === TypeKind.X86_FP80 || ki.w2 === TypeKind.FP128) return execWideCast(ex, st, ki, v);
      ex.bindLocal(st, ki, fpToInt(fpOperand(ex, st, v, ki.w2 as TypeKind), ki.w, ki.op === Op.FPToSI));
      return;
    case Op.UIToFP:
    case Op.SIToFP: {
      if (ki.w === TypeKind.X86_FP80 || ki.w === TypeKind.FP128) return execWideCast(ex, st, ki, v);
      const n = ex.concretize(st, v as Scalar, ki.w2, 'floating point');
      ex.bindLocal(st, ki, intToFp(n, ki.w2, ki.op === Op.SIToFP, ki.w as TypeKind));
      return;
    }
    case Op.FPTrunc:
    case Op.FPExt:
      if (wideOf(ki.w as TypeKind) !== null || wideOf(ki.w2 as TypeKind) !== null) return execWideCast(ex, st, ki, v);
      ex.bindLocal(st, ki, roundTo(ki.w as TypeKind, fpOperand(ex, st, v, ki.w2 as TypeKind)));
      return;
    case Op.BitCast: {
      const from = ki.inst.ops[0]!.type;
      ex.bindLocal(st, ki, bitcastValue(from, ki.inst.type, v, ex.km.dl));
      return;
    }
    case Op.Copy:
      ex.bindLocal(st, ki, v);
      return;
  }
}

/** The bits of a register value of type t as an expression (for select on symbolic conditions). */
export function valueExpr(t: Type, v: Val): Expr {
  switch (t.kind) {
    case TypeKind.Integer:
    case TypeKind.Pointer:
      return toExpr(v as Scalar, intWidth(t));
    case TypeKind.Float:
    case TypeKind.Double:
    case TypeKind.Half:
    case TypeKind.BFloat: {
      const w = t.kind === TypeKind.Float ? 32 : t.kind === TypeKind.Double ? 64 : 16;
      if (typeof v === 'object') return v as Expr;
      return toExpr(fpToBits(t.kind, v as number), w);
    }
    case TypeKind.X86_FP80:
      return typeof v === 'object' ? (v as Expr) : toExpr(X86_FP80.fromReg(v as number | bigint), 80);
    case TypeKind.FP128:
      return typeof v === 'object' ? (v as Expr) : toExpr(FP128.fromReg(v as number | bigint), 128);
    default:
      throw new Error(`no expression for a value of type ${TypeKind[t.kind]}`);
  }
}

/** select on a symbolic condition: an expression per scalar, element-wise for aggregates. */
export function selectValue(ex: Executor, st: ExecutionState, t: Type, c: Expr, a: Val, b: Val): Val {
  if (Array.isArray(a)) {
    const bs = b as Val[];
    const elems = aggregateElementTypes(t);
    return a.map((x, i) => selectValue(ex, st, elems[i]!, c, x, bs[i]!));
  }
  if (a === b) return a;
  // floating-point registers select over their bit patterns
  const e = builder.select(c, valueExpr(t, a), valueExpr(t, b));
  if (e.kind !== ExprKind.Constant) return e;
  if (t.kind === TypeKind.X86_FP80 || t.kind === TypeKind.FP128) return e.value;
  const bits = fromExpr(e) as number | bigint;
  return t.kind === TypeKind.Integer || t.kind === TypeKind.Pointer ? bits : bitsToFp(t.kind, bits);
}

export function aggregateElementTypes(t: Type): Type[] {
  switch (t.kind) {
    case TypeKind.Struct:
      return [...(t as unknown as { elements: Type[] }).elements];
    case TypeKind.Array:
    case TypeKind.Vector: {
      const a = t as unknown as { element: Type; length: number };
      return Array.from({ length: a.length }, () => a.element);
    }
    default:
      return [];
  }
}

export function execSelect(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const c = regs[ki.a] as Scalar;
  if (typeof c !== 'object') {
    ex.bindLocal(st, ki, c !== 0 ? regs[ki.b]! : regs[ki.c]!);
    return;
  }
  ex.bindLocal(st, ki, selectValue(ex, st, ki.inst.type, c, regs[ki.b]!, regs[ki.c]!));
}
