/**
 * x86_fp80 register values (values.ts) and the IR operations on them, on top of fp80.ts.
 *
 * An x86_fp80 register holds a bigint, the value's 80-bit pattern. A number found in one is a
 * double value (the zero of undef/poison, or generic code that computes in double, such as
 * vectors of long double) and is widened exactly when used.
 */
import { Opcode } from '../ir/opcodes.js';
import { TypeKind } from '../ir/types.js';
import {
  f80Add,
  f80Div,
  f80FromDouble,
  f80FromFloat,
  f80FromInt,
  f80Mul,
  f80Rem,
  f80Sub,
  f80ToDouble,
  f80ToFloat,
  f80ToInt,
} from './fp80.js';
import { intFrom, toSBig, toUBig } from './values.js';
import { roundTo } from './scalar.js';

/** fadd, fsub, fmul, fdiv, frem. */
export function f80Binary(op: Opcode, a: bigint, b: bigint): bigint {
  switch (op) {
    case Opcode.FAdd:
      return f80Add(a, b);
    case Opcode.FSub:
      return f80Sub(a, b);
    case Opcode.FMul:
      return f80Mul(a, b);
    case Opcode.FDiv:
      return f80Div(a, b);
    case Opcode.FRem:
      return f80Rem(a, b);
    default:
      throw new Error(`not a floating-point binary opcode: ${Opcode[op]}`);
  }
}

/** fpext of a float/double/half register value (exact; a float's NaN payload is read from its float bits). */
export function f80FromFloatKind(kind: TypeKind, x: number): bigint {
  return kind === TypeKind.Float ? f80FromFloat(x) : f80FromDouble(x);
}

/** fptrunc to a narrower kind: correctly rounded for float and double; half and bfloat through double (fp128: wide-float.ts). */
export function f80ToFloatKind(kind: TypeKind, a: bigint): number {
  if (kind === TypeKind.Float) return f80ToFloat(a);
  return roundTo(kind, f80ToDouble(a));
}

/** fptosi/fptoui to width w as a canonical integer register value (see f80ToInt for out of range). */
export function f80ToIntReg(a: bigint, w: number, signed: boolean): number | bigint {
  return intFrom(f80ToInt(a, w, signed), w);
}

/** sitofp/uitofp of a concrete integer register value of width w. */
export function f80FromIntReg(v: number | bigint, w: number, signed: boolean): bigint {
  return f80FromInt(signed ? toSBig(v, w) : toUBig(v, w));
}
