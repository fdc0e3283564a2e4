/**
 * <math.h>-level operations on binary128 (fp128.ts patterns), matching glibc 2.36's *f128
 * functions on x86-64 (floorf128, fminf128, frexpf128, lrintf128, …; glibc computes them from
 * the bits, its NaN results come from libgcc's arithmetic as x + x or x · 1) and LLVM's
 * llvm.is.fpclass for fp128. Exact: every result is representable or rounded once.
 */
import {
  classOf,
  expField,
  expOf,
  F128_NEG_ZERO,
  F128_SIGN,
  f128Add,
  f128Compare,
  f128Sub,
  f128ToInt,
  FINITE,
  INF,
  isNaNClass,
  isNeg,
  nan1,
  QNAN,
  REL_EQ,
  REL_GT,
  REL_LT,
  REL_UNORDERED,
  roundPack,
  sigOf,
  SNAN,
  ZERO,
} from './fp128.js';
import { bitLen } from './fp80.js';
import { IntegralMode } from './fp80-math.js';

export { IntegralMode };

/** floorf128, ceilf128, truncf128, roundf128, roundevenf128, rintf128, nearbyintf128 (sign kept for zeros). */
export function f128RoundIntegral(a: bigint, mode: IntegralMode): bigint {
  const k = classOf(a);
  if (isNaNClass(k)) return nan1(a);
  if (k !== FINITE) return a;
  const neg = isNeg(a);
  const m = sigOf(a);
  const e = expOf(a);
  if (e >= 0) return a;
  const s = BigInt(-e);
  let q = m >> s;
  const rem = m - (q << s);
  const half = 1n << (s - 1n);
  let up: boolean;
  switch (mode) {
    case IntegralMode.Floor:
      up = neg && rem !== 0n;
      break;
    case IntegralMode.Ceil:
      up = !neg && rem !== 0n;
      break;
    case IntegralMode.Trunc:
      up = false;
      break;
    case IntegralMode.HalfAway:
      up = rem >= half;
      break;
    case IntegralMode.HalfEven:
      up = rem > half || (rem === half && (q & 1n) === 1n);
      break;
  }
  if (up) q++;
  return q === 0n ? (neg ? F128_NEG_ZERO : 0n) : roundPack(neg, q, 0);
}

function isSignaling(a: bigint): boolean {
  return classOf(a) === SNAN;
}

/**
 * fminf128/fmaxf128 (glibc's generic template; llvm.minnum/maxnum on fp128 call them): ordered
 * operands give x ≤ y ? x : y (min) / x ≥ y ? x : y (max), so of two zeros x; a signalling NaN
 * gives x + y; otherwise a quiet NaN y gives x, a quiet NaN x gives y.
 */
export function f128MinMax(x: bigint, y: bigint, max: boolean): bigint {
  const r = f128Compare(x, y);
  if (r !== REL_UNORDERED) {
    if (r === REL_EQ) return x;
    return (r === REL_GT) === max ? x : y;
  }
  if (isSignaling(x) || isSignaling(y)) return f128Add(x, y);
  return isNaNClass(classOf(y)) ? x : y;
}

/**
 * fminimumf128/fmaximumf128 (IEEE 754-2019; glibc's template, also llvm.minimum/maximum): a NaN
 * operand gives x + y; −0 < +0; of equal values x.
 */
export function f128MinimumMaximum(x: bigint, y: bigint, max: boolean): bigint {
  const r = f128Compare(x, y);
  if (r === REL_UNORDERED) return f128Add(x, y);
  if (r === REL_EQ) {
    const nx = isNeg(x);
    const ny = isNeg(y);
    if (nx === ny) return x;
    return nx === max ? y : x;
  }
  return (r === REL_GT) === max ? x : y;
}

/**
 * The llvm.is.fpclass class bit of a value (0 sNaN, 1 qNaN, 2 −∞, 3 −normal, 4 −subnormal,
 * 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +∞).
 */
export function f128FpClass(a: bigint): number {
  const neg = isNeg(a);
  switch (classOf(a)) {
    case SNAN:
      return 0;
    case QNAN:
      return 1;
    case INF:
      return neg ? 2 : 9;
    case ZERO:
      return neg ? 5 : 6;
  }
  if (expField(a) === 0) return neg ? 4 : 7;
  return neg ? 3 : 8;
}

/** frexpf128: [mantissa in [0.5, 1), exponent]; 0, ∞ and NaN come back as x + x with exponent 0. */
export function f128Frexp(a: bigint): [bigint, number] {
  const k = classOf(a);
  if (k !== FINITE) return [f128Add(a, a), 0];
  const sig = sigOf(a);
  const len = bitLen(sig);
  // the mantissa is sig · 2^−len, exactly representable
  return [roundPack(isNeg(a), sig, -len), expOf(a) + len];
}

/** ldexpf128 / scalbnf128: a · 2^n, rounded once. */
export function f128Ldexp(a: bigint, n: number): bigint {
  const k = classOf(a);
  if (isNaNClass(k)) return nan1(a);
  if (k !== FINITE) return a;
  // beyond ±40000 the result is 0 or ∞ anyway; clamping keeps the exponent arithmetic small
  return roundPack(isNeg(a), sigOf(a), expOf(a) + Math.max(-40000, Math.min(40000, n)));
}

/** modff128: [fractional part, integral part], both with the sign of x (|x| < 1 comes back unchanged). */
export function f128Modf(a: bigint): [bigint, bigint] {
  const k = classOf(a);
  const signZero = a & F128_SIGN;
  if (isNaNClass(k)) {
    const q = nan1(a);
    return [q, q];
  }
  if (k === INF) return [signZero, a];
  if (k === ZERO || expOf(a) + bitLen(sigOf(a)) <= 0) return [a, signZero];
  const ip = f128RoundIntegral(a, IntegralMode.Trunc);
  const fr = f128Sub(a, ip); // exact
  return [classOf(fr) === ZERO ? signZero : fr, ip];
}

const TWO63 = roundPack(false, 1n, 63);

/**
 * lrintf128, llrintf128 (HalfEven), lroundf128, llroundf128 (HalfAway) to a w-bit integer, as
 * glibc: |x| < 2^63 rounds from the bits (a result of 2^63 wraps to −2^63); larger values,
 * ∞ and NaN go through (long) x, libgcc's saturating __fixtfdi. Returns the unsigned bits.
 */
export function f128ToIntRounded(a: bigint, mode: IntegralMode, w: number): bigint {
  const k = classOf(a);
  const mag = a & ~F128_SIGN;
  if (k === FINITE && f128Compare(mag, TWO63) === REL_LT) {
    const r = f128ToInt(f128RoundIntegral(a, mode), 128, true);
    return BigInt.asUintN(w, BigInt.asIntN(64, r));
  }
  return BigInt.asUintN(w, BigInt.asIntN(64, f128ToInt(a, 64, true)));
}
