/**
 * How the interpreter represents the value of an SSA register (DESIGN decision 5: concrete
 * values stay cheap, an Expr appears only where a value is symbolic).
 *
 *   iN, N ≤ 32        a number, the unsigned value in [0, 2^N)            (like expr/bv.ts)
 *   iN, N > 32        the SIGNED value: a number when |v| ≤ 2^53 − 1, else a bigint
 *                     (BigInt.asIntN(N, v)); exactly one representation per value, so `===`
 *                     is equality (−2^53 is a bigint too: every path that makes a wide
 *                     value from bits — loads, bitcasts of doubles — goes through wideFromBig
 *                     or checks hi > −2^21). Signed, because i64 values near zero are overwhelmingly
 *                     common and negative ones would otherwise all be bigints.
 *   ptr               as i64 (addresses are below 2^48, so always numbers)
 *   half/float/double a number (float and half rounded to their precision)
 *   x86_fp80          a bigint, the 80-bit pattern: exact x87 extended precision (fp80.ts,
 *                     fp80-ir.ts); a number there is a double value, widened exactly on use
 *   fp128             a bigint, the 128-bit pattern: exact IEEE binary128 as libgcc's soft-fp
 *                     computes it (fp128.ts, wide-float.ts); a number there is a double value
 *   symbolic scalar   an Expr of the type's bit width (floats: their bit pattern)
 *   vector, struct,   a JS array of the element values (each as above)
 *   array
 *
 * Undef and poison constants are 0, as in KLEE; the poison of an over-wide shift is tracked
 * beside the registers it may reach (prepare/poison.ts).
 */
import { builder } from '../expr/builder.js';
import { foldBinary, toBigInt, type BV } from '../expr/bv.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind, type BinaryKind } from '../expr/kinds.js';
import { HALF, roundToFormat } from './fp-round.js';

export type Scalar = number | bigint | Expr;
/** Any register value. */
export type Val = number | bigint | Expr | Val[];

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE_BIG = -MAX_SAFE_BIG;

export function isExprVal(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The canonical representation of a signed wide value already reduced to its width. */
export function wideFromBig(b: bigint): number | bigint {
  return b >= MIN_SAFE_BIG && b <= MAX_SAFE_BIG ? Number(b) : b;
}

/** Canonical wide (N > 32) value of any integer, reduced modulo 2^N. */
export function wideNorm(b: bigint, w: number): number | bigint {
  return wideFromBig(BigInt.asIntN(w, b));
}

/** Canonical value of width w from any integer (number or bigint, any sign, any magnitude). */
export function intFrom(v: number | bigint, w: number): number | bigint {
  if (w <= 32) {
    if (typeof v === 'number') {
      if (w === 32) return v >>> 0 === v ? v : Number(BigInt.asUintN(32, BigInt(v)));
      const m = 2 ** w;
      if (v >= 0 && v < m) return v;
      if (Number.isSafeInteger(v)) return ((v % m) + m) % m;
      return Number(BigInt.asUintN(w, BigInt(v)));
    }
    return Number(BigInt.asUintN(w, v));
  }
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && (w >= 54 || (v >= -(2 ** (w - 1)) && v < 2 ** (w - 1)))) return v;
    return wideNorm(BigInt(v), w);
  }
  return wideNorm(v, w);
}

/** The unsigned value of a concrete integer of width w as a bigint. */
export function toUBig(v: number | bigint, w: number): bigint {
  if (w <= 32) return BigInt(v);
  return BigInt.asUintN(w, typeof v === 'bigint' ? v : BigInt(v));
}

/** The signed value of a concrete integer of width w as a bigint. */
export function toSBig(v: number | bigint, w: number): bigint {
  if (w <= 32) return BigInt.asIntN(w, BigInt(v));
  return typeof v === 'bigint' ? v : BigInt(v);
}

/** The signed value as a number (may lose precision beyond 2^53; used for sizes, indices). */
export function toSNum(v: number | bigint, w: number): number {
  if (w <= 32) return w === 32 ? (v as number) | 0 : (((v as number) << (32 - w)) >> (32 - w));
  return Number(v);
}

/** The unsigned value as a number (may lose precision beyond 2^53). */
export function toUNum(v: number | bigint, w: number): number {
  if (w <= 32) return v as number;
  if (typeof v === 'number' && v >= 0) return v;
  return Number(toUBig(v, w));
}

/** The bit-vector (expr/bv.ts) representation of a concrete value of width w. */
export function intToBV(v: number | bigint, w: number): BV {
  return w <= 32 ? (v as number) : toUBig(v, w);
}

/** The register value for a bit-vector of width w. */
export function bvToInt(bv: BV, w: number): number | bigint {
  if (w <= 32) return bv as number;
  return wideNorm(toBigInt(bv), w);
}

/** Any scalar as an expression of width w. */
export function toExpr(v: Scalar, w: number): Expr {
  if (typeof v === 'object') return v;
  return constantFromBV(intToBV(v, w), w);
}

/** An expression as a register value: concrete when it is a constant. */
export function fromExpr(e: Expr): Scalar {
  if (e.kind === ExprKind.Constant) return bvToInt(e.bv, e.width);
  return e;
}

/** A binary integer operation (any width, concrete or symbolic): the slow, general path. */
export function intBinary(kind: BinaryKind, w: number, x: Scalar, y: Scalar): Scalar {
  if (typeof x !== 'object' && typeof y !== 'object') {
    const r = foldBinary(kind, w, intToBV(x, w), intToBV(y, w));
    return kind >= ExprKind.Eq ? r : bvToInt(r, w);
  }
  return fromExpr(builder.binary(kind, toExpr(x, w), toExpr(y, w)));
}

/** trunc/zext/sext of a scalar from width `from` to width `to`. */
export function intTrunc(v: Scalar, from: number, to: number): Scalar {
  if (typeof v === 'object') return fromExpr(builder.extract(v, 0, to));
  if (to <= 32) {
    if (from <= 32) return to === 32 ? v : (v as number) & (2 ** to - 1);
    if (typeof v === 'number') {
      const lo = v >>> 0; // ToUint32 is exact modulo 2^32 for any integer-valued double
      return to === 32 ? lo : lo & (2 ** to - 1);
    }
    return Number(BigInt.asUintN(to, v));
  }
  return intFrom(v, to);
}

export function intZExt(v: Scalar, from: number, to: number): Scalar {
  if (typeof v === 'object') return fromExpr(builder.zext(v, to));
  if (to <= 32) return v; // unsigned stays unsigned
  if (from <= 32) return v; // non-negative and small: fits as a signed wide value
  if (typeof v === 'number' && v >= 0) return to > from || v < 2 ** (to - 1) ? v : intFrom(v, to);
  return wideNorm(toUBig(v, from), to);
}

export function intSExt(v: Scalar, from: number, to: number): Scalar {
  if (typeof v === 'object') return fromExpr(builder.sext(v, to));
  if (from <= 32) {
    const s = from === 32 ? (v as number) | 0 : ((v as number) << (32 - from)) >> (32 - from);
    if (to <= 32) return to === 32 ? s >>> 0 : s & (2 ** to - 1);
    return s; // wide values are signed: nothing else to do
  }
  return v; // wide → wider: the signed value is the same
}

/** Width of an expression or the given width for a concrete value (for messages). */
export function describeVal(v: Val): string {
  if (Array.isArray(v)) return `[${v.map(describeVal).join(', ')}]`;
  if (typeof v === 'object') return v.toString();
  return String(v);
}

// ---------------------------------------------------------------- floating point

const f64 = new Float64Array(1);
const f32 = new Float32Array(f64.buffer, 0, 1);
const u32 = new Uint32Array(f64.buffer);
const f64big = new BigInt64Array(f64.buffer);

/** Bits of a double as a canonical i64 register value. */
export function doubleToBits(x: number): number | bigint {
  f64[0] = x;
  const lo = u32[0]!;
  const hi = u32[1]! | 0;
  if (hi > -0x200000 && hi < 0x200000) return hi * 0x1_0000_0000 + lo;
  return wideFromBig(f64big[0]!);
}

/** The double whose bits are the i64 register value v. */
export function bitsToDouble(v: number | bigint): number {
  if (typeof v === 'number') {
    u32[0] = v >>> 0;
    u32[1] = Math.floor(v / 0x1_0000_0000) | 0;
  } else f64big[0] = v;
  return f64[0]!;
}

export function floatToBits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

export function bitsToFloat(v: number): number {
  u32[0] = v;
  return f32[0]!;
}

/** IEEE half-precision bits of a double, rounded once (to nearest, ties to even); NaN keeps its sign and the top of its payload, quieted. */
export function halfToBits(x: number): number {
  f64[0] = x;
  const sign = (u32[1]! >>> 16) & 0x8000;
  if (Number.isNaN(x)) return sign | 0x7e00 | ((u32[1]! >>> 10) & 0x3ff);
  const r = Math.abs(roundToFormat(x, HALF));
  if (r === Infinity) return sign | 0x7c00;
  if (r < 2 ** -14) return sign | (r * 2 ** 24); // subnormal (or 0): the multiple of 2^-24
  f64[0] = r;
  const e = ((u32[1]! >>> 20) & 0x7ff) - 1023;
  return sign | ((e + 15) << 10) | ((r * 2 ** (10 - e)) - 1024);
}

export function bitsToHalf(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) {
    if (mant === 0) return sign * Infinity;
    // a NaN keeps its sign and payload (the top of the double's significand), as widening does
    u32[0] = 0;
    u32[1] = (h & 0x8000 ? 0x8000_0000 : 0) | 0x7ff0_0000 | (mant << 10);
    return f64[0]!;
  }
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

/** Round a double to half precision. */
export function roundHalf(x: number): number {
  return bitsToHalf(halfToBits(x));
}

