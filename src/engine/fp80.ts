/**
 * x86 extended precision (`x86_fp80`, C `long double` on x86-64) as the x87 FPU computes it,
 * in software on BigInt. A value is its 80-bit pattern as a non-negative bigint: bit 79 the
 * sign, bits 78–64 the biased exponent (bias 16383), bits 63–0 the significand with its
 * explicit integer bit (bit 63).
 *
 * Semantics (round to nearest even, the x87 default precision control "extended"):
 *   - every result is correctly rounded; tiny results are denormalized and rounded once
 *     (underflow masked), overflow gives ±infinity;
 *   - operands are read as the FPU reads them: denormals and pseudo-denormals (exponent 0,
 *     integer bit set) are values sig · 2^-16445; unnormals, pseudo-infinities and pseudo-NaNs
 *     (integer bit clear, exponent not 0) are invalid operands;
 *   - an invalid operation (∞−∞, 0·∞, 0/0, ∞/∞, √negative, fmod(∞, y), fmod(x, 0), an invalid
 *     operand) gives the "indefinite" QNaN 0xFFFF_C000000000000000;
 *   - NaN operands propagate as the x87 does: a signalling NaN is quieted (bit 62 set); of two
 *     NaNs a quiet one wins over a signalling one, else the larger significand, and of equal
 *     significands the positive one; an invalid operand wins over any NaN.
 * Integer, float and double conversions, sqrt, fma and fmod are exact-then-rounded-once too.
 */

export const F80_SIGN = 1n << 79n;
const MANT_MASK = (1n << 64n) - 1n;
const INT_BIT = 1n << 63n;
const QUIET_BIT = 1n << 62n;
const FRAC_MASK = INT_BIT - 1n;
const BIAS = 16383;

/** The x87 default NaN ("real indefinite"), the result of every invalid operation. */
const F80_INDEFINITE = 0xffff_c000_0000_0000_0000n;
const F80_INF = 0x7fff_8000_0000_0000_0000n;
export const F80_NEG_ZERO = F80_SIGN;

/** Operand classes, in the order the special-case code tests them. */
export const ZERO = 0;
export const FINITE = 1;
export const INF = 2;
export const QNAN = 3;
export const SNAN = 4;
/** Unnormal, pseudo-infinity or pseudo-NaN: the FPU rejects them (invalid operation). */
export const INVALID = 5;

/** Relations from f80Compare, numbered as the bits of an LLVM fcmp predicate. */
export const REL_EQ = 0;
export const REL_GT = 1;
export const REL_LT = 2;
export const REL_UNORDERED = 3;

export function expField(a: bigint): number {
  return Number((a >> 64n) & 0x7fffn);
}

export function isNeg(a: bigint): boolean {
  return a >= F80_SIGN;
}

export function classOf(a: bigint): number {
  const ex = expField(a);
  const m = a & MANT_MASK;
  if (ex === 0x7fff) {
    if ((m & INT_BIT) === 0n) return INVALID;
    if ((m & FRAC_MASK) === 0n) return INF;
    return (m & QUIET_BIT) !== 0n ? QNAN : SNAN;
  }
  if (ex === 0) return m === 0n ? ZERO : FINITE;
  return (m & INT_BIT) !== 0n ? FINITE : INVALID;
}

/** The significand of a FINITE value: value = ±sig · 2^expOf(a). */
function sigOf(a: bigint): bigint {
  return a & MANT_MASK;
}

/** bitLen(sigOf(a)) of a FINITE value: 64 when normal (its integer bit is set). */
function sigLen(a: bigint): number {
  return expField(a) !== 0 ? 64 : bitLen(a & MANT_MASK);
}

/** The exponent of the significand's least significant bit of a FINITE value. */
function expOf(a: bigint): number {
  const ex = expField(a);
  return (ex === 0 ? 1 : ex) - BIAS - 63;
}

export function bitLen(x: bigint): number {
  if (x === 0n) return 0;
  const h = x.toString(16);
  const d = h.charCodeAt(0);
  const top = d <= 57 ? d - 48 : d - 87;
  return h.length * 4 - (top >= 8 ? 0 : top >= 4 ? 1 : top >= 2 ? 2 : 3);
}

// ------------------------------------------------------------------ rounding

/** A binary floating-point format: precision (bits, incl. the leading one) and normal exponent range. */
interface Format {
  readonly p: number;
  readonly emin: number;
  readonly emax: number;
}

const FMT80: Format = { p: 64, emin: -16382, emax: 16383 };
const FMT64: Format = { p: 53, emin: -1022, emax: 1023 };
const FMT32: Format = { p: 24, emin: -126, emax: 127 };

/** Exponent of the last bit of the most recent roundSig result (avoids an allocation). */
let roundedLsb = 0;

/**
 * Round sig · 2^e (sig > 0), plus something in (0, 2^e) when `sticky`, to format f, to
 * nearest even. Callers passing `sticky` give sig at least p + 2 bits. Returns the rounded
 * significand (its last bit at 2^roundedLsb; fewer than p bits for a subnormal, 0 when it
 * rounds to zero) or -1n on overflow.
 */
function roundSig(sig: bigint, e: number, sticky: boolean, f: Format): bigint {
  const lead = e + bitLen(sig) - 1;
  const lsb = Math.max(lead - (f.p - 1), f.emin - (f.p - 1));
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
  if (q >> BigInt(f.p) !== 0n) {
    q >>= 1n;
    l++;
  }
  if (l + f.p - 1 > f.emax) return -1n;
  roundedLsb = l;
  return q;
}

/** ±sig · 2^e (exact, plus a sticky remainder) rounded to an fp80 pattern. */
export function roundPack(neg: boolean, sig: bigint, e: number, sticky = false): bigint {
  const s = neg ? F80_SIGN : 0n;
  if (sig === 0n) return s;
  const q = roundSig(sig, e, sticky, FMT80);
  if (q < 0n) return s | F80_INF;
  if (q === 0n) return s;
  const ex = q >= INT_BIT ? roundedLsb + 63 + BIAS : 0;
  return s | (BigInt(ex) << 64n) | q;
}

// ------------------------------------------------------------------ NaNs

function quiet(a: bigint): bigint {
  return a | QUIET_BIT;
}

/** The result of a unary operation on a NaN or invalid operand. */
export function nan1(a: bigint, k: number): bigint {
  return k === INVALID ? F80_INDEFINITE : quiet(a);
}

/** The result of a binary operation when either operand is a NaN or invalid (x87 rules). */
function nan2(a: bigint, ka: number, b: bigint, kb: number): bigint {
  if (ka === INVALID || kb === INVALID) return F80_INDEFINITE;
  const an = ka === QNAN || ka === SNAN;
  const bn = kb === QNAN || kb === SNAN;
  if (!bn) return quiet(a);
  if (!an) return quiet(b);
  if (ka !== kb) return quiet(ka === QNAN ? a : b);
  const ma = a & MANT_MASK;
  const mb = b & MANT_MASK;
  if (ma !== mb) return quiet(ma > mb ? a : b);
  return quiet(isNeg(a) ? b : a);
}

function isNaNClass(k: number): boolean {
  return k >= QNAN;
}

// ------------------------------------------------------------------ arithmetic

function signedInf(neg: boolean): bigint {
  return neg ? F80_SIGN | F80_INF : F80_INF;
}

/** A finite or zero value in canonical form (pseudo-denormals normalized), as the FPU delivers it. */
function canonical(a: bigint, k: number): bigint {
  return k === FINITE ? roundPack(isNeg(a), sigOf(a), expOf(a)) : a;
}

function addSigned(a: bigint, b: bigint, negateB: boolean): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb);
  const sa = isNeg(a);
  const sb = isNeg(b) !== negateB;
  if (ka === INF) return kb === INF && sa !== sb ? F80_INDEFINITE : signedInf(sa);
  if (kb === INF) return signedInf(sb);
  if (ka === ZERO && kb === ZERO) return sa && sb ? F80_NEG_ZERO : 0n;
  if (ka === ZERO) return roundPack(sb, sigOf(b), expOf(b));
  if (kb === ZERO) return canonical(a, ka);
  const ea = expOf(a);
  const eb = expOf(b);
  let ma = sigOf(a);
  let mb = sigOf(b);
  const la = ea + sigLen(a);
  const lb = eb + sigLen(b);
  // An operand below half an ulp of the other's smallest possible result leaves it unchanged.
  if (la - lb >= 66) return roundPack(sa, ma, ea);
  if (lb - la >= 66) return roundPack(sb, mb, eb);
  const e = Math.min(ea, eb);
  ma <<= BigInt(ea - e);
  mb <<= BigInt(eb - e);
  const s = (sa ? -ma : ma) + (sb ? -mb : mb);
  if (s === 0n) return 0n;
  return s < 0n ? roundPack(true, -s, e) : roundPack(false, s, e);
}

export function f80Add(a: bigint, b: bigint): bigint {
  return addSigned(a, b, false);
}

export function f80Sub(a: bigint, b: bigint): bigint {
  return addSigned(a, b, true);
}

export function f80Mul(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb);
  const neg = isNeg(a) !== isNeg(b);
  if (ka === INF || kb === INF) return ka === ZERO || kb === ZERO ? F80_INDEFINITE : signedInf(neg);
  if (ka === ZERO || kb === ZERO) return neg ? F80_NEG_ZERO : 0n;
  return roundPack(neg, sigOf(a) * sigOf(b), expOf(a) + expOf(b));
}

export function f80Div(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb);
  const neg = isNeg(a) !== isNeg(b);
  if (ka === INF) return kb === INF ? F80_INDEFINITE : signedInf(neg);
  if (kb === INF) return neg ? F80_NEG_ZERO : 0n;
  if (kb === ZERO) return ka === ZERO ? F80_INDEFINITE : signedInf(neg);
  if (ka === ZERO) return neg ? F80_NEG_ZERO : 0n;
  const ma = sigOf(a);
  const mb = sigOf(b);
  // enough quotient bits (66) for a correct rounding with the remainder as sticky bit
  const k = Math.max(0, 66 + sigLen(b) - sigLen(a));
  const n = ma << BigInt(k);
  const q = n / mb;
  return roundPack(neg, q, expOf(a) - expOf(b) - k, q * mb !== n);
}

/** C fmodl (= LLVM frem): x − trunc(x/y)·y, exact, with the sign of x. */
export function f80Rem(a: bigint, b: bigint): bigint {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return nan2(a, ka, b, kb);
  if (ka === INF || kb === ZERO) return F80_INDEFINITE;
  if (kb === INF || ka === ZERO) return canonical(a, ka);
  const ea = expOf(a);
  const eb = expOf(b);
  const e = Math.min(ea, eb);
  const r = (sigOf(a) << BigInt(ea - e)) % (sigOf(b) << BigInt(eb - e));
  return roundPack(isNeg(a), r, e);
}

export function f80Neg(a: bigint): bigint {
  return a ^ F80_SIGN;
}

export function f80Abs(a: bigint): bigint {
  return a & ~F80_SIGN;
}

export function f80CopySign(a: bigint, b: bigint): bigint {
  return (a & ~F80_SIGN) | (b & F80_SIGN);
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

export function f80Sqrt(a: bigint): bigint {
  const k = classOf(a);
  if (isNaNClass(k)) return nan1(a, k);
  if (k === ZERO) return a;
  if (isNeg(a)) return F80_INDEFINITE;
  if (k === INF) return a;
  let m = sigOf(a);
  let e = expOf(a);
  if (e & 1) {
    m <<= 1n;
    e--;
  }
  // scale so that the root has at least 66 bits
  const half = Math.max(0, Math.ceil((133 - bitLen(m)) / 2));
  const n = m << BigInt(2 * half);
  const r = isqrt(n);
  return roundPack(false, r, e / 2 - half, r * r !== n);
}

/**
 * x·y + z rounded once: C fmal, with glibc's special cases (which its x87 arithmetic decides):
 * z ∞ or NaN with x, y not: (z + x) + y; z zero and x, y non-zero: x·y; any ∞/NaN or a zero
 * factor: x·y + z in two operations; a product certain to overflow: x·y.
 */
export function f80Fma(x: bigint, y: bigint, z: bigint): bigint {
  const kx = classOf(x);
  const ky = classOf(y);
  const kz = classOf(z);
  const topX = expField(x) === 0x7fff;
  const topY = expField(y) === 0x7fff;
  if (expField(z) === 0x7fff && !topX && !topY) return f80Add(f80Add(z, x), y);
  if (kz === ZERO && kx !== ZERO && ky !== ZERO) return f80Mul(x, y);
  if (topX || topY || kx === ZERO || ky === ZERO) return f80Add(f80Mul(x, y), z);
  // certain overflow: the product alone (glibc does not look at z then, even an invalid one)
  if (expField(x) + expField(y) > 0x7fff + BIAS) return f80Mul(x, y);
  const neg = isNeg(x) !== isNeg(y);
  if (kx === INVALID || ky === INVALID) {
    // glibc replaces a product below a quarter of the smallest denormal by that denormal
    if (expField(x) + expField(y) >= BIAS - 66) return F80_INDEFINITE;
    const tiny = roundPack(neg, 1n, -16445);
    if (expField(z) >= 3) return f80Add(tiny, z);
    return f80Mul(f80Add(f80Mul(z, roundPack(false, 1n, 65)), tiny), roundPack(false, 1n, -65));
  }
  if (kz === INVALID) return F80_INDEFINITE;
  const mp = sigOf(x) * sigOf(y);
  const ep = expOf(x) + expOf(y);
  const ez = expOf(z);
  const e = Math.min(ep, ez);
  const p = mp << BigInt(ep - e);
  const q = sigOf(z) << BigInt(ez - e);
  const s = (neg ? -p : p) + (isNeg(z) ? -q : q);
  if (s === 0n) return 0n;
  return s < 0n ? roundPack(true, -s, e) : roundPack(false, s, e);
}

/** The relation of a to b: REL_LT, REL_EQ, REL_GT or REL_UNORDERED (NaN or invalid operand). */
export function f80Compare(a: bigint, b: bigint): number {
  const ka = classOf(a);
  const kb = classOf(b);
  if (isNaNClass(ka) || isNaNClass(kb)) return REL_UNORDERED;
  if (ka === ZERO && kb === ZERO) return REL_EQ;
  const na = ka !== ZERO && isNeg(a);
  const nb = kb !== ZERO && isNeg(b);
  if (na !== nb) return na ? REL_LT : REL_GT;
  const mag = compareMagnitude(a, ka, b, kb);
  if (mag === 0) return REL_EQ;
  return mag < 0 !== na ? REL_LT : REL_GT;
}

/** Sign of |a| − |b| for non-NaN operands. */
function compareMagnitude(a: bigint, ka: number, b: bigint, kb: number): number {
  if (ka === INF || kb === INF) return ka === kb ? 0 : ka === INF ? 1 : -1;
  if (ka === ZERO || kb === ZERO) return ka === kb ? 0 : ka === ZERO ? -1 : 1;
  const ma = sigOf(a);
  const mb = sigOf(b);
  const ea = expOf(a);
  const eb = expOf(b);
  const la = ea + sigLen(a);
  const lb = eb + sigLen(b);
  if (la !== lb) return la > lb ? 1 : -1;
  const x = ea >= eb ? ma << BigInt(ea - eb) : ma;
  const y = eb >= ea ? mb << BigInt(eb - ea) : mb;
  return x === y ? 0 : x > y ? 1 : -1;
}

/** The result of an LLVM fcmp predicate (the predicate's bits are the relations it accepts). */
export function f80Fcmp(pred: number, a: bigint, b: bigint): number {
  return (pred >> f80Compare(a, b)) & 1;
}

// ------------------------------------------------------------------ conversions

const f64 = new Float64Array(1);
const f64bits = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const f32bits = new Uint32Array(f32.buffer);

/** Widen an IEEE binary value (frac bits, exponent bits) exactly; signalling NaNs are quieted (as fld m32/m64). */
function widen(bits: bigint, fracBits: number, expBits: number): bigint {
  const fb = BigInt(fracBits);
  const sign = (bits >> (fb + BigInt(expBits))) & 1n ? F80_SIGN : 0n;
  const emax = (1 << expBits) - 1;
  const bias = emax >> 1;
  const ex = Number((bits >> fb) & BigInt(emax));
  const frac = bits & ((1n << fb) - 1n);
  if (ex === emax) {
    if (frac === 0n) return sign | F80_INF;
    return sign | (0x7fffn << 64n) | INT_BIT | QUIET_BIT | (frac << BigInt(63 - fracBits));
  }
  if (ex === 0) return frac === 0n ? sign : roundPack(sign !== 0n, frac, 1 - bias - fracBits);
  return roundPack(sign !== 0n, frac | (1n << fb), ex - bias - fracBits);
}

/** Narrow to an IEEE binary format (fstp m32/m64): correctly rounded; NaN payloads keep their top bits. */
function narrow(a: bigint, fracBits: number, expBits: number, f: Format): bigint {
  const fb = BigInt(fracBits);
  const eb = BigInt(expBits);
  const emax = (1n << eb) - 1n;
  const sign = isNeg(a) ? 1n << (fb + eb) : 0n;
  const k = classOf(a);
  const quietBit = 1n << (fb - 1n);
  switch (k) {
    case ZERO:
      return sign;
    case INF:
      return sign | (emax << fb);
    case QNAN:
    case SNAN:
      return sign | (emax << fb) | quietBit | ((a & FRAC_MASK) >> BigInt(63 - fracBits));
    case INVALID:
      return (1n << (fb + eb)) | (emax << fb) | quietBit;
  }
  const q = roundSig(sigOf(a), expOf(a), false, f);
  if (q < 0n) return sign | (emax << fb);
  if (q === 0n) return sign;
  if (q >> fb === 0n) return sign | q; // subnormal
  const bias = Number(emax >> 1n);
  return sign | (BigInt(roundedLsb + fracBits + bias) << fb) | (q & ((1n << fb) - 1n));
}

export function f80FromDoubleBits(bits: bigint): bigint {
  return widen(bits, 52, 11);
}

export function f80FromFloatBits(bits: number): bigint {
  return widen(BigInt(bits), 23, 8);
}

export function f80FromDouble(x: number): bigint {
  f64[0] = x;
  return widen(f64bits[0]!, 52, 11);
}

export function f80FromFloat(x: number): bigint {
  f32[0] = x;
  return widen(BigInt(f32bits[0]!), 23, 8);
}

/** The 64-bit pattern of the double nearest to a. */
export function f80ToDoubleBits(a: bigint): bigint {
  return narrow(a, 52, 11, FMT64);
}

export function f80ToDouble(a: bigint): number {
  f64bits[0] = f80ToDoubleBits(a);
  return f64[0]!;
}

/** The 32-bit pattern of the float nearest to a. */
export function f80ToFloatBits(a: bigint): number {
  return Number(narrow(a, 23, 8, FMT32));
}

export function f80ToFloat(a: bigint): number {
  f32bits[0] = f80ToFloatBits(a);
  return f32[0]!;
}

/** An integer (any size) rounded to fp80. */
export function f80FromInt(v: bigint): bigint {
  if (v === 0n) return 0n;
  return v < 0n ? roundPack(true, -v, 0) : roundPack(false, v, 0);
}

/** The value of a FINITE or ZERO operand truncated toward zero; null for NaN, ∞, invalid. */
export function f80TruncToInt(a: bigint): bigint | null {
  const k = classOf(a);
  if (k === ZERO) return 0n;
  if (k !== FINITE) return null;
  const e = expOf(a);
  const m = e >= 0 ? sigOf(a) << BigInt(e) : sigOf(a) >> BigInt(-e);
  return isNeg(a) ? -m : m;
}

/**
 * fptosi / fptoui to width w, as x86-64 code computes them. In range: the value truncated
 * toward zero. Out of range (LLVM: poison), NaN, ∞: what clang's x87 sequences give — fptosi
 * stores through fistp of 16, 32 or 64 bits (so the "integer indefinite" 0x80…0 of that size,
 * truncated to w); fptoui to 8, 16, 32 bits goes through a fistp of 16, 32, 64 bits, to 64
 * bits through fistp of x or of x − 2^63 (then bit 63 flipped). Above 64 bits
 * (compiler-rt/libgcc calls): fptosi gives −2^(w−1), fptoui 0 below zero and 2^w − 1 above.
 * Returns the unsigned bits.
 */
export function f80ToInt(a: bigint, w: number, signed: boolean): bigint {
  const t = f80TruncToInt(a);
  const mask = (1n << BigInt(w)) - 1n;
  const fist = (bits: number): bigint => {
    const lim = 1n << BigInt(bits - 1);
    return t !== null && t >= -lim && t < lim ? t : -lim;
  };
  if (w > 64) {
    if (signed) return (t !== null && t >= -(1n << BigInt(w - 1)) && t < 1n << BigInt(w - 1) ? t : -(1n << BigInt(w - 1))) & mask;
    if (t === null) return classOf(a) === INF && !isNeg(a) ? mask : 0n;
    return t < 0n ? 0n : t > mask ? mask : t;
  }
  if (signed) return fist(w <= 16 ? 16 : w <= 32 ? 32 : 64) & mask;
  if (w <= 32) return fist(w <= 8 ? 16 : w <= 16 ? 32 : 64) & mask;
  // 64 bits: x < 2^63 ? fistp(x) : fistp(x − 2^63) ^ 2^63
  const big = t !== null ? t >= 1n << 63n : classOf(a) === INF && !isNeg(a);
  if (!big) return fist(64) & mask;
  const r = t !== null && t - (1n << 63n) < 1n << 63n ? t - (1n << 63n) : -(1n << 63n);
  return (r & mask) ^ (1n << 63n);
}

/** The fp80 pattern in bytes [off, off+10), little-endian. */
export function f80FromBytes(b: ArrayLike<number>, off: number): bigint {
  let lo = 0;
  let hi = 0;
  for (let i = 3; i >= 0; i--) lo = lo * 256 + b[off + i]!;
  for (let i = 7; i >= 4; i--) hi = hi * 256 + b[off + i]!;
  const top = b[off + 8]! | (b[off + 9]! << 8);
  return (BigInt(top) << 64n) | (BigInt(hi) << 32n) | BigInt(lo);
}

export function f80ToBytes(a: bigint, out: { [i: number]: unknown }, off: number): void {
  const lo = Number(a & 0xffff_ffffn);
  const hi = Number((a >> 32n) & 0xffff_ffffn);
  const top = Number(a >> 64n);
  for (let i = 0; i < 4; i++) out[off + i] = (lo >>> (8 * i)) & 0xff;
  for (let i = 0; i < 4; i++) out[off + 4 + i] = (hi >>> (8 * i)) & 0xff;
  out[off + 8] = top & 0xff;
  out[off + 9] = (top >>> 8) & 0xff;
}
