/**
 * A small LLVM bitstream writer for building test inputs by hand.
 *
 * Low level: `emit` (fixed-width field), `emitVBR`, `align32`, `emitBytes`.
 * Block level: `enterBlock` / `endBlock` (length word back-patched),
 * `defineAbbrev`, `unabbrevRecord`, `abbrevRecord`, and BLOCKINFO helpers.
 * Deliberately permissive: it will happily write malformed streams when asked to.
 */

/** An abbreviation operand, as written in DEFINE_ABBREV. */
export type AbbrevSpecOp =
  | { lit: number | bigint }
  | { fixed: number }
  | { vbr: number }
  | 'array'
  | 'char6'
  | 'blob'
  /** raw encoding number (for writing invalid encodings), with optional data */
  | { rawEnc: number; data?: number };

const CHAR6 = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';

export function char6Encode(ch: string): number {
  const i = CHAR6.indexOf(ch);
  if (i < 0) throw new Error(`not a char6 character: ${ch}`);
  return i;
}

interface WBlock {
  abbrevWidth: number;
  lengthBytePos: number; // byte offset of the length word
  abbrevs: AbbrevSpecOp[][];
  outerWidth: number;
}

export class BitWriter {
  private bytes = new Uint8Array(256);
  private nbits = 0;
  private blocks: WBlock[] = [];
  /** Abbreviation-id width in the current block (2 at top level). */
  abbrevWidth = 2;
  /** Abbrevs registered per block id in BLOCKINFO (to encode records in blocks that inherit them). */
  readonly blockInfoAbbrevs = new Map<number, AbbrevSpecOp[][]>();
  private blockInfoCurBID = -1;
  private inBlockInfo = false;

  get bitPos(): number {
    return this.nbits;
  }

  private ensure(bits: number): void {
    const needBytes = Math.ceil((this.nbits + bits) / 8) + 8;
    if (needBytes <= this.bytes.length) return;
    let n = this.bytes.length;
    while (n < needBytes) n *= 2;
    const b = new Uint8Array(n);
    b.set(this.bytes);
    this.bytes = b;
  }

  /** Writes the low `width` (0..64) bits of `value`. */
  emit(value: number | bigint, width: number): this {
    let v = BigInt.asUintN(64, BigInt(value));
    this.ensure(width);
    for (let i = 0; i < width; i++) {
      if (v & 1n) this.bytes[this.nbits >> 3] |= 1 << (this.nbits & 7);
      v >>= 1n;
      this.nbits++;
    }
    return this;
  }

  /** Writes `value` as VBR with chunk width `width`. */
  emitVBR(value: number | bigint, width: number): this {
    let v = BigInt(value);
    if (v < 0n) throw new Error('emitVBR: negative value');
    const dataBits = BigInt(width - 1);
    const hi = 1n << dataBits;
    for (;;) {
      const chunk = v & (hi - 1n);
      v >>= dataBits;
      if (v === 0n) {
        this.emit(chunk, width);
        return this;
      }
      this.emit(chunk | hi, width);
    }
  }

  /** Pads with zero bits to a multiple of 32. */
  align32(): this {
    const rem = this.nbits % 32;
    if (rem !== 0) this.emit(0, 32 - rem);
    return this;
  }

  emitBytes(data: Uint8Array | number[]): this {
    if (this.nbits % 8 !== 0) throw new Error('emitBytes: not byte aligned');
    for (const b of data) this.emit(b, 8);
    return this;
  }

  /** The LLVM IR magic 'BC' 0xC0DE. */
  magic(): this {
    return this.emitBytes([0x42, 0x43, 0xc0, 0xde]);
  }

  // ---- block level ----

  enterBlock(blockId: number, abbrevWidth: number): this {
    this.emit(1, this.abbrevWidth);
    this.emitVBR(blockId, 8);
    this.emitVBR(abbrevWidth, 4);
    this.align32();
    const lengthBytePos = this.nbits / 8;
    this.emit(0, 32); // back-patched
    const inherited = this.blockInfoAbbrevs.get(blockId) ?? [];
    this.blocks.push({ abbrevWidth, lengthBytePos, abbrevs: [...inherited], outerWidth: this.abbrevWidth });
    this.abbrevWidth = abbrevWidth;
    if (blockId === 0) {
      this.inBlockInfo = true;
      this.blockInfoCurBID = -1;
    }
    return this;
  }

  /** Ends the current block.  `lengthAdjust` (words) lets tests write a wrong length. */
  endBlock(lengthAdjust = 0): this {
    const b = this.blocks.pop();
    if (b === undefined) throw new Error('endBlock at top level');
    this.emit(0, this.abbrevWidth);
    this.align32();
    const words = (this.nbits / 8 - b.lengthBytePos - 4) / 4 + lengthAdjust;
    const p = b.lengthBytePos;
    this.bytes[p] = words & 0xff;
    this.bytes[p + 1] = (words >>> 8) & 0xff;
    this.bytes[p + 2] = (words >>> 16) & 0xff;
    this.bytes[p + 3] = (words >>> 24) & 0xff;
    this.abbrevWidth = b.outerWidth;
    this.inBlockInfo = false;
    return this;
  }

  private emitAbbrevOps(ops: AbbrevSpecOp[]): void {
    this.emitVBR(ops.length, 5);
    for (const op of ops) {
      if (op === 'array') this.emit(0, 1).emit(3, 3);
      else if (op === 'char6') this.emit(0, 1).emit(4, 3);
      else if (op === 'blob') this.emit(0, 1).emit(5, 3);
      else if ('lit' in op) this.emit(1, 1).emitVBR(op.lit, 8);
      else if ('fixed' in op) this.emit(0, 1).emit(1, 3).emitVBR(op.fixed, 5);
      else if ('vbr' in op) this.emit(0, 1).emit(2, 3).emitVBR(op.vbr, 5);
      else {
        this.emit(0, 1).emit(op.rawEnc, 3);
        if (op.data !== undefined) this.emitVBR(op.data, 5);
      }
    }
  }

  /** DEFINE_ABBREV in the current block; returns the new abbreviation id. */
  defineAbbrev(ops: AbbrevSpecOp[]): number {
    this.emit(2, this.abbrevWidth);
    this.emitAbbrevOps(ops);
    if (this.inBlockInfo) {
      const list = this.blockInfoAbbrevs.get(this.blockInfoCurBID) ?? [];
      list.push(ops);
      this.blockInfoAbbrevs.set(this.blockInfoCurBID, list);
      return 4 + list.length - 1;
    }
    const b = this.blocks[this.blocks.length - 1];
    if (b === undefined) return -1;
    b.abbrevs.push(ops);
    return 4 + b.abbrevs.length - 1;
  }

  unabbrevRecord(code: number, ops: (number | bigint)[] = []): this {
    this.emit(3, this.abbrevWidth);
    this.emitVBR(code, 6);
    this.emitVBR(ops.length, 6);
    for (const v of ops) this.emitVBR(v, 6);
    if (this.inBlockInfo && code === 1) this.blockInfoCurBID = Number(ops[0]);
    return this;
  }

  /** BLOCKINFO: SETBID record. */
  setBID(blockId: number): this {
    return this.unabbrevRecord(1, [blockId]);
  }

  /**
   * Writes a record with abbreviation `abbrevId` (of the current block).  `fields`
   * lists the code and then the operands in order (literal operands included and
   * ignored); an array operand consumes all remaining fields; a blob operand
   * consumes `blob`.
   */
  abbrevRecord(abbrevId: number, fields: (number | bigint | string)[], blob?: Uint8Array): this {
    const b = this.blocks[this.blocks.length - 1];
    const ops = b.abbrevs[abbrevId - 4];
    if (ops === undefined) throw new Error(`writer: unknown abbrev ${abbrevId}`);
    this.emit(abbrevId, this.abbrevWidth);
    let fi = 0;
    const scalar = (op: AbbrevSpecOp, v: number | bigint | string): void => {
      if (op === 'char6') this.emit(char6Encode(String(v)), 6);
      else if (typeof op === 'object' && 'fixed' in op) this.emit(BigInt(v), op.fixed);
      else if (typeof op === 'object' && 'vbr' in op) {
        if (op.vbr === 0) return;
        this.emitVBR(BigInt(v), op.vbr);
      } else if (typeof op === 'object' && 'lit' in op) {
        /* literal: nothing written */
      } else throw new Error('writer: bad scalar op');
    };
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (op === 'array') {
        const elt = ops[++i];
        const rest = fields.slice(fi);
        fi = fields.length;
        this.emitVBR(rest.length, 6);
        for (const v of rest) scalar(elt, v);
      } else if (op === 'blob') {
        const data = blob ?? new Uint8Array(0);
        this.emitVBR(data.length, 6);
        this.align32();
        this.emitBytes(data);
        this.align32();
      } else {
        if (typeof op === 'object' && 'fixed' in op && op.fixed === 0) {
          fi++;
          continue;
        }
        scalar(op, fields[fi++] ?? 0);
      }
    }
    return this;
  }

  /** The bytes written so far (a copy), padded with zero bits to a whole byte. */
  finish(): Uint8Array {
    return this.bytes.slice(0, Math.ceil(this.nbits / 8));
  }
}
