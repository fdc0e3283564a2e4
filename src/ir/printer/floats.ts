/**
 * Floating-point constant formatting as llvm-dis does it: float and double print as
 * `%e`-like decimals with 6 digits when that text reads back to exactly the same value,
 * otherwise as the 16 hex digits of the value as a double; the other types print as a
 * letter-tagged hex bit pattern (0xH half, 0xR bfloat, 0xK x86_fp80, 0xL fp128, 0xM ppc_fp128).
 */
import { TypeKind } from '../types.js';

const MASK64 = (1n << 64n) - 1n;

function hex(v: bigint, digits: number): string {
  return v.toString(16).toUpperCase().padStart(digits, '0');
}

/** Decimal rendering of an IEEE value with `precision` significand bits, as APFloat::toString(6, 0). */
function toScientific(negative: boolean, significandIn: bigint, expIn: number): string {
  const formatPrecision = 6;
  let significand = significandIn;
  let exp = expIn;
  // Drop trailing binary zeros.
  while ((significand & 1n) === 0n) {
    significand >>= 1n;
    exp++;
  }
  // Change the exponent base from 2 to 10.
  if (exp > 0) {
    significand <<= BigInt(exp);
    exp = 0;
  } else if (exp < 0) {
    significand *= 5n ** BigInt(-exp);
  }
  // Drop decimal digits beyond what the precision needs (truncating, as APFloat does).
  const bits = significand.toString(2).length;
  const bitsRequired = Math.floor((formatPrecision * 196 + 58) / 59);
  if (bits > bitsRequired) {
    const tensRemovable = Math.floor(((bits - bitsRequired) * 59) / 196);
    if (tensRemovable > 0) {
      exp += tensRemovable;
      significand /= 10n ** BigInt(tensRemovable);
    }
  }
  // Digits, least significant first, without trailing zeros.
  let digits = significand.toString(10);
  let trail = 0;
  while (digits.length - trail > 1 && digits[digits.length - 1 - trail] === '0') trail++;
  exp += trail;
  digits = digits.slice(0, digits.length - trail);
  // Round half up to the precision, dropping zeros that rounding exposes.
  if (digits.length > formatPrecision) {
    const keep = digits.slice(0, formatPrecision);
    const dropped = digits.length - formatPrecision;
    if (digits.charCodeAt(formatPrecision) < 0x35) {
      const trimmed = keep.replace(/0+$/, '');
      exp += dropped + (keep.length - trimmed.length);
      digits = trimmed;
    } else {
      let i = keep.length - 1;
      while (i >= 0 && keep[i] === '9') i--;
      if (i < 0) {
        exp += dropped + keep.length;
        digits = '1';
      } else {
        exp += dropped + (keep.length - 1 - i);
        digits = keep.slice(0, i) + String.fromCharCode(keep.charCodeAt(i) + 1);
      }
    }
  }
  const n = digits.length;
  exp += n - 1;
  let out = negative ? '-' : '';
  out += digits[0] + '.' + digits.slice(1);
  if (formatPrecision > n - 1) out += '0'.repeat(formatPrecision - n + 1);
  const absExp = Math.abs(exp);
  out += (exp >= 0 ? 'e+' : 'e-') + (absExp < 10 ? '0' : '') + String(absExp);
  return out;
}

interface IEEEFormat {
  expBits: number;
  mantBits: number;
}

const SINGLE: IEEEFormat = { expBits: 8, mantBits: 23 };
const DOUBLE: IEEEFormat = { expBits: 11, mantBits: 52 };

/** The decimal text for a finite float/double, or null for infinities and NaNs. */
function decimalText(bits: bigint, f: IEEEFormat): string | null {
  const mantMask = (1n << BigInt(f.mantBits)) - 1n;
  const expMax = (1 << f.expBits) - 1;
  const negative = ((bits >> BigInt(f.expBits + f.mantBits)) & 1n) === 1n;
  const biased = Number((bits >> BigInt(f.mantBits)) & BigInt(expMax));
  const mant = bits & mantMask;
  if (biased === expMax) return null;
  const bias = (1 << (f.expBits - 1)) - 1;
  if (biased === 0 && mant === 0n) return (negative ? '-' : '') + '0.000000e+00';
  const significand = biased === 0 ? mant : mant | (1n << BigInt(f.mantBits));
  const exponent = (biased === 0 ? 1 : biased) - bias;
  return toScientific(negative, significand, exponent - f.mantBits);
}

const scratch = new DataView(new ArrayBuffer(8));

function doubleFromBits(bits: bigint): number {
  scratch.setBigUint64(0, bits);
  return scratch.getFloat64(0);
}

/** Widens float bits to double bits exactly (NaN payloads shift up, the quiet bit is kept as is). */
function floatBitsToDoubleBits(bits: bigint): bigint {
  const b = Number(bits & 0xffffffffn);
  const sign = BigInt(b >>> 31) << 63n;
  const e = (b >>> 23) & 0xff;
  const m = BigInt(b & 0x7fffff);
  if (e === 0xff) return sign | (0x7ffn << 52n) | (m << 29n);
  scratch.setUint32(0, b);
  const v = scratch.getFloat32(0);
  scratch.setFloat64(0, v);
  return scratch.getBigUint64(0);
}

const cache = new Map<string, string>();

/** Formats the bit pattern of a floating-point constant of the given type kind. */
export function formatFloat(kind: TypeKind, bits: bigint): string {
  const key = `${kind}:${bits}`;
  let s = cache.get(key);
  if (s === undefined) {
    s = computeFloat(kind, bits);
    if (cache.size > 100_000) cache.clear();
    cache.set(key, s);
  }
  return s;
}

function computeFloat(kind: TypeKind, bits: bigint): string {
  switch (kind) {
    case TypeKind.Float:
    case TypeKind.Double: {
      const isDouble = kind === TypeKind.Double;
      const dbits = isDouble ? bits & MASK64 : floatBitsToDoubleBits(bits);
      const text = decimalText(isDouble ? dbits : bits & 0xffffffffn, isDouble ? DOUBLE : SINGLE);
      if (text !== null && Number(text) === doubleFromBits(dbits)) return text;
      return '0x' + dbits.toString(16).toUpperCase();
    }
    case TypeKind.Half:
      return '0xH' + hex(bits & 0xffffn, 4);
    case TypeKind.BFloat:
      return '0xR' + hex(bits & 0xffffn, 4);
    case TypeKind.X86_FP80:
      return '0xK' + hex((bits >> 64n) & 0xffffn, 4) + hex(bits & MASK64, 16);
    case TypeKind.FP128:
      return '0xL' + hex(bits & MASK64, 16) + hex((bits >> 64n) & MASK64, 16);
    case TypeKind.PPC_FP128:
      return '0xM' + hex(bits & MASK64, 16) + hex((bits >> 64n) & MASK64, 16);
    default:
      return '0x' + bits.toString(16).toUpperCase();
  }
}
