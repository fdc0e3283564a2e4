/**
 * The floating-point types tsklee computes exactly in software on BigInt — x86_fp80 (fp80.ts)
 * and fp128 (fp128.ts) — behind one interface, so the executor, constant folding, intrinsics
 * and the libm models treat both alike.
 *
 * A register of either type holds the value's bit pattern as a bigint. A number found there is
 * a double value (the zero of undef/poison, or generic code that computes in double) and is
 * widened exactly when used.
 */
import { Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import * as f80 from './fp80.js';
import * as f80m from './fp80-math.js';
import { f80Binary, f80FromFloatKind, f80FromIntReg, f80ToFloatKind, f80ToIntReg } from './fp80-ir.js';
import * as f128 from './fp128.js';
import * as f128m from './fp128-math.js';
import { bitsToFloat, bitsToHalf, floatToBits, halfToBits, intFrom, toSBig, toUBig } from './values.js';
import type { IntegralMode } from './fp80-math.js';

export interface WideFloat {
  readonly kind: TypeKind.X86_FP80 | TypeKind.FP128;
  /** Bits of the pattern (80 or 128). */
  readonly bits: number;
  /** The pattern of a concrete register value. */
  fromReg(v: number | bigint): bigint;
  fromDouble(x: number): bigint;
  /** The nearest double (for what tsklee computes in double: transcendental functions). */
  toDouble(a: bigint): number;
  /** fadd, fsub, fmul, fdiv, frem. */
  binary(op: Opcode, a: bigint, b: bigint): bigint;
  neg(a: bigint): bigint;
  fcmp(pred: number, a: bigint, b: bigint): number;
  /** fpext/fptrunc to another floating kind: a number for half … double, a pattern for the wide kinds. */
  toKind(kind: TypeKind, a: bigint): number | bigint;
  /** fpext/fptrunc from another kind's concrete register value. */
  fromKind(kind: TypeKind, v: number | bigint): bigint;
  /** fptosi/fptoui to width w, a canonical integer register value. */
  toIntReg(a: bigint, w: number, signed: boolean): number | bigint;
  /** sitofp/uitofp of a concrete integer register value of width w. */
  fromIntReg(v: number | bigint, w: number, signed: boolean): bigint;
  // <math.h> and LLVM intrinsics, as the platform's library computes them
  abs(a: bigint): bigint;
  copySign(a: bigint, b: bigint): bigint;
  sqrt(a: bigint): bigint;
  rem(a: bigint, b: bigint): bigint;
  fma(a: bigint, b: bigint, c: bigint): bigint;
  /** llvm.fmuladd: what x86-64 code computes (no fused multiply-add for these types). */
  mulAdd(a: bigint, b: bigint, c: bigint): bigint;
  roundIntegral(a: bigint, mode: IntegralMode): bigint;
  /** lrint/llrint/lround/llround to a w-bit integer register value. */
  toIntRounded(a: bigint, mode: IntegralMode, w: number): number | bigint;
  /** fmin/fmax (llvm.minnum/maxnum). */
  minMax(a: bigint, b: bigint, max: boolean): bigint;
  /** fminimum/fmaximum (llvm.minimum/maximum). */
  minimumMaximum(a: bigint, b: bigint, max: boolean): bigint;
  canonicalize(a: bigint): bigint;
  /** The llvm.is.fpclass class bit, or −1 for an encoding in no class. */
  fpClass(a: bigint): number;
  frexp(a: bigint): [bigint, number];
  ldexp(a: bigint, n: number): bigint;
  modf(a: bigint): [bigint, bigint];
}

const F80_ONE = f80.f80FromDouble(1);

export const X86_FP80: WideFloat = {
  kind: TypeKind.X86_FP80,
  bits: 80,
  fromReg: (v) => (typeof v === 'bigint' ? BigInt.asUintN(80, v) : f80.f80FromDouble(v)),
  fromDouble: f80.f80FromDouble,
  toDouble: f80.f80ToDouble,
  binary: f80Binary,
  neg: f80.f80Neg,
  fcmp: f80.f80Fcmp,
  toKind: (kind, a) => {
    if (kind === TypeKind.X86_FP80) return a;
    if (kind === TypeKind.FP128) return f128.f128FromF80(a);
    // to half: libgcc's __truncxfhf2 (soft-fp reads the x87 format as __extendxftf2 does), one rounding
    if (kind === TypeKind.Half || kind === TypeKind.BFloat) return f128ToNarrow(kind, f128.f128FromF80(a));
    return f80ToFloatKind(kind, a);
  },
  fromKind: (kind, v) => {
    if (kind === TypeKind.X86_FP80) return X86_FP80.fromReg(v);
    if (kind === TypeKind.FP128) return f128.f128ToF80(FP128.fromReg(v));
    return f80FromFloatKind(kind, v as number);
  },
  toIntReg: f80ToIntReg,
  fromIntReg: f80FromIntReg,
  abs: f80.f80Abs,
  copySign: f80.f80CopySign,
  sqrt: f80.f80Sqrt,
  rem: f80.f80Rem,
  fma: f80.f80Fma,
  // x87 has no fused multiply-add: codegen multiplies then adds
  mulAdd: (a, b, c) => f80.f80Add(f80.f80Mul(a, b), c),
  roundIntegral: f80m.f80RoundIntegral,
  toIntRounded: (a, mode, w) => f80ToIntReg(f80m.f80RoundIntegral(a, mode), w, true),
  minMax: f80m.f80MinMax,
  minimumMaximum: f80m.f80MinimumMaximum,
  // x87 canonicalizes by multiplying by 1 (quiets NaNs, normalizes pseudo-denormals)
  canonicalize: (a) => f80.f80Mul(a, F80_ONE),
  fpClass: f80m.f80FpClass,
  frexp: f80m.f80Frexp,
  ldexp: f80m.f80Ldexp,
  modf: f80m.f80Modf,
};

const F128_ONE = f128.f128FromDouble(1);

/** binary128 of a half/bfloat/float/double register value (exact; NaN payloads kept, quieted). */
function f128FromNarrow(kind: TypeKind, x: number): bigint {
  switch (kind) {
    case TypeKind.Float:
      return f128.f128FromIeee(f128.BINARY32, BigInt(floatToBits(x)));
    case TypeKind.Half:
      return f128.f128FromIeee(f128.BINARY16, BigInt(halfToBits(x)));
    case TypeKind.BFloat:
      return f128.f128FromIeee(f128.BFLOAT16, BigInt(floatToBits(x) >>> 16));
    default:
      return f128.f128FromDouble(x);
  }
}

/** A binary128 pattern rounded once to a half/bfloat/float/double register value. */
function f128ToNarrow(kind: TypeKind, a: bigint): number {
  switch (kind) {
    case TypeKind.Float:
      return bitsToFloat(Number(f128.f128ToIeee(f128.BINARY32, a)));
    case TypeKind.Half:
      return bitsToHalf(Number(f128.f128ToIeee(f128.BINARY16, a)));
    case TypeKind.BFloat:
      return bitsToFloat(Number(f128.f128ToIeee(f128.BFLOAT16, a)) << 16 >>> 0);
    default:
      return f128.f128ToDouble(a);
  }
}

function f128Binary(op: Opcode, a: bigint, b: bigint): bigint {
  switch (op) {
    case Opcode.FAdd:
      return f128.f128Add(a, b);
    case Opcode.FSub:
      return f128.f128Sub(a, b);
    case Opcode.FMul:
      return f128.f128Mul(a, b);
    case Opcode.FDiv:
      return f128.f128Div(a, b);
    case Opcode.FRem:
      return f128.f128Rem(a, b);
    default:
      throw new Error(`not a floating-point binary opcode: ${Opcode[op]}`);
  }
}

export const FP128: WideFloat = {
  kind: TypeKind.FP128,
  bits: 128,
  fromReg: (v) => (typeof v === 'bigint' ? BigInt.asUintN(128, v) : f128.f128FromDouble(v)),
  fromDouble: f128.f128FromDouble,
  toDouble: f128.f128ToDouble,
  binary: f128Binary,
  neg: f128.f128Neg,
  fcmp: f128.f128Fcmp,
  toKind: (kind, a) => (kind === TypeKind.FP128 ? a : kind === TypeKind.X86_FP80 ? f128.f128ToF80(a) : f128ToNarrow(kind, a)),
  fromKind: (kind, v) => {
    if (kind === TypeKind.FP128) return FP128.fromReg(v);
    if (kind === TypeKind.X86_FP80) return f128.f128FromF80(X86_FP80.fromReg(v));
    return f128FromNarrow(kind, v as number);
  },
  toIntReg: (a, w, signed) => intFrom(f128.f128ToInt(a, w, signed), w),
  fromIntReg: (v, w, signed) => f128.f128FromInt(signed ? toSBig(v, w) : toUBig(v, w)),
  abs: f128.f128Abs,
  copySign: f128.f128CopySign,
  sqrt: f128.f128Sqrt,
  rem: f128.f128Rem,
  fma: f128.f128Fma,
  // binary128 has no fused multiply-add in hardware: codegen multiplies then adds
  mulAdd: (a, b, c) => f128.f128Add(f128.f128Mul(a, b), c),
  roundIntegral: f128m.f128RoundIntegral,
  toIntRounded: (a, mode, w) => intFrom(f128m.f128ToIntRounded(a, mode, w), w),
  minMax: f128m.f128MinMax,
  minimumMaximum: f128m.f128MinimumMaximum,
  canonicalize: (a) => f128.f128Mul(a, F128_ONE),
  fpClass: f128m.f128FpClass,
  frexp: f128m.f128Frexp,
  ldexp: f128m.f128Ldexp,
  modf: f128m.f128Modf,
};

/** The exact software implementation of a floating kind, or null for those computed in double. */
export function wideFloat(kind: TypeKind): WideFloat | null {
  return kind === TypeKind.X86_FP80 ? X86_FP80 : kind === TypeKind.FP128 ? FP128 : null;
}
