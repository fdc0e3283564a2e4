/**
 * Bit-level reader for LLVM bitstreams.
 *
 * An LLVM bitstream is a sequence of little-endian 32-bit words; fields are
 * packed starting at the least significant bit.  Because the packing is
 * little-endian at both levels, the stream is equivalently a byte sequence
 * read LSB first, which is what this reader does: it keeps up to 32 unread
 * bits in a cache word and refills it four bytes at a time.
 *
 * All positions exposed by the reader (`bitPos`, `seekBit`) are relative to
 * `startByte`.  Positions carried by thrown `BitcodeError`s are absolute bit
 * offsets in the underlying `Uint8Array`, so they can be reported as file
 * offsets.
 */
import { BitcodeError } from './errors.js';


export class BitReader {
  private readonly buf: Uint8Array;
  private readonly startByte: number;
  private readonly endByte: number;
  /** Absolute index in `buf` of the next byte to load into `cur`. */
  private nextByte: number;
  /** Unread cached bits, next bit in bit 0; bits above `curBits` are zero. */
  private cur = 0;
  /** Number of valid bits in `cur` (0..32). */
  private curBits = 0;
  /**
   * Exact value of the last VBR read by `readVBRWide` that returned -1
   * (i.e. did not fit in a safe JS integer).
   */
  wideValue = 0n;

  constructor(buf: Uint8Array, startByte = 0, endByte: number = buf.length) {
    if (
      !Number.isInteger(startByte) ||
      !Number.isInteger(endByte) ||
      startByte < 0 ||
      endByte < startByte ||
      endByte > buf.length
    ) {
      throw new BitcodeError(`invalid bitstream range [${startByte}, ${endByte}) in a buffer of ${buf.length} bytes`);
    }
    this.buf = buf;
    this.startByte = startByte;
    this.endByte = endByte;
    this.nextByte = startByte;
  }

  /** Current position in bits, relative to `startByte`. */
  get bitPos(): number {
    return (this.nextByte - this.startByte) * 8 - this.curBits;
  }

  /** Current position as an absolute bit offset into the underlying buffer (used for error positions). */
  get absBitPos(): number {
    return this.nextByte * 8 - this.curBits;
  }

  /** Converts a position relative to `startByte` into an absolute bit offset into the buffer. */
  toAbsBit(pos: number): number {
    return this.startByte * 8 + pos;
  }

  /** Size of the stream in bits. */
  get totalBits(): number {
    return (this.endByte - this.startByte) * 8;
  }

  /** The underlying buffer and the range of the stream in it. */
  get buffer(): Uint8Array {
    return this.buf;
  }
  get start(): number {
    return this.startByte;
  }
  get end(): number {
    return this.endByte;
  }

  bitsLeft(): number {
    return (this.endByte - this.nextByte) * 8 + this.curBits;
  }

  atEnd(): boolean {
    return this.curBits === 0 && this.nextByte >= this.endByte;
  }

  /** Moves to bit `pos` (relative to `startByte`); `pos` may equal the stream size. */
  /** A second reader over the same bytes, at the same position. */
  clone(): BitReader {
    const r = new BitReader(this.buf, this.startByte, this.endByte);
    r.seekBit(this.bitPos);
    return r;
  }

  seekBit(pos: number): void {
    if (!Number.isInteger(pos) || pos < 0 || pos > this.totalBits) {
      throw new BitcodeError(
        `seek to bit ${pos} outside of the bitstream (${this.totalBits} bits)`,
        pos >= 0 && Number.isFinite(pos) ? this.toAbsBit(Math.floor(pos)) : this.absBitPos,
      );
    }
    const byte = this.startByte + Math.floor(pos / 8);
    const bit = pos % 8;
    if (bit === 0) {
      this.nextByte = byte;
      this.cur = 0;
      this.curBits = 0;
    } else {
      this.nextByte = byte + 1;
      this.cur = this.buf[byte] >>> bit;
      this.curBits = 8 - bit;
    }
  }

  /** Reads `width` (0..32) bits as an unsigned number. */
  read(width: number): number {
    const avail = this.curBits;
    if (width < avail) {
      const cur = this.cur;
      this.cur = cur >>> width;
      this.curBits = avail - width;
      return cur & ((1 << width) - 1);
    }
    return this.readSlow(width);
  }

  private readSlow(width: number): number {
    if (!(width >= 0 && width <= 32) || (width | 0) !== width) {
      throw new BitcodeError(`invalid bit-field width ${width}`, this.absBitPos);
    }
    const have = this.curBits;
    const low = this.cur;
    if (width === have) {
      // Exactly drains the cache (also covers width 0 with an empty cache).
      this.cur = 0;
      this.curBits = 0;
      return low >>> 0;
    }
    // Refill: load up to four more bytes.
    const buf = this.buf;
    const n = this.nextByte;
    const remain = this.endByte - n;
    let w: number;
    let wBits: number;
    if (remain >= 4) {
      w = buf[n] | (buf[n + 1] << 8) | (buf[n + 2] << 16) | (buf[n + 3] << 24);
      wBits = 32;
      this.nextByte = n + 4;
    } else {
      if (have + remain * 8 < width) {
        throw new BitcodeError('unexpected end of bitstream', this.absBitPos);
      }
      w = 0;
      for (let i = 0; i < remain; i++) w |= buf[n + i] << (8 * i);
      wBits = remain * 8;
      this.nextByte = n + remain;
    }
    const need = width - have; // 1..32
    let hi: number;
    if (need === 32) {
      hi = w;
      this.cur = 0;
      this.curBits = wBits - 32;
    } else {
      hi = w & ((1 << need) - 1);
      this.cur = w >>> need;
      this.curBits = wBits - need;
    }
    return ((hi << have) | low) >>> 0;
  }

  /**
   * Reads a VBR-encoded value with chunk width `width` (1..32).  Returns the
   * value if it is at most `Number.MAX_SAFE_INTEGER`; otherwise returns -1 and
   * leaves the exact value in `wideValue`.  Values are truncated to 64 bits
   * and a continuation past bit 64 is an error, as in LLVM.
   */
  readVBRWide(width: number): number {
    // First chunk: `read(width)` inlined (this is the hottest path of the decoder).
    let piece: number;
    const avail = this.curBits;
    if (width < avail) {
      const cur = this.cur;
      this.cur = cur >>> width;
      this.curBits = avail - width;
      piece = cur & ((1 << width) - 1);
    } else {
      piece = this.readSlow(width);
    }
    const hiBit = (1 << (width - 1)) >>> 0;
    if (piece < hiBit) return piece;
    if (!(width >= 1 && width <= 32)) {
      throw new BitcodeError(`invalid VBR width ${width}`, this.absBitPos);
    }
    const dataBits = width - 1;
    let result = piece - hiBit;
    let shift = dataBits;
    let scale = hiBit; // 2 ** shift
    for (;;) {
      piece = this.read(width);
      const cont = piece >= hiBit;
      const data = cont ? piece - hiBit : piece;
      if (shift + dataBits > 53) return this.vbrTail(result, shift, data, cont, width);
      result += data * scale;
      if (!cont) return result;
      shift += dataBits;
      scale *= hiBit;
    }
  }

  /**
   * Continues a VBR whose value may exceed 2^53: accumulates the remaining
   * chunks into two 32-bit halves, creating a bigint only if the final value
   * is not a safe integer.
   */
  private vbrTail(acc: number, shift: number, data: number, cont: boolean, width: number): number {
    const hiBit = (1 << (width - 1)) >>> 0;
    const dataBits = width - 1;
    // acc < 2^53, shift <= 53.
    let lo = acc % 0x100000000;
    let hi = (acc - lo) / 0x100000000;
    for (;;) {
      // OR `data << shift` into (hi:lo), dropping bits above 63.
      if (shift < 32) {
        lo = (lo | (data << shift)) >>> 0;
        if (shift > 0) hi = (hi | (data >>> (32 - shift))) >>> 0;
      } else {
        hi = (hi | (data << (shift - 32))) >>> 0;
      }
      if (!cont) break;
      shift += dataBits;
      if (shift >= 64) throw new BitcodeError('VBR value does not fit in 64 bits', this.absBitPos);
      const piece = this.read(width);
      cont = piece >= hiBit;
      data = cont ? piece - hiBit : piece;
    }
    if (hi < 0x200000) return hi * 0x100000000 + lo;
    this.wideValue = (BigInt(hi) << 32n) | BigInt(lo);
    return -1;
  }

  /** Reads a VBR value that must fit in a safe JS integer (at most 2^53 - 1). */
  readVBR(width: number): number {
    const start = this.absBitPos;
    const v = this.readVBRWide(width);
    if (v < 0) throw new BitcodeError(`VBR value ${this.wideValue} is too large (> 2^53 - 1)`, start);
    return v;
  }

  /** Reads a VBR value exactly, as an unsigned 64-bit bigint. */
  readVBR64(width: number): bigint {
    const v = this.readVBRWide(width);
    return v >= 0 ? BigInt(v) : this.wideValue;
  }

  /** Skips to the next multiple of 32 bits (relative to `startByte`); clamps at the end of the stream. */
  alignTo32(): void {
    const pos = this.bitPos;
    const rem = pos % 32;
    if (rem === 0) return;
    const target = Math.min(pos + 32 - rem, this.totalBits);
    this.seekBit(target);
  }

  /** Returns the next `n` bytes (a view, no copy); the position must be byte-aligned. */
  readBytes(n: number): Uint8Array {
    const pos = this.bitPos;
    if (pos % 8 !== 0) {
      throw new BitcodeError('readBytes at a position that is not byte-aligned', this.absBitPos);
    }
    if (!Number.isInteger(n) || n < 0) {
      throw new BitcodeError(`invalid byte count ${n}`, this.absBitPos);
    }
    const byte = this.startByte + pos / 8;
    if (n > this.endByte - byte) {
      throw new BitcodeError('unexpected end of bitstream', this.absBitPos);
    }
    this.seekBit(pos + n * 8);
    return this.buf.subarray(byte, byte + n);
  }
}
