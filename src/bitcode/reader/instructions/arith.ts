/** Arithmetic, casts, comparisons, select and freeze. */
import type { FnState } from './operands.js';
import {
  decodeBinopCode,
  decodeBinopFlags,
  decodeCastCode,
  decodeCastFastMath,
  decodeCastFlags,
  decodeFastMath,
  decodeUnopCode,
} from '../opcode-maps.js';
import { BinaryOperator, CastInst, CmpInst, FreezeInst, SelectInst, UnaryOperator } from '../../../ir/instructions.js';
import { Flag, Opcode } from '../../../ir/opcodes.js';
import { I1, TypeKind, VectorType, type FloatType, type IntegerType, type PointerType, type Type } from '../../../ir/types.js';

function isFPOrFPVector(t: Type): boolean {
  return t.scalarType().isFloatingPoint();
}

/** BINOP: [lhs (pair), rhs, opcode, flags?] */
export function decodeBinop(s: FnState): BinaryOperator {
  const lhs = s.pair('binop');
  const rhs = s.value(lhs.type, 'binop');
  const isFP = isFPOrFPVector(lhs.type);
  const opc = decodeBinopCode(s.op(s.p++, 'binop'), isFP);
  if (opc === -1) s.bad('binop', 'unknown opcode for the operand type');
  if (!isFP && lhs.type.scalarType().kind !== TypeKind.Integer) s.bad('binop', 'operands are not integers');
  let flags = 0;
  let fmf = 0;
  if (s.p < s.ops.length) {
    const raw = s.ops[s.p]!;
    if (isFP) fmf = decodeFastMath(raw);
    else flags = decodeBinopFlags(opc, raw);
  }
  return new BinaryOperator(opc, lhs.type, [lhs, rhs], flags, fmf);
}

/** UNOP: [operand (pair), opcode, fmf?] */
export function decodeUnop(s: FnState): UnaryOperator {
  const v = s.pair('unop');
  const opc = decodeUnopCode(s.op(s.p++, 'unop'), isFPOrFPVector(v.type));
  if (opc === -1) s.bad('unop', 'unknown opcode for the operand type');
  const fmf = s.p < s.ops.length ? decodeFastMath(s.ops[s.p]!) : 0;
  return new UnaryOperator(opc, v.type, [v], fmf);
}

/** CAST: [operand (pair), destty, opcode, flags?] */
export function decodeCast(s: FnState): CastInst {
  const v = s.pair('cast');
  const dest = s.typeAt(s.p++, 'cast');
  const opc = decodeCastCode(s.op(s.p++, 'cast'));
  if (opc === -1) s.bad('cast', 'unknown cast opcode');
  if (!castIsValid(opc, v.type, dest)) s.bad('cast', 'invalid cast between these types');
  let flags = 0;
  let fmf = 0;
  if (s.p < s.ops.length) {
    const raw = s.ops[s.p]!;
    flags = decodeCastFlags(opc, raw);
    fmf = decodeCastFastMath(opc, raw);
  }
  return new CastInst(opc, dest, [v], flags, fmf);
}

function scalarBits(t: Type): number {
  if (t.kind === TypeKind.Integer) return (t as IntegerType).bits;
  if (t.isFloatingPoint()) return (t as FloatType).bits;
  return -1;
}

/** Same shape: both scalars, or vectors of the same length and scalability. */
function sameShape(a: Type, b: Type): boolean {
  if (a.kind !== TypeKind.Vector || b.kind !== TypeKind.Vector) return a.kind !== TypeKind.Vector && b.kind !== TypeKind.Vector;
  const va = a as VectorType;
  const vb = b as VectorType;
  return va.length === vb.length && va.scalable === vb.scalable;
}

/** The checks of LLVM's CastInst::castIsValid that do not need a data layout. */
function castIsValid(op: Opcode, src: Type, dst: Type): boolean {
  const s = src.scalarType();
  const d = dst.scalarType();
  switch (op) {
    case Opcode.Trunc:
      return sameShape(src, dst) && s.kind === TypeKind.Integer && d.kind === TypeKind.Integer && scalarBits(s) > scalarBits(d);
    case Opcode.ZExt:
    case Opcode.SExt:
      return sameShape(src, dst) && s.kind === TypeKind.Integer && d.kind === TypeKind.Integer && scalarBits(s) < scalarBits(d);
    case Opcode.FPTrunc:
      return sameShape(src, dst) && s.isFloatingPoint() && d.isFloatingPoint() && scalarBits(s) > scalarBits(d);
    case Opcode.FPExt:
      return sameShape(src, dst) && s.isFloatingPoint() && d.isFloatingPoint() && scalarBits(s) < scalarBits(d);
    case Opcode.UIToFP:
    case Opcode.SIToFP:
      return sameShape(src, dst) && s.kind === TypeKind.Integer && d.isFloatingPoint();
    case Opcode.FPToUI:
    case Opcode.FPToSI:
      return sameShape(src, dst) && s.isFloatingPoint() && d.kind === TypeKind.Integer;
    case Opcode.PtrToInt:
      return sameShape(src, dst) && s.kind === TypeKind.Pointer && d.kind === TypeKind.Integer;
    case Opcode.IntToPtr:
      return sameShape(src, dst) && s.kind === TypeKind.Integer && d.kind === TypeKind.Pointer;
    case Opcode.AddrSpaceCast:
      return (
        sameShape(src, dst) &&
        s.kind === TypeKind.Pointer &&
        d.kind === TypeKind.Pointer &&
        (s as PointerType).addrSpace !== (d as PointerType).addrSpace
      );
    case Opcode.BitCast: {
      if (s.kind === TypeKind.Pointer || d.kind === TypeKind.Pointer) {
        return (
          sameShape(src, dst) &&
          s.kind === TypeKind.Pointer &&
          d.kind === TypeKind.Pointer &&
          (s as PointerType).addrSpace === (d as PointerType).addrSpace
        );
      }
      if (!src.isFirstClass() || !dst.isFirstClass() || src.isStruct() || src.isArray() || dst.isStruct() || dst.isArray()) return false;
      const sb = scalarBits(s) * (src.kind === TypeKind.Vector ? (src as VectorType).length : 1);
      const db = scalarBits(d) * (dst.kind === TypeKind.Vector ? (dst as VectorType).length : 1);
      // Types without a known width here (x86_mmx, …) are left to the consumer.
      return sb < 0 || db < 0 || sb === db;
    }
    default:
      return false;
  }
}

/** i1, or a vector of i1 shaped like `operand`. */
function boolTypeLike(operand: Type): Type {
  if (operand.kind !== TypeKind.Vector) return I1;
  const v = operand as VectorType;
  return VectorType.get(I1, v.length, v.scalable);
}

/** CMP / CMP2: [lhs (pair), rhs, predicate, fmf-or-flags?] */
export function decodeCmp(s: FnState): CmpInst {
  const lhs = s.pair('cmp');
  const rhs = s.value(lhs.type, 'cmp');
  const pred = s.op(s.p++, 'cmp');
  const extra = s.p < s.ops.length ? s.ops[s.p]! : 0;
  if (s.p + 1 < s.ops.length) s.bad('cmp', 'too many operands');
  if (isFPOrFPVector(lhs.type)) {
    if (!(pred >= 0 && pred <= 15)) s.bad('cmp', `invalid fcmp predicate ${pred}`);
    return new CmpInst(Opcode.FCmp, boolTypeLike(lhs.type), [lhs, rhs], pred, 0, decodeFastMath(extra));
  }
  if (!(pred >= 32 && pred <= 41)) s.bad('cmp', `invalid icmp predicate ${pred}`);
  const st = lhs.type.scalarType().kind;
  if (st !== TypeKind.Integer && st !== TypeKind.Pointer) s.bad('cmp', 'icmp operands are not integers or pointers');
  return new CmpInst(Opcode.ICmp, boolTypeLike(lhs.type), [lhs, rhs], pred, extra & 1 ? Flag.SameSign : 0);
}

/** Old SELECT: [true (pair), false, cond (i1)] */
export function decodeSelectOld(s: FnState): SelectInst {
  const t = s.pair('select');
  const f = s.value(t.type, 'select');
  const c = s.value(I1, 'select');
  return new SelectInst(t.type, [c, t, f]);
}

/** VSELECT: [true (pair), false, cond (pair), fmf?] */
export function decodeVSelect(s: FnState): SelectInst {
  const t = s.pair('select');
  const f = s.value(t.type, 'select');
  const c = s.pair('select');
  const ct = c.type;
  if (ct !== I1 && !(ct.kind === TypeKind.Vector && (ct as VectorType).element === I1)) s.bad('select', 'condition is not i1 or a vector of i1');
  const inst = new SelectInst(t.type, [c, t, f]);
  if (s.p < s.ops.length) inst.fastMath = decodeFastMath(s.ops[s.p]!);
  return inst;
}

/** FREEZE: [operand (pair)] */
export function decodeFreeze(s: FnState): FreezeInst {
  const v = s.pair('freeze');
  if (s.p !== s.ops.length) s.bad('freeze', 'too many operands');
  return new FreezeInst(v.type, [v]);
}
