/**
 * Function bodies written record by record (tests/support/bitwriter): forward references,
 * old record formats no current clang writes, and malformed bodies.
 */
import { BitWriter } from '../../../support/bitwriter.js';
import { readBitcodeModule, BitcodeError } from '../../../../src/bitcode/index.js';
import { BlockId, FunctionCode as FC, TypeCode as TC } from '../../../../src/bitcode/reader/ids.js';
import {
  AtomicOrdering,
  Opcode,
  RMWOp,
  TypeKind,
  type AtomicCmpXchgInst,
  type AtomicRMWInst,
  type ConstantInt,
  type ExtractValueInst,
  type Function,
  type GetElementPtrInst,
  type Instruction,
  type PhiInst,
  type StoreInst,
  type SwitchInst,
} from '../../../../src/ir/index.js';

interface Rec {
  code: number;
  ops: (number | bigint)[];
}
const r = (code: number, ...ops: (number | bigint)[]): Rec => ({ code, ops });

interface ModuleSpec {
  types: Rec[];
  /** Type id of @f's function type. */
  fnType: number;
  /** Module-level CONSTANTS records (value ids 1, 2, … after @f). */
  constants?: Rec[];
  bundleTags?: string[];
  body: Rec[];
  /** Function-level VALUE_SYMTAB records. */
  fnSymtab?: Rec[];
}

/** A version-1 module (relative ids, names from the module VST) with one defined function @f. */
function buildModule(spec: ModuleSpec): Uint8Array {
  const w = new BitWriter();
  w.magic();
  w.enterBlock(BlockId.Module, 3);
  w.unabbrevRecord(1, [1]);
  w.enterBlock(BlockId.TypeNew, 4);
  w.unabbrevRecord(TC.NumEntry, [spec.types.length]);
  for (const t of spec.types) w.unabbrevRecord(t.code, t.ops);
  w.endBlock();
  if (spec.bundleTags) {
    w.enterBlock(BlockId.OperandBundleTags, 3);
    for (const tag of spec.bundleTags) w.unabbrevRecord(1, [...tag].map((c) => c.charCodeAt(0)));
    w.endBlock();
  }
  w.unabbrevRecord(8, [spec.fnType, 0, 0, 0, 0, 0, 0, 0, 0]);
  if (spec.constants) {
    w.enterBlock(BlockId.Constants, 4);
    for (const c of spec.constants) w.unabbrevRecord(c.code, c.ops);
    w.endBlock();
  }
  w.enterBlock(BlockId.ValueSymtab, 4);
  w.unabbrevRecord(1, [0, ...'f'.split('').map((c) => c.charCodeAt(0))]);
  w.endBlock();
  w.enterBlock(BlockId.Function, 4);
  for (const rec of spec.body) w.unabbrevRecord(rec.code, rec.ops);
  if (spec.fnSymtab) {
    w.enterBlock(BlockId.ValueSymtab, 4);
    for (const rec of spec.fnSymtab) w.unabbrevRecord(rec.code, rec.ops);
    w.endBlock();
  }
  w.endBlock();
  w.endBlock();
  return w.finish();
}

function decode(spec: ModuleSpec): Function {
  return readBitcodeModule(buildModule(spec), 'hand.bc').getFunction('f')!;
}

function expectError(spec: ModuleSpec, message: string | RegExp): void {
  let err: unknown;
  try {
    decode(spec);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(BitcodeError);
  expect((err as BitcodeError).cause).toBeUndefined();
  expect((err as Error).message).toMatch(message);
}

/** Relative id of value `id` seen from instruction number `inst` (wraps for forward references). */
const rel = (inst: number, id: number): number => (inst - id) >>> 0;
/** Sign-rotated relative id (phi operands). */
const srel = (inst: number, id: number): number => (inst - id >= 0 ? (inst - id) * 2 : (id - inst) * 2 + 1);

// Opaque-pointer types: 0 i32, 1 void, 2 i32 (i32), 3 i1, 4 ptr, 5 void (ptr, i32).
const OPAQUE: Rec[] = [r(TC.Integer, 32), r(TC.Void), r(TC.Function, 0, 0, 0), r(TC.Integer, 1), r(TC.OpaquePointer, 0), r(TC.Function, 0, 1, 4, 0)];
// Typed-pointer types: 0 i32, 1 void, 2 i32*, 3 void (i32*, i32), 4 i1, 5 [2 x i32], 6 [2 x i32]*.
const TYPED: Rec[] = [
  r(TC.Integer, 32),
  r(TC.Void),
  r(TC.Pointer, 0, 0),
  r(TC.Function, 0, 1, 2, 0),
  r(TC.Integer, 1),
  r(TC.Array, 2, 0),
  r(TC.Pointer, 5, 0),
];

const insts = (fn: Function): Instruction[] => fn.blocks.flatMap((b) => b.insts);

describe('forward references', () => {
  // @f = #0, %arg = #1; instructions from #2.
  test('a loop phi refers to a value defined later in its block', () => {
    const fn = decode({
      types: OPAQUE,
      fnType: 2,
      body: [
        r(FC.DeclareBlocks, 3),
        r(FC.InstBr, 1),
        // bb1: %2 = phi i32 [ %arg, %bb0 ], [ %3, %bb1 ]
        r(FC.InstPhi, 0, srel(2, 1), 0, srel(2, 3), 1),
        // %3 = add i32 %2, %arg ; %4 = icmp slt i32 %3, %arg ; br i1 %4, bb1, bb2
        r(FC.InstBinop, rel(3, 2), rel(3, 1), 0),
        r(FC.InstCmp2, rel(4, 3), rel(4, 1), 40),
        r(FC.InstBr, 1, 2, rel(5, 4)),
        r(FC.InstRet, rel(5, 3)),
      ],
    });
    const [phi, add] = fn.blocks[1]!.insts as [PhiInst, Instruction];
    expect(phi.ops[1]).toBe(add);
    expect(phi.ops[0]).toBe(fn.args[0]);
    expect(phi.blocks).toEqual([fn.blocks[0], fn.blocks[1]]);
    expect(fn.blocks.map((b) => b.insts.length)).toEqual([1, 4, 1]);
  });

  test('a forward reference in a value/type pair carries its type', () => {
    const fn = decode({
      types: OPAQUE,
      fnType: 2,
      body: [
        r(FC.DeclareBlocks, 3),
        r(FC.InstBr, 2),
        r(FC.InstRet, rel(2, 2), 0), // bb1: ret i32 %2, defined in bb2
        r(FC.InstBinop, rel(2, 1), rel(2, 1), 0),
        r(FC.InstBr, 1),
      ],
    });
    const [, ret, add] = insts(fn);
    expect(ret!.ops[0]).toBe(add);
  });

  test('a reference that is never defined is reported with its id', () => {
    expectError(
      {
        types: OPAQUE,
        fnType: 2,
        body: [r(FC.DeclareBlocks, 1), r(FC.InstRet, rel(2, 7), 0)],
      },
      'undefined value #7 in function @f',
    );
  });

  test('a forward reference used with two types is rejected', () => {
    expectError(
      {
        types: OPAQUE,
        fnType: 2,
        body: [
          r(FC.DeclareBlocks, 1),
          r(FC.InstBinop, rel(2, 3), 0, rel(2, 1), 0), // %2 = add i32 %3, %arg
          r(FC.InstCmp2, rel(3, 1), rel(3, 1), 32), // %3 = icmp eq: an i1
          r(FC.InstRet, rel(4, 2)),
        ],
      },
      /defined with another type/,
    );
  });
});

describe('old record formats', () => {
  // Typed pointers: @f(i32* %p, i32 %x) = #0; %p = #1, %x = #2; instructions from #3.
  test('CMPXCHG_OLD without weak yields the loaded value through extractvalue', () => {
    const fn = decode({
      types: TYPED,
      fnType: 3,
      body: [
        r(FC.DeclareBlocks, 1),
        // [ptr, cmp, new, vol, success ordering, ssid]
        r(FC.InstCmpXchgOld, rel(3, 1), rel(3, 2), rel(3, 2), 0, 6, 1),
        r(FC.InstStoreOld, rel(4, 1), rel(4, 3), 3, 0),
        r(FC.InstRet),
      ],
    });
    const [cx, ev, st] = insts(fn) as [AtomicCmpXchgInst, ExtractValueInst, StoreInst];
    expect(cx.opcode).toBe(Opcode.AtomicCmpXchg);
    expect(cx.failureOrdering).toBe(AtomicOrdering.SequentiallyConsistent);
    expect(cx.align).toBe(4);
    expect(ev.ops[0]).toBe(cx);
    expect(ev.indices).toEqual([0]);
    expect(st.value).toBe(ev);
    expect(st.align).toBe(4);
  });

  test('ATOMICRMW_OLD takes the value type from the pointer', () => {
    const fn = decode({
      types: TYPED,
      fnType: 3,
      body: [r(FC.DeclareBlocks, 1), r(FC.InstAtomicRMWOld, rel(3, 1), rel(3, 2), 1, 0, 2, 1), r(FC.InstRet)],
    });
    const rmw = insts(fn)[0] as AtomicRMWInst;
    expect(rmw.operation).toBe(RMWOp.Add);
    expect(rmw.ordering).toBe(AtomicOrdering.Monotonic);
    expect(rmw.type.kind).toBe(TypeKind.Integer);
    expect(rmw.align).toBe(4);
  });

  test('GEP_OLD / INBOUNDS_GEP_OLD take the source type from the pointer', () => {
    const fn = decode({
      types: TYPED,
      fnType: 3,
      body: [
        r(FC.DeclareBlocks, 1),
        r(FC.InstGEPOld, rel(3, 1), rel(3, 2)),
        r(FC.InstInboundsGEPOld, rel(4, 3), rel(4, 2)),
        r(FC.InstRet),
      ],
    });
    const [g1, g2] = insts(fn) as [GetElementPtrInst, GetElementPtrInst];
    expect(g1.sourceElementType.kind).toBe(TypeKind.Integer);
    expect(g1.flags).toBe(0);
    expect(g2.flags).not.toBe(0);
    expect(g2.type).toBe(g1.type);
  });

  test('the case-range switch format expands ranges', () => {
    const magic = 0x4b5 << 16;
    const fn = decode({
      types: OPAQUE,
      fnType: 2,
      body: [
        r(FC.DeclareBlocks, 3),
        // [magic, type, cond, default, ncases, (nitems, (single?, lo, [hi])..., dest)...]; values sign-rotated
        r(FC.InstSwitch, magic, 0, rel(2, 1), 2, 2, 1, 1, 2 * 5, 1, 1, 0, 2 * 7, 2 * 9, 1),
        r(FC.InstRet, rel(2, 1)),
        r(FC.InstRet, rel(2, 1)),
      ],
    });
    const sw = insts(fn)[0] as SwitchInst;
    expect(sw.cases.map((c) => c.value.value)).toEqual([5n, 7n, 8n, 9n]);
    expect(sw.cases.every((c) => c.dest === fn.blocks[1])).toBe(true);
    expect(sw.defaultDest).toBe(fn.blocks[2]);
  });
});

describe('current records', () => {
  test('switch cases are absolute constant ids', () => {
    const fn = decode({
      types: OPAQUE,
      fnType: 2,
      constants: [r(1, 0), r(4, 2 * 3), r(4, 2 * 4 + 1)], // i32 3, i32 -4: ids #1, #2; %arg = #3
      body: [r(FC.DeclareBlocks, 2), r(FC.InstSwitch, 0, rel(4, 3), 1, 1, 0, 2, 1), r(FC.InstRet, rel(4, 3))],
    });
    const sw = insts(fn)[0] as SwitchInst;
    expect(sw.cases.map((c) => (c.value as ConstantInt).signedValue)).toEqual([3n, -4n]);
    expect(sw.cases.map((c) => c.dest.index)).toEqual([0, 1]);
  });

  test('operand bundles attach to the next call', () => {
    const fn = decode({
      types: [...OPAQUE, r(TC.Pointer, 5, 0)],
      fnType: 2,
      bundleTags: ['deopt', 'align'],
      body: [
        r(FC.DeclareBlocks, 1),
        r(FC.OperandBundle, 1, rel(2, 1)),
        // call i32 @f(i32 %arg) ["align"(i32 %arg)]: [attrs, cc | explicit type, fnty, callee, args]
        r(FC.InstCall, 0, 1 << 15, 2, rel(2, 0), rel(2, 1)),
        r(FC.InstRet, rel(3, 2)),
      ],
    });
    const call = insts(fn)[0] as Instruction & { bundles: { tag: string; inputs: unknown[] }[] };
    expect(call.bundles).toEqual([{ tag: 'align', inputs: [fn.args[0]] }]);
    expect(call.ops[call.ops.length - 1]).toBe(fn);
  });

  test('a debug record naming undefined metadata fails cleanly', () => {
    expectError(
      {
        types: OPAQUE,
        fnType: 2,
        body: [r(FC.DeclareBlocks, 1), r(FC.InstRet, rel(2, 1)), r(FC.DebugRecordLabel, 0, 1)],
      },
      /metadata/,
    );
  });
});

describe('malformed bodies', () => {
  const base = { types: OPAQUE, fnType: 2 };
  test.each([
    ['no DECLAREBLOCKS', [r(FC.InstRet, 1)], /after the last basic block/],
    ['zero blocks', [r(FC.DeclareBlocks, 0)], /declareblocks/],
    ['absurd block count', [r(FC.DeclareBlocks, 1 << 30)], /declareblocks/],
    ['missing terminator', [r(FC.DeclareBlocks, 2), r(FC.InstRet, 1)], /basic block #1 .* does not end with a terminator/],
    ['instruction after the last block', [r(FC.DeclareBlocks, 1), r(FC.InstRet, 1), r(FC.InstRet, 1)], /after the last basic block/],
    ['branch to a missing block', [r(FC.DeclareBlocks, 1), r(FC.InstBr, 3)], /basic block #3 out of range/],
    ['debug location before any instruction', [r(FC.DeclareBlocks, 1), r(FC.DebugLoc, 1, 1, 1, 0)], /no instruction before it/],
    ['invoke', [r(FC.DeclareBlocks, 1), r(FC.InstInvoke, 0, 0, 0, 0)], "unsupported instruction 'invoke' (C++ exceptions)"],
    ['landingpad', [r(FC.DeclareBlocks, 1), r(FC.InstLandingPad, 0)], "unsupported instruction 'landingpad'"],
    ['unknown record', [r(FC.DeclareBlocks, 1), r(99)], /unknown record code 99/],
    ['load from a non-pointer', [r(FC.DeclareBlocks, 1), r(FC.InstLoad, 1, 0, 3, 0)], /invalid load record/],
    ['binop on too few operands', [r(FC.DeclareBlocks, 1), r(FC.InstBinop, 1)], /invalid binop record/],
    ['fp opcode on integers', [r(FC.DeclareBlocks, 1), r(FC.InstUnop, 1, 0)], /invalid unop record/],
    ['bad cast', [r(FC.DeclareBlocks, 1), r(FC.InstCast, 1, 4, 9)], /invalid cast record/],
    ['extractvalue of a scalar', [r(FC.DeclareBlocks, 1), r(FC.InstExtractVal, 1, 0)], /invalid extractvalue record/],
    ['bad fence ordering', [r(FC.DeclareBlocks, 1), r(FC.InstFence, 2, 1)], /invalid fence record/],
    ['bad alignment', [r(FC.DeclareBlocks, 1), r(FC.InstAlloca, 0, 0, 1, 2 | (1 << 8) | 64)], /alignment/],
  ] as [string, Rec[], string | RegExp][])('%s', (_name, body, message) => {
    expectError({ ...base, body }, message);
  });

  test('operand bundle without a call', () => {
    const body = [r(FC.DeclareBlocks, 1), r(FC.OperandBundle, 0, rel(2, 1)), r(FC.InstRet, rel(2, 1))];
    expectError({ ...base, bundleTags: ['deopt'], body }, /operand bundle not followed by a call/);
  });
});

test('value and block names from the function symbol table', () => {
  const chars = (t: string): number[] => [...t].map((c) => c.charCodeAt(0));
  const fn = decode({
    types: OPAQUE,
    fnType: 2,
    body: [r(FC.DeclareBlocks, 1), r(FC.InstBinop, rel(2, 1), rel(2, 1), 0), r(FC.InstRet, rel(3, 2))],
    fnSymtab: [r(1, 1, ...chars('x')), r(1, 2, ...chars('twice')), r(2, 0, ...chars('entry'))],
  });
  expect(fn.args[0]!.name).toBe('x');
  expect(insts(fn)[0]!.name).toBe('twice');
  expect(fn.blocks[0]!.name).toBe('entry');
  expect(insts(fn)[0]!.ops).toEqual([fn.args[0], fn.args[0]]);
});

test('a symbol table entry for an undefined value is rejected', () => {
  expectError(
    { types: OPAQUE, fnType: 2, body: [r(FC.DeclareBlocks, 1), r(FC.InstRet, rel(2, 1))], fnSymtab: [r(1, 9, 120)] },
    /undefined value #9/,
  );
});
