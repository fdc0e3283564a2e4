/**
 * Evaluation of IR constants to register values (values.ts) once global and function
 * addresses are known, and the bytes of global initializers.
 */
import type { DataLayout } from '../../ir/datalayout.js';
import {
  type BlockAddress,
  type ConstantArray,
  type ConstantData,
  type ConstantExpr,
  type ConstantFP,
  type ConstantInt,
  type ConstantStruct,
  type ConstantVector,
  type DSOLocalEquivalent,
  type GlobalAlias,
  type GlobalValue,
  type NoCFIValue,
  Opcode,
  TypeKind,
  type Type,
  type Value,
  ValueKind,
  type VectorType,
} from '../../ir/index.js';
import { isCastOpcode } from '../../ir/opcodes.js';
import {
  bvToInt,
  intFrom,
  toSNum,
  toUNum,
  type Scalar,
  type Val,
} from '../values.js';
import {
  bitsToFp,
  elementType,
  fcmp,
  fpBinary,
  fpToBits,
  fpToInt,
  icmp,
  intBinaryOp,
  intCast,
  intToFp,
  intWidth,
  isFloatKind,
  roundTo,
  zeroValue,
} from '../scalar.js';
import { wideFloat } from '../wide-float.js';
import { f128ToDouble } from '../fp128.js';
import { MemIO, type Byte } from '../mem-io.js';

/** A constant tsklee cannot evaluate (reported once, as an error at preparation). */
export class ConstantError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConstantError';
  }
}

export class ConstantEvaluator {
  private readonly memo = new Map<Value, Val>();

  constructor(
    readonly dl: DataLayout,
    /** Address of a global variable or function (0 for an unresolvable extern_weak). */
    readonly addressOf: (g: GlobalValue) => number,
    /** Address standing for a basic block (blockaddress). */
    readonly blockAddress: (b: BlockAddress) => number,
  ) {}

  eval(c: Value): Val {
    const known = this.memo.get(c);
    if (known !== undefined) return known;
    const v = this.compute(c);
    this.memo.set(c, v);
    return v;
  }

  private compute(c: Value): Val {
    switch (c.vkind) {
      case ValueKind.ConstantInt: {
        const ci = c as ConstantInt;
        const w = ci.bits;
        const s = bvToInt(w <= 32 ? Number(ci.value) : ci.value, w);
        return splat(c.type, s);
      }
      case ValueKind.ConstantFP: {
        const cf = c as ConstantFP;
        const et = elementType(c.type);
        return splat(c.type, fpFromBits(et.kind, cf.bits));
      }
      case ValueKind.ConstantPointerNull:
      case ValueKind.ConstantTokenNone:
      case ValueKind.ConstantTargetNone:
        return 0;
      case ValueKind.ConstantAggregateZero:
      case ValueKind.Undef:
      case ValueKind.Poison:
        return zeroValue(c.type);
      case ValueKind.ConstantArray:
      case ValueKind.ConstantStruct:
      case ValueKind.ConstantVector:
        return (c as ConstantArray | ConstantStruct | ConstantVector).elements.map((e) => this.eval(e));
      case ValueKind.ConstantData: {
        const cd = c as ConstantData;
        const et = (c.type as unknown as { element: Type }).element;
        if (et.kind === TypeKind.Integer) {
          const w = intWidth(et);
          return cd.elements.map((b) => intFrom(b, w));
        }
        return cd.elements.map((b) => fpFromBits(et.kind, b));
      }
      case ValueKind.Function:
      case ValueKind.GlobalVariable:
      case ValueKind.GlobalIFunc:
        return this.addressOf(c as GlobalValue);
      case ValueKind.GlobalAlias: {
        const a = (c as GlobalAlias).aliasee;
        if (a === null) throw new ConstantError(`alias @${c.name} has no aliasee`);
        return this.eval(a);
      }
      case ValueKind.BlockAddress:
        return this.blockAddress(c as BlockAddress);
      case ValueKind.DSOLocalEquivalent:
        return this.addressOf((c as DSOLocalEquivalent).global);
      case ValueKind.NoCFIValue:
        return this.addressOf((c as NoCFIValue).global);
      case ValueKind.ConstantExpr:
        return this.constantExpr(c as ConstantExpr);
      default:
        throw new ConstantError(`cannot evaluate constant of kind ${ValueKind[c.vkind]}`);
    }
  }

  private constantExpr(ce: ConstantExpr): Val {
    const op = ce.opcode;
    if (op === Opcode.GetElementPtr) {
      const base = this.eval(ce.ops[0]!);
      if (Array.isArray(base)) throw new ConstantError('vector getelementptr constant expressions are not supported');
      const idx = ce.ops.slice(1).map((o) => {
        const v = this.eval(o) as Scalar;
        return toSNum(v as number | bigint, intWidth(o.type));
      });
      const off = Number(this.dl.gepOffset(ce.gep!.sourceElementType, idx));
      return intFrom((base as number) + off, 64);
    }
    if (isCastOpcode(op)) return castValue(op, ce.ops[0]!.type, ce.type, this.eval(ce.ops[0]!), this.dl);
    switch (op) {
      case Opcode.ICmp: {
        const w = intWidth(ce.ops[0]!.type);
        return icmp(ce.predicate, w, this.eval(ce.ops[0]!) as Scalar, this.eval(ce.ops[1]!) as Scalar);
      }
      case Opcode.FCmp: {
        const a = this.eval(ce.ops[0]!);
        const b = this.eval(ce.ops[1]!);
        const wf = wideFloat(ce.ops[0]!.type.kind);
        if (wf !== null) return wf.fcmp(ce.predicate, wf.fromReg(a as number | bigint), wf.fromReg(b as number | bigint));
        return fcmp(ce.predicate, a as number, b as number);
      }
      case Opcode.Select: {
        const cnd = this.eval(ce.ops[0]!);
        return cnd !== 0 ? this.eval(ce.ops[1]!) : this.eval(ce.ops[2]!);
      }
      case Opcode.ExtractElement: {
        const vec = this.eval(ce.ops[0]!) as Val[];
        return vec[toUNum(this.eval(ce.ops[1]!) as number, intWidth(ce.ops[1]!.type))]!;
      }
      case Opcode.FNeg: {
        const a = this.eval(ce.ops[0]!) as number | bigint;
        const wf = wideFloat(ce.type.kind);
        return wf !== null ? wf.neg(wf.fromReg(a)) : -(a as number);
      }
      default:
        break;
    }
    if (op >= Opcode.Add && op <= Opcode.Xor) {
      const t = ce.type;
      const x = this.eval(ce.ops[0]!);
      const y = this.eval(ce.ops[1]!);
      const et = elementType(t);
      const one = (a: Val, b: Val): Val => {
        const wf = wideFloat(et.kind);
        if (wf !== null) return wf.binary(op, wf.fromReg(a as number | bigint), wf.fromReg(b as number | bigint));
        if (isFloatKind(et.kind)) return fpBinary(op, et.kind, a as number, b as number);
        return intBinaryOp(op, intWidth(et), a as Scalar, b as Scalar);
      };
      if (t.kind === TypeKind.Vector) return (x as Val[]).map((a, i) => one(a, (y as Val[])[i]!));
      return one(x, y);
    }
    throw new ConstantError(`unsupported constant expression '${Opcode[op]}'`);
  }
}

function splat(t: Type, v: Val): Val {
  if (t.kind !== TypeKind.Vector) return v;
  return Array.from({ length: (t as VectorType).length }, () => v);
}

/** A floating-point register value from its raw bits (ConstantFP, ConstantData). */
export function fpFromBits(kind: TypeKind, bits: bigint): number | bigint {
  switch (kind) {
    case TypeKind.X86_FP80:
      return BigInt.asUintN(80, bits);
    case TypeKind.FP128:
      return BigInt.asUintN(128, bits);
    case TypeKind.PPC_FP128:
      // PowerPC's double-double never appears in x86-64 code: read as binary128, in double, as before
      return f128ToDouble(BigInt.asUintN(128, bits));
    case TypeKind.Double:
      return bitsToFp(kind, BigInt.asIntN(64, bits));
    default:
      return bitsToFp(kind, Number(bits));
  }
}

/**
 * A cast of a concrete value (constant expressions; the interpreter has its own paths for
 * symbolic values). Vectors are cast element by element.
 */
export function castValue(op: Opcode, from: Type, to: Type, v: Val, dl: DataLayout): Val {
  if (op === Opcode.BitCast) return bitcastValue(from, to, v, dl);
  if (to.kind === TypeKind.Vector) {
    const fe = elementType(from);
    const te = elementType(to);
    return (v as Val[]).map((x) => castValue(op, fe, te, x, dl));
  }
  switch (op) {
    case Opcode.Trunc:
    case Opcode.ZExt:
    case Opcode.SExt:
      return intCast(op, v as Scalar, intWidth(from), intWidth(to));
    case Opcode.PtrToInt:
    case Opcode.IntToPtr: {
      const fw = intWidth(from);
      const tw = intWidth(to);
      if (fw === tw) return v;
      return intCast(fw > tw ? Opcode.Trunc : Opcode.ZExt, v as Scalar, fw, tw);
    }
    case Opcode.AddrSpaceCast:
      return v;
    case Opcode.FPToSI:
    case Opcode.FPToUI:
      if (wideFloat(from.kind) !== null) {
        const wf = wideFloat(from.kind)!;
        return wf.toIntReg(wf.fromReg(v as number | bigint), intWidth(to), op === Opcode.FPToSI);
      }
      return fpToInt(v as number, intWidth(to), op === Opcode.FPToSI);
    case Opcode.SIToFP:
    case Opcode.UIToFP:
      if (wideFloat(to.kind) !== null) return wideFloat(to.kind)!.fromIntReg(v as number | bigint, intWidth(from), op === Opcode.SIToFP);
      return intToFp(v as number | bigint, intWidth(from), op === Opcode.SIToFP, to.kind);
    case Opcode.FPTrunc:
    case Opcode.FPExt:
      if (wideFloat(from.kind) !== null) {
        const wf = wideFloat(from.kind)!;
        return wf.toKind(to.kind, wf.fromReg(v as number | bigint));
      }
      if (wideFloat(to.kind) !== null) return wideFloat(to.kind)!.fromKind(from.kind, v as number);
      return roundTo(to.kind, v as number);
    default:
      throw new ConstantError(`unsupported cast '${Opcode[op]}'`);
  }
}

/** bitcast of a concrete value: scalar int ↔ fp directly, anything else through its bytes. */
export function bitcastValue(from: Type, to: Type, v: Val, dl: DataLayout): Val {
  if (from === to) return v;
  const fk = from.kind;
  const tk = to.kind;
  // A symbolic scalar keeps its bits whatever it is read as (floats hold their bit pattern).
  if (typeof v === 'object' && !Array.isArray(v) && fk !== TypeKind.Vector && tk !== TypeKind.Vector) return v;
  if ((fk === TypeKind.Pointer || fk === TypeKind.Integer) && (tk === TypeKind.Pointer || tk === TypeKind.Integer)) return v;
  if (isFloatKind(fk) && tk === TypeKind.Integer && fk !== TypeKind.X86_FP80 && fk !== TypeKind.FP128) {
    return intFrom(fpToBits(fk, v as number), intWidth(to));
  }
  if (fk === TypeKind.Integer && isFloatKind(tk) && tk !== TypeKind.X86_FP80 && tk !== TypeKind.FP128) {
    const w = intWidth(from);
    return bitsToFp(tk, tk === TypeKind.Double ? v as number | bigint : toUNum(v as number | bigint, w));
  }
  // Anything else: the same bytes read back as the other type.
  const io = new MemIO(dl);
  const bytes: Byte[] = new Array<Byte>(dl.typeStoreSize(from)).fill(0);
  io.toBytes(from, v, bytes, 0);
  return io.fromBytes(to, (i) => bytes[i]!, 0);
}
