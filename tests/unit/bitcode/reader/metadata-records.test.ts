/**
 * The metadata reader on hand-written METADATA / METADATA_KIND / METADATA_ATTACHMENT blocks:
 * string blobs, reference linking (cycles), older record layouts, expression upgrades,
 * function-local slots, attachments, and bad input (always a BitcodeError).
 */
import { BitReader } from '../../../../src/bitcode/bitstream.js';
import { BitstreamCursor, EntryKind } from '../../../../src/bitcode/cursor.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import { ReaderContext } from '../../../../src/bitcode/reader/context.js';
import { BlockId, MetadataCode as MC } from '../../../../src/bitcode/reader/ids.js';
import {
  metadataList,
  readMetadataAttachmentBlock,
  readMetadataBlock,
  readMetadataKindBlock,
} from '../../../../src/bitcode/reader/metadata-reader.js';
import { BasicBlock, Function, GlobalVariable } from '../../../../src/ir/globals.js';
import { UnreachableInst } from '../../../../src/ir/instructions.js';
import {
  DIArgList,
  DIExpression,
  DILocalVariable,
  DILocation,
  DISubprogram,
  GenericMDNode,
  MDString,
  MDTuple,
  ValueAsMetadata,
  formatDIExpression,
  isValidDIExpression,
} from '../../../../src/ir/metadata.js';
import { Module } from '../../../../src/ir/module.js';
import { FunctionType, I32, MetadataType, VoidType } from '../../../../src/ir/types.js';
import { ValueKind } from '../../../../src/ir/value.js';
import { BitWriter } from '../../../support/bitwriter.js';

type Rec = [code: number, ...ops: (number | bigint)[]];

const T_I32 = 0;
const T_MD = 1;
const T_VOID = 2;

function makeCtx(): ReaderContext {
  const ctx = new ReaderContext('t.bc', new Module());
  ctx.types = [I32, MetadataType, VoidType];
  const gv = new GlobalVariable('g', I32, 0, I32);
  ctx.module.globals.push(gv);
  ctx.values.push(gv);
  return ctx;
}

/** METADATA_STRINGS [count, offset] + blob (vbr6 lengths, word aligned, then characters). */
function writeStrings(w: BitWriter, strings: string[], tamper?: (blob: Uint8Array) => [number, number, Uint8Array]): void {
  const lw = new BitWriter();
  for (const s of strings) lw.emitVBR(s.length, 6);
  lw.align32();
  const lengths = lw.finish();
  const chars = Uint8Array.from(strings.join(''), (c) => c.charCodeAt(0));
  let blob: Uint8Array = new Uint8Array(lengths.length + chars.length);
  blob.set(lengths);
  blob.set(chars, lengths.length);
  let count = strings.length;
  let offset = lengths.length;
  if (tamper) [count, offset, blob] = tamper(blob);
  const abbrev = w.defineAbbrev([{ lit: MC.Strings }, { vbr: 6 }, { vbr: 6 }, 'blob']);
  w.abbrevRecord(abbrev, [MC.Strings, count, offset], blob);
}

interface Block {
  strings?: string[];
  records?: Rec[];
}

/** A cursor positioned as a block reader expects: advance() has just returned the METADATA block. */
function metadataCursor(block: Block, inFunction = false, blockId: number = BlockId.Metadata): BitstreamCursor {
  const w = new BitWriter();
  if (inFunction) w.enterBlock(BlockId.Function, 4);
  w.enterBlock(blockId, 4);
  if (block.strings) writeStrings(w, block.strings);
  for (const [code, ...ops] of block.records ?? []) w.unabbrevRecord(code, ops);
  w.endBlock();
  if (inFunction) w.endBlock();
  const cursor = new BitstreamCursor(new BitReader(w.finish()));
  let e = cursor.advance();
  if (inFunction) {
    cursor.enterSubBlock(BlockId.Function);
    e = cursor.advance();
  }
  expect(e).toEqual({ kind: EntryKind.SubBlock, id: blockId });
  return cursor;
}

function read(ctx: ReaderContext, block: Block, inFunction = false): void {
  readMetadataBlock(ctx, metadataCursor(block, inFunction));
}

function expectBitcodeError(f: () => void, message?: RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(BitcodeError);
  if (message) expect((err as Error).message).toMatch(message);
}

describe('METADATA block', () => {
  test('strings take ids, then nodes; cycles are linked; named metadata resolves', () => {
    const ctx = makeCtx();
    read(ctx, {
      strings: ['a', '', 'héllo'.replace('é', '\xe9')],
      records: [
        [MC.DistinctNode, 5, 1], // !3 = distinct !{!4, !"a"}
        [MC.Node, 4, 0, 2], // !4 = !{!3, null, !""}
        [MC.Name, ...Array.from('llvm.ident', (c) => c.charCodeAt(0))],
        [MC.NamedNode, 4, 3],
      ],
    });
    const md = metadataList(ctx);
    expect(md.size).toBe(5);
    expect((md.get(2) as MDString).value).toBe('h\xe9llo');
    const a = md.get(3) as MDTuple;
    const b = md.get(4) as MDTuple;
    expect(a.distinct).toBe(true);
    expect(b.distinct).toBe(false);
    expect(a.ops).toEqual([b, md.get(0)]);
    expect(b.ops[0]).toBe(a);
    expect(b.ops[1]).toBeNull();
    expect(ctx.module.namedMetadata).toEqual([{ name: 'llvm.ident', ops: [b, a] }]);
  });

  test('debug-info nodes: file, compile unit, subprogram (current layout), location, variable', () => {
    const ctx = makeCtx();
    read(ctx, {
      strings: ['t.c', '/tmp', 'clang', 'f', 'x'], // !0..!4
      records: [
        [MC.File, 0, 1, 2], // !5
        [MC.CompileUnit, 1, 12, 6, 3, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0], // !6
        [MC.Subprogram, 7, 6, 4, 0, 6, 5, 0, 6, 0, 8, 0, 256, 7, 0, 0, 0, 0, 0, 0, 0], // !7: scope file, line 5, scopeLine 6
        [MC.LocalVar, 2, 8, 5, 6, 9, 0, 1, 0, 0], // !8 = x, arg 1, line 9
        [MC.Location, 0, 10, 3, 7, 0, 0], // !9
        [MC.Location, 1, 11, 4, 7, 10, 1], // !10 inlined at !9, implicit
      ],
    });
    const md = metadataList(ctx);
    const sp = md.get(7) as DISubprogram;
    expect([sp.name, sp.linkageName, sp.line, sp.scopeLine, sp.distinct]).toEqual(['f', '', 5, 6, true]);
    expect(sp.scope).toBe(md.get(5));
    expect(sp.file).toBe(md.get(5));
    expect(sp.unit).toBe(md.get(6));
    expect(sp.raw?.refs[6]).toBeNull();
    const v = md.get(8) as DILocalVariable;
    expect([v.name, v.line, v.arg]).toEqual(['x', 9, 1]);
    expect(v.scope).toBe(sp);
    const inner = md.get(10) as DILocation;
    expect([inner.line, inner.column, inner.implicitCode, inner.distinct]).toEqual([11, 4, true, true]);
    expect(inner.scope).toBe(sp);
    expect(inner.inlinedAt).toBe(md.get(9));
  });

  test('older layouts: subprogram without SP flags, local variable with a tag', () => {
    const ctx = makeCtx();
    read(ctx, {
      strings: ['g', 'y', 't.c', ''], // !0..!3
      records: [
        [MC.File, 0, 3, 4], // !4
        [MC.CompileUnit, 1, 12, 5, 4, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0], // !5
        // version 3 (unit at 15): isLocal 0, isDefinition 1, scopeLine 8, ..., unit !5
        [MC.Subprogram, 3, 5, 1, 0, 5, 7, 0, 0, 1, 8, 0, 0, 0, 0, 1, 6, 0, 0, 0], // !6
        [MC.LocalVar, 0, 0x101, 7, 2, 5, 12, 0, 2, 0], // !7 tag, scope, name y, file, line 12, type, arg 2, flags
      ],
    });
    const md = metadataList(ctx);
    const sp = md.get(6) as DISubprogram;
    expect([sp.name, sp.line, sp.scopeLine, sp.distinct]).toEqual(['g', 7, 8, true]);
    expect(sp.unit).toBe(md.get(5));
    const v = md.get(7) as DILocalVariable;
    expect([v.name, v.line, v.arg]).toEqual(['y', 12, 2]);
    expect(v.scope).toBe(sp);
  });

  test('other debug-info records become generic nodes with their references resolved', () => {
    const ctx = makeCtx();
    read(ctx, {
      strings: ['int', 'E'], // !0, !1
      records: [
        [MC.BasicType, 0, 36, 1, 32, 0, 5, 0], // !2
        [MC.Enumerator, 4 | 1, 64, 2, 3], // !3 wide: 64 bits, name !"E"... (name = !1)
        [MC.AssignId, 1], // !4
      ],
    });
    const md = metadataList(ctx);
    const bt = md.get(2) as GenericMDNode;
    expect(bt.nodeName).toBe('DIBasicType');
    expect(bt.refs[2]).toBe(md.get(0));
    expect(bt.refs[1]).toBeUndefined();
    const en = md.get(3) as GenericMDNode;
    expect([en.nodeName, en.distinct, en.refs[2]]).toEqual(['DIEnumerator', true, md.get(1)]);
    expect((md.get(4) as GenericMDNode).nodeName).toBe('DIAssignID');
  });

  test('expressions: exact 64-bit elements, upgrades from versions 0-2', () => {
    const ctx = makeCtx();
    const max = (1n << 64n) - 1n;
    read(ctx, {
      records: [
        [MC.Expression, 6, 0x10, max, 0x9f], // v3 constu 2^64-1, stack_value
        [MC.Expression, 0, 0x06, 0x22, 4, 0x9d, 0, 32], // v0: deref, plus 4, bit_piece 0 32
        [MC.Expression, 4, 0x1c, 3], // v2: minus 3
      ],
    });
    const md = metadataList(ctx);
    expect((md.get(0) as DIExpression).elements).toEqual([0x10n, max, 0x9fn]);
    expect(formatDIExpression(md.get(0) as DIExpression)).toBe(`!DIExpression(DW_OP_constu, ${max}, DW_OP_stack_value)`);
    expect(formatDIExpression(md.get(1) as DIExpression)).toBe('!DIExpression(DW_OP_plus_uconst, 4, DW_OP_deref, DW_OP_LLVM_fragment, 0, 32)');
    expect(formatDIExpression(md.get(2) as DIExpression)).toBe('!DIExpression(DW_OP_constu, 3, DW_OP_minus)');
    expectBitcodeError(() => read(makeCtx(), { records: [[MC.Expression, 8]] }), /version/);
  });

  test('global declaration attachments', () => {
    const ctx = makeCtx();
    read(ctx, {
      records: [
        [MC.Kind, 0, ...Array.from('dbg', (c) => c.charCodeAt(0))],
        [MC.GlobalDeclAttachment, 0, 0, 0], // defined by the next record
        [MC.DistinctNode],
      ],
    });
    expect(ctx.module.globals[0]!.attachments).toEqual([{ kind: 'dbg', node: metadataList(ctx).get(0) }]);
  });

  test('function-local slots continue the numbering and are dropped afterwards', () => {
    const ctx = makeCtx();
    read(ctx, { strings: ['m'] });
    const md = metadataList(ctx);
    md.enterFunction();
    read(ctx, { records: [[MC.Value, T_I32, 7], [MC.Value, T_I32, 0], [MC.ArgList, 1, 2], [MC.Node, 1, 3]] }, true);
    expect(md.size).toBe(5);
    const local = md.get(1) as ValueAsMetadata;
    expect(local.value.vkind).toBe(ValueKind.ForwardRef);
    expect(local.local).toBe(true);
    expect((md.get(2) as ValueAsMetadata).local).toBe(false);
    expect((md.get(3) as DIArgList).args).toEqual([local, md.get(2)]);
    expect(md.localValueRefs).toEqual([local, md.get(2)]);
    md.exitFunction();
    expect(md.size).toBe(1);
    expect(md.localValueRefs).toEqual([]);
    expectBitcodeError(() => md.get(1), /undefined metadata #1/);
  });

  test('a function-level block enters the function by itself', () => {
    const ctx = makeCtx();
    read(ctx, { strings: ['m'] });
    read(ctx, { strings: ['local'] }, true);
    const md = metadataList(ctx);
    expect(md.inFunction).toBe(true);
    md.exitFunction();
    expect(md.size).toBe(1);
  });

  test.each<[string, Block, RegExp]>([
    ['reference to a missing node', { records: [[MC.Node, 5]] }, /undefined metadata #4/],
    ['location without scope', { records: [[MC.Location, 0, 1, 1, 7, 0]] }, /undefined metadata #7/],
    ['short location', { records: [[MC.Location, 0, 1, 1, 0]] }, /LOCATION/],
    ['short subprogram', { records: [[MC.Subprogram, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]] }, /17 operands/],
    ['SP flags without unit', { records: [[MC.Subprogram, 5, ...new Array<number>(19).fill(0)]] }, /without a unit/],
    ['name not followed by a named node', { records: [[MC.Name, 97], [MC.Node]] }, /NAMED_NODE/],
    ['named node naming a string', { strings: ['s'], records: [[MC.Name, 97], [MC.NamedNode, 0]] }, /not a metadata node/],
    ['string field naming a node', { records: [[MC.Node], [MC.File, 0, 1, 1]] }, /not a string/],
    ['arg list of a node', { records: [[MC.Node], [MC.ArgList, 0]] }, /not a value/],
    ['metadata-typed value', { records: [[MC.Value, T_MD, 0]] }, /metadata or void/],
    ['void value', { records: [[MC.Value, T_VOID, 0]] }, /metadata or void/],
    ['value of an unknown type', { records: [[MC.Value, 9, 0]] }, /type/],
    ['attachment with an unknown kind', { records: [[MC.Node], [MC.GlobalDeclAttachment, 0, 3, 0]] }, /kind #3/],
    ['attachment to a missing value', { records: [[MC.GlobalDeclAttachment, 9, 0, 0]] }, /value #9/],
    ['conflicting kinds', { records: [[MC.Kind, 1, 97], [MC.Kind, 1, 98]] }, /conflicting/],
    ['subrange version 3', { records: [[MC.Subrange, 6, 0, 0]] }, /DISubrange/],
    ['non-distinct assign id', { records: [[MC.AssignId, 0]] }, /distinct/],
  ])('%s is a BitcodeError', (_name, block, message) => {
    expectBitcodeError(() => read(makeCtx(), block), message);
  });

  test.each<[string, (blob: Uint8Array) => [number, number, Uint8Array]]>([
    ['no strings', (b) => [0, 4, b]],
    ['offset past the blob', (b) => [1, b.length + 1, b]],
    ['more strings than lengths', (b) => [50, 4, b]],
    ['characters cut short', (b) => [1, 4, b.subarray(0, 5)]],
  ])('strings record with %s is a BitcodeError', (_name, tamper) => {
    const w = new BitWriter();
    w.enterBlock(BlockId.Metadata, 4);
    writeStrings(w, ['abc'], tamper);
    w.endBlock();
    const cursor = new BitstreamCursor(new BitReader(w.finish()));
    cursor.advance();
    expectBitcodeError(() => readMetadataBlock(makeCtx(), cursor), /METADATA_STRINGS/);
  });
});

describe('METADATA_KIND and METADATA_ATTACHMENT blocks', () => {
  function setup() {
    const ctx = makeCtx();
    const kinds: Rec[] = ['dbg', 'tbaa', 'llvm.loop'].map((k, i) => [MC.Kind, i, ...Array.from(k, (c) => c.charCodeAt(0))]);
    readMetadataKindBlock(ctx, metadataCursor({ records: kinds }, false, BlockId.MetadataKind));
    read(ctx, { strings: ['s'], records: [[MC.DistinctNode], [MC.Node, 2], [MC.Location, 0, 3, 4, 1, 0]] }); // !1 !2 !3
    const fn = new Function('f', FunctionType.get(VoidType, [], false), 0, I32);
    const bb = new BasicBlock(fn);
    fn.blocks.push(bb);
    const insts = [0, 1, 2].map(() => {
      const inst = new UnreachableInst(VoidType, []);
      inst.parent = bb;
      bb.insts.push(inst);
      return inst;
    });
    return { ctx, fn, insts };
  }
  const attachments = (records: Rec[]) => metadataCursor({ records }, false, BlockId.MetadataAttachment);

  test('kinds are named; function and instruction attachments land where they belong', () => {
    const { ctx, fn, insts } = setup();
    const md = metadataList(ctx);
    expect([md.kindName(0), md.kindName(1), md.kindName(2)]).toEqual(['dbg', 'tbaa', 'llvm.loop']);
    readMetadataAttachmentBlock(
      ctx,
      attachments([
        [MC.Attachment, 0, 1],
        [MC.Attachment, 2, 1, 2, 2, 1],
        [MC.Attachment, 2, 1, 1], // replaces the tbaa attachment
        [MC.Attachment, 0, 0, 3],
      ]),
      fn,
      insts,
    );
    expect(fn.attachments).toEqual([{ kind: 'dbg', node: md.get(1) }]);
    expect(insts[2]!.attachments).toEqual([
      { kind: 'tbaa', node: md.get(1) },
      { kind: 'llvm.loop', node: md.get(1) },
    ]);
    expect(insts[0]!.debugLoc).toBe(md.get(3));
    expect(insts[1]!.attachments).toBeNull();
  });

  test('the (ctx, cursor, insts) form finds the function through the instructions', () => {
    const { ctx, fn, insts } = setup();
    readMetadataAttachmentBlock(ctx, attachments([[MC.Attachment, 1, 2]]), insts);
    expect(fn.attachments).toEqual([{ kind: 'tbaa', node: metadataList(ctx).get(2) }]);
  });

  test.each<[string, Rec[], RegExp]>([
    ['an empty record', [[MC.Attachment]], /empty/],
    ['an unknown instruction', [[MC.Attachment, 3, 1, 1]], /instruction #3/],
    ['an unknown kind', [[MC.Attachment, 0, 7, 1]], /kind #7/],
    ['a string', [[MC.Attachment, 0, 1, 0]], /not a metadata node/],
    ['a missing node', [[MC.Attachment, 0, 1, 9]], /undefined metadata #9/],
    ['a !dbg that is not a location', [[MC.Attachment, 0, 0, 1]], /DILocation/],
  ])('an attachment with %s is a BitcodeError', (_name, records, message) => {
    const { ctx, fn, insts } = setup();
    expectBitcodeError(() => readMetadataAttachmentBlock(ctx, attachments(records), fn, insts), message);
  });
});

describe('DIExpression printing', () => {
  const fmt = (...els: number[]) => formatDIExpression(els.map(BigInt));
  test.each<[number[], string]>([
    [[], '!DIExpression()'],
    [[0x1000, 0, 32], '!DIExpression(DW_OP_LLVM_fragment, 0, 32)'],
    [[0x23, 8, 0x06], '!DIExpression(DW_OP_plus_uconst, 8, DW_OP_deref)'],
    [[0x1005, 0, 0x1001, 32, 7, 0x1001, 64, 5, 0x9f], '!DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_convert, 32, DW_ATE_unsigned, DW_OP_LLVM_convert, 64, DW_ATE_signed, DW_OP_stack_value)'],
    [[0x9f, 0x1000, 0, 8], '!DIExpression(DW_OP_stack_value, DW_OP_LLVM_fragment, 0, 8)'],
    [[0x1003, 1, 0x70, 4], '!DIExpression(DW_OP_LLVM_entry_value, 1, DW_OP_breg0, 4)'],
    [[0x1006, 3, 5], '!DIExpression(DW_OP_LLVM_extract_bits_sext, 3, 5)'],
    // invalid: raw numbers
    [[0x1000, 0], '!DIExpression(4096, 0)'],
    [[0x1000, 0, 8, 0x9f], '!DIExpression(4096, 0, 8, 159)'],
    [[0x9f, 0x06], '!DIExpression(159, 6)'],
    [[0x31], '!DIExpression(49)'],
    [[0x16], '!DIExpression(22)'],
    [[0x06, 0x1003, 1], '!DIExpression(6, 4099, 1)'],
  ])('%j', (els, text) => {
    expect(fmt(...els)).toBe(text);
  });
  test('validity follows LLVM', () => {
    expect(isValidDIExpression([0x50n, 0x99n])).toBe(true); // a register ends the check
    expect(isValidDIExpression([0x1005n, 0n, 0x1003n, 1n])).toBe(true);
    expect(isValidDIExpression([0x1003n, 2n])).toBe(false);
  });
});
