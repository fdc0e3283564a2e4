/** Operand decoding of function bodies: relative ids, forward references, opcode/flag maps. */
import { ReaderContext } from '../../../../src/bitcode/reader/context.js';
import { FnState } from '../../../../src/bitcode/reader/instructions/operands.js';
import type { BitcodeRecord } from '../../../../src/bitcode/cursor.js';
import { BitcodeError } from '../../../../src/bitcode/errors.js';
import {
  decodeBinopCode,
  decodeBinopFlags,
  decodeCastFastMath,
  decodeCastFlags,
  decodeFastMath,
  decodeGEPFlags,
  decodeOrdering,
  decodeRMWOp,
} from '../../../../src/bitcode/reader/opcode-maps.js';
import { Module } from '../../../../src/ir/module.js';
import { Function } from '../../../../src/ir/globals.js';
import { FunctionType, I32, I64, PointerType, VoidType } from '../../../../src/ir/types.js';
import { ConstantInt } from '../../../../src/ir/constants.js';
import { ValueKind } from '../../../../src/ir/value.js';
import { AtomicOrdering, FMF, Flag, Opcode, RMWOp } from '../../../../src/ir/opcodes.js';

function setup(version = 1): { ctx: ReaderContext; s: FnState } {
  const module = new Module();
  const ctx = new ReaderContext('t.bc', module);
  ctx.version = version;
  ctx.types = [I32, I64, VoidType];
  const fn = new Function('f', FunctionType.get(VoidType, [], false), 0, PointerType.opaque());
  // Ten defined values: ids 0..9.
  for (let i = 0; i < 10; i++) ctx.values.push(new ConstantInt(I32, BigInt(i)));
  const s = new FnState(ctx, fn);
  s.instNum = ctx.values.size;
  return { ctx, s };
}

function rec(ops: number[], big?: Map<number, bigint>): BitcodeRecord {
  return { code: 0, ops, big, abbrevId: 3 };
}

describe('relative value ids', () => {
  test('backward references count back from the instruction number', () => {
    const { s } = setup();
    s.setRecord(rec([1, 10]));
    expect(s.valueId(0)).toBe(9);
    expect(s.valueId(1)).toBe(0);
  });

  test('forward references wrap modulo 2^32', () => {
    const { s } = setup();
    s.setRecord(rec([2 ** 32 - 3]));
    expect(s.valueId(0)).toBe(13);
  });

  test('ids beyond 2^53 are truncated to 32 bits like LLVM does', () => {
    const { s } = setup();
    const big = (1n << 60n) + 4n;
    s.setRecord(rec([Number(big)], new Map([[0, big]])));
    expect(s.valueId(0)).toBe(6);
  });

  test('absolute ids in version 0 modules', () => {
    const { s } = setup(0);
    s.setRecord(rec([3]));
    expect(s.valueId(0)).toBe(3);
  });

  test('signed (phi) encoding: low bit is the sign', () => {
    const { s } = setup();
    s.setRecord(rec([4, 5, 1, 0]));
    expect(s.signedValueId(0)).toBe(8); // +2 → 10 - 2
    expect(s.signedValueId(1)).toBe(12); // -2 → 10 + 2
    expect(s.signedValueId(2)).toBe(10); // "-0" (INT64_MIN) truncates to 0
    expect(s.signedValueId(3)).toBe(10);
  });

  test('pair: a defined value needs no type, a forward reference reads one', () => {
    const { s } = setup();
    s.setRecord(rec([3, 2 ** 32 - 2, 1]));
    const a = s.pair('test');
    expect(a.vkind).toBe(ValueKind.ConstantInt);
    expect((a as ConstantInt).value).toBe(7n);
    expect(s.sawForwardRef).toBe(false);
    const b = s.pair('test');
    expect(b.vkind).toBe(ValueKind.ForwardRef);
    expect(b.type).toBe(I64);
    expect(s.sawForwardRef).toBe(true);
    expect(s.p).toBe(3);
  });

  test('a forward reference without a type is a BitcodeError', () => {
    const { s } = setup();
    s.setRecord(rec([2 ** 32 - 2]));
    expect(() => s.pair('test')).toThrow(BitcodeError);
  });

  test('wild forward ids are rejected, not allocated', () => {
    const { s } = setup();
    s.setRecord(rec([2 ** 31, 0]));
    expect(() => s.pair('test')).toThrow(BitcodeError);
  });

  test('a value of the wrong type is rejected', () => {
    const { s } = setup();
    s.setRecord(rec([1]));
    expect(() => s.value(I64, 'test')).toThrow(BitcodeError);
  });

  test('alignment exponents', () => {
    const { s } = setup();
    expect(s.alignment(0, 'x')).toBe(0);
    expect(s.alignment(1, 'x')).toBe(1);
    expect(s.alignment(4, 'x')).toBe(8);
    expect(s.alignment(33, 'x')).toBe(2 ** 32);
    expect(() => s.alignment(34, 'x')).toThrow(BitcodeError);
  });
});

describe('opcode and flag maps', () => {
  test('binary opcodes pick the FP form for FP operands', () => {
    expect(decodeBinopCode(0, false)).toBe(Opcode.Add);
    expect(decodeBinopCode(0, true)).toBe(Opcode.FAdd);
    expect(decodeBinopCode(4, true)).toBe(Opcode.FDiv);
    expect(decodeBinopCode(6, true)).toBe(Opcode.FRem);
    expect(decodeBinopCode(3, true)).toBe(-1);
    expect(decodeBinopCode(12, false)).toBe(Opcode.Xor);
    expect(decodeBinopCode(13, false)).toBe(-1);
  });

  test('wrap, exact and disjoint flags', () => {
    expect(decodeBinopFlags(Opcode.Add, 3)).toBe(Flag.NUW | Flag.NSW);
    expect(decodeBinopFlags(Opcode.Shl, 2)).toBe(Flag.NSW);
    expect(decodeBinopFlags(Opcode.LShr, 1)).toBe(Flag.Exact);
    expect(decodeBinopFlags(Opcode.Or, 1)).toBe(Flag.Disjoint);
    expect(decodeBinopFlags(Opcode.Xor, 1)).toBe(0);
    expect(decodeCastFlags(Opcode.ZExt, 1)).toBe(Flag.NonNeg);
    expect(decodeCastFlags(Opcode.Trunc, 3)).toBe(Flag.NUW | Flag.NSW);
    expect(decodeCastFastMath(Opcode.FPTrunc, 2)).toBe(FMF.NoNaNs);
    expect(decodeCastFastMath(Opcode.UIToFP, 1)).toBe(0);
  });

  test('GEP flags: inbounds implies nusw', () => {
    expect(decodeGEPFlags(1)).toBe(Flag.InBounds | Flag.GEPNUSW);
    expect(decodeGEPFlags(2)).toBe(Flag.GEPNUSW);
    expect(decodeGEPFlags(4)).toBe(Flag.GEPNUW);
    expect(decodeGEPFlags(0)).toBe(0);
  });

  test('fast-math: bit 7 is reassoc, bit 0 is the legacy "fast"', () => {
    expect(decodeFastMath(0x80)).toBe(FMF.AllowReassoc);
    expect(decodeFastMath(0x20)).toBe(FMF.AllowContract);
    expect(decodeFastMath(0xfe)).toBe(127);
    expect(decodeFastMath(1)).toBe(127);
  });

  test('orderings map to the in-memory numbering', () => {
    expect(decodeOrdering(0)).toBe(AtomicOrdering.NotAtomic);
    expect(decodeOrdering(2)).toBe(AtomicOrdering.Monotonic);
    expect(decodeOrdering(3)).toBe(AtomicOrdering.Acquire);
    expect(decodeOrdering(5)).toBe(AtomicOrdering.AcquireRelease);
    expect(decodeOrdering(6)).toBe(AtomicOrdering.SequentiallyConsistent);
    expect(decodeOrdering(99)).toBe(AtomicOrdering.SequentiallyConsistent);
  });

  test('atomicrmw operations', () => {
    expect(decodeRMWOp(0)).toBe(RMWOp.Xchg);
    expect(decodeRMWOp(11)).toBe(RMWOp.FAdd);
    expect(decodeRMWOp(16)).toBe(RMWOp.UDecWrap);
    expect(decodeRMWOp(40)).toBe(-1);
  });
});
