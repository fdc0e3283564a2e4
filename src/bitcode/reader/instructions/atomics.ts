/** cmpxchg, atomicrmw and fence. */
import type { FnState } from './operands.js';
import { decodeOrdering, decodeRMWOp } from '../opcode-maps.js';
import { AtomicCmpXchgInst, AtomicRMWInst, ExtractValueInst, FenceInst } from '../../../ir/instructions.js';
import { AtomicOrdering } from '../../../ir/opcodes.js';
import { I1, StructType, TypeKind, VoidType, type FloatType, type IntegerType, type Type } from '../../../ir/types.js';
import type { Value } from '../../../ir/value.js';

/**
 * Alignment LLVM assumes when an atomic record has none (pre-LLVM 13 writers): the store size of
 * the type. Rounded up to a power of two; pointers are taken as 8 bytes.
 */
function defaultAtomicAlign(t: Type): number {
  let bytes = 8;
  if (t.kind === TypeKind.Integer) bytes = Math.ceil((t as IntegerType).bits / 8);
  else if (t.isFloatingPoint()) bytes = Math.ceil((t as FloatType).bits / 8);
  let a = 1;
  while (a < bytes) a *= 2;
  return a;
}

function strongestFailureOrdering(success: AtomicOrdering): AtomicOrdering {
  switch (success) {
    case AtomicOrdering.AcquireRelease:
      return AtomicOrdering.Acquire;
    case AtomicOrdering.Release:
      return AtomicOrdering.Monotonic;
    default:
      return success;
  }
}

function requirePointer(s: FnState, v: Value, what: string): void {
  if (v.type.kind !== TypeKind.Pointer) s.bad(what, 'operand is not a pointer');
}

/** CMPXCHG: [pointer (pair), expected (pair), new, volatile, success, syncscope, failure, weak, align?] */
export function decodeCmpXchg(s: FnState): AtomicCmpXchgInst {
  const ptr = s.pair('cmpxchg');
  requirePointer(s, ptr, 'cmpxchg');
  const cmp = s.pair('cmpxchg');
  const nv = s.value(cmp.type, 'cmpxchg');
  const rem = s.remaining;
  if (rem !== 5 && rem !== 6) s.bad('cmpxchg', 'wrong operand count');
  const ops = s.ops;
  const p = s.p;
  const success = decodeOrdering(ops[p + 1]!);
  if (success === AtomicOrdering.NotAtomic || success === AtomicOrdering.Unordered) s.bad('cmpxchg', 'invalid success ordering');
  const failure = decodeOrdering(ops[p + 3]!);
  if (
    failure === AtomicOrdering.NotAtomic ||
    failure === AtomicOrdering.Unordered ||
    failure === AtomicOrdering.Release ||
    failure === AtomicOrdering.AcquireRelease
  ) {
    s.bad('cmpxchg', 'invalid failure ordering');
  }
  let align = rem === 6 ? s.alignment(ops[p + 5]!, 'cmpxchg') : 0;
  if (align === 0) align = defaultAtomicAlign(cmp.type);
  const resultType = StructType.literal([cmp.type, I1]);
  return new AtomicCmpXchgInst(resultType, [ptr, cmp, nv], success, failure, s.syncScope(ops[p + 2]!), ops[p] !== 0, ops[p + 4] !== 0, align);
}

/**
 * CMPXCHG_OLD: [pointer (pair), expected, new, volatile, success, syncscope, failure?, weak?], the
 * expected value typed by the pointee. Records without `weak` come from before cmpxchg returned
 * a pair: LLVM then inserts the cmpxchg unnamed and yields `extractvalue ..., 0` as the value.
 */
export function decodeCmpXchgOld(s: FnState): AtomicCmpXchgInst | ExtractValueInst {
  const ptr = s.pair('cmpxchg');
  requirePointer(s, ptr, 'cmpxchg');
  const cmp = s.value(s.pointee(ptr.type, 'cmpxchg'), 'cmpxchg');
  const nv = s.value(cmp.type, 'cmpxchg');
  const n = s.ops.length;
  const rem = s.remaining;
  if (rem < 3 || rem > 5) s.bad('cmpxchg', 'wrong operand count');
  const ops = s.ops;
  const p = s.p;
  const success = decodeOrdering(ops[p + 1]!);
  if (success === AtomicOrdering.NotAtomic || success === AtomicOrdering.Unordered) s.bad('cmpxchg', 'invalid success ordering');
  const failure = n < 7 ? strongestFailureOrdering(success) : decodeOrdering(ops[p + 3]!);
  if (failure === AtomicOrdering.NotAtomic || failure === AtomicOrdering.Unordered) s.bad('cmpxchg', 'invalid failure ordering');
  const weak = n >= 8 && ops[p + 4] !== 0;
  const resultType = StructType.literal([cmp.type, I1]);
  const inst = new AtomicCmpXchgInst(
    resultType,
    [ptr, cmp, nv],
    success,
    failure,
    s.syncScope(ops[p + 2]!),
    ops[p] !== 0,
    weak,
    defaultAtomicAlign(cmp.type),
  );
  if (n >= 8) return inst;
  s.unnamedBefore = inst;
  return new ExtractValueInst(cmp.type, [inst], [0]);
}

/**
 * ATOMICRMW: [pointer (pair), value (pair), op, volatile, ordering, syncscope, align?];
 * ATOMICRMW_OLD has the value without a type (the pointee type).
 */
export function decodeAtomicRMW(s: FnState, valueHasType: boolean): AtomicRMWInst {
  const ptr = s.pair('atomicrmw');
  requirePointer(s, ptr, 'atomicrmw');
  const val = valueHasType ? s.pair('atomicrmw') : s.value(s.pointee(ptr.type, 'atomicrmw'), 'atomicrmw');
  const rem = s.remaining;
  if (rem !== 4 && rem !== 5) s.bad('atomicrmw', 'wrong operand count');
  const ops = s.ops;
  const p = s.p;
  const op = decodeRMWOp(ops[p]!);
  if (op === -1) s.bad('atomicrmw', `unknown operation ${ops[p]}`);
  const ordering = decodeOrdering(ops[p + 2]!);
  if (ordering === AtomicOrdering.NotAtomic || ordering === AtomicOrdering.Unordered) s.bad('atomicrmw', 'invalid ordering');
  let align = rem === 5 ? s.alignment(ops[p + 4]!, 'atomicrmw') : 0;
  if (align === 0) align = defaultAtomicAlign(val.type);
  return new AtomicRMWInst(val.type, [ptr, val], op, ordering, s.syncScope(ops[p + 3]!), ops[p + 1] !== 0, align);
}

/** FENCE: [ordering, syncscope] */
export function decodeFence(s: FnState): FenceInst {
  if (s.ops.length !== 2) s.bad('fence', 'wrong operand count');
  const ordering = decodeOrdering(s.ops[0]!);
  if (ordering === AtomicOrdering.NotAtomic || ordering === AtomicOrdering.Unordered || ordering === AtomicOrdering.Monotonic) {
    s.bad('fence', 'invalid ordering');
  }
  return new FenceInst(VoidType, ordering, s.syncScope(s.ops[1]!));
}
