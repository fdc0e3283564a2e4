/** Integer encodings shared by the constant and attribute readers. */
import { u64, type BitcodeRecord } from '../cursor.js';
import type { ReaderContext } from './context.js';

/** Decodes a sign-rotated VBR value (sign in bit 0) as a signed 64-bit value. */
export function decodeSigned(v: bigint): bigint {
  if ((v & 1n) === 0n) return v >> 1n;
  if (v !== 1n) return -(v >> 1n);
  return -(1n << 63n); // "-0" stands for INT64_MIN
}

/** `count` sign-rotated 64-bit words at ops[at...], least significant first, as `bits` unsigned bits. */
export function wideInt(rec: BitcodeRecord, at: number, count: number, bits: number): bigint {
  let v = 0n;
  for (let i = 0; i < count; i++) v |= BigInt.asUintN(64, decodeSigned(u64(rec, at + i))) << BigInt(64 * i);
  return BigInt.asUintN(bits, v);
}

/**
 * A constant range [lo, hi) of `bitWidth` bits at ops[at...]: two signed VBRs, or for more
 * than 64 bits a word with both word counts (low 32 bits: lower, high: upper) then the words.
 * The bounds are returned as signed values.
 */
export function readConstantRange(
  ctx: ReaderContext,
  rec: BitcodeRecord,
  at: number,
  bitWidth: number,
): { range: [bigint, bigint]; next: number } {
  const n = rec.ops.length;
  if (!(bitWidth >= 1 && bitWidth <= 1 << 23)) ctx.error(`invalid constant range bit width ${bitWidth}`);
  if (n - at < 2) ctx.error('too few operands for a constant range');
  if (bitWidth <= 64) {
    const lo = BigInt.asIntN(bitWidth, decodeSigned(u64(rec, at)));
    const hi = BigInt.asIntN(bitWidth, decodeSigned(u64(rec, at + 1)));
    return { range: [lo, hi], next: at + 2 };
  }
  const counts = u64(rec, at);
  const loWords = Number(counts & 0xffffffffn);
  const hiWords = Number(counts >> 32n);
  const i = at + 1;
  if (n - i < loWords + hiWords) ctx.error('too few operands for a constant range');
  const lo = BigInt.asIntN(bitWidth, wideInt(rec, i, loWords, bitWidth));
  const hi = BigInt.asIntN(bitWidth, wideInt(rec, i + loWords, hiWords, bitWidth));
  return { range: [lo, hi], next: i + loWords + hiWords };
}
