/**
 * Rounding to binary floating-point formats narrower than double, and of integers of any
 * width, in one step (round to nearest, ties to even). Going through float32 or double first
 * would round twice: (float)(int64_t)(2^53 + 2^29 + 1) would become 2^53 instead of
 * 2^53 + 2^30, and (_Float16)(1 + 2^-11 + 2^-40) would become 1 instead of 1 + 2^-10.
 */

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** A binary format: p significant bits (the hidden bit included), exponents emin..emax of normals. */
export interface BinaryFormat {
  readonly p: number;
  readonly emin: number;
  readonly emax: number;
}

export const HALF: BinaryFormat = { p: 11, emin: -14, emax: 15 };
export const BFLOAT16: BinaryFormat = { p: 8, emin: -126, emax: 127 };
export const FLOAT32: BinaryFormat = { p: 24, emin: -126, emax: 127 };

/** The integer nearest to q ≥ 0 (an exact double), ties to even. */
function roundEven(q: number): number {
  const f = Math.floor(q);
  const d = q - f; // exact: q has at most 53 significant bits
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/** The unbiased exponent of a positive finite double (subnormals: −1023, below every format here). */
function exponentOf(a: number): number {
  f64[0] = a;
  return ((u32[1]! >>> 20) & 0x7ff) - 1023;
}

/** x rounded once to the format (a double holding the result; ±Infinity on overflow). */
export function roundToFormat(x: number, f: BinaryFormat): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  const a = Math.abs(x);
  // the largest finite value is (2 − 2^(1−p))·2^emax; halfway above it rounds to infinity
  if (a >= (2 - 2 ** -f.p) * 2 ** f.emax) return x < 0 ? -Infinity : Infinity;
  const e = Math.max(exponentOf(a), f.emin);
  const qe = e - (f.p - 1); // the exponent of one unit in the last place
  const r = roundEven(a * 2 ** -qe) * 2 ** qe; // exact scalings by powers of two
  return x < 0 ? -r : r;
}

/** The bit length of a non-negative bigint. */
function bitLength(m: bigint): number {
  return m === 0n ? 0 : m.toString(2).length;
}

/** An integer rounded to p significant bits (ties to even), still as an exact integer. */
export function roundIntToPrecision(v: bigint, p: number): bigint {
  const neg = v < 0n;
  const m = neg ? -v : v;
  const bits = bitLength(m);
  if (bits <= p) return v;
  const drop = BigInt(bits - p);
  let q = m >> drop;
  const rem = m - (q << drop);
  const half = 1n << (drop - 1n);
  if (rem > half || (rem === half && (q & 1n) === 1n)) q += 1n;
  const r = q << drop;
  return neg ? -r : r;
}

/** An integer converted to a format of at most 53 significant bits, as a double (±Infinity on overflow). */
export function intToFormat(v: bigint, f: BinaryFormat): number {
  // after rounding to p ≤ 53 bits the value is exact as a double; roundToFormat then only
  // decides overflow (an integer is never below the format's normal range unless 0)
  return roundToFormat(Number(roundIntToPrecision(v, f.p)), f);
}
