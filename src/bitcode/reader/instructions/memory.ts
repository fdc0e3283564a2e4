/** alloca, load, store (plain and atomic) and getelementptr. */
import type { FnState } from './operands.js';
import { decodeGEPFlags, decodeOrdering } from '../opcode-maps.js';
import { AllocaInst, GetElementPtrInst, LoadInst, StoreInst } from '../../../ir/instructions.js';
import { AtomicOrdering, Flag } from '../../../ir/opcodes.js';
import { ValueKind, type Value } from '../../../ir/value.js';
import { TypeKind, VectorType, VoidType, type PointerType, type StructType, type Type, type ArrayType } from '../../../ir/types.js';
import type { ConstantData, ConstantInt, ConstantVector } from '../../../ir/constants.js';

/** Types a load or store may access (LLVM's isLoadableOrStorableType, less the sizedness check). */
function isLoadable(t: Type): boolean {
  switch (t.kind) {
    case TypeKind.Void:
    case TypeKind.Label:
    case TypeKind.Metadata:
    case TypeKind.Token:
    case TypeKind.Function:
      return false;
    default:
      return true;
  }
}

function requirePointer(s: FnState, v: Value, what: string): void {
  if (v.type.kind !== TypeKind.Pointer) s.bad(what, 'operand is not a pointer');
}

/** ALLOCA: [allocated type, size type, size (absolute id), packed align/flags, addrspace?] */
export function decodeAlloca(s: FnState): AllocaInst {
  const ops = s.ops;
  if (ops.length !== 4 && ops.length !== 5) s.bad('alloca', 'wrong operand count');
  // Packed word: align log2+1 in bits 0-4 (upper bits in 8-10), inalloca bit 5,
  // explicit type bit 6, swifterror bit 7.
  const packed = ops[3]!;
  let ty = s.type(ops[0]!);
  if ((packed & 64) === 0) ty = s.pointee(ty, 'alloca');
  const sizeTy = s.type(ops[1]!);
  const size = s.valueById(s.u32(2), sizeTy);
  if (sizeTy.kind !== TypeKind.Integer) s.bad('alloca', 'element count must have integer type');
  const align = s.alignment((packed & 31) | (((packed >> 8) & 7) << 5), 'alloca');
  const addrSpace = ops.length === 5 ? ops[4]! : s.allocaAddrSpace;
  if (addrSpace > 0xffffff) s.bad('alloca', 'invalid address space');
  return new AllocaInst(s.pointerTo(ty, addrSpace), [size], ty, align, (packed & 32) !== 0, (packed & 128) !== 0);
}

/** LOAD: [pointer (pair), type?, align, volatile] */
export function decodeLoad(s: FnState): LoadInst {
  const ptr = s.pair('load');
  const rem = s.remaining;
  if (rem !== 2 && rem !== 3) s.bad('load', 'wrong operand count');
  requirePointer(s, ptr, 'load');
  const ty = rem === 3 ? s.type(s.ops[s.p++]!) : s.pointee(ptr.type, 'load');
  if (!isLoadable(ty)) s.bad('load', 'cannot load this type');
  const align = s.alignment(s.ops[s.p]!, 'load');
  return new LoadInst(ty, [ptr], align, s.ops[s.p + 1] !== 0);
}

/** LOADATOMIC: [pointer (pair), type?, align, volatile, ordering, syncscope] */
export function decodeLoadAtomic(s: FnState): LoadInst {
  const ptr = s.pair('load atomic');
  const rem = s.remaining;
  if (rem !== 4 && rem !== 5) s.bad('load atomic', 'wrong operand count');
  requirePointer(s, ptr, 'load atomic');
  const ty = rem === 5 ? s.type(s.ops[s.p++]!) : s.pointee(ptr.type, 'load atomic');
  if (!isLoadable(ty)) s.bad('load atomic', 'cannot load this type');
  const ops = s.ops;
  const p = s.p;
  const ordering = decodeOrdering(ops[p + 2]!);
  if (ordering === AtomicOrdering.NotAtomic || ordering === AtomicOrdering.Release || ordering === AtomicOrdering.AcquireRelease) {
    s.bad('load atomic', 'invalid ordering');
  }
  const align = s.alignment(ops[p]!, 'load atomic');
  if (align === 0) s.bad('load atomic', 'alignment missing');
  return new LoadInst(ty, [ptr], align, ops[p + 1] !== 0, ordering, s.syncScope(ops[p + 3]!));
}

/**
 * STORE: [pointer (pair), value (pair), align, volatile]; STORE_OLD has the value without a type
 * (it is the pointee type). With `atomic`, [..., ordering, syncscope] follow.
 */
export function decodeStore(s: FnState, valueHasType: boolean, atomic: boolean): StoreInst {
  const what = atomic ? 'store atomic' : 'store';
  const ptr = s.pair(what);
  requirePointer(s, ptr, what);
  const val = valueHasType ? s.pair(what) : s.value(s.pointee(ptr.type, what), what);
  if (s.remaining !== (atomic ? 4 : 2)) s.bad(what, 'wrong operand count');
  if (!isLoadable(val.type)) s.bad(what, 'cannot store this type');
  const ops = s.ops;
  const p = s.p;
  const align = s.alignment(ops[p]!, what);
  const vol = ops[p + 1] !== 0;
  if (!atomic) return new StoreInst(VoidType, [val, ptr], align, vol);
  const ordering = decodeOrdering(ops[p + 2]!);
  if (ordering === AtomicOrdering.NotAtomic || ordering === AtomicOrdering.Acquire || ordering === AtomicOrdering.AcquireRelease) {
    s.bad(what, 'invalid ordering');
  }
  if (align === 0) s.bad(what, 'alignment missing');
  return new StoreInst(VoidType, [val, ptr], align, vol, ordering, s.syncScope(ops[p + 3]!));
}

/** A struct index must be a constant integer (or a splat of one); its value, or -1. */
function constantIndex(v: Value): number {
  switch (v.vkind) {
    case ValueKind.ConstantInt: {
      const x = (v as ConstantInt).value;
      return x < 0x7fffffffn ? Number(x) : -1;
    }
    case ValueKind.ConstantAggregateZero:
      return 0;
    case ValueKind.ConstantVector: {
      const els = (v as ConstantVector).elements;
      const first = els.length > 0 ? constantIndex(els[0]!) : -1;
      for (let i = 1; i < els.length; i++) if (els[i] !== els[0] && constantIndex(els[i]!) !== first) return -1;
      return first;
    }
    case ValueKind.ConstantData: {
      const els = (v as ConstantData).elements;
      if (els.length === 0 || els.some((e) => e !== els[0])) return -1;
      return els[0]! < 0x7fffffffn ? Number(els[0]!) : -1;
    }
    default:
      return -1;
  }
}

/** GEP (current): [flags, source element type, base (pair), indices (pairs)...] */
export function decodeGEP(s: FnState): GetElementPtrInst {
  const flags = decodeGEPFlags(s.op(0, 'gep'));
  const srcTy = s.typeAt(1, 'gep');
  s.p = 2;
  return finishGEP(s, srcTy, flags);
}

/** GEP_OLD / INBOUNDS_GEP_OLD: [base (pair), indices (pairs)...], source type from the pointer. */
export function decodeGEPOld(s: FnState, inBounds: boolean): GetElementPtrInst {
  return finishGEP(s, null, inBounds ? Flag.InBounds | Flag.GEPNUSW : 0);
}

function finishGEP(s: FnState, srcTy: Type | null, flags: number): GetElementPtrInst {
  const base = s.pair('gep');
  const baseScalar = base.type.scalarType();
  if (baseScalar.kind !== TypeKind.Pointer) s.bad('gep', 'base is not a pointer or a vector of pointers');
  const sourceType = srcTy ?? s.pointee(base.type, 'gep');
  const ops: Value[] = [base];
  // The result is a vector of pointers when the base or any index is a vector.
  let vec: VectorType | null = base.type.kind === TypeKind.Vector ? (base.type as VectorType) : null;
  let t: Type = sourceType;
  while (s.p < s.ops.length) {
    const idx = s.pair('gep');
    const it = idx.type;
    if (it.kind === TypeKind.Vector) {
      const iv = it as VectorType;
      if (vec && (vec.length !== iv.length || vec.scalable !== iv.scalable)) s.bad('gep', 'vector index widths differ');
      vec = iv;
    }
    if (it.scalarType().kind !== TypeKind.Integer) s.bad('gep', 'index is not an integer');
    if (ops.length > 1) t = stepInto(s, t, idx);
    ops.push(idx);
  }
  const ptr = s.pointerTo(t, (baseScalar as PointerType).addrSpace);
  const resultType = vec ? VectorType.get(ptr, vec.length, vec.scalable) : ptr;
  return new GetElementPtrInst(resultType, ops, sourceType, flags);
}

/** The type reached by indexing `t` with `idx` (the indices after the first). */
function stepInto(s: FnState, t: Type, idx: Value): Type {
  switch (t.kind) {
    case TypeKind.Struct: {
      const st = t as StructType;
      const i = constantIndex(idx);
      if (i < 0 || i >= st.elements.length) s.bad('gep', 'invalid struct index');
      return st.elements[i]!;
    }
    case TypeKind.Array:
      return (t as ArrayType).element;
    case TypeKind.Vector:
      return (t as VectorType).element;
    default:
      return s.bad('gep', 'index into a non-aggregate type');
  }
}
