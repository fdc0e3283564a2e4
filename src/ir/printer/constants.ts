/** Operand and constant printing (`%x`, `@g`, `i32 -1`, `c"hi\00"`, `getelementptr (…)`, `asm "…"`). */
import { ValueKind, type Value } from '../value.js';
import { TypeKind, type ArrayType, type IntegerType, type StructType, type Type, type VectorType } from '../types.js';
import {
  AsmDialect,
  type BlockAddress,
  type Constant,
  type ConstantArray,
  type ConstantData,
  type ConstantExpr,
  type ConstantFP,
  type ConstantInt,
  type ConstantStruct,
  type ConstantVector,
  type DSOLocalEquivalent,
  type InlineAsm,
  type NoCFIValue,
} from '../constants.js';
import { FMF, Flag, Opcode, OPCODE_NAMES, isCastOpcode, predicateName } from '../opcodes.js';
import type { MetadataAsValue } from '../metadata.js';
import type { GlobalValue } from '../globals.js';
import type { PrintContext } from './context.js';
import { escapeString, formatName } from './names.js';
import { formatFloat } from './floats.js';
import { formatMetadataOperand } from './metadata.js';

/** Prints an integer of the given width as llvm-dis does: `true`/`false` for i1, else signed decimal. */
export function formatInt(bits: number, value: bigint): string {
  if (bits === 1) return value & 1n ? 'true' : 'false';
  return BigInt.asIntN(bits, value).toString();
}

/** A value used as an operand, without its type. */
export function formatValue(ctx: PrintContext, v: Value | undefined): string {
  if (!v) return '<null operand!>';
  if (v.name) return formatName(v.name, v.isGlobalValue() ? '@' : '%');
  if (v.isConstant() && !v.isGlobalValue()) return formatConstant(ctx, v as Constant);
  switch (v.vkind) {
    case ValueKind.InlineAsm:
      return formatInlineAsm(v as InlineAsm);
    case ValueKind.MetadataAsValue:
      return formatMetadataOperand(ctx, (v as MetadataAsValue).md);
    case ValueKind.Function:
    case ValueKind.GlobalVariable:
    case ValueKind.GlobalAlias:
    case ValueKind.GlobalIFunc: {
      const slot = ctx.slots.globalSlot(v as GlobalValue);
      return slot >= 0 ? `@${slot}` : '<badref>';
    }
    default: {
      const slot = ctx.slots.localSlot(v);
      return slot >= 0 ? `%${slot}` : '<badref>';
    }
  }
}

/** `type value`. */
export function formatTypedValue(ctx: PrintContext, v: Value | undefined): string {
  return v ? `${ctx.types.print(v.type)} ${formatValue(ctx, v)}` : '<null operand!>';
}

function formatInlineAsm(a: InlineAsm): string {
  let s = 'asm ';
  if (a.sideEffects) s += 'sideeffect ';
  if (a.alignStack) s += 'alignstack ';
  if (a.dialect === AsmDialect.Intel) s += 'inteldialect ';
  if (a.canThrow) s += 'unwind ';
  return `${s}"${escapeString(a.asm)}", "${escapeString(a.constraints)}"`;
}

/** Fast-math flags as printed after the opcode (` fast` or the individual flags). */
export function formatFastMath(fmf: number): string {
  if (!fmf) return '';
  if ((fmf & 0x7f) === 0x7f) return ' fast';
  let s = '';
  if (fmf & FMF.AllowReassoc) s += ' reassoc';
  if (fmf & FMF.NoNaNs) s += ' nnan';
  if (fmf & FMF.NoInfs) s += ' ninf';
  if (fmf & FMF.NoSignedZeros) s += ' nsz';
  if (fmf & FMF.AllowReciprocal) s += ' arcp';
  if (fmf & FMF.AllowContract) s += ' contract';
  if (fmf & FMF.ApproxFunc) s += ' afn';
  return s;
}

/** Wrap/exact/disjoint/nneg/GEP flags as printed after the opcode (and after fast-math flags). */
export function formatOpFlags(opcode: Opcode, flags: number): string {
  if (!flags) return '';
  switch (opcode) {
    case Opcode.Add:
    case Opcode.Sub:
    case Opcode.Mul:
    case Opcode.Shl:
    case Opcode.Trunc:
      return (flags & Flag.NUW ? ' nuw' : '') + (flags & Flag.NSW ? ' nsw' : '');
    case Opcode.UDiv:
    case Opcode.SDiv:
    case Opcode.LShr:
    case Opcode.AShr:
      return flags & Flag.Exact ? ' exact' : '';
    case Opcode.Or:
      return flags & Flag.Disjoint ? ' disjoint' : '';
    case Opcode.ZExt:
    case Opcode.UIToFP:
      return flags & Flag.NonNeg ? ' nneg' : '';
    case Opcode.GetElementPtr: {
      let s = flags & Flag.InBounds ? ' inbounds' : flags & Flag.GEPNUSW ? ' nusw' : '';
      if (flags & Flag.GEPNUW) s += ' nuw';
      return s;
    }
    case Opcode.ICmp:
      return flags & Flag.SameSign ? ' samesign' : '';
    default:
      return '';
  }
}

/** A constant that is not a global value. */
export function formatConstant(ctx: PrintContext, c: Constant): string {
  switch (c.vkind) {
    case ValueKind.ConstantInt: {
      const ci = c as ConstantInt;
      const text = formatInt(ci.bits, ci.value);
      return c.type.isVector() ? `splat (${ctx.types.print(c.type.scalarType())} ${text})` : text;
    }
    case ValueKind.ConstantFP: {
      const scalar = c.type.scalarType();
      const text = formatFloat(scalar.kind, (c as ConstantFP).bits);
      return c.type.isVector() ? `splat (${ctx.types.print(scalar)} ${text})` : text;
    }
    case ValueKind.ConstantPointerNull:
      return 'null';
    case ValueKind.ConstantAggregateZero:
    case ValueKind.ConstantTargetNone:
      return 'zeroinitializer';
    case ValueKind.Undef:
      return 'undef';
    case ValueKind.Poison:
      return 'poison';
    case ValueKind.ConstantTokenNone:
      return 'none';
    case ValueKind.ConstantArray:
      return formatElements(ctx, '[', ']', (c.type as ArrayType).element, (c as ConstantArray).elements);
    case ValueKind.ConstantVector:
      return formatElements(ctx, '<', '>', (c.type as VectorType).element, (c as ConstantVector).elements);
    case ValueKind.ConstantStruct:
      return formatStruct(ctx, c as ConstantStruct);
    case ValueKind.ConstantData:
      return formatData(ctx, c as ConstantData);
    case ValueKind.ConstantExpr:
      return formatExpr(ctx, c as ConstantExpr);
    case ValueKind.BlockAddress: {
      const ba = c as BlockAddress;
      const block = ba.block ? formatValue(ctx, ba.block) : '<badref>';
      return `blockaddress(${formatValue(ctx, ba.fn)}, ${block})`;
    }
    case ValueKind.DSOLocalEquivalent:
      return `dso_local_equivalent ${formatValue(ctx, (c as DSOLocalEquivalent).global)}`;
    case ValueKind.NoCFIValue:
      return `no_cfi ${formatValue(ctx, (c as NoCFIValue).global)}`;
    default:
      return '<placeholder or erroneous Constant>';
  }
}

function formatElements(ctx: PrintContext, open: string, close: string, elType: Type, elements: readonly Value[]): string {
  const t = ctx.types.print(elType);
  const parts = new Array<string>(elements.length);
  for (let i = 0; i < elements.length; i++) parts[i] = `${t} ${formatValue(ctx, elements[i]!)}`;
  return open + parts.join(', ') + close;
}

function formatStruct(ctx: PrintContext, c: ConstantStruct): string {
  const packed = (c.type as StructType).packed;
  let s = c.elements.length === 0 ? '{}' : `{ ${c.elements.map((e) => formatTypedValue(ctx, e)).join(', ')} }`;
  if (packed) s = `<${s}>`;
  return s;
}

function formatData(ctx: PrintContext, c: ConstantData): string {
  const isArray = c.type.kind === TypeKind.Array;
  const elType = isArray ? (c.type as ArrayType).element : (c.type as VectorType).element;
  if (isArray && elType.isInteger(8)) {
    let s = '';
    for (const e of c.elements) s += String.fromCharCode(Number(e & 0xffn));
    return `c"${escapeString(s)}"`;
  }
  const t = ctx.types.print(elType);
  const parts = new Array<string>(c.elements.length);
  for (let i = 0; i < c.elements.length; i++) {
    const e = c.elements[i]!;
    const text = elType.kind === TypeKind.Integer ? formatInt((elType as IntegerType).bits, e) : formatFloat(elType.kind, e);
    parts[i] = `${t} ${text}`;
  }
  return (isArray ? '[' : '<') + parts.join(', ') + (isArray ? ']' : '>');
}

function formatExpr(ctx: PrintContext, ce: ConstantExpr): string {
  let s = OPCODE_NAMES[ce.opcode] + formatOpFlags(ce.opcode, ce.flags);
  const gep = ce.gep;
  if (gep?.inRange && ctx.llvmVersion >= 19) s += ` inrange(${gep.inRange[0]}, ${gep.inRange[1]})`;
  if (ce.opcode === Opcode.ICmp || ce.opcode === Opcode.FCmp) s += ' ' + predicateName(ce.predicate);
  s += ' (';
  if (gep) s += ctx.types.print(gep.sourceElementType) + ', ';
  const inRangeOp = gep && ctx.llvmVersion < 19 ? gep.inRangeIndex : -1;
  for (let i = 0; i < ce.ops.length; i++) {
    if (i) s += ', ';
    if (i === inRangeOp) s += 'inrange ';
    s += formatTypedValue(ctx, ce.ops[i]!);
  }
  if (isCastOpcode(ce.opcode)) s += ' to ' + ctx.types.print(ce.type);
  return s + ')';
}
