/**
 * Structural dump of a bitstream: every block (id, abbreviation width, length)
 * and every record (code, abbreviation id, operands, blob), in stream order.
 * Used for debugging and for the differential test against `llvm-bcanalyzer -dump`.
 */
import { BitReader } from './bitstream.js';
import { AdvanceFlags, BitstreamCursor, EntryKind, type BitcodeRecord, type BlockInfo, u64 } from './cursor.js';
import { readWrapperHeader, unwrapBitcode } from './wrapper.js';

export interface DumpBlock {
  kind: 'block';
  blockId: number;
  abbrevWidth: number;
  numWords: number;
  /** Absolute bit offset (in the input buffer) of the block's ENTER_SUBBLOCK abbreviation id. */
  bitPos: number;
  children: DumpNode[];
}

export interface DumpRecord {
  kind: 'record';
  /** Absolute bit offset (in the input buffer) of the record's abbreviation id. */
  bitPos: number;
  record: BitcodeRecord;
}

export type DumpNode = DumpBlock | DumpRecord;

/** Names of the standard LLVM IR block ids (for display only). */
export const LLVM_BLOCK_NAMES: Readonly<Record<number, string>> = {
  0: 'BLOCKINFO_BLOCK',
  8: 'MODULE_BLOCK',
  9: 'PARAMATTR_BLOCK',
  10: 'PARAMATTR_GROUP_BLOCK',
  11: 'CONSTANTS_BLOCK',
  12: 'FUNCTION_BLOCK',
  13: 'IDENTIFICATION_BLOCK',
  14: 'VALUE_SYMTAB_BLOCK',
  15: 'METADATA_BLOCK',
  16: 'METADATA_ATTACHMENT_BLOCK',
  17: 'TYPE_BLOCK',
  18: 'USELIST_BLOCK',
  19: 'MODULE_STRTAB_BLOCK',
  20: 'GLOBALVAL_SUMMARY_BLOCK',
  21: 'OPERAND_BUNDLE_TAGS_BLOCK',
  22: 'METADATA_KIND_BLOCK',
  23: 'STRTAB_BLOCK',
  24: 'FULL_LTO_GLOBALVAL_SUMMARY_BLOCK',
  25: 'SYMTAB_BLOCK',
  26: 'SYNC_SCOPE_NAMES_BLOCK',
};

/**
 * Walks the whole bitstream of a (possibly wrapped) bitcode file and returns
 * its top-level blocks.  BLOCKINFO blocks are included (their records are
 * also applied, so later blocks decode with the abbreviations they define).
 * Throws `BitcodeError` on malformed input.
 */
export function walkBitstream(buf: Uint8Array, blockInfo?: BlockInfo): DumpNode[] {
  const { start, end } = unwrapBitcode(buf);
  const reader = new BitReader(buf, start, end);
  reader.seekBit(32); // magic, checked by unwrapBitcode
  return walkCursor(new BitstreamCursor(reader, blockInfo));
}

/** Walks everything from the cursor's position to the end of its current block (or of the stream at top level). */
export function walkCursor(cursor: BitstreamCursor): DumpNode[] {
  const reader = cursor.reader;
  const top: DumpNode[] = [];
  // Explicit stack: nesting depth is bounded only by the input size.
  const stack: DumpNode[][] = [top];
  let out = top;
  for (;;) {
    const e = cursor.advance(AdvanceFlags.ReturnBlockInfo);
    const pos = reader.toAbsBit(cursor.entryBitPos);
    if (e.kind === EntryKind.EndBlock) {
      if (stack.length === 1) return top;
      stack.pop();
      out = stack[stack.length - 1];
    } else if (e.kind === EntryKind.SubBlock) {
      cursor.enterSubBlock(e.id);
      const block: DumpBlock = {
        kind: 'block',
        blockId: e.id,
        abbrevWidth: cursor.abbrevWidth,
        numWords: cursor.blockNumWords,
        bitPos: pos,
        children: [],
      };
      out.push(block);
      stack.push(block.children);
      out = block.children;
    } else {
      out.push({ kind: 'record', bitPos: pos, record: cursor.readRecord(e.id) });
    }
  }
}

export interface DumpOptions {
  /** Print at most this many operands per record (default: all). */
  maxOps?: number;
  /** Print at most this many blob bytes (default 64). */
  maxBlobBytes?: number;
  /** Prefix every line with the entry's byte offset (default true). */
  offsets?: boolean;
}

function isPrintable(ops: readonly number[]): boolean {
  if (ops.length === 0) return false;
  for (const v of ops) if (v < 0x20 || v > 0x7e) return false;
  return true;
}

function escapeBytes(bytes: Uint8Array, max: number): string {
  let s = '';
  const n = Math.min(bytes.length, max);
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c >= 0x20 && c <= 0x7e && c !== 0x5c && c !== 0x22) s += String.fromCharCode(c);
    else s += '\\x' + c.toString(16).padStart(2, '0');
  }
  return s + (bytes.length > max ? '...' : '');
}

/**
 * Text dump of a (possibly wrapped) bitcode file, one line per block start,
 * block end and record:
 *
 *     @0x00000004 BLOCK 13 IDENTIFICATION_BLOCK width=5 words=5
 *     @0x0000000c   RECORD 1 abbrev=4 nops=10 [76 76 86 77 49 57 46 49 46 55] "LLVM19.1.7"
 *     @0x00000018   RECORD 2 abbrev=5 nops=1 [0]
 *                 END 13
 *
 * (`@` = byte offset of the entry's abbreviation id in the file; abbrev 3 =
 * unabbreviated.)  Operands are printed as exact unsigned 64-bit decimals,
 * followed by the operands as a string when they are all printable ASCII;
 * blobs as their length and escaped bytes.  A wrapper header, if any, is
 * printed first as a `WRAPPER ...` line.  Throws `BitcodeError` on malformed
 * input.
 */
export function dumpBitstream(buf: Uint8Array, opts: DumpOptions = {}): string {
  const maxOps = opts.maxOps ?? Infinity;
  const maxBlob = opts.maxBlobBytes ?? 64;
  const offsets = opts.offsets ?? true;
  const { start, end } = unwrapBitcode(buf);
  const lines: string[] = [];
  const hdr = readWrapperHeader(buf);
  if (hdr !== undefined) {
    lines.push(
      `WRAPPER version=${hdr.version} offset=${hdr.offset} size=${hdr.size} cputype=0x${hdr.cpuType.toString(16)}`,
    );
  }
  const reader = new BitReader(buf, start, end);
  reader.seekBit(32);
  const cursor = new BitstreamCursor(reader);
  const nodes = walkCursor(cursor);
  const info = cursor.blockInfo;

  const at = (bitPos: number): string => (offsets ? `@0x${Math.floor(bitPos / 8).toString(16).padStart(8, '0')} ` : '');
  const blockName = (id: number): string => info.blockName(id) ?? LLVM_BLOCK_NAMES[id] ?? '';

  // Explicit stack (nesting depth is bounded only by the input size).
  const stack: { nodes: DumpNode[]; i: number; block: DumpBlock | undefined }[] = [{ nodes, i: 0, block: undefined }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const depth = stack.length - 1;
    const indent = '  '.repeat(depth);
    if (frame.i >= frame.nodes.length) {
      stack.pop();
      if (frame.block !== undefined) {
        lines.push(`${offsets ? ' '.repeat(12) : ''}${indent.slice(2)}END ${frame.block.blockId}`);
      }
      continue;
    }
    const node = frame.nodes[frame.i++];
    if (node.kind === 'block') {
      const name = blockName(node.blockId);
      lines.push(
        `${at(node.bitPos)}${indent}BLOCK ${node.blockId}${name ? ' ' + name : ''} width=${node.abbrevWidth} words=${node.numWords}`,
      );
      stack.push({ nodes: node.children, i: 0, block: node });
      continue;
    }
    const rec = node.record;
    const parentId = frame.block?.blockId ?? -1;
    const recName = info.recordName(parentId, rec.code);
    let line = `${at(node.bitPos)}${indent}RECORD ${rec.code}${recName ? ' ' + recName : ''} abbrev=${rec.abbrevId} nops=${rec.ops.length}`;
    if (rec.ops.length > 0) {
      const n = Math.min(rec.ops.length, maxOps);
      const parts: string[] = [];
      for (let i = 0; i < n; i++) parts.push(rec.big?.has(i) ? u64(rec, i).toString() : String(rec.ops[i]));
      if (n < rec.ops.length) parts.push(`...(${rec.ops.length - n} more)`);
      line += ` [${parts.join(' ')}]`;
      if (isPrintable(rec.ops)) line += ' ' + JSON.stringify(String.fromCharCode(...rec.ops.slice(0, 4096)));
    }
    if (rec.blob !== undefined) line += ` blob=${rec.blob.length} "${escapeBytes(rec.blob, maxBlob)}"`;
    lines.push(line);
  }
  return lines.join('\n') + '\n';
}
