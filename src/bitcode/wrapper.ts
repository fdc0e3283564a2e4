/**
 * Locating the raw bitstream in a bitcode file.
 *
 * A bitcode file is either a raw stream starting with the magic 'B' 'C' 0xC0 0xDE,
 * or a raw stream embedded in a wrapper: a 20-byte header of five little-endian
 * 32-bit fields {magic 0x0B17C0DE, version, offset, size, cputype}, where
 * offset/size give the byte range of the raw stream in the file.
 */
import { BitReader } from './bitstream.js';
import { BitcodeError } from './errors.js';
import { BitstreamCursor, type BlockInfo } from './cursor.js';

export const WRAPPER_MAGIC = 0x0b17c0de;
export const WRAPPER_HEADER_SIZE = 20;

export interface WrapperHeader {
  version: number;
  offset: number;
  size: number;
  cpuType: number;
}

function le32(buf: Uint8Array, at: number): number {
  return (buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)) >>> 0;
}

function hasRawMagic(buf: Uint8Array, at: number, end: number): boolean {
  return (
    end - at >= 4 && buf[at] === 0x42 && buf[at + 1] === 0x43 && buf[at + 2] === 0xc0 && buf[at + 3] === 0xde
  );
}

/** The wrapper header, if `buf` starts with one (fields are not validated). */
export function readWrapperHeader(buf: Uint8Array): WrapperHeader | undefined {
  if (buf.length < WRAPPER_HEADER_SIZE || le32(buf, 0) !== WRAPPER_MAGIC) return undefined;
  return { version: le32(buf, 4), offset: le32(buf, 8), size: le32(buf, 12), cpuType: le32(buf, 16) };
}

/**
 * Returns the byte range of the raw bitstream in `buf` (starting at the 'BC' 0xC0DE
 * magic), skipping a wrapper header if present.
 */
export function unwrapBitcode(buf: Uint8Array): { start: number; end: number } {
  let start = 0;
  let end = buf.length;
  if (buf.length >= 4 && le32(buf, 0) === WRAPPER_MAGIC) {
    const hdr = readWrapperHeader(buf);
    if (hdr === undefined) throw new BitcodeError('truncated bitcode wrapper header', 0);
    if (hdr.offset < WRAPPER_HEADER_SIZE || hdr.offset > buf.length || hdr.size > buf.length - hdr.offset) {
      throw new BitcodeError(
        `invalid bitcode wrapper header: stream at offset ${hdr.offset}, size ${hdr.size} does not fit in a file of ${buf.length} bytes`,
        0,
      );
    }
    start = hdr.offset;
    end = hdr.offset + hdr.size;
  }
  if (!hasRawMagic(buf, start, end)) throw new BitcodeError('not an LLVM bitcode file (bad magic)', start * 8);
  return { start, end };
}

/** True if `buf` is raw or wrapped LLVM bitcode (never throws). */
export function isBitcode(buf: Uint8Array): boolean {
  try {
    unwrapBitcode(buf);
    return true;
  } catch {
    return false;
  }
}

/**
 * A cursor at top level of the bitstream in a (possibly wrapped) bitcode file,
 * positioned just after the magic number.
 */
export function openBitcodeCursor(buf: Uint8Array, blockInfo?: BlockInfo): BitstreamCursor {
  const { start, end } = unwrapBitcode(buf);
  const reader = new BitReader(buf, start, end);
  reader.seekBit(32);
  return new BitstreamCursor(reader, blockInfo);
}
