/**
 * IEEE 754 binary128 (`fp128`, C `__float128` / `_Float128` on x86-64) as the native program
 * computes it, in software on BigInt. A value is its 128-bit pattern as a non-negative bigint:
 * bit 127 the sign, bits 126–112 the biased exponent (bias 16383), bits 111–0 the fraction
 * (bit 111 the quiet bit of a NaN).
 *
 * x86-64 has no binary128 hardware: clang calls libgcc's soft-fp routines (__addtf3, __subtf3,
 * __multf3, __divtf3, the __*tf2 comparisons, __fix*tf*, __float*tf, __extend*tf2, __trunctf*2)
 * and glibc's libm (fmodf128 for frem, sqrtf128, fmaf128, …). So this follows libgcc's soft-fp
 * as configured for x86-64 (config/i386/sfp-machine.h), round to nearest even:
 *   - every result is correctly rounded; tiny results are rounded once as subnormals, overflow
 *     gives ±infinity;
 *   - an invalid operation (∞−∞, 0·∞, 0/0, ∞/∞, √negative) gives the default NaN
 *     0xFFFF8000…0 (sign set, only the quiet bit in the fraction);
 *   - a NaN operand propagates with its quiet bit set, sign and payload kept; of two NaN
 *     operands the one with the larger raw fraction wins, and of equal fractions x for + and ×,
 *     y for − and ÷ (_FP_CHOOSENAN). Subtraction does not flip the sign of a NaN y.
 * Conversions round once; to integers they saturate as libgcc's __fix* do (see f128ToInt).
 */
import { bitLen, roundPack as f80RoundPack } from './fp80.js';

export const F128_SIGN = 1n << 127n;
const FRAC_BITS = 112n;
const FRAC_MASK = (1n << FRAC_BITS) - 1n;
const IMPLICIT = 1n << FRAC_BITS;
const QUIET = 1n << 111n;
const BIAS = 16383;
const EXP_MAX = 0x7fff;
export const F128_INF = 0x7fffn << FRAC_BITS;
/** libgcc's x86-64 default NaN (_FP_NANSIGN_Q = 1, _FP_NANFRAC_Q = the quiet bit). */
export const F128_DEFAULT_NAN = F128_SIGN | F128_INF | QUIET;
export const F128_NEG_ZERO = F128_SIGN;
const P = 113;

/** Operand classes. */
export const ZERO = 0;
export const FINITE = 1;
export const INF = 2;
export const QNAN = 3;
export const SNAN = 4;

/** Relations from f128Compare, numbered as the bits of an LLVM fcmp predicate. */
export const REL_EQ = 0;
export const REL_GT = 1;
export const REL_LT = 2;
export const REL_UNORDERED = 3;

/** The operation a NaN result comes from: _FP_CHOOSENAN prefers x on equal fractions for + and ×. */
const OP_ADD = 0;
const OP_SUB = 1;
const OP_MUL = 2;
const OP_DIV = 3;

export function expField(a: bigint): number {
  return Number((a >> FRAC_BITS) & 0x7fffn);
}

export function isNeg(a: bigint): boolean {
  return a >= F128_SIGN;
}

export function classOf(a: bigint): number {
  const ex = expField(a);
  const f = a & FRAC_MASK;
  if (ex === EXP_MAX) return f === 0n ? INF : (f & QUIET) !== 0n ? QNAN : SNAN;
  if (ex === 0) return f === 0n ? ZERO : FINITE;
  return FINITE;
}

export function isNaNClass(k: number): boolean {
  return k >= QNAN;
}

/** The significand of a FINITE value: value = ±sigOf(a) · 2^expOf(a). */
export function sigOf(a: bigint): bigint {
  return expField(a) !== 0 ? (a & FRAC_MASK) | IMPLICIT : a & FRAC_MASK;
}

/** The exponent of the significand's least significant bit of a FINITE value. */
export function expOf(a: bigint): number {
  const ex = expField(a);
  return (ex === 0 ? 1 : ex) - BIAS - 112;
}

// ------------------------------------------------------------------ rounding

/** An IEEE interchange format: fraction bits (the hidden bit not counted) and exponent bits. */
export interface IeeeFormat {
  readonly fracBits: number;
  readonly expBits: number;
}

export const BINARY128: IeeeFormat = { fracBits: 112, expBits: 15 };
export const BINARY64: IeeeFormat = { fracBits: 52, expBits: 11 };
export const BINARY32: IeeeFormat = { fracBits: 23, expBits: 8 };
export const BINARY16: IeeeFormat = { fracBits: 10, expBits: 5 };
export const BFLOAT16: IeeeFormat = { fracBits: 7, expBits: 8 };

/** Exponent of the last bit of the most recent roundSig result (avoids an allocation). */
let roundedLsb = 0;

/**
 * Round sig · 2^e (sig > 0), plus something in (0, 2^e) when `sticky`, to p bits with normal
 * exponents emin..emax, to nearest even. Callers passing `sticky` give sig at least p + 2
 * bits. Returns the rounded significand (last bit at 2^roundedLsb; fewer than p bits for a
 * subnormal, 0 when it rounds to zero) or -1n on overflow.
 */
function roundSig(sig: bigint, e: number, sticky: boolean, p: number, emin: number, emax: number): bigint {
  const lead = e + bitLen(sig) - 1;
  const lsb = Math.max(lead - (p - 1), emin - (p - 1));
  const shift = lsb - e;
  let q: bigint;
  if (shift > 0) {
    const s = BigInt(shift);
    q = sig >> s;
    const rem = sig - (q << s);
    const half = 1n << (s - 1n);
    if (rem > half || (rem === half && (sticky || (q & 1n) === 1n))) q++;
  } else q = sig << BigInt(-shift);
  let l = lsb;
  if (q >> BigInt(p) !== 0n) {
    q >>= 1n;
    l++;
  }
  if (l + p - 1 > emax) return -1n;
  roundedLsb = l;
  return q;
}

/** ±sig · 2^e (exact, plus a sticky remainder below 2^e) rounded to a pattern of format f. */
export function packIeee(f: IeeeFormat, neg: boolean, sig: bigint, e: number, sticky = false): bigint {
  const fb = BigInt(f.fracBits);
  const s = neg ? 1n << (fb + BigInt(f.expBits)) : 0n;
  if (sig === 0n) return s;
  const bias = (1 << (f.expBits - 1)) - 1;
  const q = roundSig(sig, e, sticky, f.fracBits + 1, 1 - bias, bias);
  const expMax = (1n << BigInt(f.expBits)) - 1n;
  if (q < 0n) return s | (expMax << fb);
  if (q >> fb === 0n) return s | q; // subnormal (or zero)
  return s | (BigInt(roundedLsb + f.fracBits + bias) << fb) | (q & ((1n << fb) - 1n));
}

/** ±sig · 2^e rounded to binary128. */
export function roundPack(neg: boolean, sig: bigint, e: number, sticky = false): bigint {
  return packIeee(BINARY128, neg, sig, e, sticky);
}

// ------------------------------------------------------------------ NaNs

function quiet(a: bigint): bigint {
  return a | QUIET;
}

/** The result of a unary operation on a NaN: the NaN, quieted. */
export function nan1(a: bigint): bigint {
  return quiet(a);
}

/** The result of a binary operation when either operand is a NaN (libgcc's x86-64 rules). */
function nan2(a: bigint, ka: number, b: bigint, kb: number, op: number): bigint {
  if (!isNaNClass(kb)) return quiet(a);
  if (!isNaNClass(ka)) return quiet(b);
  const fa = a & FRAC_MASK;
  const fb = b & FRAC_MASK;
  if (fa > fb || (fa === fb && (op === OP_ADD || op === OP_MUL))) return quiet(a);
  return quiet(b);
}

// ------------------------------------------------------------------ arithmetic

function signedInf(neg: boolean): bigint {
  return neg ? F128_SIGN | F128_INF : F128_INF;
}

function signedZero(neg: boolean): bigint {
  return neg ? F128_SIGN : 0n;
}

function addSigned(a: bigint, b: bigint, subtract: boolean): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb, subtract ? OP_SUB : OP_ADD);
  const sa = isNeg(a);
  const sb = isNeg(b) !== subtract;
  if (ka === INF) return kb === INF && sa !== sb ? F128_DEFAULT_NAN : a;
  if (kb === INF) return signedInf(sb);
  if (ka === ZERO && kb === ZERO) return signedZero(sa && sb);
  if (ka === ZERO) return (b & ~F128_SIGN) | (sb ? F128_SIGN : 0n);
  if (kb === ZERO) return a;
  const ea = expOf(a);
  const eb = expOf(b);
  let ma = sigOf(a);
  let mb = sigOf(b);
  const la = ea + bitLen(ma);
  const lb = eb + bitLen(mb);
  // an operand far below half an ulp of the other leaves it unchanged
  if (la - lb >= P + 3) return a;
  if (lb - la >= P + 3) return signedZero(sb) | (b & ~F128_SIGN);
  const e = Math.min(ea, eb);
  ma <<= BigInt(ea - e);
  mb <<= BigInt(eb - e);
  const s = (sa ? -ma : ma) + (sb ? -mb : mb);
  if (s === 0n) return 0n;
  return s < 0n ? roundPack(true, -s, e) : roundPack(false, s, e);
}

export function f128Add(a: bigint, b: bigint): bigint {
  return addSigned(a, b, false);
}

export function f128Sub(a: bigint, b: bigint): bigint {
  return addSigned(a, b, true);
}

export function f128Mul(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb, OP_MUL);
  const neg = isNeg(a) !== isNeg(b);
  if (ka === INF || kb === INF) return ka === ZERO || kb === ZERO ? F128_DEFAULT_NAN : signedInf(neg);
  if (ka === ZERO || kb === ZERO) return signedZero(neg);
  return roundPack(neg, sigOf(a) * sigOf(b), expOf(a) + expOf(b));
}

export function f128Div(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb, OP_DIV);
  const neg = isNeg(a) !== isNeg(b);
  if (ka === INF) return kb === INF ? F128_DEFAULT_NAN : signedInf(neg);
  if (kb === INF) return signedZero(neg);
  if (kb === ZERO) return ka === ZERO ? F128_DEFAULT_NAN : signedInf(neg);
  if (ka === ZERO) return signedZero(neg);
  const ma = sigOf(a);
  const mb = sigOf(b);
  // enough quotient bits (P + 3) for a correct rounding with the remainder as sticky bit
  const k = Math.max(0, P + 3 + bitLen(mb) - bitLen(ma));
  const n = ma << BigInt(k);
  const q = n / mb;
  return roundPack(neg, q, expOf(a) - expOf(b) - k, q * mb !== n);
}

/**
 * fmodf128 (glibc; LLVM's frem on fp128 calls it): x − trunc(x/y)·y, exact, with the sign of x.
 * glibc returns (x·y)/(x·y) for a NaN operand, x infinite or y zero: the NaN rules of × then ÷.
 */
export function f128Rem(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb, OP_MUL);
  if (ka === INF || kb === ZERO) return F128_DEFAULT_NAN;
  if (kb === INF || ka === ZERO) return a;
  const ea = expOf(a);
  const eb = expOf(b);
  const mb = sigOf(b);
  let r: bigint;
  let e: number;
  if (ea >= eb) {
    // sigOf(a)·2^(ea−eb) mod mb without building the (up to 32766-bit) shifted dividend
    r = (sigOf(a) * powMod2(ea - eb, mb)) % mb;
    e = eb;
  } else {
    r = sigOf(a) % (mb << BigInt(eb - ea));
    e = ea;
  }
  return r === 0n ? a & F128_SIGN : roundPack(isNeg(a), r, e);
}

/** 2^n mod m (m > 0). */
function powMod2(n: number, m: bigint): bigint {
  let result = 1n % m;
  let base = 2n % m;
  while (n > 0) {
    if (n & 1) result = (result * base) % m;
    base = (base * base) % m;
    n = Math.floor(n / 2);
  }
  return result;
}

export function f128Neg(a: bigint): bigint {
  return a ^ F128_SIGN;
}

export function f128Abs(a: bigint): bigint {
  return a & ~F128_SIGN;
}

export function f128CopySign(a: bigint, b: bigint): bigint {
  return (a & ~F128_SIGN) | (b & F128_SIGN);
}

/** floor(√n) of a non-negative bigint (Newton's method from above). */
function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(bitLen(n) / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** sqrtf128 (glibc, soft-fp): correctly rounded; √−0 = −0; √negative: the default NaN. */
export function f128Sqrt(a: bigint): bigint {
  const k = classOf(a);
  if (isNaNClass(k)) return quiet(a);
  if (k === ZERO) return a;
  if (isNeg(a)) return F128_DEFAULT_NAN;
  if (k === INF) return a;
  let m = sigOf(a);
  let e = expOf(a);
  if (e & 1) {
    m <<= 1n;
    e--;
  }
  // scale so that the root has at least P + 3 bits
  const half = Math.max(0, Math.ceil((2 * (P + 3) - bitLen(m)) / 2));
  const n = m << BigInt(2 * half);
  const r = isqrt(n);
  return roundPack(false, r, e / 2 - half, r * r !== n);
}

/**
 * x·y + z rounded once: fmaf128, with glibc's special cases (ldbl-128 s_fmal.c), which it
 * computes with libgcc's arithmetic: z ∞ or NaN with x, y finite: (z + x) + y; z zero and x,
 * y non-zero: x·y; any ∞/NaN or a zero factor: x·y + z in two operations; a product certain
 * to overflow: x·y.
 */
export function f128Fma(x: bigint, y: bigint, z: bigint): bigint {
  const kx = classOf(x);
  const ky = classOf(y);
  const kz = classOf(z);
  const topX = expField(x) === EXP_MAX;
  const topY = expField(y) === EXP_MAX;
  if (expField(z) === EXP_MAX && !topX && !topY) return f128Add(f128Add(z, x), y);
  if (kz === ZERO && kx !== ZERO && ky !== ZERO) return f128Mul(x, y);
  if (topX || topY || kx === ZERO || ky === ZERO) return f128Add(f128Mul(x, y), z);
  if (expField(x) + expField(y) > EXP_MAX + BIAS) return f128Mul(x, y);
  const neg = isNeg(x) !== isNeg(y);
  const mp = sigOf(x) * sigOf(y);
  const ep = expOf(x) + expOf(y);
  const ez = expOf(z);
  const e = Math.min(ep, ez);
  // a product far below half an ulp of z leaves z
  if (ez + bitLen(sigOf(z)) - (ep + bitLen(mp)) >= P + 3) return z;
  const p = mp << BigInt(ep - e);
  const q = sigOf(z) << BigInt(ez - e);
  const s = (neg ? -p : p) + (isNeg(z) ? -q : q);
  if (s === 0n) return 0n;
  return s < 0n ? roundPack(true, -s, e) : roundPack(false, s, e);
}

/** The relation of a to b: REL_LT, REL_EQ, REL_GT or REL_UNORDERED. */
export function f128Compare(a: bigint, b: bigint): number {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return REL_UNORDERED;
  if (ka === ZERO && kb === ZERO) return REL_EQ;
  const na = isNeg(a);
  const nb = isNeg(b);
  if (na !== nb) return na ? REL_LT : REL_GT;
  // same sign, not both zero: the magnitudes order as the patterns do
  const ma = a & ~F128_SIGN;
  const mb = b & ~F128_SIGN;
  if (ma === mb) return REL_EQ;
  return ma < mb !== na ? REL_LT : REL_GT;
}

/** The result of an LLVM fcmp predicate (the predicate's bits are the relations it accepts). */
export function f128Fcmp(pred: number, a: bigint, b: bigint): number {
  return (pred >> f128Compare(a, b)) & 1;
}

// ------------------------------------------------------------------ conversions

/**
 * Widen an IEEE pattern of a narrower format exactly (__extendsftf2, __extenddftf2,
 * __extendhftf2): a NaN keeps its sign and payload, quieted.
 */
export function f128FromIeee(f: IeeeFormat, bits: bigint): bigint {
  const fb = BigInt(f.fracBits);
  const expMax = (1 << f.expBits) - 1;
  const bias = expMax >> 1;
  const neg = ((bits >> (fb + BigInt(f.expBits))) & 1n) !== 0n;
  const ex = Number((bits >> fb) & BigInt(expMax));
  const frac = bits & ((1n << fb) - 1n);
  const s = neg ? F128_SIGN : 0n;
  if (ex === expMax) return frac === 0n ? s | F128_INF : s | F128_INF | QUIET | (frac << (FRAC_BITS - fb));
  if (ex === 0) return frac === 0n ? s : roundPack(neg, frac, 1 - bias - f.fracBits);
  return roundPack(neg, frac | (1n << fb), ex - bias - f.fracBits);
}

/**
 * Narrow to an IEEE format (__trunctfdf2, __trunctfsf2, __trunctfhf2): correctly rounded; a
 * NaN keeps its sign and the top of its payload, quieted.
 */
export function f128ToIeee(f: IeeeFormat, a: bigint): bigint {
  const fb = BigInt(f.fracBits);
  const expMax = (1n << BigInt(f.expBits)) - 1n;
  const neg = isNeg(a);
  const s = neg ? 1n << (fb + BigInt(f.expBits)) : 0n;
  switch (classOf(a)) {
    case ZERO:
      return s;
    case INF:
      return s | (expMax << fb);
    case QNAN:
    case SNAN:
      return s | (expMax << fb) | (1n << (fb - 1n)) | ((a & FRAC_MASK) >> (FRAC_BITS - fb));
  }
  return packIeee(f, neg, sigOf(a), expOf(a));
}

const f64 = new Float64Array(1);
const f64bits = new BigUint64Array(f64.buffer);

export function f128FromDouble(x: number): bigint {
  f64[0] = x;
  return f128FromIeee(BINARY64, f64bits[0]!);
}

export function f128ToDouble(a: bigint): number {
  f64bits[0] = f128ToIeee(BINARY64, a);
  return f64[0]!;
}

/**
 * x86_fp80 → binary128 (__extendxftf2): exact. libgcc ignores the explicit integer bit, so
 * the result is the sign, the exponent field and the 63 fraction bits moved up (unnormals read
 * as normals, pseudo-denormals as denormals, pseudo-infinities as ∞); a NaN is quieted.
 */
export function f128FromF80(x: bigint): bigint {
  const s = (x >> 79n) & 1n ? F128_SIGN : 0n;
  const ex = (x >> 64n) & 0x7fffn;
  const f63 = x & ((1n << 63n) - 1n);
  const r = s | (ex << FRAC_BITS) | (f63 << 49n);
  return ex === 0x7fffn && f63 !== 0n ? r | QUIET : r;
}

const F80_INT_BIT = 1n << 63n;

/** binary128 → x86_fp80 (__trunctfxf2): correctly rounded; a NaN keeps its payload's top, quieted. */
export function f128ToF80(a: bigint): bigint {
  const s = isNeg(a) ? 1n << 79n : 0n;
  switch (classOf(a)) {
    case ZERO:
      return s;
    case INF:
      return s | (0x7fffn << 64n) | F80_INT_BIT;
    case QNAN:
    case SNAN:
      return s | (0x7fffn << 64n) | F80_INT_BIT | (1n << 62n) | ((a & FRAC_MASK) >> 49n);
  }
  return f80RoundPack(isNeg(a), sigOf(a), expOf(a));
}

/** An integer (any size) rounded to binary128 (__float*tf). */
export function f128FromInt(v: bigint): bigint {
  if (v === 0n) return 0n;
  return v < 0n ? roundPack(true, -v, 0) : roundPack(false, v, 0);
}

/** The value of a FINITE or ZERO operand truncated toward zero; null for NaN and ∞. */
export function f128TruncToInt(a: bigint): bigint | null {
  const k = classOf(a);
  if (k === ZERO) return 0n;
  if (k !== FINITE) return null;
  const e = expOf(a);
  const m = e >= 0 ? sigOf(a) << BigInt(e) : sigOf(a) >> BigInt(-e);
  return isNeg(a) ? -m : m;
}

/**
 * libgcc's __fix(uns)tf{si,di,ti} with an rsize-bit result: the value truncated toward zero
 * when it fits; otherwise (and for NaN and ∞, by their sign bit) signed: the most negative or
 * the most positive integer, unsigned: 0 for negative values, all ones above the range.
 */
function fixtf(a: bigint, rsize: number, signed: boolean): bigint {
  const t = f128TruncToInt(a);
  const neg = isNeg(a);
  if (signed) {
    const lim = 1n << BigInt(rsize - 1);
    if (t !== null && t >= -lim && t < lim) return t;
    return neg ? -lim : lim - 1n;
  }
  const max = (1n << BigInt(rsize)) - 1n;
  if (t !== null && t >= 0n && t <= max) return t;
  return neg ? 0n : max;
}

/**
 * fptosi / fptoui to width w, as the x86-64 code clang emits: libgcc calls of the width LLVM
 * legalizes to — fptosi through __fixtfsi (w ≤ 32), __fixtfdi (≤ 64), __fixtfti (≤ 128);
 * fptoui to 32 and 64 bits through __fixunstfsi and __fixunstfdi, below 32 and from 33 to 63
 * bits through the signed call of the next width (u8 via __fixtfsi, u40 via __fixtfdi), from 65
 * to 128 bits through __fixunstfti — then truncated to w. In range every path gives the truncated value; out of range (LLVM:
 * poison) this is what the native program sees. Returns the unsigned bits.
 */
export function f128ToInt(a: bigint, w: number, signed: boolean): bigint {
  const rsize = w <= 32 ? 32 : w <= 64 ? 64 : 128;
  const viaSigned = signed || w < 32 || (w > 32 && w < 64);
  return BigInt.asUintN(w, fixtf(a, rsize, viaSigned));
}

/** The binary128 pattern in bytes [off, off+16), little-endian. */
export function f128FromBytes(b: ArrayLike<number>, off: number): bigint {
  let hi = 0n;
  let lo = 0n;
  for (let i = 7; i >= 0; i--) lo = (lo << 8n) | BigInt(b[off + i]!);
  for (let i = 15; i >= 8; i--) hi = (hi << 8n) | BigInt(b[off + i]!);
  return (hi << 64n) | lo;
}

export function f128ToBytes(a: bigint, out: { [i: number]: unknown }, off: number): void {
  for (let i = 0; i < 16; i++) {
    out[off + i] = Number(a & 0xffn);
    a >>= 8n;
  }
}
