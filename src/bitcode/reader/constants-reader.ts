/**
 * CONSTANTS_BLOCK: constants at module level (after the global values) or at the start of a
 * function body. Each record but SETTYPE defines the next value id. Operands are absolute
 * value ids and may refer to constants later in the same block (LLVM sorts constants by
 * type), so operands are bound when the block ends, when every id is defined.
 */
import { materialize } from '../../ir/lazy-body.js';
import { EntryKind, u64, type BitcodeRecord, type BitstreamCursor } from '../cursor.js';
import { BlockId, ConstantsCode } from './ids.js';
import { opsToString, type ReaderContext } from './context.js';
import { decodeSigned, readConstantRange, wideInt } from './int-codec.js';
import { printable } from './globals-reader.js';
import { decodeBinopCode, decodeBinopFlags, decodeCastCode, decodeGEPFlags, decodeUnopCode } from './opcode-maps.js';
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import {
  ArrayType,
  FunctionType,
  I1,
  I32,
  I8,
  PointerType,
  TypeKind,
  VectorType,
  type StructType,
  type Type,
} from '../../ir/types.js';
import {
  AsmDialect,
  BlockAddress,
  ConstantAggregateZero,
  ConstantArray,
  ConstantData,
  ConstantExpr,
  ConstantFP,
  ConstantInt,
  ConstantPointerNull,
  ConstantStruct,
  ConstantTargetNone,
  ConstantTokenNone,
  ConstantVector,
  DSOLocalEquivalent,
  InlineAsm,
  NoCFIValue,
  PoisonValue,
  UndefValue,
  type Constant,
  type ConstantGEPInfo,
} from '../../ir/constants.js';
import type { Function, GlobalValue } from '../../ir/globals.js';

/** A constant whose operands are bound when its block ends. */
interface Pending {
  c: ConstantArray | ConstantStruct | ConstantVector | ConstantExpr;
  ids: number[];
  /** Expected type of each operand (null: checked separately or unconstrained). */
  types: (Type | null)[];
}

/** BlockAddress constants per decoder, resolved once every function body has been read. */
const pendingBlockAddresses = new WeakMap<ReaderContext, BlockAddress[]>();

/**
 * Reads a constants block (call after advance() returned it); pushes each constant into
 * ctx.values and returns the constants created, in order (inline asm values, which are not
 * constants, are pushed but not returned).
 */
export function readConstantsBlock(ctx: ReaderContext, cursor: BitstreamCursor): Constant[] {
  cursor.enterSubBlock(BlockId.Constants);
  const created: Constant[] = [];
  const pending: Pending[] = [];
  let curTy: Type = I32;

  for (;;) {
    const e = cursor.advance();
    if (e.kind === EntryKind.EndBlock) break;
    if (e.kind === EntryKind.SubBlock) {
      cursor.skipBlock();
      continue;
    }
    ctx.bitPos = cursor.bitPos;
    const rec = cursor.readRecord(e.id);
    if (rec.code === ConstantsCode.SetType) {
      const t = rec.ops.length > 0 ? ctx.types[rec.ops[0]!] : undefined;
      if (!t) ctx.error('invalid SETTYPE record');
      if (t.kind === TypeKind.Void) ctx.error('constant of type void');
      curTy = t;
      continue;
    }
    const v = readConstant(ctx, rec, curTy, pending);
    ctx.values.push(v);
    if (v.vkind !== ValueKind.InlineAsm) created.push(v as Constant);
  }

  for (const p of pending) bindOperands(ctx, p);
  return created;
}

function readConstant(ctx: ReaderContext, rec: BitcodeRecord, curTy: Type, pending: Pending[]): Value {
  const ops = rec.ops;
  const n = ops.length;
  const need = (k: number, what: string): void => {
    if (n < k) ctx.error(`invalid ${what} constant record`);
  };
  const later = <C extends Pending['c']>(c: C, ids: number[], types: (Type | null)[]): C => {
    pending.push({ c, ids, types });
    return c;
  };
  switch (rec.code) {
    case ConstantsCode.Null:
      return nullValue(ctx, curTy);
    case ConstantsCode.Undef:
      return new UndefValue(curTy);
    case ConstantsCode.Poison:
      return new PoisonValue(curTy);
    case ConstantsCode.Integer: {
      need(1, 'integer');
      const bits = intBits(ctx, curTy);
      return new ConstantInt(curTy, BigInt.asUintN(bits, decodeSigned(u64(rec, 0))));
    }
    case ConstantsCode.WideInteger: {
      need(1, 'wide integer');
      return new ConstantInt(curTy, wideInt(rec, 0, n, intBits(ctx, curTy)));
    }
    case ConstantsCode.Float:
      need(1, 'float');
      return floatValue(ctx, rec, curTy);
    case ConstantsCode.Aggregate: {
      need(1, 'aggregate');
      const ids = ops.slice();
      if (curTy.isStruct()) {
        const elts = (curTy as StructType).elements;
        if (elts.length !== n) ctx.error('struct constant has the wrong number of elements');
        return later(new ConstantStruct(curTy, []), ids, elts.slice());
      }
      if (curTy.isArray() || curTy.isVector()) {
        if (curTy.length !== n) ctx.error('array or vector constant has the wrong number of elements');
        const types = new Array<Type>(n).fill(curTy.element);
        return later(curTy.isArray() ? new ConstantArray(curTy, []) : new ConstantVector(curTy, []), ids, types);
      }
      return new PoisonValue(curTy);
    }
    case ConstantsCode.String:
    case ConstantsCode.CString: {
      need(1, 'string');
      const bytes = ops.map((c) => BigInt(c & 0xff));
      if (rec.code === ConstantsCode.CString) bytes.push(0n);
      return new ConstantData(ArrayType.get(I8, bytes.length), bytes);
    }
    case ConstantsCode.Data:
      need(1, 'data');
      return dataValue(ctx, rec, curTy);
    case ConstantsCode.CE_UnOp: {
      need(2, 'unary constant expression');
      const op = decodeUnopCode(ops[0]!, isFPOrFPVector(curTy));
      if (op === -1) return new PoisonValue(curTy);
      return later(new ConstantExpr(curTy, op, []), [ops[1]!], [curTy]);
    }
    case ConstantsCode.CE_BinOp: {
      need(3, 'binary constant expression');
      const scalar = curTy.scalarType();
      const op = scalar.isInteger() || scalar.isFloatingPoint() ? decodeBinopCode(ops[0]!, scalar.isFloatingPoint()) : -1;
      if (op === -1) return new PoisonValue(curTy);
      const flags = n >= 4 ? decodeBinopFlags(op, ops[3]!) : 0;
      return later(new ConstantExpr(curTy, op, [], flags), [ops[1]!, ops[2]!], [curTy, curTy]);
    }
    case ConstantsCode.CE_Cast: {
      need(3, 'cast constant expression');
      const op = decodeCastCode(ops[0]!);
      if (op === -1) return new PoisonValue(curTy);
      return later(new ConstantExpr(curTy, op, []), [ops[2]!], [ctx.getType(ops[1]!)]);
    }
    case ConstantsCode.CE_GEPOld:
    case ConstantsCode.CE_InboundsGEP:
    case ConstantsCode.CE_GEPWithInrangeIndexOld:
    case ConstantsCode.CE_GEPWithInrange:
    case ConstantsCode.CE_GEP:
      return gepExpr(ctx, rec, curTy, later);
    case ConstantsCode.CE_Select:
      need(3, 'select constant expression');
      return later(new ConstantExpr(curTy, Opcode.Select, []), ops.slice(0, 3), [null, curTy, curTy]);
    case ConstantsCode.CE_ExtractElt: {
      need(3, 'extractelement constant expression');
      const vecTy = ctx.getType(ops[0]!);
      if (!vecTy.isVector()) ctx.error('extractelement constant expression on a non-vector');
      const idx = indexOperand(ctx, ops, 2);
      return later(new ConstantExpr(curTy, Opcode.ExtractElement, []), [ops[1]!, idx.id], [vecTy, idx.type]);
    }
    case ConstantsCode.CE_InsertElt: {
      need(3, 'insertelement constant expression');
      if (!curTy.isVector()) ctx.error('insertelement constant expression of a non-vector type');
      const idx = indexOperand(ctx, ops, 2);
      return later(new ConstantExpr(curTy, Opcode.InsertElement, []), [ops[0]!, ops[1]!, idx.id], [curTy, curTy.element, idx.type]);
    }
    case ConstantsCode.CE_ShuffleVec: {
      need(3, 'shufflevector constant expression');
      if (!curTy.isVector()) ctx.error('shufflevector constant expression of a non-vector type');
      const maskTy = VectorType.get(I32, curTy.length, curTy.scalable);
      return later(new ConstantExpr(curTy, Opcode.ShuffleVector, []), ops.slice(0, 3), [curTy, curTy, maskTy]);
    }
    case ConstantsCode.CE_ShufVecEx: {
      need(4, 'shufflevector constant expression');
      const opTy = ctx.getType(ops[0]!);
      if (!curTy.isVector() || !opTy.isVector()) ctx.error('shufflevector constant expression of a non-vector type');
      const maskTy = VectorType.get(I32, curTy.length, curTy.scalable);
      return later(new ConstantExpr(curTy, Opcode.ShuffleVector, []), ops.slice(1, 4), [opTy, opTy, maskTy]);
    }
    case ConstantsCode.CE_Cmp: {
      need(4, 'compare constant expression');
      const opTy = ctx.getType(ops[0]!);
      const op = isFPOrFPVector(opTy) ? Opcode.FCmp : Opcode.ICmp;
      return later(new ConstantExpr(curTy, op, [], 0, ops[3]!), [ops[1]!, ops[2]!], [opTy, opTy]);
    }
    case ConstantsCode.InlineAsmOld:
    case ConstantsCode.InlineAsmOld2:
    case ConstantsCode.InlineAsmOld3:
    case ConstantsCode.InlineAsm:
      return inlineAsm(ctx, rec, curTy);
    case ConstantsCode.BlockAddress: {
      need(3, 'blockaddress');
      ctx.getType(ops[0]!);
      const fn = ctx.values.getDefined(ops[1]!);
      if (!fn || fn.vkind !== ValueKind.Function) ctx.error('blockaddress operand is not a function');
      if (ops[2] === 0) ctx.error('blockaddress of an entry block');
      const ba = new BlockAddress(curTy, fn as Function, null, ops[2]!);
      let list = pendingBlockAddresses.get(ctx);
      if (!list) pendingBlockAddresses.set(ctx, (list = []));
      list.push(ba);
      return ba;
    }
    case ConstantsCode.DSOLocalEquivalent:
      need(2, 'dso_local_equivalent');
      return new DSOLocalEquivalent(curTy, globalOperand(ctx, ops, 'dso_local_equivalent'));
    case ConstantsCode.NoCFIValue:
      need(2, 'no_cfi');
      return new NoCFIValue(curTy, globalOperand(ctx, ops, 'no_cfi'));
    case ConstantsCode.PtrAuth:
      return ctx.error('ptrauth constants are not supported');
    default:
      return new UndefValue(curTy); // LLVM reads unknown constant codes as undef
  }
}

function isFPOrFPVector(t: Type): boolean {
  return t.scalarType().isFloatingPoint();
}

function intBits(ctx: ReaderContext, t: Type): number {
  const s = t.scalarType();
  if (!s.isInteger()) ctx.error('integer constant of a non-integer type');
  return s.bits;
}

function nullValue(ctx: ReaderContext, t: Type): Constant {
  switch (t.kind) {
    case TypeKind.Integer:
      return new ConstantInt(t, 0n);
    case TypeKind.Pointer:
      return new ConstantPointerNull(t);
    case TypeKind.Struct:
    case TypeKind.Array:
    case TypeKind.Vector:
      return new ConstantAggregateZero(t);
    case TypeKind.Token:
      return new ConstantTokenNone(t);
    case TypeKind.TargetExt:
      return new ConstantTargetNone(t);
    default:
      if (t.isFloatingPoint()) return new ConstantFP(t, 0n);
      return ctx.error('invalid type for a null constant');
  }
}

function floatValue(ctx: ReaderContext, rec: BitcodeRecord, t: Type): Constant {
  const s = t.scalarType();
  const w0 = u64(rec, 0);
  switch (s.kind) {
    case TypeKind.Half:
    case TypeKind.BFloat:
      return new ConstantFP(t, w0 & 0xffffn);
    case TypeKind.Float:
      return new ConstantFP(t, w0 & 0xffffffffn);
    case TypeKind.Double:
      return new ConstantFP(t, w0);
    case TypeKind.X86_FP80:
      // [top 64 bits, low 16 bits] of the 80-bit value.
      if (rec.ops.length < 2) ctx.error('invalid x86_fp80 constant record');
      return new ConstantFP(t, BigInt.asUintN(80, (w0 << 16n) | (u64(rec, 1) & 0xffffn)));
    case TypeKind.FP128:
    case TypeKind.PPC_FP128:
      // [low word, high word]
      return new ConstantFP(t, rec.ops.length > 1 ? w0 | (u64(rec, 1) << 64n) : w0);
    default:
      return new PoisonValue(t);
  }
}

function dataValue(ctx: ReaderContext, rec: BitcodeRecord, t: Type): Constant {
  if (!t.isArray() && !t.isVector()) ctx.error('data constant of a non-sequential type');
  const elt = t.element;
  const bits = elt.isInteger() || elt.isFloatingPoint() ? elt.bits : 0;
  if (![8, 16, 32, 64].includes(bits)) ctx.error('invalid element type for a data constant');
  const n = rec.ops.length;
  const elements: bigint[] = new Array<bigint>(n);
  for (let i = 0; i < n; i++) elements[i] = BigInt.asUintN(bits, u64(rec, i));
  const type = t.isVector() ? VectorType.get(elt, n) : ArrayType.get(elt, n);
  return new ConstantData(type, elements);
}

function indexOperand(ctx: ReaderContext, ops: readonly number[], at: number): { id: number; type: Type } {
  // [..., idxty, idx] since LLVM 3.x; older records had an i32 index without its type.
  if (ops.length >= at + 2) return { id: ops[at + 1]!, type: ctx.getType(ops[at]!) };
  return { id: ops[at]!, type: I32 };
}

function globalOperand(ctx: ReaderContext, ops: readonly number[], what: string): GlobalValue {
  ctx.getType(ops[0]!);
  const gv = ctx.values.getDefined(ops[1]!);
  if (!gv || !gv.isGlobalValue()) ctx.error(`${what} operand is not a global value`);
  return gv as GlobalValue;
}

function gepExpr(
  ctx: ReaderContext,
  rec: BitcodeRecord,
  curTy: Type,
  later: (c: ConstantExpr, ids: number[], types: (Type | null)[]) => ConstantExpr,
): ConstantExpr {
  const ops = rec.ops;
  const code = rec.code;
  if (ops.length < 2) ctx.error('constant GEP record with less than two operands');
  let i = 0;
  let sourceTy: Type | null = null;
  // The source element type leads the record in all forms but the oldest (odd length then).
  if (
    code === ConstantsCode.CE_GEPWithInrangeIndexOld ||
    code === ConstantsCode.CE_GEPWithInrange ||
    code === ConstantsCode.CE_GEP ||
    ops.length % 2 === 1
  ) {
    sourceTy = ctx.getType(ops[i++]!);
  }
  let flags = 0;
  let inRangeIndex = -1;
  let inRange: [bigint, bigint] | undefined;
  switch (code) {
    case ConstantsCode.CE_InboundsGEP:
      flags = decodeGEPFlags(1);
      break;
    case ConstantsCode.CE_GEPWithInrangeIndexOld: {
      // [srcty, inrange_index << 1 | inbounds, ...]; the index counts GEP indices.
      const word = ops[i++]!;
      flags = decodeGEPFlags(word & 1);
      inRangeIndex = Math.floor(word / 2) + 1;
      break;
    }
    case ConstantsCode.CE_GEPWithInrange: {
      // [srcty, flags, bitwidth, range, ...]
      flags = decodeGEPFlags(ops[i++]!);
      const bitWidth = ops[i++];
      if (bitWidth === undefined) ctx.error('truncated constant GEP record');
      const r = readConstantRange(ctx, rec, i, bitWidth);
      inRange = r.range;
      i = r.next;
      break;
    }
    case ConstantsCode.CE_GEP:
      flags = decodeGEPFlags(ops[i++]!);
      break;
    default:
      break;
  }
  if ((ops.length - i) % 2 !== 0 || ops.length - i < 2) ctx.error('invalid constant GEP operand list');
  const ids: number[] = [];
  const types: Type[] = [];
  for (; i < ops.length; i += 2) {
    types.push(ctx.getType(ops[i]!));
    ids.push(ops[i + 1]!);
  }
  let base = types[0]!;
  if (base.isVector()) base = base.element;
  if (!base.isPointer()) ctx.error('constant GEP base is not a pointer');
  if (!sourceTy) {
    sourceTy = (base as PointerType).pointee;
    if (!sourceTy) ctx.error('old-style constant GEP without an element type');
  }
  const gep: ConstantGEPInfo = { sourceElementType: sourceTy, inRangeIndex };
  if (inRange) gep.inRange = inRange;
  return later(new ConstantExpr(curTy, Opcode.GetElementPtr, [], flags, 0, gep), ids, types);
}

function inlineAsm(ctx: ReaderContext, rec: BitcodeRecord, curTy: Type): InlineAsm {
  const ops = rec.ops;
  let i = 0;
  let fnTy: Type | null;
  if (rec.code === ConstantsCode.InlineAsm) {
    if (ops.length < 3) ctx.error('invalid inline asm record');
    fnTy = ctx.getType(ops[i++]!);
  } else {
    if (ops.length < 2) ctx.error('invalid inline asm record');
    fnTy = curTy.isPointer() ? curTy.pointee : null;
  }
  if (!fnTy || !fnTy.isFunction()) ctx.error('inline asm without a function type');
  const bits = ops[i++]!;
  const sideEffects = (bits & 1) !== 0;
  const alignStack = (bits & 2) !== 0;
  // The oldest form has no dialect bit; the one before the explicit type has no unwind bit.
  const dialect = rec.code === ConstantsCode.InlineAsmOld ? AsmDialect.ATT : ((bits >> 2) & 1) as AsmDialect;
  const canThrow = (rec.code === ConstantsCode.InlineAsmOld3 || rec.code === ConstantsCode.InlineAsm) && (bits & 8) !== 0;
  const asmLen = ops[i++]!;
  if (i + asmLen >= ops.length) ctx.error('invalid inline asm record');
  const asm = opsToString(ops, i, i + asmLen);
  i += asmLen;
  const conLen = ops[i++]!;
  if (i + conLen > ops.length) ctx.error('invalid inline asm record');
  const constraints = opsToString(ops, i, i + conLen);
  return new InlineAsm(curTy, fnTy as FunctionType, asm, constraints, sideEffects, alignStack, dialect, canThrow);
}

function bindOperands(ctx: ReaderContext, p: Pending): void {
  const ops: Value[] = new Array<Value>(p.ids.length);
  for (let k = 0; k < p.ids.length; k++) {
    const v = ctx.values.getDefined(p.ids[k]!);
    if (!v || !v.isConstant()) ctx.error(`constant refers to undefined value #${p.ids[k]}`);
    const want = p.types[k];
    if (want && v.type !== want) ctx.error(`operand ${k} of a constant has the wrong type`);
    ops[k] = v;
  }
  const c = p.c;
  if (c.vkind === ValueKind.ConstantExpr) {
    if (c.opcode === Opcode.Select && !isSelectCondition(ops[0]!.type, c.type)) ctx.error('select constant with a bad condition');
    c.ops = ops;
  } else {
    c.elements = ops;
  }
}

function isSelectCondition(cond: Type, result: Type): boolean {
  if (cond === I1) return true;
  return cond.isVector() && cond.element === I1 && result.isVector() && cond.length === result.length;
}

/** Replaces forward-reference placeholders among the operands of `constants`. */
export function patchConstants(constants: readonly Value[], resolutions: Map<Value, Value>): void {
  if (resolutions.size === 0) return;
  const fix = (v: Value): Value => resolutions.get(v) ?? v;
  for (const c of constants) {
    switch (c.vkind) {
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector: {
        const agg = c as ConstantArray;
        agg.elements = agg.elements.map(fix);
        break;
      }
      case ValueKind.ConstantExpr: {
        const ce = c as ConstantExpr;
        ce.ops = ce.ops.map(fix);
        break;
      }
      case ValueKind.DSOLocalEquivalent:
      case ValueKind.NoCFIValue: {
        const g = c as DSOLocalEquivalent;
        g.global = fix(g.global) as GlobalValue;
        break;
      }
      default:
        break;
    }
  }
}

/** Points every blockaddress constant read so far at its block; call after all bodies are read. */
export function resolveBlockAddresses(ctx: ReaderContext): void {
  for (const ba of pendingBlockAddresses.get(ctx) ?? []) {
    materialize(ba.fn);
    const bb = ba.fn.blocks[ba.blockIndex];
    if (!bb) ctx.error(`blockaddress refers to block ${ba.blockIndex} of @${printable(ba.fn.name)}, which has ${ba.fn.blocks.length}`);
    ba.block = bb;
  }
  pendingBlockAddresses.delete(ctx);
}

