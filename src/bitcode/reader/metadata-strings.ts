import { BitReader } from '../bitstream.js';
import { BitcodeError } from '../errors.js';

/**
 * Decodes a METADATA_STRINGS record: [count, offset] with a blob that starts with `count`
 * vbr6 string lengths packed as a little bitstream of `offset` bytes, followed by the
 * characters of all strings back to back. Returns the strings as byte strings.
 */
export function decodeMetadataStrings(
  ops: readonly number[],
  blob: Uint8Array | undefined,
  error: (msg: string) => never,
): string[] {
  if (ops.length !== 2) error('invalid METADATA_STRINGS record: expected [count, offset]');
  if (!blob) error('METADATA_STRINGS record without a blob');
  const [count, offset] = ops as [number, number];
  if (count === 0) error('METADATA_STRINGS record with no strings');
  if (offset > blob.length) error(`METADATA_STRINGS offset ${offset} past the end of its blob (${blob.length} bytes)`);
  // Each length takes at least 6 bits: this bounds the loop before anything is allocated.
  if (count > Math.floor((offset * 8) / 6)) error(`METADATA_STRINGS count ${count} does not fit in ${offset} bytes of lengths`);

  const lengths = new BitReader(blob, 0, offset);
  const out: string[] = new Array<string>(count);
  let pos = offset;
  for (let i = 0; i < count; i++) {
    if (lengths.bitsLeft() < 6) error('METADATA_STRINGS lengths end early');
    const size = readLength(lengths, error);
    if (size > blob.length - pos) error('METADATA_STRINGS characters end early');
    out[i] = latin1(blob, pos, pos + size);
    pos += size;
  }
  return out;
}

function readLength(lengths: BitReader, error: (msg: string) => never): number {
  try {
    return lengths.readVBR(6);
  } catch (e) {
    if (e instanceof BitcodeError) error(`METADATA_STRINGS lengths are corrupt (${e.message})`);
    throw e;
  }
}

function latin1(bytes: Uint8Array, from: number, to: number): string {
  if (to - from > 1024) {
    let s = '';
    for (let i = from; i < to; i += 4096) s += String.fromCharCode(...bytes.subarray(i, Math.min(i + 4096, to)));
    return s;
  }
  let s = '';
  for (let i = from; i < to; i++) s += String.fromCharCode(bytes[i]!);
  return s;
}
