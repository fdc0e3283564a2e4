import { BitReader } from '../../../src/bitcode/bitstream.js';
import {
  AdvanceFlags,
  AbbrevOpKind,
  BitstreamCursor,
  BlockInfo,
  EntryKind,
  s64,
  u64,
  type BitcodeRecord,
} from '../../../src/bitcode/cursor.js';
import { walkCursor, type DumpNode } from '../../../src/bitcode/dump.js';
import { BitcodeError } from '../../../src/bitcode/errors.js';
import { BitWriter } from '../../support/bitwriter.js';

function cursorOf(w: BitWriter, blockInfo?: BlockInfo): BitstreamCursor {
  return new BitstreamCursor(new BitReader(w.finish()), blockInfo);
}

function expectBitcodeError(fn: () => unknown, msg?: RegExp): BitcodeError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof BitcodeError)) throw e;
    if (msg) expect(e.message).toMatch(msg);
    expect(e.bitPos).toBeGreaterThanOrEqual(0);
    return e;
  }
  throw new Error('expected a BitcodeError');
}

/** Walks the whole stream; returns the list of records of every block (flattened) in order. */
function records(nodes: DumpNode[]): BitcodeRecord[] {
  const out: BitcodeRecord[] = [];
  const visit = (ns: DumpNode[]): void => {
    for (const n of ns) {
      if (n.kind === 'record') out.push(n.record);
      else visit(n.children);
    }
  };
  visit(nodes);
  return out;
}

describe('BitstreamCursor: blocks and unabbreviated records', () => {
  test('nested blocks, END_BLOCK alignment, block ids and sizes', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.unabbrevRecord(1, [2]);
    w.enterBlock(17, 4);
    w.unabbrevRecord(7, [32, 0, 5]);
    w.unabbrevRecord(2);
    w.endBlock();
    w.unabbrevRecord(99, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    w.endBlock();
    w.enterBlock(23, 2);
    w.endBlock();
    const c = cursorOf(w);
    expect(c.blockId).toBe(-1);
    let e = c.advance();
    expect(e).toEqual({ kind: EntryKind.SubBlock, id: 8 });
    c.enterSubBlock(8);
    expect(c.blockId).toBe(8);
    expect(c.abbrevWidth).toBe(3);
    expect(c.depth).toBe(1);
    expect(c.bitPos % 32).toBe(0);
    e = c.advance();
    expect(e).toEqual({ kind: EntryKind.Record, id: 3 });
    expect(c.readRecord(e.id)).toEqual({ code: 1, ops: [2], big: undefined, blob: undefined, abbrevId: 3 });
    e = c.advance();
    expect(e).toEqual({ kind: EntryKind.SubBlock, id: 17 });
    c.enterSubBlock();
    expect(c.blockId).toBe(17);
    expect(c.readRecord(c.advance().id).ops).toEqual([32, 0, 5]);
    const r2 = c.readRecord(c.advance().id);
    expect(r2.code).toBe(2);
    expect(r2.ops).toEqual([]);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
    expect(c.blockId).toBe(8);
    expect(c.bitPos % 32).toBe(0);
    const r3 = c.readRecord(c.advance().id);
    expect(r3.code).toBe(99);
    expect(r3.ops).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
    expect(c.blockId).toBe(-1);
    expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 23 });
    c.enterSubBlock(23);
    expect(c.blockNumWords).toBe(1);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
    // End of stream at top level.
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
  });

  test('skipBlock and skipRecord land where reading would', () => {
    const build = (): BitWriter => {
      const w = new BitWriter();
      w.enterBlock(8, 3);
      w.unabbrevRecord(5, [1n << 60n, 7, 2 ** 40]);
      w.enterBlock(9, 5);
      w.unabbrevRecord(1, [1, 2, 3]);
      w.enterBlock(10, 2);
      w.endBlock();
      w.endBlock();
      w.unabbrevRecord(6, [42]);
      w.endBlock();
      return w;
    };
    const c = cursorOf(build());
    c.advance();
    c.enterSubBlock(8);
    c.skipRecord(c.advance().id);
    expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 9 });
    c.skipBlock();
    const rec = c.readRecord(c.advance().id);
    expect(rec.code).toBe(6);
    expect(rec.ops).toEqual([42]);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
    expect(c.advance().kind).toBe(EntryKind.EndBlock);
  });

  test('64-bit operands: big map and u64/s64', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    const vals = [0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 64n - 1n, 0x8000000000000000n, 12345n];
    w.unabbrevRecord(4, vals);
    w.endBlock();
    const [rec] = records(walkCursor(cursorOf(w)));
    expect(rec.ops.length).toBe(vals.length);
    expect(rec.ops[1]).toBe(Number.MAX_SAFE_INTEGER);
    expect(rec.ops[5]).toBe(12345);
    expect([...(rec.big?.keys() ?? [])].sort()).toEqual([2, 3, 4]);
    for (let i = 0; i < vals.length; i++) expect(u64(rec, i)).toBe(vals[i]);
    expect(s64(rec, 3)).toBe(-1n);
    expect(s64(rec, 4)).toBe(-(2n ** 63n));
    expect(rec.ops[3]).toBeCloseTo(2 ** 64);
    expect(() => u64(rec, 6)).toThrow(BitcodeError);
    expect(() => u64(rec, -1)).toThrow(BitcodeError);
  });
});

describe('BitstreamCursor: abbreviations', () => {
  test('literal, fixed, vbr, char6, array(fixed/vbr/char6), blob', () => {
    const w = new BitWriter();
    w.enterBlock(8, 4);
    const aLit = w.defineAbbrev([{ lit: 7 }, { lit: 300 }, { fixed: 3 }, { vbr: 6 }, 'char6']);
    const aArrFixed = w.defineAbbrev([{ lit: 2 }, { fixed: 1 }, 'array', { fixed: 8 }]);
    const aArrVbr = w.defineAbbrev([{ vbr: 6 }, 'array', { vbr: 6 }]);
    const aArrChar6 = w.defineAbbrev([{ fixed: 5 }, 'array', 'char6']);
    const aBlob = w.defineAbbrev([{ lit: 9 }, { vbr: 4 }, 'blob']);
    const aFixed32 = w.defineAbbrev([{ lit: 1 }, { fixed: 32 }, { vbr: 32 }]);
    const aZero = w.defineAbbrev([{ lit: 3 }, { fixed: 0 }, { vbr: 0 }, { fixed: 2 }]);
    const aBigLit = w.defineAbbrev([{ lit: 4 }, { lit: 2n ** 64n - 2n }]);
    expect([aLit, aArrFixed, aArrVbr, aArrChar6, aBlob, aFixed32, aZero, aBigLit]).toEqual([4, 5, 6, 7, 8, 9, 10, 11]);
    w.abbrevRecord(aLit, [7, 300, 5, 1000, 'Z']);
    w.abbrevRecord(aArrFixed, [2, 1, 104, 105, 255, 0]);
    w.abbrevRecord(aArrVbr, [77, 1, 2n ** 63n, 3]);
    w.abbrevRecord(aArrVbr, [78]); // empty array
    w.abbrevRecord(aArrChar6, [20, 'a', '.', '_', 'Q', '9']);
    const blobData = new Uint8Array([1, 2, 3, 4, 5, 0, 255]);
    w.abbrevRecord(aBlob, [9, 11], blobData);
    w.abbrevRecord(aBlob, [9, 12], new Uint8Array(0));
    w.abbrevRecord(aFixed32, [1, 0xffffffff, 0xfffffffe]);
    w.abbrevRecord(aZero, [3, 0, 0, 2]);
    w.abbrevRecord(aBigLit, [4]);
    w.unabbrevRecord(100, [1]);
    w.endBlock();

    const recs = records(walkCursor(cursorOf(w)));
    const simple = recs.map((r) => ({ code: r.code, ops: r.ops, abbrevId: r.abbrevId }));
    expect(simple).toEqual([
      { code: 7, ops: [300, 5, 1000, 'Z'.charCodeAt(0)], abbrevId: 4 },
      { code: 2, ops: [1, 104, 105, 255, 0], abbrevId: 5 },
      { code: 77, ops: [1, 2 ** 63, 3], abbrevId: 6 },
      { code: 78, ops: [], abbrevId: 6 },
      { code: 20, ops: [...'a._Q9'].map((ch) => ch.charCodeAt(0)), abbrevId: 7 },
      { code: 9, ops: [11], abbrevId: 8 },
      { code: 9, ops: [12], abbrevId: 8 },
      { code: 1, ops: [0xffffffff, 0xfffffffe], abbrevId: 9 },
      { code: 3, ops: [0, 0, 2], abbrevId: 10 },
      { code: 4, ops: [2 ** 64], abbrevId: 11 },
      { code: 100, ops: [1], abbrevId: 3 },
    ]);
    expect(u64(recs[2], 1)).toBe(2n ** 63n);
    expect(recs[2].big?.size).toBe(1);
    expect([...(recs[5].blob ?? [])]).toEqual([...blobData]);
    expect(recs[6].blob?.length).toBe(0);
    expect(recs[0].blob).toBeUndefined();
    expect(u64(recs[9], 0)).toBe(2n ** 64n - 2n);
  });

  test('skipRecord handles every operand kind', () => {
    const w = new BitWriter();
    w.enterBlock(8, 4);
    const a = w.defineAbbrev([{ vbr: 6 }, { fixed: 3 }, 'char6', 'blob', { lit: 1 }, 'array', { fixed: 7 }]);
    const b = w.defineAbbrev([{ lit: 5 }, 'array', { vbr: 3 }]);
    const c6 = w.defineAbbrev([{ lit: 6 }, 'array', 'char6']);
    w.abbrevRecord(a, [40, 5, 'x', 1, 3, 4, 5], new Uint8Array([9, 9, 9, 9, 9]));
    w.abbrevRecord(b, [5, 100, 2n ** 64n - 1n, 7]);
    w.abbrevRecord(c6, [6, 'h', 'e', 'y']);
    w.unabbrevRecord(77, [5]);
    w.endBlock();
    const cur = cursorOf(w);
    cur.advance();
    cur.enterSubBlock(8);
    for (let i = 0; i < 3; i++) {
      const e = cur.advance();
      expect(e.kind).toBe(EntryKind.Record);
      cur.skipRecord(e.id);
    }
    const last = cur.readRecord(cur.advance().id);
    expect(last.code).toBe(77);
    expect(last.ops).toEqual([5]);
    expect(cur.advance().kind).toBe(EntryKind.EndBlock);
  });

  test('abbreviations are local to their block', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.defineAbbrev([{ lit: 1 }]);
    w.enterBlock(8, 3);
    w.emit(4, 3); // abbrev 4 is not defined in the inner block
    w.endBlock();
    w.endBlock();
    const c = cursorOf(w);
    c.advance();
    c.enterSubBlock(8);
    expect(c.abbrevs.length).toBe(0);
    expect(c.advance().kind).toBe(EntryKind.SubBlock);
    expect(c.abbrevs.length).toBe(1);
    c.enterSubBlock(8);
    const e = c.advance();
    expectBitcodeError(() => c.readRecord(e.id), /unknown abbreviation id 4/);
  });
});

describe('BitstreamCursor: BLOCKINFO', () => {
  const buildWithBlockInfo = (): BitWriter => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.enterBlock(0, 2);
    w.setBID(12);
    w.unabbrevRecord(2, [...'FUNC'].map((ch) => ch.charCodeAt(0))); // BLOCKNAME
    w.unabbrevRecord(3, [5, ...'ret'].map((x) => (typeof x === 'string' ? x.charCodeAt(0) : x))); // SETRECORDNAME
    w.defineAbbrev([{ lit: 5 }, { fixed: 4 }]); // -> id 4 in block 12
    w.defineAbbrev([{ lit: 6 }, 'array', 'char6']); // -> id 5 in block 12
    w.setBID(11);
    w.defineAbbrev([{ lit: 1 }, { vbr: 8 }]); // -> id 4 in block 11
    w.endBlock();
    for (let k = 0; k < 2; k++) {
      w.enterBlock(12, 4);
      w.abbrevRecord(4, [5, 9 + k]);
      const local = w.defineAbbrev([{ lit: 8 }, { fixed: 2 }]); // id 6 (after inherited 4, 5)
      expect(local).toBe(6);
      w.abbrevRecord(6, [8, 3]);
      w.abbrevRecord(5, [6, 'o', 'k']);
      w.enterBlock(11, 3);
      w.abbrevRecord(4, [1, 1000]);
      w.endBlock();
      w.endBlock();
    }
    w.endBlock();
    return w;
  };

  test('abbreviations from BLOCKINFO are inherited, before local ones (auto-processed)', () => {
    const c = cursorOf(buildWithBlockInfo());
    c.advance();
    c.enterSubBlock(8);
    for (let k = 0; k < 2; k++) {
      // The BLOCKINFO block is consumed internally by advance().
      expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 12 });
      c.enterSubBlock(12);
      expect(c.abbrevs.length).toBe(2);
      let rec = c.readRecord(c.advance().id);
      expect([rec.code, rec.abbrevId, rec.ops]).toEqual([5, 4, [9 + k]]);
      rec = c.readRecord(c.advance().id);
      expect([rec.code, rec.abbrevId, rec.ops]).toEqual([8, 6, [3]]);
      rec = c.readRecord(c.advance().id);
      expect([rec.code, rec.abbrevId, rec.ops]).toEqual([6, 5, [111, 107]]);
      expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 11 });
      c.enterSubBlock(11);
      rec = c.readRecord(c.advance().id);
      expect([rec.code, rec.ops]).toEqual([1, [1000]]);
      expect(c.advance().kind).toBe(EntryKind.EndBlock);
      expect(c.advance().kind).toBe(EntryKind.EndBlock);
    }
    expect(c.blockInfo.blockName(12)).toBe('FUNC');
    expect(c.blockInfo.recordName(12, 5)).toBe('ret');
    expect(c.blockInfo.abbrevs(12).length).toBe(2);
    expect(c.blockInfo.abbrevs(12)[1].ops.map((o) => o.kind)).toEqual([
      AbbrevOpKind.Literal,
      AbbrevOpKind.Array,
      AbbrevOpKind.Char6,
    ]);
    expect(c.blockInfo.abbrevs(11).length).toBe(1);
    expect(c.blockInfo.blockIds().sort()).toEqual([11, 12]);
  });

  test('ReturnBlockInfo: the block is returned and can be walked (still registering abbrevs) or skipped', () => {
    const nodes = walkCursor(cursorOf(buildWithBlockInfo()));
    const mod = nodes[0];
    expect(mod.kind).toBe('block');
    if (mod.kind !== 'block') return;
    const bi = mod.children[0];
    expect(bi.kind === 'block' && bi.blockId).toBe(0);
    if (bi.kind !== 'block') return;
    expect(bi.children.map((n) => (n.kind === 'record' ? n.record.code : -1))).toEqual([1, 2, 3, 1]);
    expect(records(nodes).filter((r) => r.code === 6).length).toBe(2);

    const c = cursorOf(buildWithBlockInfo());
    c.advance();
    c.enterSubBlock(8);
    expect(c.advance(AdvanceFlags.ReturnBlockInfo)).toEqual({ kind: EntryKind.SubBlock, id: 0 });
    c.skipBlock();
    expect(c.advance()).toEqual({ kind: EntryKind.SubBlock, id: 12 });
    c.enterSubBlock(12);
    // BLOCKINFO was skipped, so abbrev 4 is unknown.
    expectBitcodeError(() => c.readRecord(c.advance().id), /unknown abbreviation/);

    const c2 = cursorOf(buildWithBlockInfo());
    c2.advance();
    c2.enterSubBlock(8);
    expect(c2.advance(AdvanceFlags.ReturnBlockInfo).id).toBe(0);
    c2.readBlockInfoBlock();
    expect(c2.blockInfo.abbrevs(12).length).toBe(2);
  });

  test('a shared BlockInfo can be passed in; a new BLOCKINFO block replaces it', () => {
    const info = new BlockInfo();
    info.addAbbrev(99, { ops: [{ kind: AbbrevOpKind.Literal, value: 1 }], invalid: undefined });
    const c = cursorOf(buildWithBlockInfo(), info);
    expect(c.blockInfo).toBe(info);
    walkCursor(c);
    expect(info.abbrevs(99).length).toBe(0);
    expect(info.abbrevs(12).length).toBe(2);
  });

  test('a pre-populated BlockInfo supplies abbreviations', () => {
    // Stream without BLOCKINFO; abbreviations come from a BlockInfo read elsewhere.
    const src = cursorOf(buildWithBlockInfo());
    walkCursor(src);
    const w = new BitWriter();
    w.blockInfoAbbrevs.set(11, [[{ lit: 1 }, { vbr: 8 }]]);
    w.enterBlock(11, 3);
    w.abbrevRecord(4, [1, 4242]);
    w.endBlock();
    const recs = records(walkCursor(cursorOf(w, src.blockInfo)));
    expect(recs[0].ops).toEqual([4242]);
  });

  test('BLOCKINFO errors', () => {
    const w = new BitWriter();
    w.enterBlock(0, 2);
    w.defineAbbrev([{ lit: 1 }]); // before SETBID
    w.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(w)), /before any SETBID/);

    const w2 = new BitWriter();
    w2.enterBlock(0, 2);
    w2.unabbrevRecord(2, [65]); // BLOCKNAME before SETBID
    w2.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(w2)), /before any SETBID/);

    const w3 = new BitWriter();
    w3.enterBlock(0, 2);
    w3.setBID(8);
    w3.enterBlock(8, 2);
    w3.endBlock();
    w3.endBlock();
    const c3 = cursorOf(w3);
    expectBitcodeError(() => c3.advance(), /nested block inside the BLOCKINFO/);
  });
});

describe('BitstreamCursor: malformed input', () => {
  const inModule = (fill: (w: BitWriter) => void, width = 3): BitWriter => {
    const w = new BitWriter();
    w.enterBlock(8, width);
    fill(w);
    return w;
  };

  test('unknown abbreviation id', () => {
    const w = inModule((w) => w.emit(5, 3));
    w.endBlock();
    const c = cursorOf(w);
    c.advance();
    c.enterSubBlock(8);
    const e = c.advance();
    expect(e).toEqual({ kind: EntryKind.Record, id: 5 });
    const err = expectBitcodeError(() => c.readRecord(5), /unknown abbreviation id 5 in block 8/);
    expect(err.bitPos).toBe(67); // right after the abbreviation id
    const c2 = cursorOf(w);
    c2.advance();
    c2.enterSubBlock(8);
    c2.advance();
    expectBitcodeError(() => c2.skipRecord(5), /unknown abbreviation/);
  });

  test('END_BLOCK that does not match the block length', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.unabbrevRecord(1, [1]);
    w.endBlock(+1);
    w.emit(0, 32);
    expectBitcodeError(() => walkCursor(cursorOf(w)), /does not match its length/);
  });

  test('block without END_BLOCK before its declared end', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.unabbrevRecord(1, [1, 2, 3, 4, 5, 6, 7]);
    w.unabbrevRecord(1, [1]);
    w.endBlock(-1);
    expectBitcodeError(() => walkCursor(cursorOf(w)), /(no END_BLOCK|past the end|exceeds the size)/);
  });

  test('zero-length block', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.unabbrevRecord(1, [1]);
    w.endBlock();
    const bytes = w.finish();
    bytes.set([0, 0, 0, 0], 4); // length word
    expectBitcodeError(() => walkCursor(new BitstreamCursor(new BitReader(bytes))), /END_BLOCK/);
  });

  test('nested block exceeding its parent', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.enterBlock(9, 3);
    w.unabbrevRecord(1, [1]);
    w.endBlock(+2);
    w.endBlock();
    w.emit(0, 64);
    expectBitcodeError(() => walkCursor(cursorOf(w)), /extends past the end of enclosing block 8/);
    const c = cursorOf(w);
    c.advance();
    c.enterSubBlock(8);
    c.advance();
    expectBitcodeError(() => c.skipBlock(), /extends past the end/);
  });

  test('top-level block exceeding the stream', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.endBlock(+5);
    expectBitcodeError(() => walkCursor(cursorOf(w)), /extends past the end of the stream/);
  });

  test('invalid abbreviation widths', () => {
    for (const width of [0, 33, 100]) {
      const w = new BitWriter();
      w.emit(1, 2).emitVBR(8, 8).emitVBR(width, 4).align32().emit(1, 32).emit(0, 32);
      expectBitcodeError(() => walkCursor(cursorOf(w)), /invalid abbreviation id width/);
    }
  });

  test('things other than blocks at top level', () => {
    for (const id of [0, 2, 3]) {
      const w = new BitWriter();
      w.emit(id, 2).emit(0, 30);
      expectBitcodeError(() => walkCursor(cursorOf(w)), /top level/);
    }
  });

  test('malformed abbreviation definitions', () => {
    const cases: [Parameters<BitWriter['defineAbbrev']>[0], RegExp][] = [
      [[{ rawEnc: 0 }], /invalid abbreviation operand encoding 0/],
      [[{ rawEnc: 6 }], /invalid abbreviation operand encoding 6/],
      [[{ rawEnc: 7 }], /invalid abbreviation operand encoding 7/],
      [[{ lit: 1 }, { fixed: 33 }], /wider than 32/],
      [[{ lit: 1 }, { vbr: 40 }], /wider than 32/],
      [[], /no operands/],
    ];
    for (const [ops, msg] of cases) {
      const w = inModule((w) => w.defineAbbrev(ops));
      w.endBlock();
      expectBitcodeError(() => walkCursor(cursorOf(w)), msg);
    }
  });

  test('malformed abbreviations are reported when used', () => {
    const cases: [Parameters<BitWriter['defineAbbrev']>[0], RegExp][] = [
      [['array', { fixed: 3 }], /starts with an array or a blob/],
      [['blob'], /starts with an array or a blob/],
      [[{ lit: 1 }, 'array', 'array', { fixed: 2 }], /not second to last/],
      [[{ lit: 1 }, 'array', { fixed: 2 }, { fixed: 2 }], /not second to last/],
      [[{ lit: 1 }, 'array', 'blob'], /can't be an array or a blob/],
      [[{ lit: 1 }, 'array', { lit: 4 }], /has to be an encoding/],
      [[{ lit: 1 }, 'array', { fixed: 0 }], /has to be an encoding/],
      [[{ lit: 1 }, 'array'], /not second to last/],
    ];
    for (const [ops, msg] of cases) {
      // Defining is fine...
      const ok = inModule((w) => w.defineAbbrev(ops));
      ok.endBlock();
      expect(() => walkCursor(cursorOf(ok))).not.toThrow();
      // ...using is not.
      const w = inModule((w) => {
        w.defineAbbrev(ops);
        w.emit(4, 3);
        w.emit(0, 64);
      });
      w.endBlock();
      expectBitcodeError(() => walkCursor(cursorOf(w)), msg);
      const c = cursorOf(w);
      c.advance();
      c.enterSubBlock(8);
      const e = c.advance();
      expectBitcodeError(() => c.skipRecord(e.id), msg);
    }
  });

  test('huge array / operand / blob lengths are bounded by the block size', () => {
    const arr = inModule((w) => {
      w.defineAbbrev([{ lit: 1 }, 'array', { fixed: 8 }]);
      w.emit(4, 3).emitVBR(2 ** 40, 6);
    });
    arr.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(arr)), /array length 1099511627776 exceeds/);
    const arrSkip = cursorOf(arr);
    arrSkip.advance();
    arrSkip.enterSubBlock(8);
    expectBitcodeError(() => arrSkip.skipRecord(arrSkip.advance().id), /array length/);

    const arr64 = inModule((w) => {
      w.defineAbbrev([{ lit: 1 }, 'array', 'char6']);
      w.emit(4, 3).emitVBR(2n ** 63n, 6);
    });
    arr64.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(arr64)), /array length/);

    const ops = inModule((w) => w.emit(3, 3).emitVBR(1, 6).emitVBR(100000, 6));
    ops.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(ops)), /operand count 100000 exceeds/);

    const blob = inModule((w) => {
      w.defineAbbrev([{ lit: 1 }, 'blob']);
      w.emit(4, 3).emitVBR(1000, 6);
    });
    blob.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(blob)), /blob of 1000 bytes/);

    const def = inModule((w) => w.emit(2, 3).emitVBR(5000, 5));
    def.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(def)), /abbreviation definition/);
  });

  test('record extending past its block', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.enterBlock(9, 3);
    // 15 bits of header, then a 24-bit operand: ends at bit 39 of a 1-word block.
    w.emit(3, 3).emitVBR(1, 6).emitVBR(1, 6).emitVBR(2 ** 19, 6);
    w.endBlock(-1);
    w.endBlock();
    expectBitcodeError(() => walkCursor(cursorOf(w)), /record extends past the end of block 9/);
    const c = cursorOf(w);
    c.advance();
    c.enterSubBlock(8);
    c.advance();
    c.enterSubBlock(9);
    expectBitcodeError(() => c.skipRecord(c.advance().id), /record extends past the end of block 9/);
  });

  test('truncated streams end in BitcodeError', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.defineAbbrev([{ lit: 1 }, { vbr: 6 }, 'array', { fixed: 7 }]);
    w.abbrevRecord(4, [1, 1000, 1, 2, 3]);
    w.unabbrevRecord(5, [1, 2, 3]);
    w.endBlock();
    const full = w.finish();
    for (let n = 0; n < full.length; n++) {
      const c = new BitstreamCursor(new BitReader(full.subarray(0, n)));
      if (n === 0) {
        expect(walkCursor(c)).toEqual([]);
        continue;
      }
      expectBitcodeError(() => walkCursor(c));
    }
  });

  test('misuse of the cursor API is a plain Error', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.endBlock();
    const c = cursorOf(w);
    expect(() => c.enterSubBlock(8)).toThrow(/did not just return a SubBlock/);
    c.advance();
    expect(() => c.enterSubBlock(9)).toThrow(/pending sub-block has id 8/);
    expect(() => c.advance()).toThrow(/neither entered nor skipped/);
  });
});

describe('BitstreamCursor: seekTopLevel', () => {
  test('re-reading a block after remembering its position', () => {
    const w = new BitWriter();
    w.enterBlock(8, 3);
    w.unabbrevRecord(1, [11]);
    w.endBlock();
    w.enterBlock(9, 3);
    w.unabbrevRecord(2, [22]);
    w.endBlock();
    const c = cursorOf(w);
    const first = walkCursor(c);
    expect(first.length).toBe(2);
    const pos9 = first[1].bitPos;
    c.seekTopLevel(pos9);
    const again = walkCursor(c);
    expect(again.length).toBe(1);
    expect(again[0].kind === 'block' && again[0].blockId).toBe(9);
  });
});
