/** extractvalue, insertvalue, extractelement, insertelement and shufflevector. */
import type { FnState } from './operands.js';
import {
  ExtractElementInst,
  ExtractValueInst,
  InsertElementInst,
  InsertValueInst,
  ShuffleVectorInst,
} from '../../../ir/instructions.js';
import { TypeKind, VectorType, type ArrayType, type StructType, type Type } from '../../../ir/types.js';
import { ValueKind, type Value } from '../../../ir/value.js';
import type { ConstantData, ConstantInt, ConstantVector } from '../../../ir/constants.js';

/** Reads the constant indices from `p` to the end, walking `t`; returns the indexed type. */
function readIndices(s: FnState, t: Type, indices: number[], what: string): Type {
  if (s.p === s.ops.length) s.bad(what, 'no indices');
  for (; s.p < s.ops.length; s.p++) {
    const idx = s.ops[s.p]!;
    if (idx > 0xffffffff) s.bad(what, 'index out of range');
    if (t.kind === TypeKind.Struct) {
      const st = t as StructType;
      if (idx >= st.elements.length) s.bad(what, 'invalid struct index');
      t = st.elements[idx]!;
    } else if (t.kind === TypeKind.Array) {
      const at = t as ArrayType;
      if (idx >= at.length) s.bad(what, 'invalid array index');
      t = at.element;
    } else {
      s.bad(what, 'indexing into a non-aggregate type');
    }
    indices.push(idx);
  }
  return t;
}

/** EXTRACTVAL: [aggregate (pair), indices...] */
export function decodeExtractValue(s: FnState): ExtractValueInst {
  const agg = s.pair('extractvalue');
  const indices: number[] = [];
  const ty = readIndices(s, agg.type, indices, 'extractvalue');
  return new ExtractValueInst(ty, [agg], indices);
}

/** INSERTVAL: [aggregate (pair), value (pair), indices...] */
export function decodeInsertValue(s: FnState): InsertValueInst {
  const agg = s.pair('insertvalue');
  const val = s.pair('insertvalue');
  const indices: number[] = [];
  const ty = readIndices(s, agg.type, indices, 'insertvalue');
  if (ty !== val.type) s.bad('insertvalue', "inserted value type doesn't match the aggregate");
  return new InsertValueInst(agg.type, [agg, val], indices);
}

/** EXTRACTELT: [vector (pair), index (pair)] */
export function decodeExtractElement(s: FnState): ExtractElementInst {
  const vec = s.pair('extractelement');
  const idx = s.pair('extractelement');
  if (vec.type.kind !== TypeKind.Vector) s.bad('extractelement', 'operand is not a vector');
  if (idx.type.kind !== TypeKind.Integer) s.bad('extractelement', 'index is not an integer');
  return new ExtractElementInst((vec.type as VectorType).element, [vec, idx]);
}

/** INSERTELT: [vector (pair), element, index (pair)] */
export function decodeInsertElement(s: FnState): InsertElementInst {
  const vec = s.pair('insertelement');
  if (vec.type.kind !== TypeKind.Vector) s.bad('insertelement', 'operand is not a vector');
  const elt = s.value((vec.type as VectorType).element, 'insertelement');
  const idx = s.pair('insertelement');
  if (idx.type.kind !== TypeKind.Integer) s.bad('insertelement', 'index is not an integer');
  return new InsertElementInst(vec.type, [vec, elt, idx]);
}

/** SHUFFLEVEC: [v1 (pair), v2, mask (pair)]; the mask constant becomes a list (-1 = undef/poison lane). */
export function decodeShuffleVector(s: FnState): ShuffleVectorInst {
  const v1 = s.pair('shufflevector');
  const v2 = s.value(v1.type, 'shufflevector');
  const mask = s.pair('shufflevector');
  if (v1.type.kind !== TypeKind.Vector || mask.type.kind !== TypeKind.Vector) s.bad('shufflevector', 'operand is not a vector');
  const mt = mask.type as VectorType;
  const lanes = maskLanes(s, mask, mt.length);
  const limit = 2 * (v1.type as VectorType).length;
  for (const m of lanes) if (m < -1 || m >= limit) s.bad('shufflevector', 'mask index out of range');
  return new ShuffleVectorInst(VectorType.get((v1.type as VectorType).element, mt.length, mt.scalable), [v1, v2], lanes);
}

function laneValue(s: FnState, v: Value): number {
  if (v.vkind === ValueKind.Undef || v.vkind === ValueKind.Poison) return -1;
  if (v.vkind !== ValueKind.ConstantInt) s.bad('shufflevector', 'mask element is not a constant integer');
  const x = (v as ConstantInt).value;
  return x <= 0x7fffffffn ? Number(x) : -2;
}

function maskLanes(s: FnState, mask: Value, n: number): number[] {
  switch (mask.vkind) {
    case ValueKind.ConstantAggregateZero:
      return new Array<number>(n).fill(0);
    case ValueKind.Undef:
    case ValueKind.Poison:
      return new Array<number>(n).fill(-1);
    case ValueKind.ConstantVector:
      return (mask as ConstantVector).elements.map((e) => laneValue(s, e));
    case ValueKind.ConstantData:
      return (mask as ConstantData).elements.map((e) => (e <= 0x7fffffffn ? Number(e) : -2));
    default:
      return s.bad('shufflevector', 'mask is not a constant vector');
  }
}
