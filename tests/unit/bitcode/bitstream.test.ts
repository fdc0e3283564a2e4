import { BitReader } from '../../../src/bitcode/bitstream.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import { BitWriter } from '../../support/bitwriter.js';
import { prng as rng } from '../../support/prng.js';

function expectBitcodeError(fn: () => unknown, msg?: RegExp): BitcodeError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(BitcodeError);
    if (msg) expect((e as BitcodeError).message).toMatch(msg);
    return e as BitcodeError;
  }
  throw new Error('expected a BitcodeError');
}

describe('BitReader: fixed-width fields', () => {
  test('reads LSB-first little-endian fields', () => {
    // 0b...  bytes: 0xA5 = 1010 0101, 0x3C = 0011 1100
    const r = new BitReader(new Uint8Array([0xa5, 0x3c, 0xff, 0x01]));
    expect(r.read(1)).toBe(1);
    expect(r.read(2)).toBe(2);
    expect(r.read(5)).toBe(0x14);
    expect(r.read(4)).toBe(0xc);
    expect(r.bitPos).toBe(12);
    expect(r.read(20)).toBe(0x1ff3);
    expect(r.atEnd()).toBe(true);
  });

  test('read(0) returns 0 and does not move', () => {
    const r = new BitReader(new Uint8Array([0xff]));
    expect(r.read(0)).toBe(0);
    expect(r.bitPos).toBe(0);
    r.read(8);
    expect(r.read(0)).toBe(0);
    expect(r.atEnd()).toBe(true);
  });

  test('read(32) returns unsigned values at every alignment', () => {
    for (let off = 0; off < 40; off++) {
      const w = new BitWriter();
      w.emit(0, off).emit(0xfedcba98, 32).emit(0xffffffff, 32).emit(0x80000000, 32).emit(1, 32);
      const r = new BitReader(w.finish());
      r.seekBit(off);
      expect(r.read(32)).toBe(0xfedcba98);
      expect(r.read(32)).toBe(0xffffffff);
      expect(r.read(32)).toBe(0x80000000);
      expect(r.read(32)).toBe(1);
    }
  });

  test('random round trip of widths 0..32', () => {
    const rand = rng(1234);
    const fields: [number, number][] = [];
    const w = new BitWriter();
    for (let i = 0; i < 5000; i++) {
      const width = Math.floor(rand() * 33);
      const value = width === 0 ? 0 : Math.floor(rand() * 2 ** width);
      fields.push([width, value]);
      w.emit(value, width);
    }
    const r = new BitReader(w.finish());
    let pos = 0;
    for (const [width, value] of fields) {
      expect(r.bitPos).toBe(pos);
      expect(r.read(width)).toBe(value);
      pos += width;
    }
  });

  test('works on an unaligned sub-range of a buffer; positions are relative to startByte', () => {
    const w = new BitWriter();
    w.emit(0x12345678, 32).emit(0x9abcdef0, 32);
    const inner = w.finish();
    const buf = new Uint8Array(3 + inner.length + 5).fill(0xee);
    buf.set(inner, 3);
    const r = new BitReader(buf, 3, 3 + inner.length);
    expect(r.totalBits).toBe(64);
    expect(r.read(32)).toBe(0x12345678);
    expect(r.bitPos).toBe(32);
    expect(r.absBitPos).toBe(3 * 8 + 32);
    expect(r.read(32)).toBe(0x9abcdef0);
    expect(r.atEnd()).toBe(true);
    const err = expectBitcodeError(() => r.read(1), /unexpected end of bitstream/);
    expect(err.bitPos).toBe((3 + 8) * 8);
  });

  test('streams whose length is not a multiple of 4 bytes', () => {
    const r = new BitReader(new Uint8Array([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07]));
    expect(r.read(24)).toBe(0x030201);
    expect(r.read(28)).toBe(0x7060504);
    expect(r.bitsLeft()).toBe(4);
    expect(r.read(4)).toBe(0);
    expect(r.atEnd()).toBe(true);
  });

  test('reading past the end throws BitcodeError without moving', () => {
    const r = new BitReader(new Uint8Array([0xff, 0xff, 0xff]));
    r.read(20);
    const e = expectBitcodeError(() => r.read(5), /^unexpected end of bitstream$/);
    expect(e.bitPos).toBe(20);
    expect(r.bitPos).toBe(20);
    expect(r.read(4)).toBe(0xf);
    expectBitcodeError(() => r.read(1));
    expect(new BitReader(new Uint8Array(0)).atEnd()).toBe(true);
    expectBitcodeError(() => new BitReader(new Uint8Array(0)).read(1));
    expectBitcodeError(() => new BitReader(new Uint8Array(8)).read(33), /width/);
  });

  test('invalid ranges are BitcodeErrors', () => {
    expectBitcodeError(() => new BitReader(new Uint8Array(4), 5));
    expectBitcodeError(() => new BitReader(new Uint8Array(4), 2, 1));
    expectBitcodeError(() => new BitReader(new Uint8Array(4), 0, 5));
  });
});

describe('BitReader: positioning', () => {
  test('seekBit, bitsLeft, atEnd', () => {
    const bytes = new Uint8Array(16);
    for (let i = 0; i < 16; i++) bytes[i] = i * 17;
    const r = new BitReader(bytes);
    for (const pos of [0, 1, 7, 8, 13, 31, 32, 33, 64, 100, 127]) {
      r.seekBit(pos);
      expect(r.bitPos).toBe(pos);
      expect(r.bitsLeft()).toBe(128 - pos);
      const expected = (bytes[pos >> 3] >> (pos & 7)) & 1;
      expect(r.read(1)).toBe(expected);
    }
    r.seekBit(128);
    expect(r.atEnd()).toBe(true);
    expect(r.bitsLeft()).toBe(0);
    expectBitcodeError(() => r.seekBit(129), /outside/);
    expectBitcodeError(() => r.seekBit(-1), /outside/);
    expectBitcodeError(() => r.seekBit(1.5), /outside/);
  });

  test('alignTo32', () => {
    const r = new BitReader(new Uint8Array(12));
    r.alignTo32();
    expect(r.bitPos).toBe(0);
    r.read(1);
    r.alignTo32();
    expect(r.bitPos).toBe(32);
    r.alignTo32();
    expect(r.bitPos).toBe(32);
    r.read(31);
    r.alignTo32();
    expect(r.bitPos).toBe(64);
    // Alignment is relative to startByte.
    const r2 = new BitReader(new Uint8Array(12), 2);
    r2.read(3);
    r2.alignTo32();
    expect(r2.bitPos).toBe(32);
    expect(r2.absBitPos).toBe(16 + 32);
    // Clamped at the end of a stream that is not a multiple of 4 bytes.
    const r3 = new BitReader(new Uint8Array(6));
    r3.read(32);
    r3.read(1);
    r3.alignTo32();
    expect(r3.bitPos).toBe(48);
    expect(r3.atEnd()).toBe(true);
  });

  test('readBytes returns a view after alignment', () => {
    const buf = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const r = new BitReader(buf, 1);
    r.read(3);
    expectBitcodeError(() => r.readBytes(1), /byte-aligned/);
    r.alignTo32();
    const b = r.readBytes(3);
    expect([...b]).toEqual([6, 7, 8]);
    expect(b.buffer).toBe(buf.buffer);
    expect(r.bitPos).toBe(56);
    expect([...r.readBytes(0)]).toEqual([]);
    expectBitcodeError(() => r.readBytes(2), /unexpected end/);
    expect([...r.readBytes(1)]).toEqual([9]);
  });
});

describe('BitReader: VBR', () => {
  const roundTrip = (values: (number | bigint)[], width: number): BitReader => {
    const w = new BitWriter();
    for (const v of values) w.emitVBR(v, width);
    return new BitReader(w.finish());
  };

  test('boundary values for vbr6', () => {
    const vals = [0, 1, 31, 32, 33, 1023, 1024, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 52, 2 ** 53 - 1];
    const r = roundTrip(vals, 6);
    for (const v of vals) expect(r.readVBR(6)).toBe(v);
    expect(r.bitsLeft()).toBeLessThan(8);
  });

  test('every width 2..32 round-trips random 64-bit values', () => {
    const rand = rng(99);
    for (let width = 2; width <= 32; width++) {
      const vals: bigint[] = [0n, 1n, (1n << 64n) - 1n, 1n << 63n, (1n << 53n) - 1n, 1n << 53n];
      for (let i = 0; i < 40; i++) {
        const bits = Math.floor(rand() * 65);
        let v = 0n;
        for (let b = 0; b < bits; b++) v = (v << 1n) | (rand() < 0.5 ? 1n : 0n);
        vals.push(v);
      }
      const r = roundTrip(vals, width);
      for (const v of vals) expect(r.readVBR64(width)).toBe(v);
      const r2 = roundTrip(vals, width);
      for (const v of vals) {
        const n = r2.readVBRWide(width);
        if (v <= BigInt(Number.MAX_SAFE_INTEGER)) expect(n).toBe(Number(v));
        else {
          expect(n).toBe(-1);
          expect(r2.wideValue).toBe(v);
        }
      }
    }
  });

  test('readVBR throws above 2^53 - 1; readVBR64 is exact', () => {
    const big = [2n ** 53n, 2n ** 53n + 1n, 2n ** 64n - 1n, 0x7fffffffffffffffn];
    for (const v of big) {
      expectBitcodeError(() => roundTrip([v], 6).readVBR(6), /too large/);
      expect(roundTrip([v], 6).readVBR64(6)).toBe(v);
      expect(roundTrip([v], 32).readVBR64(32)).toBe(v);
      expect(roundTrip([v], 8).readVBR64(8)).toBe(v);
    }
  });

  test('VBR with redundant zero continuation chunks still decodes', () => {
    // 5 as vbr4 padded with empty continuation chunks: 1101, 1000, 0000
    const w = new BitWriter();
    w.emit(0b1101, 4).emit(0b1000, 4).emit(0b0000, 4);
    expect(new BitReader(w.finish()).readVBR(4)).toBe(5);
  });

  test('bits beyond 64 are dropped; continuation past bit 64 is an error (as in LLVM)', () => {
    // vbr6: 13 chunks of 5 bits = 65 bits; the 13th chunk sets data bit 64 (dropped).
    const w = new BitWriter();
    for (let i = 0; i < 12; i++) w.emit(0b111111, 6);
    w.emit(0b000011, 6); // last chunk: bits 60..64 = 0b00011
    expect(new BitReader(w.finish()).readVBR64(6)).toBe((1n << 61n) * 2n - 1n);
    const w2 = new BitWriter();
    for (let i = 0; i < 13; i++) w2.emit(0b111111, 6);
    w2.emit(0, 6);
    expectBitcodeError(() => new BitReader(w2.finish()).readVBR64(6), /64 bits/);
    // vbr32: chunks of 31 data bits: 3 chunks cover 93 bits; a 4th continuation is an error.
    const w3 = new BitWriter();
    for (let i = 0; i < 3; i++) w3.emit(0xffffffff, 32);
    w3.emit(0, 32);
    expectBitcodeError(() => new BitReader(w3.finish()).readVBR64(32), /64 bits/);
  });

  test('truncated VBR throws end-of-stream', () => {
    const w = new BitWriter();
    w.emit(0b100000, 6).emit(0b100000, 6);
    const r = new BitReader(w.finish()); // 12 bits + 4 padding bits
    expectBitcodeError(() => r.readVBR(6), /unexpected end of bitstream/);
  });

  test('VBR(1) carries no data and terminates at end of stream', () => {
    expect(new BitReader(new Uint8Array([0xfe])).readVBR(1)).toBe(0);
    expectBitcodeError(() => new BitReader(new Uint8Array(1000).fill(0xff)).readVBR(1), /unexpected end/);
  });
});

describe('BitcodeError', () => {
  test('oneLine formats file, message and position', () => {
    const e = new BitcodeError('bad thing', 0x1a2b * 8 + 3);
    expect(e.oneLine()).toBe('bad thing (at byte 0x1a2b, bit 3)');
    e.file = 'foo.bc';
    expect(e.oneLine()).toBe('foo.bc: bad thing (at byte 0x1a2b, bit 3)');
    const e2 = new BitcodeError('no position');
    expect(e2.bitPos).toBe(-1);
    expect(e2.oneLine()).toBe('no position');
    e2.file = 'x.bc';
    expect(e2.oneLine()).toBe('x.bc: no position');
    expect(e2).toBeInstanceOf(Error);
    expect(e2.name).toBe('BitcodeError');
  });
});
