/**
 * <math.h>-level operations on x86 long double (fp80.ts patterns), matching glibc on x86-64
 * (floorl, roundl, fminl, frexpl, …) and LLVM's llvm.is.fpclass for x86_fp80. Exact: every
 * result here is representable or rounded once.
 */
import {
  bitLen,
  classOf,
  expField,
  F80_NEG_ZERO,
  F80_SIGN,
  f80Add,
  f80Compare,
  f80Sub,
  FINITE,
  INF,
  INVALID,
  isNeg,
  nan1,
  QNAN,
  REL_EQ,
  REL_GT,
  REL_LT,
  REL_UNORDERED,
  roundPack,
  SNAN,
  ZERO,
} from './fp80.js';

/** Rounding of f80RoundIntegral, as the C functions name them. */
export const IntegralMode = {
  Floor: 0,
  Ceil: 1,
  Trunc: 2,
  /** round: halfway cases away from zero */
  HalfAway: 3,
  /** rint, nearbyint, roundeven: halfway cases to even (the default rounding mode) */
  HalfEven: 4,
} as const;
export type IntegralMode = (typeof IntegralMode)[keyof typeof IntegralMode];

function sigExp(a: bigint): [bigint, number] {
  const ex = expField(a);
  return [a & ((1n << 64n) - 1n), (ex === 0 ? 1 : ex) - 16383 - 63];
}

/** floorl, ceill, truncl, roundl, rintl, nearbyintl: an integral value (sign kept for zeros). */
export function f80RoundIntegral(a: bigint, mode: IntegralMode): bigint {
  const k = classOf(a);
  if (k >= QNAN) return nan1(a, k);
  if (k !== FINITE) return a;
  const neg = isNeg(a);
  const [m, e] = sigExp(a);
  if (e >= 0) return roundPack(neg, m, e);
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
  return q === 0n ? (neg ? F80_NEG_ZERO : 0n) : roundPack(neg, q, 0);
}

/** Unordered for fucomi: a NaN or an operand the FPU rejects. */
function unordered(k: number): boolean {
  return k >= QNAN;
}

/**
 * fminl/fmaxl as glibc's x86-64 assembly computes them (and llvm.minnum/maxnum, which call
 * them): ordered operands give `y < x ? y : x` (min) / `x > y ? x : y` (max), so of two zeros
 * fmin returns x and fmax y; exactly one quiet NaN gives the other operand; two NaNs or a
 * signalling one give x + y (x87 NaN rules).
 */
export function f80MinMax(x: bigint, y: bigint, max: boolean): bigint {
  const kx = classOf(x);
  const ky = classOf(y);
  const ux = unordered(kx);
  const uy = unordered(ky);
  if (!ux && !uy) {
    const r = f80Compare(y, x);
    return max ? (r === REL_LT ? x : y) : r === REL_LT ? y : x;
  }
  if (ux !== uy) {
    const nan = ux ? x : y;
    if ((nan & (1n << 62n)) !== 0n) return ux ? y : x;
  }
  return f80Add(x, y);
}

/**
 * The llvm.is.fpclass class bit of a value (0 sNaN, 1 qNaN, 2 −∞, 3 −normal, 4 −subnormal,
 * 5 −0, 6 +0, 7 +subnormal, 8 +normal, 9 +∞), or −1 for an encoding in no class: LLVM's
 * x86_fp80 lowering puts unnormals, pseudo-infinities, pseudo-NaNs and pseudo-denormals
 * (exponent 0, integer bit set) in none.
 */
export function f80FpClass(a: bigint): number {
  const k = classOf(a);
  const neg = isNeg(a);
  switch (k) {
    case SNAN:
      return 0;
    case QNAN:
      return 1;
    case INVALID:
      return -1;
    case INF:
      return neg ? 2 : 9;
    case ZERO:
      return neg ? 5 : 6;
  }
  if (expField(a) === 0) return (a & (1n << 63n)) !== 0n ? -1 : neg ? 4 : 7;
  return neg ? 3 : 8;
}

/** frexpl: [mantissa in [0.5, 1), exponent]; glibc's (NaN, ∞, 0 returned as x + x with exponent 0). */
export function f80Frexp(a: bigint): [bigint, number] {
  const k = classOf(a);
  const ex = expField(a);
  if (k === ZERO || k === INF || k === QNAN || k === SNAN || (k === INVALID && ex === 0x7fff)) return [f80Add(a, a), 0];
  const sign = a & F80_SIGN;
  const m = a & ((1n << 64n) - 1n);
  if (k === INVALID) return [sign | (0x3ffen << 64n) | m, ex - 16382]; // glibc rewrites the exponent field only
  const [sig, e] = sigExp(a);
  const len = bitLen(sig);
  return [sign | (0x3ffen << 64n) | (sig << BigInt(64 - len)), e + len];
}

/** ldexpl / scalbnl: a · 2^n, rounded once. */
export function f80Ldexp(a: bigint, n: number): bigint {
  const k = classOf(a);
  if (k >= QNAN) return nan1(a, k);
  if (k !== FINITE) return a;
  const [m, e] = sigExp(a);
  // beyond ±40000 the result is 0 or ∞ anyway; clamping keeps the exponent arithmetic small
  return roundPack(isNeg(a), m, e + Math.max(-40000, Math.min(40000, n)));
}

/** modfl: [fractional part, integral part], both with the sign of x (glibc: |x| < 1 comes back unchanged). */
export function f80Modf(a: bigint): [bigint, bigint] {
  const k = classOf(a);
  const signZero = isNeg(a) ? F80_NEG_ZERO : 0n;
  if (k >= QNAN) {
    const q = nan1(a, k);
    return [q, q];
  }
  if (k === INF) return [signZero, a];
  if (k === ZERO || expField(a) < 0x3fff) return [a, signZero];
  const ip = f80RoundIntegral(a, IntegralMode.Trunc);
  const fr = f80Sub(a, ip); // exact
  return [classOf(fr) === ZERO ? signZero : fr, ip];
}

/** llvm.minimum/maximum (IEEE 754-2019): a NaN operand gives a NaN (x87 rules), −0 < +0. */
export function f80MinimumMaximum(x: bigint, y: bigint, max: boolean): bigint {
  const r = f80Compare(x, y);
  if (r === REL_UNORDERED) return f80Add(x, y);
  if (r === REL_EQ) return isNeg(x) === max ? y : x; // zeros of both signs: the sign decides
  return (r === REL_GT) === max ? x : y;
}
