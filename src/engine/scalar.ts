/**
 * Semantics of scalar IR operations on register values (see values.ts), shared by the
 * interpreter's general paths, vectors (element by element) and constant folding.
 *
 * Integer operations accept symbolic operands (they build expressions). Floating-point
 * operations take concrete numbers: the executor concretizes symbolic floats first, as KLEE
 * does (KLEE has no symbolic floating point either).
 */
import { Opcode, Predicate } from '../ir/opcodes.js';
import { TypeKind, type FloatType, type IntegerType, type Type, type VectorType } from '../ir/types.js';
import { builder } from '../expr/builder.js';
import type { Expr } from '../expr/expr.js';
import { ExprKind, type BinaryKind } from '../expr/kinds.js';
import {
  bitsToDouble,
  bitsToFloat,
  bitsToHalf,
  doubleToBits,
  floatToBits,
  fromExpr,
  halfToBits,
  intBinary,
  intFrom,
  intSExt,
  intTrunc,
  intZExt,
  toExpr,
  toSBig,
  toUBig,
  type Scalar,
  type Val,
} from './values.js';
import { BFLOAT16, FLOAT32, HALF, intToFormat, roundToFormat } from './fp-round.js';

/** The ExprKind of an integer binary opcode. */
export function intOpKind(op: Opcode): BinaryKind {
  switch (op) {
    case Opcode.Add:
      return ExprKind.Add;
    case Opcode.Sub:
      return ExprKind.Sub;
    case Opcode.Mul:
      return ExprKind.Mul;
    case Opcode.UDiv:
      return ExprKind.UDiv;
    case Opcode.SDiv:
      return ExprKind.SDiv;
    case Opcode.URem:
      return ExprKind.URem;
    case Opcode.SRem:
      return ExprKind.SRem;
    case Opcode.Shl:
      return ExprKind.Shl;
    case Opcode.LShr:
      return ExprKind.LShr;
    case Opcode.AShr:
      return ExprKind.AShr;
    case Opcode.And:
      return ExprKind.And;
    case Opcode.Or:
      return ExprKind.Or;
    case Opcode.Xor:
      return ExprKind.Xor;
    default:
      throw new Error(`not an integer binary opcode: ${Opcode[op]}`);
  }
}

/** Width of an integer or pointer type (pointers are 64-bit). */
export function intWidth(t: Type): number {
  if (t.kind === TypeKind.Integer) return (t as IntegerType).bits;
  if (t.kind === TypeKind.Pointer) return 64;
  throw new Error(`not an integer type: ${TypeKind[t.kind]}`);
}

export function isFloatKind(k: TypeKind): boolean {
  return k >= TypeKind.Half && k <= TypeKind.PPC_FP128;
}

/** Round a double to the precision of a floating-point type (once: never through float32). */
export function roundTo(kind: TypeKind, x: number): number {
  switch (kind) {
    case TypeKind.Float:
      return Math.fround(x);
    case TypeKind.Half:
      // a NaN keeps the sign and the top of its payload that the format holds
      return Number.isNaN(x) ? bitsToHalf(halfToBits(x)) : roundToFormat(x, HALF);
    case TypeKind.BFloat:
      return Number.isNaN(x) ? bitsToFloat((floatToBits(x) & 0xffff0000) >>> 0) : roundToFormat(x, BFLOAT16);
    default:
      return x;
  }
}

/** Integer comparison (any width, concrete or symbolic); returns 0/1 or a width-1 expression. */
export function icmp(pred: number, w: number, x: Scalar, y: Scalar): Scalar {
  if (typeof x !== 'object' && typeof y !== 'object') return icmpConcrete(pred, w, x, y) ? 1 : 0;
  const l = toExpr(x, w);
  const r = toExpr(y, w);
  let e: Expr;
  switch (pred) {
    case Predicate.ICMP_EQ:
      e = builder.eq(l, r);
      break;
    case Predicate.ICMP_NE:
      e = builder.ne(l, r);
      break;
    case Predicate.ICMP_UGT:
      e = builder.ugt(l, r);
      break;
    case Predicate.ICMP_UGE:
      e = builder.uge(l, r);
      break;
    case Predicate.ICMP_ULT:
      e = builder.ult(l, r);
      break;
    case Predicate.ICMP_ULE:
      e = builder.ule(l, r);
      break;
    case Predicate.ICMP_SGT:
      e = builder.sgt(l, r);
      break;
    case Predicate.ICMP_SGE:
      e = builder.sge(l, r);
      break;
    case Predicate.ICMP_SLT:
      e = builder.slt(l, r);
      break;
    case Predicate.ICMP_SLE:
      e = builder.sle(l, r);
      break;
    default:
      throw new Error(`bad icmp predicate ${pred}`);
  }
  return fromExpr(e);
}

/** Unsigned less-than on canonical values of one width (wide values are signed numbers/bigints). */
function ultWide(x: number | bigint, y: number | bigint): boolean {
  const nx = x < 0;
  const ny = y < 0;
  return nx === ny ? x < y : ny;
}

export function icmpConcrete(pred: number, w: number, x: number | bigint, y: number | bigint): boolean {
  if (w <= 32) {
    const a = x as number;
    const b = y as number;
    switch (pred) {
      case Predicate.ICMP_EQ:
        return a === b;
      case Predicate.ICMP_NE:
        return a !== b;
      case Predicate.ICMP_UGT:
        return a > b;
      case Predicate.ICMP_UGE:
        return a >= b;
      case Predicate.ICMP_ULT:
        return a < b;
      case Predicate.ICMP_ULE:
        return a <= b;
    }
    const sa = w === 32 ? a | 0 : (a << (32 - w)) >> (32 - w);
    const sb = w === 32 ? b | 0 : (b << (32 - w)) >> (32 - w);
    switch (pred) {
      case Predicate.ICMP_SGT:
        return sa > sb;
      case Predicate.ICMP_SGE:
        return sa >= sb;
      case Predicate.ICMP_SLT:
        return sa < sb;
      case Predicate.ICMP_SLE:
        return sa <= sb;
    }
    throw new Error(`bad icmp predicate ${pred}`);
  }
  switch (pred) {
    case Predicate.ICMP_EQ:
      return x === y;
    case Predicate.ICMP_NE:
      return x !== y;
    case Predicate.ICMP_UGT:
      return ultWide(y, x);
    case Predicate.ICMP_UGE:
      return !ultWide(x, y);
    case Predicate.ICMP_ULT:
      return ultWide(x, y);
    case Predicate.ICMP_ULE:
      return !ultWide(y, x);
    case Predicate.ICMP_SGT:
      return x > y;
    case Predicate.ICMP_SGE:
      return x >= y;
    case Predicate.ICMP_SLT:
      return x < y;
    case Predicate.ICMP_SLE:
      return x <= y;
  }
  throw new Error(`bad icmp predicate ${pred}`);
}

export function fcmp(pred: number, x: number, y: number): number {
  const uno = Number.isNaN(x) || Number.isNaN(y);
  switch (pred) {
    case Predicate.FCMP_FALSE:
      return 0;
    case Predicate.FCMP_TRUE:
      return 1;
    case Predicate.FCMP_ORD:
      return uno ? 0 : 1;
    case Predicate.FCMP_UNO:
      return uno ? 1 : 0;
    case Predicate.FCMP_OEQ:
      return !uno && x === y ? 1 : 0;
    case Predicate.FCMP_OGT:
      return !uno && x > y ? 1 : 0;
    case Predicate.FCMP_OGE:
      return !uno && x >= y ? 1 : 0;
    case Predicate.FCMP_OLT:
      return !uno && x < y ? 1 : 0;
    case Predicate.FCMP_OLE:
      return !uno && x <= y ? 1 : 0;
    case Predicate.FCMP_ONE:
      return !uno && x !== y ? 1 : 0;
    case Predicate.FCMP_UEQ:
      return uno || x === y ? 1 : 0;
    case Predicate.FCMP_UGT:
      return uno || x > y ? 1 : 0;
    case Predicate.FCMP_UGE:
      return uno || x >= y ? 1 : 0;
    case Predicate.FCMP_ULT:
      return uno || x < y ? 1 : 0;
    case Predicate.FCMP_ULE:
      return uno || x <= y ? 1 : 0;
    case Predicate.FCMP_UNE:
      return uno || x !== y ? 1 : 0;
  }
  throw new Error(`bad fcmp predicate ${pred}`);
}

/** A NaN with its quiet bit set, sign and payload kept (bit 51 of the double: also float's and half's quiet bit once widened). */
function quietNaN(x: number): number {
  const bits = doubleToBits(x);
  const b = typeof bits === 'bigint' ? bits : BigInt(bits);
  return bitsToDouble(BigInt.asIntN(64, b | (1n << 51n)));
}

export function fpBinary(op: Opcode, kind: TypeKind, x: number, y: number): number {
  // x86 SSE: a NaN result is the first NaN operand, quieted (JS arithmetic may pick either)
  if (x !== x) return roundTo(kind, quietNaN(x));
  if (y !== y) return roundTo(kind, quietNaN(y));
  let r: number;
  switch (op) {
    case Opcode.FAdd:
      r = x + y;
      break;
    case Opcode.FSub:
      r = x - y;
      break;
    case Opcode.FMul:
      r = x * y;
      break;
    case Opcode.FDiv:
      r = x / y;
      break;
    case Opcode.FRem:
      r = x % y; // fmod: the sign of the dividend, as C and LLVM
      break;
    default:
      throw new Error(`not a floating-point binary opcode: ${Opcode[op]}`);
  }
  return roundTo(kind, r);
}

const TWO63 = 2 ** 63;
const INDEFINITE64 = -(2n ** 63n);

/** cvttsd2si / cvttss2si with a 64-bit result: out of range or NaN gives the "integer indefinite" 0x8000…0. */
function cvt64(t: number): bigint {
  return t !== t || t >= TWO63 || t < -TWO63 ? INDEFINITE64 : BigInt(t);
}

/** The same with a 32-bit result. */
function cvt32(t: number): bigint {
  return t !== t || t >= 2 ** 31 || t < -(2 ** 31) ? -(2n ** 31n) : BigInt(t);
}

/**
 * fptosi/fptoui (rounding toward zero). In range every target agrees. Out of range (and for
 * NaN) C leaves the result undefined and LLVM's IR says poison, but the native program gets
 * what the x86-64 instructions LLVM selects compute, so tsklee computes that: cvttsd2si's
 * "integer indefinite" 0x8000…0, through the widths LLVM promotes to (i8/i16 and u8/u16 via a
 * 32-bit conversion, u32 via a 64-bit one, u64 as a | (cvt(x − 2^63) & (a >> 63)) with
 * a = cvt(x)), then truncated. Wider than 64 bits (compiler-rt's __fix*ti): saturation, NaN 0.
 */
export function fpToInt(x: number, w: number, signed: boolean): number | bigint {
  const t = Math.trunc(x);
  if (w <= 64) {
    let v: bigint;
    if (signed) v = w <= 32 ? cvt32(t) : cvt64(t);
    else if (w <= 16) v = cvt32(t);
    else if (w <= 32) v = cvt64(t);
    else {
      const a = cvt64(t);
      v = a < 0n ? a | cvt64(Math.trunc(x - TWO63)) : a;
    }
    return intFrom(v, w);
  }
  if (Number.isNaN(x)) return 0;
  const min = signed ? -(2n ** BigInt(w - 1)) : 0n;
  const max = signed ? 2n ** BigInt(w - 1) - 1n : 2n ** BigInt(w) - 1n;
  let v: bigint;
  if (!Number.isFinite(t)) v = t < 0 ? min : max;
  else {
    v = BigInt(t);
    if (v < min) v = min;
    else if (v > max) v = max;
  }
  return intFrom(v, w);
}

/**
 * Integer (concrete) to floating point of a type kind, rounded once from the exact integer
 * (Number(bigint) rounds to nearest even; the narrower formats round the bigint first).
 */
export function intToFp(v: number | bigint, w: number, signed: boolean, kind: TypeKind): number {
  // a number that is the exact integer (|n| < 2^53) rounds once in roundTo
  if (w <= 32) return roundTo(kind, signed ? (w === 32 ? (v as number) | 0 : ((v as number) << (32 - w)) >> (32 - w)) : (v as number));
  if (typeof v === 'number' && (signed || v >= 0)) return roundTo(kind, v);
  const b = signed ? toSBig(v, w) : toUBig(v, w);
  switch (kind) {
    case TypeKind.Float:
      return intToFormat(b, FLOAT32);
    case TypeKind.Half:
      return intToFormat(b, HALF);
    case TypeKind.BFloat:
      return intToFormat(b, BFLOAT16);
    default:
      return Number(b);
  }
}

/** The integer bits of a concrete float/double/half value (for bitcast and memory). */
export function fpToBits(kind: TypeKind, x: number): number | bigint {
  switch (kind) {
    case TypeKind.Float:
      return floatToBits(x);
    case TypeKind.Double:
      return doubleToBits(x);
    case TypeKind.Half:
      return halfToBits(x);
    case TypeKind.BFloat:
      return floatToBits(x) >>> 16;
    default:
      throw new Error(`fpToBits: ${TypeKind[kind]} has no integer image here`);
  }
}

export function bitsToFp(kind: TypeKind, v: number | bigint): number {
  switch (kind) {
    case TypeKind.Float:
      return bitsToFloat(v as number);
    case TypeKind.Double:
      return bitsToDouble(v);
    case TypeKind.Half:
      return bitsToHalf(v as number);
    case TypeKind.BFloat:
      return bitsToFloat(((v as number) << 16) >>> 0);
    default:
      throw new Error(`bitsToFp: ${TypeKind[kind]}`);
  }
}

/** An integer cast (trunc/zext/sext) of a scalar. */
export function intCast(op: Opcode, v: Scalar, from: number, to: number): Scalar {
  switch (op) {
    case Opcode.Trunc:
      return intTrunc(v, from, to);
    case Opcode.ZExt:
      return intZExt(v, from, to);
    case Opcode.SExt:
      return intSExt(v, from, to);
    default:
      throw new Error(`not an integer cast: ${Opcode[op]}`);
  }
}

/** An integer binary operation without the division-by-zero / overshift checks. */
export function intBinaryOp(op: Opcode, w: number, x: Scalar, y: Scalar): Scalar {
  return intBinary(intOpKind(op), w, x, y);
}

/** The element type of a vector type, or the type itself. */
export function elementType(t: Type): Type {
  return t.kind === TypeKind.Vector ? (t as VectorType).element : t;
}

export function floatKind(t: Type): TypeKind {
  return (elementType(t) as FloatType).kind;
}

/** The zero value of a type (also what undef and poison evaluate to). */
export function zeroValue(t: Type): Val {
  switch (t.kind) {
    case TypeKind.Vector: {
      const v = t as VectorType;
      return Array.from({ length: v.length }, () => zeroValue(v.element));
    }
    case TypeKind.Array: {
      const a = t as unknown as { element: Type; length: number };
      return Array.from({ length: a.length }, () => zeroValue(a.element));
    }
    case TypeKind.Struct: {
      const s = t as unknown as { elements: readonly Type[] };
      return s.elements.map(zeroValue);
    }
    default:
      return 0;
  }
}
