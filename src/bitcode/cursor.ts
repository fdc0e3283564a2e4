/**
 * Block/record layer of the LLVM bitstream container format.
 *
 * A stream is a sequence of blocks; each block has an abbreviation-id width,
 * a length in 32-bit words, and contains records, nested blocks and
 * abbreviation definitions.  Abbreviation ids 0..3 are built in:
 *
 *   0 END_BLOCK        [0, <align32>]
 *   1 ENTER_SUBBLOCK   [1, vbr8 blockid, vbr4 abbrevwidth, <align32>, word32 numwords]
 *   2 DEFINE_ABBREV    [2, vbr5 numops, op...]   op = [1, vbr8 literal] | [0, fixed3 enc, (vbr5 data)]
 *   3 UNABBREV_RECORD  [3, vbr6 code, vbr6 numops, vbr6 op...]
 *
 * Ids >= 4 select an abbreviation: first those registered for the block id
 * in the BLOCKINFO block (block id 0), then those defined in the block itself.
 *
 * Typical use (see also `walkCursor` in dump.ts):
 *
 *     const c = openBitcodeCursor(buf);            // wrapper.ts; positioned after the magic
 *     while (!c.reader.atEnd()) {
 *       const e = c.advance();                      // at top level: SubBlock (or EndBlock at end of stream)
 *       if (e.kind !== EntryKind.SubBlock) break;
 *       if (e.id !== MODULE_BLOCK_ID) { c.skipBlock(); continue; }
 *       c.enterSubBlock(e.id);
 *       for (;;) {
 *         const x = c.advance();
 *         if (x.kind === EntryKind.EndBlock) break;  // back in the parent
 *         if (x.kind === EntryKind.SubBlock) { c.skipBlock(); continue; }
 *         const rec = c.readRecord(x.id);           // rec.code, rec.ops, u64(rec, i), rec.blob
 *       }
 *     }
 *
 * All malformed input is reported as `BitcodeError` whose `bitPos` is an
 * absolute bit offset in the buffer given to the `BitReader`.  Misuse of the
 * API (e.g. `enterSubBlock` without a pending SubBlock) throws a plain `Error`.
 */
import { BitReader } from './bitstream.js';
import { BitcodeError } from './errors.js';

export const enum EntryKind {
  EndBlock = 0,
  SubBlock = 1,
  Record = 2,
}

/** SubBlock: `id` is the block id.  Record: `id` is the abbreviation id.  EndBlock: `id` is 0. */
export interface Entry {
  kind: EntryKind;
  id: number;
}

export interface BitcodeRecord {
  code: number;
  /** Operands (the record code is not included).  Exact up to `Number.MAX_SAFE_INTEGER`. */
  ops: number[];
  /** Exact values of operands above `Number.MAX_SAFE_INTEGER` (index -> value); `ops[i]` then holds an approximation. */
  big?: Map<number, bigint>;
  /** Blob operand, if the abbreviation had one (a view into the input buffer). */
  blob?: Uint8Array;
  abbrevId: number;
}

/** The exact unsigned 64-bit value of operand `i`. */
export function u64(rec: BitcodeRecord, i: number): bigint {
  if (!(i >= 0 && i < rec.ops.length)) {
    throw new BitcodeError(`record (code ${rec.code}) has no operand ${i} (it has ${rec.ops.length})`);
  }
  const b = rec.big?.get(i);
  return b !== undefined ? b : BigInt(rec.ops[i]);
}

/** The exact value of operand `i` as a signed 64-bit integer (two's complement reinterpretation). */
export function s64(rec: BitcodeRecord, i: number): bigint {
  return BigInt.asIntN(64, u64(rec, i));
}

/** Built-in abbreviation ids. */
export const enum BuiltinAbbrev {
  END_BLOCK = 0,
  ENTER_SUBBLOCK = 1,
  DEFINE_ABBREV = 2,
  UNABBREV_RECORD = 3,
}

/** Operand encodings of abbreviations (Literal is 0; the others are the on-disk encoding numbers). */
export const enum AbbrevOpKind {
  Literal = 0,
  Fixed = 1,
  VBR = 2,
  Array = 3,
  Char6 = 4,
  Blob = 5,
}

export interface AbbrevOp {
  kind: AbbrevOpKind;
  /** Literal value (approximate if `big` is set), or the bit width for Fixed/VBR; 0 otherwise. */
  value: number;
  /** Exact literal value when it exceeds `Number.MAX_SAFE_INTEGER`. */
  big?: bigint;
}

/** A compiled abbreviation definition. */
export class Abbrev {
  /** Why this abbreviation cannot be used, if it is malformed (LLVM reports this when it is used). */
  readonly invalid: string | undefined;

  constructor(readonly ops: readonly AbbrevOp[]) {
    this.invalid = validateAbbrev(ops);
  }
}

function validateAbbrev(ops: readonly AbbrevOp[]): string | undefined {
  if (ops.length === 0) return 'abbreviation with no operands';
  const k0 = ops[0].kind;
  if (k0 === AbbrevOpKind.Array || k0 === AbbrevOpKind.Blob) return 'abbreviation starts with an array or a blob';
  for (let i = 1; i < ops.length; i++) {
    if (ops[i].kind !== AbbrevOpKind.Array) continue;
    if (i + 2 !== ops.length) return 'array operand is not second to last in abbreviation';
    const elt = ops[i + 1].kind;
    if (elt === AbbrevOpKind.Literal) return 'array element type has to be an encoding';
    if (elt === AbbrevOpKind.Array || elt === AbbrevOpKind.Blob) return "array element type can't be an array or a blob";
    break;
  }
  return undefined;
}

export interface BlockInfoEntry {
  readonly abbrevs: Abbrev[];
  name?: string;
  readonly recordNames: Map<number, string>;
}

/** Abbreviations (and optional names) registered per block id by BLOCKINFO blocks. */
export class BlockInfo {
  private readonly entries = new Map<number, BlockInfoEntry>();

  get(blockId: number): BlockInfoEntry | undefined {
    return this.entries.get(blockId);
  }

  getOrCreate(blockId: number): BlockInfoEntry {
    let e = this.entries.get(blockId);
    if (e === undefined) {
      e = { abbrevs: [], recordNames: new Map() };
      this.entries.set(blockId, e);
    }
    return e;
  }

  abbrevs(blockId: number): readonly Abbrev[] {
    return this.entries.get(blockId)?.abbrevs ?? [];
  }

  addAbbrev(blockId: number, abbrev: Abbrev): void {
    this.getOrCreate(blockId).abbrevs.push(abbrev);
  }

  blockName(blockId: number): string | undefined {
    return this.entries.get(blockId)?.name;
  }

  recordName(blockId: number, code: number): string | undefined {
    return this.entries.get(blockId)?.recordNames.get(code);
  }

  /** Block ids that have an entry. */
  blockIds(): number[] {
    return [...this.entries.keys()];
  }

  clear(): void {
    this.entries.clear();
  }
}

/** Flags for `BitstreamCursor.advance`. */
export const enum AdvanceFlags {
  None = 0,
  /**
   * Return BLOCKINFO blocks (id 0) as SubBlock entries instead of reading them
   * internally.  The caller may then `enterSubBlock(0)` and walk it like any
   * other block (its records and abbreviations still update `blockInfo`), or
   * `skipBlock()` it.
   */
  ReturnBlockInfo = 1,
}

const BLOCKINFO_BLOCK_ID = 0;
const BLOCKINFO_CODE_SETBID = 1;
const BLOCKINFO_CODE_BLOCKNAME = 2;
const BLOCKINFO_CODE_SETRECORDNAME = 3;

/** Char6 alphabet: a-z, A-Z, 0-9, '.', '_'  (char codes). */
const CHAR6 = new Uint8Array(64);
{
  const s = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';
  for (let i = 0; i < 64; i++) CHAR6[i] = s.charCodeAt(i);
}

interface Scope {
  blockId: number;
  abbrevWidth: number;
  /** Abbreviations inherited from BLOCKINFO: the first `numInherited` of this (shared, never copied) list. */
  inherited: readonly Abbrev[];
  numInherited: number;
  /** Abbreviations defined in the block itself (ids 4 + numInherited + i); null until the first one. */
  local: Abbrev[] | null;
  /** Position (relative bits) of the first bit after the length word. */
  startBit: number;
  /** Position (relative bits) where the block must end (after its END_BLOCK). */
  endBit: number;
  numWords: number;
  /** BLOCKINFO only: block id selected by the last SETBID, or -1. */
  curBID: number;
}

const TOP_LEVEL_ABBREV_WIDTH = 2;
const EMPTY_OPS: number[] = [];
const NO_ABBREVS: readonly Abbrev[] = Object.freeze([]);

/** Entries are immutable, so the common ones are shared instead of allocated per call. */
const END_ENTRY: Entry = Object.freeze({ kind: EntryKind.EndBlock, id: 0 });
const RECORD_ENTRIES: readonly Entry[] = Array.from({ length: 256 }, (_, id) =>
  Object.freeze({ kind: EntryKind.Record, id }),
);
const MAX_ABBREV_WIDTH = 32;

export class BitstreamCursor {
  readonly blockInfo: BlockInfo;
  private readonly r: BitReader;
  private readonly stack: Scope[] = [];
  private scope: Scope;
  /** Block id of a SubBlock entry returned by advance() and not yet entered or skipped; -1 if none. */
  private pendingBlock = -1;
  /** Operands of the record being read (reused; grows to the largest record). */
  private readonly scratch: number[] = [];
  /** Position of the abbreviation id of the entry last returned by advance(). */
  private entryPos = 0;

  constructor(reader: BitReader, blockInfo?: BlockInfo) {
    this.r = reader;
    this.blockInfo = blockInfo ?? new BlockInfo();
    this.scope = {
      blockId: -1,
      abbrevWidth: TOP_LEVEL_ABBREV_WIDTH,
      inherited: NO_ABBREVS,
      numInherited: 0,
      local: null,
      startBit: 0,
      endBit: reader.totalBits,
      numWords: 0,
      curBID: -1,
    };
  }

  get reader(): BitReader {
    return this.r;
  }

  /** Current block id (-1 at top level). */
  get blockId(): number {
    return this.scope.blockId;
  }

  /** Nesting depth (0 at top level). */
  get depth(): number {
    return this.stack.length;
  }

  /** Abbreviation-id width of the current block (2 at top level). */
  get abbrevWidth(): number {
    return this.scope.abbrevWidth;
  }

  /** Length in 32-bit words of the current block, from its header (0 at top level). */
  get blockNumWords(): number {
    return this.scope.numWords;
  }

  /** Bit position (relative to the reader's start) where the current block's contents begin. */
  get blockStartBit(): number {
    return this.scope.startBit;
  }

  /** Bit position (relative to the reader's start) where the current block ends. */
  get blockEndBit(): number {
    return this.scope.endBit;
  }

  /** Abbreviations usable in the current block; abbreviation id `4 + i` is `abbrevs[i]`. */
  get abbrevs(): readonly Abbrev[] {
    const s = this.scope;
    return s.inherited.slice(0, s.numInherited).concat(s.local ?? []);
  }

  get bitPos(): number {
    return this.r.bitPos;
  }

  /**
   * Position (relative to the reader's start) of the abbreviation id of the
   * entry last returned by `advance()`: where that record or block begins.
   */
  get entryBitPos(): number {
    return this.entryPos;
  }

  /** Positions a cursor at top level at `pos` (e.g. to re-read a block whose start was remembered). */
  seekTopLevel(pos: number): void {
    while (this.stack.length > 0) this.scope = this.stack.pop() as Scope;
    this.pendingBlock = -1;
    this.r.seekBit(pos);
  }

  private fail(msg: string, relPos: number = this.r.bitPos): never {
    throw new BitcodeError(msg, this.r.toAbsBit(relPos));
  }

  private blockDesc(s: Scope = this.scope): string {
    return s.blockId < 0 ? 'top level' : `block ${s.blockId}`;
  }

  /**
   * Returns the next entry of the current block (entries may be shared
   * frozen objects: do not modify them).  DEFINE_ABBREV entries are
   * consumed internally; BLOCKINFO blocks are read into `blockInfo` and not
   * returned unless `AdvanceFlags.ReturnBlockInfo` is given.  After an
   * EndBlock entry the cursor is back in the parent block.  At top level,
   * EndBlock means end of stream.
   */
  advance(flags: number = AdvanceFlags.None): Entry {
    const r = this.r;
    if (this.pendingBlock >= 0) {
      throw new Error('BitstreamCursor.advance(): the previous SubBlock entry was neither entered nor skipped');
    }
    for (;;) {
      const s = this.scope;
      const pos = r.bitPos;
      if (s.blockId < 0) {
        if (pos >= s.endBit) return END_ENTRY;
      } else if (pos >= s.endBit) {
        this.fail(`${this.blockDesc()} has no END_BLOCK before its end (length ${s.numWords} words)`);
      }
      const id = r.read(s.abbrevWidth);
      this.entryPos = pos;
      if (id >= 3) {
        if (s.blockId < 0) this.fail(`expected a block at top level, found abbreviation id ${id}`, pos);
        return id < 256 ? RECORD_ENTRIES[id] : { kind: EntryKind.Record, id };
      }
      if (id === BuiltinAbbrev.ENTER_SUBBLOCK) {
        const blockId = r.readVBRWide(8);
        if (blockId < 0 || blockId > 0xffffffff) this.fail('block id too large', pos);
        this.pendingBlock = blockId;
        if (blockId === BLOCKINFO_BLOCK_ID && (flags & AdvanceFlags.ReturnBlockInfo) === 0) {
          this.readBlockInfoBlock();
          continue;
        }
        return { kind: EntryKind.SubBlock, id: blockId };
      }
      if (s.blockId < 0) {
        this.fail(`expected a block at top level, found ${id === 0 ? 'END_BLOCK' : 'DEFINE_ABBREV'}`, pos);
      }
      if (id === BuiltinAbbrev.END_BLOCK) {
        r.alignTo32();
        const end = r.bitPos;
        if (end !== s.endBit) {
          this.fail(
            `END_BLOCK of ${this.blockDesc()} at bit ${end} does not match its length (${s.numWords} words, ending at bit ${s.endBit})`,
            pos,
          );
        }
        this.scope = this.stack.pop() as Scope;
        return END_ENTRY;
      }
      // DEFINE_ABBREV
      this.readAbbrevDefinition();
    }
  }

  /**
   * Skips the pending sub-block and returns a cursor of its own (own reader position, same
   * BLOCKINFO) on which that block is still pending: it can be entered later (lazy decoding).
   */
  deferPendingBlock(): BitstreamCursor {
    if (this.pendingBlock < 0) throw new Error('BitstreamCursor.deferPendingBlock(): advance() did not just return a SubBlock entry');
    const c = new BitstreamCursor(this.r.clone(), this.blockInfo);
    // the enclosing scopes are only read for their bounds once the block is entered
    c.stack.push(...this.stack);
    c.scope = this.scope;
    c.pendingBlock = this.pendingBlock;
    c.entryPos = this.entryPos;
    this.skipBlock();
    return c;
  }

  /** Reads the header of the pending sub-block (after `advance()` returned SubBlock) and enters it. */
  enterSubBlock(blockId?: number): void {
    const id = this.takePending(blockId, 'enterSubBlock');
    const r = this.r;
    const hdrPos = r.bitPos;
    const width = r.readVBRWide(4);
    if (width === 0 || width < 0 || width > MAX_ABBREV_WIDTH) {
      this.fail(`block ${id} has invalid abbreviation id width ${width < 0 ? r.wideValue : width}`, hdrPos);
    }
    r.alignTo32();
    const numWords = r.read(32);
    const start = r.bitPos;
    const end = start + numWords * 32;
    if (end > this.scope.endBit) {
      this.fail(
        `block ${id} (length ${numWords} words) extends past the end of ${this.scope.blockId < 0 ? 'the stream' : `enclosing block ${this.scope.blockId}`}`,
        hdrPos,
      );
    }
    let inherited: readonly Abbrev[] = NO_ABBREVS;
    if (id === BLOCKINFO_BLOCK_ID) {
      // A BLOCKINFO block replaces whatever was known before.
      this.blockInfo.clear();
    } else {
      const info = this.blockInfo.get(id);
      if (info !== undefined) inherited = info.abbrevs;
    }
    this.stack.push(this.scope);
    this.scope = {
      blockId: id,
      abbrevWidth: width,
      inherited,
      numInherited: inherited.length,
      local: null,
      startBit: start,
      endBit: end,
      numWords,
      curBID: -1,
    };
  }

  /** Skips the pending sub-block (after `advance()` returned SubBlock) using its length word. */
  skipBlock(): void {
    this.takePending(undefined, 'skipBlock');
    const r = this.r;
    const hdrPos = r.bitPos;
    r.readVBRWide(4);
    r.alignTo32();
    const numWords = r.read(32);
    const end = r.bitPos + numWords * 32;
    if (end > this.scope.endBit) {
      this.fail(`block (length ${numWords} words) extends past the end of ${this.blockDesc()}`, hdrPos);
    }
    r.seekBit(end);
  }

  private takePending(blockId: number | undefined, what: string): number {
    const id = this.pendingBlock;
    if (id < 0) throw new Error(`BitstreamCursor.${what}(): advance() did not just return a SubBlock entry`);
    if (blockId !== undefined && blockId !== id) {
      throw new Error(`BitstreamCursor.${what}(${blockId}): the pending sub-block has id ${id}`);
    }
    this.pendingBlock = -1;
    return id;
  }

  /**
   * Reads a BLOCKINFO block into `blockInfo`; call after `advance(AdvanceFlags.ReturnBlockInfo)`
   * returned a SubBlock entry with id 0.
   */
  readBlockInfoBlock(): void {
    this.enterSubBlock(BLOCKINFO_BLOCK_ID);
    for (;;) {
      const e = this.advance(AdvanceFlags.ReturnBlockInfo);
      if (e.kind === EntryKind.EndBlock) return;
      if (e.kind === EntryKind.SubBlock) this.fail('nested block inside the BLOCKINFO block');
      this.readRecord(e.id);
    }
  }

  private readAbbrevDefinition(): void {
    const r = this.r;
    const s = this.scope;
    const pos = r.bitPos;
    const n = r.readVBRWide(5);
    // Every operand takes at least 4 bits.
    if (n < 0 || n * 4 > s.endBit - r.bitPos) this.fail('abbreviation definition is larger than its block', pos);
    const ops: AbbrevOp[] = [];
    for (let i = 0; i < n; i++) {
      if (r.read(1) === 1) {
        const v = r.readVBRWide(8);
        if (v >= 0) ops.push({ kind: AbbrevOpKind.Literal, value: v });
        else ops.push({ kind: AbbrevOpKind.Literal, value: Number(r.wideValue), big: r.wideValue });
        continue;
      }
      const enc = r.read(3);
      switch (enc) {
        case AbbrevOpKind.Fixed:
        case AbbrevOpKind.VBR: {
          const w = r.readVBRWide(5);
          if (w === 0) {
            // Fixed(0) and VBR(0) read nothing and mean the value 0.
            ops.push({ kind: AbbrevOpKind.Literal, value: 0 });
          } else if (w < 0 || w > 32) {
            this.fail(`abbreviation operand ${enc === 1 ? 'Fixed' : 'VBR'}(${w < 0 ? r.wideValue : w}) is wider than 32 bits`, pos);
          } else {
            ops.push({ kind: enc, value: w });
          }
          break;
        }
        case AbbrevOpKind.Array:
        case AbbrevOpKind.Char6:
        case AbbrevOpKind.Blob:
          ops.push({ kind: enc, value: 0 });
          break;
        default:
          this.fail(`invalid abbreviation operand encoding ${enc}`, pos);
      }
    }
    if (r.bitPos > s.endBit) this.fail(`abbreviation definition extends past the end of ${this.blockDesc()}`, pos);
    if (n === 0) this.fail('abbreviation with no operands', pos);
    const abbrev = new Abbrev(ops);
    if (s.blockId === BLOCKINFO_BLOCK_ID) {
      if (s.curBID < 0) this.fail('DEFINE_ABBREV in the BLOCKINFO block before any SETBID', pos);
      this.blockInfo.addAbbrev(s.curBID, abbrev);
    } else {
      if (s.local === null) s.local = [abbrev];
      else s.local.push(abbrev);
    }
  }

  private getAbbrev(abbrevId: number, pos: number): Abbrev {
    const s = this.scope;
    const i = abbrevId - 4;
    const a = i < s.numInherited ? s.inherited[i] : s.local?.[i - s.numInherited];
    if (a === undefined || !(i >= 0)) {
      const defined = s.numInherited + (s.local?.length ?? 0);
      this.fail(`unknown abbreviation id ${abbrevId} in ${this.blockDesc()} (${defined} defined)`, pos);
    }
    if (a.invalid !== undefined) this.fail(a.invalid, pos);
    return a;
  }

  /**
   * Reads a record whose abbreviation id was returned by `advance()`.  In a
   * BLOCKINFO block, SETBID / BLOCKNAME / SETRECORDNAME records also update
   * `blockInfo`.
   */
  readRecord(abbrevId: number): BitcodeRecord {
    const s = this.scope;
    const pos = this.r.bitPos;
    const rec: BitcodeRecord = { code: 0, ops: EMPTY_OPS, big: undefined, blob: undefined, abbrevId };
    const n =
      abbrevId === BuiltinAbbrev.UNABBREV_RECORD
        ? this.readUnabbrev(rec, pos)
        : this.readAbbreviated(rec, this.getAbbrev(abbrevId, pos), pos);
    // Operands were collected in the scratch array; copy them out at their exact size.
    rec.ops = n === 0 ? [] : this.scratch.slice(0, n);
    if (this.r.bitPos > s.endBit) this.fail(`record extends past the end of ${this.blockDesc()}`, pos);
    if (s.blockId === BLOCKINFO_BLOCK_ID) this.applyBlockInfoRecord(rec, pos);
    return rec;
  }

  /** Reads an UNABBREV_RECORD body into `rec` (code) and the scratch array; returns the operand count. */
  private readUnabbrev(rec: BitcodeRecord, pos: number): number {
    const r = this.r;
    const code = r.readVBRWide(6);
    if (code < 0 || code > 0xffffffff) this.fail('record code too large', pos);
    rec.code = code;
    const n = r.readVBRWide(6);
    if (n < 0 || n * 6 > this.scope.endBit - r.bitPos) {
      this.fail(`record operand count ${n < 0 ? r.wideValue : n} exceeds the size of ${this.blockDesc()}`, pos);
    }
    const sc = this.scratch;
    for (let i = 0; i < n; i++) {
      const v = r.readVBRWide(6);
      if (v >= 0) sc[i] = v;
      else this.setBig(rec, i, r.wideValue);
    }
    return n;
  }

  /** Reads an abbreviated record body into `rec` (code, blob) and the scratch array; returns the operand count. */
  private readAbbreviated(rec: BitcodeRecord, abbrev: Abbrev, pos: number): number {
    const r = this.r;
    const aops = abbrev.ops;
    const sc = this.scratch;
    const op0 = aops[0];
    let code: number;
    if (op0.kind === AbbrevOpKind.Literal) {
      if (op0.big !== undefined || op0.value > 0xffffffff) this.fail('record code too large', pos);
      code = op0.value;
    } else {
      code = this.readScalar(op0);
      if (code < 0 || code > 0xffffffff) this.fail('record code too large', pos);
    }
    rec.code = code;
    let k = 0;
    for (let i = 1, e = aops.length; i < e; i++) {
      const op = aops[i];
      switch (op.kind) {
        case AbbrevOpKind.Literal:
          if (op.big === undefined) sc[k++] = op.value;
          else this.setBig(rec, k++, op.big);
          break;
        case AbbrevOpKind.Fixed:
          sc[k++] = r.read(op.value);
          break;
        case AbbrevOpKind.VBR: {
          const v = r.readVBRWide(op.value);
          if (v >= 0) sc[k++] = v;
          else this.setBig(rec, k++, r.wideValue);
          break;
        }
        case AbbrevOpKind.Char6:
          sc[k++] = CHAR6[r.read(6)];
          break;
        case AbbrevOpKind.Array:
          k = this.readArray(rec, aops[++i], pos, k);
          break;
        case AbbrevOpKind.Blob:
          rec.blob = this.readBlob(pos);
          break;
      }
    }
    return k;
  }

  private readArray(rec: BitcodeRecord, elt: AbbrevOp, pos: number, k: number): number {
    const r = this.r;
    const sc = this.scratch;
    const n = r.readVBRWide(6);
    const minBits = elt.kind === AbbrevOpKind.Char6 ? 6 : elt.value;
    if (n < 0 || n * minBits > this.scope.endBit - r.bitPos) {
      this.fail(`array length ${n < 0 ? r.wideValue : n} exceeds the size of ${this.blockDesc()}`, pos);
    }
    const w = elt.value;
    const end = k + n;
    if (elt.kind === AbbrevOpKind.Fixed) {
      for (; k < end; k++) sc[k] = r.read(w);
    } else if (elt.kind === AbbrevOpKind.VBR) {
      for (; k < end; k++) {
        const v = r.readVBRWide(w);
        if (v >= 0) sc[k] = v;
        else this.setBig(rec, k, r.wideValue);
      }
    } else {
      for (; k < end; k++) sc[k] = CHAR6[r.read(6)];
    }
    return end;
  }

  private setBig(rec: BitcodeRecord, k: number, v: bigint): void {
    if (rec.big === undefined) rec.big = new Map();
    rec.big.set(k, v);
    this.scratch[k] = Number(v);
  }

  /** Reads a Fixed/VBR/Char6 scalar; -1 if a VBR did not fit in a safe integer (value in reader.wideValue). */
  private readScalar(op: AbbrevOp): number {
    switch (op.kind) {
      case AbbrevOpKind.Fixed:
        return this.r.read(op.value);
      case AbbrevOpKind.VBR:
        return this.r.readVBRWide(op.value);
      case AbbrevOpKind.Char6:
        return CHAR6[this.r.read(6)];
      default:
        return 0;
    }
  }

  private readBlob(recPos: number): Uint8Array {
    const r = this.r;
    const len = r.readVBRWide(6);
    r.alignTo32();
    const padded = len < 0 ? Infinity : Math.ceil(len / 4) * 32;
    if (padded > this.scope.endBit - r.bitPos) {
      this.fail(`blob of ${len < 0 ? r.wideValue : len} bytes extends past the end of ${this.blockDesc()}`, recPos);
    }
    const bytes = r.readBytes(len);
    r.alignTo32();
    return bytes;
  }

  private applyBlockInfoRecord(rec: BitcodeRecord, pos: number): void {
    const s = this.scope;
    switch (rec.code) {
      case BLOCKINFO_CODE_SETBID:
        if (rec.ops.length < 1) this.fail('SETBID record without a block id', pos);
        if (rec.big !== undefined || rec.ops[0] > 0xffffffff) this.fail('SETBID block id too large', pos);
        s.curBID = rec.ops[0];
        break;
      case BLOCKINFO_CODE_BLOCKNAME:
        if (s.curBID < 0) this.fail('BLOCKNAME record before any SETBID', pos);
        this.blockInfo.getOrCreate(s.curBID).name = opsToString(rec.ops, 0);
        break;
      case BLOCKINFO_CODE_SETRECORDNAME:
        if (s.curBID < 0) this.fail('SETRECORDNAME record before any SETBID', pos);
        if (rec.ops.length < 1) this.fail('SETRECORDNAME record without a record code', pos);
        this.blockInfo.getOrCreate(s.curBID).recordNames.set(rec.ops[0], opsToString(rec.ops, 1));
        break;
      default:
        // Unknown BLOCKINFO records are ignored.
        break;
    }
  }

  /** Skips a record whose abbreviation id was returned by `advance()`, without materializing it. */
  skipRecord(abbrevId: number): void {
    const s = this.scope;
    if (s.blockId === BLOCKINFO_BLOCK_ID) {
      // BLOCKINFO records have side effects.
      this.readRecord(abbrevId);
      return;
    }
    const r = this.r;
    const pos = r.bitPos;
    if (abbrevId === BuiltinAbbrev.UNABBREV_RECORD) {
      r.readVBRWide(6);
      const n = r.readVBRWide(6);
      if (n < 0 || n * 6 > s.endBit - r.bitPos) this.fail(`record operand count exceeds the size of ${this.blockDesc()}`, pos);
      for (let i = 0; i < n; i++) r.readVBRWide(6);
    } else {
      const aops = this.getAbbrev(abbrevId, pos).ops;
      for (let i = 0, e = aops.length; i < e; i++) {
        const op = aops[i];
        switch (op.kind) {
          case AbbrevOpKind.Literal:
            break;
          case AbbrevOpKind.Fixed:
            r.read(op.value);
            break;
          case AbbrevOpKind.VBR:
            r.readVBRWide(op.value);
            break;
          case AbbrevOpKind.Char6:
            r.read(6);
            break;
          case AbbrevOpKind.Array: {
            const elt = aops[++i];
            const n = r.readVBRWide(6);
            const minBits = elt.kind === AbbrevOpKind.Char6 ? 6 : elt.value;
            const left = s.endBit - r.bitPos;
            if (n < 0 || n * minBits > left) this.fail(`array length exceeds the size of ${this.blockDesc()}`, pos);
            if (elt.kind === AbbrevOpKind.VBR) {
              for (let j = 0; j < n; j++) r.readVBRWide(elt.value);
            } else {
              r.seekBit(r.bitPos + n * minBits);
            }
            break;
          }
          case AbbrevOpKind.Blob:
            this.readBlob(pos);
            break;
        }
      }
    }
    if (r.bitPos > s.endBit) this.fail(`record extends past the end of ${this.blockDesc()}`, pos);
  }
}

function opsToString(ops: readonly number[], from: number): string {
  let s = '';
  for (let i = from; i < ops.length; i++) s += String.fromCharCode(ops[i] & 0xff);
  return s;
}
