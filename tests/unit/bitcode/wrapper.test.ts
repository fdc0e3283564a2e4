import { EntryKind } from '../../../src/bitcode/cursor.js';
import { dumpBitstream, walkBitstream } from '../../../src/bitcode/dump.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import {
  isBitcode,
  openBitcodeCursor,
  readWrapperHeader,
  unwrapBitcode,
  WRAPPER_MAGIC,
} from '../../../src/bitcode/wrapper.js';
import { BitWriter } from '../../support/bitwriter.js';
import { clang, compileToBitcode, haveCommand, makeTmpDir, removeDir } from './toolchain.js';

function rawStream(): Uint8Array {
  const w = new BitWriter();
  w.magic();
  w.enterBlock(13, 5);
  w.unabbrevRecord(1, [...'TEST'].map((c) => c.charCodeAt(0)));
  w.endBlock();
  w.enterBlock(8, 3);
  w.unabbrevRecord(1, [2]);
  w.endBlock();
  return w.finish();
}

function wrap(raw: Uint8Array, opts: { offset?: number; size?: number; trailing?: number; cpu?: number } = {}): Uint8Array {
  const offset = opts.offset ?? 20;
  const size = opts.size ?? raw.length;
  const out = new Uint8Array(offset + raw.length + (opts.trailing ?? 0));
  const dv = new DataView(out.buffer);
  dv.setUint32(0, WRAPPER_MAGIC, true);
  dv.setUint32(4, 0, true);
  dv.setUint32(8, offset, true);
  dv.setUint32(12, size, true);
  dv.setUint32(16, opts.cpu ?? 0x01000007, true);
  out.set(raw, offset);
  return out;
}

function expectBitcodeError(fn: () => unknown, msg: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(BitcodeError);
  expect((caught as BitcodeError).message).toMatch(msg);
}

const stripOffsets = (s: string): string =>
  s
    .split('\n')
    .filter((l) => !l.startsWith('WRAPPER'))
    .join('\n');

describe('bitcode wrapper', () => {
  test('raw bitcode: the whole buffer', () => {
    const raw = rawStream();
    expect(unwrapBitcode(raw)).toEqual({ start: 0, end: raw.length });
    expect(readWrapperHeader(raw)).toBeUndefined();
    expect(isBitcode(raw)).toBe(true);
  });

  test('wrapped bitcode: the range given by the header', () => {
    const raw = rawStream();
    const wrapped = wrap(raw, { trailing: 12 });
    expect(unwrapBitcode(wrapped)).toEqual({ start: 20, end: 20 + raw.length });
    expect(readWrapperHeader(wrapped)).toEqual({ version: 0, offset: 20, size: raw.length, cpuType: 0x01000007 });
    expect(isBitcode(wrapped)).toBe(true);
    // Same structure as the raw stream.
    expect(stripOffsets(dumpBitstream(wrapped, { offsets: false }))).toBe(dumpBitstream(raw, { offsets: false }));
    expect(dumpBitstream(wrapped)).toMatch(/^WRAPPER version=0 offset=20 size=\d+ cputype=0x1000007\n/);
    // Block positions are absolute in the file.
    const blocks = walkBitstream(wrapped);
    expect(blocks[0].bitPos).toBe((20 + 4) * 8);
  });

  test('wrapper with a larger offset', () => {
    const raw = rawStream();
    const wrapped = wrap(raw, { offset: 64 });
    expect(unwrapBitcode(wrapped)).toEqual({ start: 64, end: 64 + raw.length });
    expect(walkBitstream(wrapped).length).toBe(2);
  });

  test('openBitcodeCursor is positioned after the magic', () => {
    for (const buf of [rawStream(), wrap(rawStream())]) {
      const c = openBitcodeCursor(buf);
      expect(c.bitPos).toBe(32);
      expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 13 });
    }
  });

  test('bad magic and malformed headers', () => {
    expectBitcodeError(() => unwrapBitcode(new Uint8Array(0)), /^not an LLVM bitcode file \(bad magic\)$/);
    expectBitcodeError(() => unwrapBitcode(new Uint8Array([0x42, 0x43, 0xc0])), /bad magic/);
    expectBitcodeError(() => unwrapBitcode(new TextEncoder().encode('\x7fELF....')), /bad magic/);
    expectBitcodeError(() => unwrapBitcode(new Uint8Array([0x42, 0x43, 0xc0, 0xdf, 0, 0, 0, 0])), /bad magic/);
    const raw = rawStream();
    // Truncated wrapper header.
    expectBitcodeError(() => unwrapBitcode(wrap(raw).subarray(0, 12)), /truncated bitcode wrapper header/);
    // Offset/size beyond the file.
    expectBitcodeError(() => unwrapBitcode(wrap(raw, { size: raw.length + 1 })), /invalid bitcode wrapper header/);
    expectBitcodeError(() => unwrapBitcode(wrap(raw, { size: 0xffffffff })), /invalid bitcode wrapper header/);
    const badOff = wrap(raw);
    new DataView(badOff.buffer).setUint32(8, 0xfffffff0, true);
    expectBitcodeError(() => unwrapBitcode(badOff), /invalid bitcode wrapper header/);
    const smallOff = wrap(raw);
    new DataView(smallOff.buffer).setUint32(8, 4, true);
    expectBitcodeError(() => unwrapBitcode(smallOff), /invalid bitcode wrapper header/);
    // Wrapper around something that is not bitcode.
    const notBc = wrap(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]));
    expectBitcodeError(() => unwrapBitcode(notBc), /bad magic/);
    for (const b of [new Uint8Array(0), notBc, badOff]) expect(isBitcode(b)).toBe(false);
    expect(() => dumpBitstream(notBc)).toThrow(BitcodeError);
  });

  const haveClang = haveCommand(clang(19));
  (haveClang ? test : test.skip)('clang output for a Darwin target is wrapped', async () => {
    const dir = makeTmpDir('wrap');
    try {
      const src = 'int f(int x) { return x * 3; }\ndouble g = 2.5;\n';
      const wrapped = await compileToBitcode(clang(19), dir, 'w.c', src, 'w.bc', ['-O2', '-target', 'x86_64-apple-macosx11']);
      const plain = await compileToBitcode(clang(19), dir, 'w.c', src, 'p.bc', ['-O2', '-target', 'x86_64-pc-linux-gnu']);
      const hdr = readWrapperHeader(wrapped);
      expect(hdr).toBeDefined();
      expect(hdr!.offset).toBe(20);
      const { start, end } = unwrapBitcode(wrapped);
      expect([start, end]).toEqual([hdr!.offset, hdr!.offset + hdr!.size]);
      expect(readWrapperHeader(plain)).toBeUndefined();
      const ids = (buf: Uint8Array): number[] => walkBitstream(buf).map((n) => (n.kind === 'block' ? n.blockId : -1));
      expect(ids(wrapped)).toEqual(ids(plain));
    } finally {
      removeDir(dir);
    }
  });
});
