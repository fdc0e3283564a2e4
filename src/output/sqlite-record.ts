/**
 * SQLite's record format (the payload of a table row) and its variable-length integers, for
 * the hand-written database writer in sqlite-file.ts. Facts from SQLite's "Database File
 * Format" document, sections "Variable-length integers" and "Record Format".
 *
 * A record is a header — its own length as a varint, then one serial type (varint) per
 * column — followed by the column values, each laid out as its serial type says:
 *   0 NULL · 1/2/3/4/5/6 big-endian two's-complement integer of 1/2/3/4/6/8 bytes ·
 *   7 IEEE 754 double, big-endian · 8 the integer 0 · 9 the integer 1 (schema format ≥ 4) ·
 *   13+2n UTF-8 text of n bytes.
 */

/** How a column converts a value before it is stored (SQLite's column affinity, the two used here). */
export type SqliteAffinity = 'INTEGER' | 'REAL';

/** A value to store. `null` is SQL NULL; a string is TEXT (the schema table's columns). */
export type SqliteValue = number | bigint | string | null;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const TWO_POW_32 = 2 ** 32;
/** Doubles strictly inside (-2^63, 2^63) are what SQLite's INTEGER affinity turns into integers. */
const TWO_POW_63 = 2 ** 63;

const utf8 = new TextEncoder();

/** Bytes the SQLite varint encoding of `v` takes (v a non-negative safe integer). */
export function varintLength(v: number): number {
  let n = 1;
  while (v >= 128 && n < 9) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/**
 * Writes `v` (a non-negative safe integer) as an SQLite varint at `buf[off]`: big-endian
 * groups of 7 bits, the high bit set on every byte but the last. Values this writer stores
 * stay below 2^56, so the 9-byte form (whose last byte holds 8 bits) never arises.
 */
export function writeVarint(buf: Uint8Array, off: number, v: number): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`sqlite: varint out of range: ${v}`);
  const len = varintLength(v);
  for (let i = len - 1; i >= 0; i--) {
    buf[off + i] = (v % 128) | (i === len - 1 ? 0 : 0x80);
    v = Math.floor(v / 128);
  }
  return off + len;
}

/**
 * How SQLite stores `v` in a column of this affinity, `v` bound the way sql.js binds a JS
 * value (an integral number of int32 range as an integer, any other number as a double, NaN
 * as NULL, a bigint as its decimal text):
 *   INTEGER: an integer in int64 range stays an integer; a double that is integral and
 *            strictly inside (-2^63, 2^63) becomes that integer; anything else is a REAL.
 *   REAL:    every number is a double (an integral -0 becomes 0.0, as the int 0 it is bound as).
 * Returns the serial type and puts what the body holds in `bodies[i]`: an integer as a number
 * when it is a safe integer, else as a bigint; a double as a number; text as its UTF-8 bytes.
 */
function storeAs(v: SqliteValue, affinity: SqliteAffinity, bodies: (number | bigint | Uint8Array)[], i: number): number {
  if (v === null) return 0;
  if (typeof v === 'string') {
    const bytes = utf8.encode(v);
    bodies[i] = bytes;
    return 13 + 2 * bytes.length;
  }
  if (typeof v === 'bigint') {
    if (affinity === 'INTEGER' && v >= INT64_MIN && v <= INT64_MAX) {
      const n = Number(v);
      bodies[i] = Number.isSafeInteger(n) ? n : v;
      return integerSerialType(bodies[i] as number | bigint);
    }
    bodies[i] = Number(v);
    return 7;
  }
  if (Number.isNaN(v)) return 0;
  if (affinity === 'INTEGER' && Number.isInteger(v) && v > -TWO_POW_63 && v < TWO_POW_63) {
    bodies[i] = Number.isSafeInteger(v) ? v + 0 : BigInt(v);
    return integerSerialType(bodies[i] as number | bigint);
  }
  bodies[i] = v === 0 ? 0 : v;
  return 7;
}

/** SQLite's serial type for an integer: the smallest one that holds it (0 and 1 cost no body bytes). */
function integerSerialType(i: number | bigint): number {
  if (typeof i === 'bigint') return 6; // only integers beyond 2^53 are bigints here
  if (i === 0) return 8;
  if (i === 1) return 9;
  const u = i < 0 ? -1 - i : i;
  if (u <= 0x7f) return 1;
  if (u <= 0x7fff) return 2;
  if (u <= 0x7fffff) return 3;
  if (u <= 0x7fffffff) return 4;
  if (u <= 0x7fff_ffff_ffff) return 5;
  return 6;
}

/** Body bytes of each serial type 0..9. */
const SERIAL_BODY_LENGTH = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

/** Writes integer `i` as `len` big-endian two's-complement bytes at `view[off]`. */
function writeInteger(view: DataView, off: number, len: number, i: number | bigint): void {
  if (typeof i === 'bigint') {
    view.setBigInt64(off, i);
    return;
  }
  if (len <= 4) {
    // two's complement of the low `len` bytes, most significant first
    let x = i;
    for (let k = len - 1; k >= 0; k--) {
      view.setUint8(off + k, x & 0xff);
      x >>= 8;
    }
    return;
  }
  const hi = Math.floor(i / TWO_POW_32); // signed high part
  const lo = i - hi * TWO_POW_32; // 0 ≤ lo < 2^32
  if (len === 6) view.setInt16(off, hi);
  else view.setInt32(off, hi);
  view.setUint32(off + len - 4, lo);
}

/**
 * Encodes one row as an SQLite record. `affinities[i]` applies to `values[i]` (strings are
 * stored as TEXT whatever the affinity; only the schema table stores them).
 */
export function encodeRecord(values: readonly SqliteValue[], affinities: readonly SqliteAffinity[]): Uint8Array {
  const n = values.length;
  const types = new Array<number>(n);
  const bodies = new Array<number | bigint | Uint8Array>(n);
  let typesLength = 0;
  let bodyLength = 0;
  for (let i = 0; i < n; i++) {
    const t = storeAs(values[i]!, affinities[i] ?? 'INTEGER', bodies, i);
    types[i] = t;
    typesLength += varintLength(t);
    bodyLength += t >= 13 ? (t - 13) / 2 : SERIAL_BODY_LENGTH[t]!;
  }
  // The header length counts its own varint.
  let headerLength = typesLength + 1;
  while (varintLength(headerLength) + typesLength !== headerLength) headerLength = varintLength(headerLength) + typesLength;
  const out = new Uint8Array(headerLength + bodyLength);
  const view = new DataView(out.buffer);
  let h = writeVarint(out, 0, headerLength);
  let b = headerLength;
  for (let i = 0; i < n; i++) {
    const t = types[i]!;
    h = writeVarint(out, h, t);
    if (t === 7) {
      view.setFloat64(b, bodies[i] as number);
    } else if (t >= 13) {
      out.set(bodies[i] as Uint8Array, b);
    } else if (t >= 1 && t <= 6) {
      writeInteger(view, b, SERIAL_BODY_LENGTH[t]!, bodies[i] as number | bigint);
    }
    b += t >= 13 ? (t - 13) / 2 : SERIAL_BODY_LENGTH[t]!;
  }
  return out;
}
