/** Terminators (ret, br, switch, indirectbr, unreachable) and phi. */
import type { FnState } from './operands.js';
import { BranchInst, IndirectBrInst, PhiInst, ReturnInst, SwitchInst, UnreachableInst, type SwitchCase } from '../../../ir/instructions.js';
import { ConstantInt } from '../../../ir/constants.js';
import { I1, TypeKind, VoidType, type IntegerType, type Type } from '../../../ir/types.js';
import { ValueKind, type Value } from '../../../ir/value.js';
import type { BasicBlock } from '../../../ir/globals.js';
import { decodeFastMath } from '../opcode-maps.js';
import { u64 } from '../../cursor.js';

/** RET: [] or [value (pair)] */
export function decodeRet(s: FnState): ReturnInst {
  if (s.ops.length === 0) return new ReturnInst(VoidType, []);
  const v = s.pair('ret');
  if (s.p !== s.ops.length) s.bad('ret', 'too many operands');
  return new ReturnInst(VoidType, [v]);
}

/** BR: [dest] or [true dest, false dest, cond] */
export function decodeBr(s: FnState): BranchInst {
  const n = s.ops.length;
  if (n !== 1 && n !== 3) s.bad('br', 'wrong operand count');
  const t = s.block(s.ops[0]!, 'br');
  if (n === 1) return new BranchInst(VoidType, [], [t]);
  const f = s.block(s.ops[1]!, 'br');
  s.p = 2;
  const cond = s.value(I1, 'br');
  return new BranchInst(VoidType, [cond], [t, f]);
}

const SWITCH_INST_MAGIC = 0x4b5;
/** Bound on cases produced by expanding case ranges of the old wide-switch format. */
const MAX_EXPANDED_CASES = 1 << 20;

/** SWITCH: [cond type, cond, default, (case value id, dest)...]; case values are absolute constant ids. */
export function decodeSwitch(s: FnState): SwitchInst {
  const ops = s.ops;
  if (ops.length > 0 && Math.floor(ops[0]! / 65536) === SWITCH_INST_MAGIC) return decodeWideSwitch(s);
  if (ops.length < 3 || ops.length % 2 === 0) s.bad('switch', 'wrong operand count');
  const ty = s.type(ops[0]!);
  if (ty.kind !== TypeKind.Integer) s.bad('switch', 'condition is not an integer');
  s.p = 1;
  const cond = s.value(ty, 'switch');
  const dflt = s.block(ops[2]!, 'switch');
  const n = (ops.length - 3) / 2;
  const cases: SwitchCase[] = new Array<SwitchCase>(n);
  for (let i = 0; i < n; i++) {
    const v = s.values.getDefined(s.u32(3 + 2 * i));
    if (!v || v.vkind !== ValueKind.ConstantInt || v.type !== ty) s.bad('switch', 'case value is not a constant integer of the condition type');
    cases[i] = { value: v as ConstantInt, dest: s.block(ops[4 + 2 * i]!, 'switch') };
  }
  return new SwitchInst(VoidType, [cond], dflt, cases);
}

/**
 * The short-lived "case ranges" switch format (LLVM 3.3): [magic, type, cond, default, ncases,
 * per case: nitems, per item: single?, [nwords], low words, ([nwords], high words)?, dest].
 * Words are sign-rotated 64-bit chunks; ranges are expanded into single cases, as LLVM does.
 */
function decodeWideSwitch(s: FnState): SwitchInst {
  const ops = s.ops;
  const ty = s.typeAt(1, 'switch');
  if (ty.kind !== TypeKind.Integer) s.bad('switch', 'condition is not an integer');
  const bits = (ty as IntegerType).bits;
  s.p = 2;
  const cond = s.value(ty, 'switch');
  const dflt = s.block(s.op(3, 'switch'), 'switch');
  const numCases = s.op(4, 'switch');
  let p = 5;
  const cases: SwitchCase[] = [];
  const readWide = (): bigint => {
    const words = bits > 64 ? s.op(p++, 'switch') : 1;
    if (words > ops.length - p) s.bad('switch', 'too few operands');
    let v = 0n;
    for (let w = 0; w < words; w++) {
      const raw = u64(s.rec, p++);
      const word = raw & 1n ? -(raw >> 1n) : raw >> 1n;
      v |= BigInt.asUintN(64, word) << BigInt(64 * w);
    }
    return BigInt.asUintN(bits, v);
  };
  for (let c = 0; c < numCases; c++) {
    const items = s.op(p++, 'switch');
    if (items > ops.length - p) s.bad('switch', 'too few operands');
    const values: bigint[] = [];
    for (let it = 0; it < items; it++) {
      const single = s.op(p++, 'switch') !== 0;
      const lo = readWide();
      if (single) {
        values.push(lo);
        continue;
      }
      const hi = readWide();
      if (hi >= lo && hi - lo >= BigInt(MAX_EXPANDED_CASES - cases.length - values.length)) s.bad('switch', 'case range too large');
      for (let v = lo; v <= hi; v++) values.push(v);
    }
    const dest = s.block(s.op(p++, 'switch'), 'switch');
    for (const v of values) cases.push({ value: new ConstantInt(ty, v), dest });
  }
  return new SwitchInst(VoidType, [cond], dflt, cases);
}

/** INDIRECTBR: [address type, address, dests...] */
export function decodeIndirectBr(s: FnState): IndirectBrInst {
  const ops = s.ops;
  if (ops.length < 2) s.bad('indirectbr', 'wrong operand count');
  const ty = s.type(ops[0]!);
  s.p = 1;
  const addr = s.value(ty, 'indirectbr');
  const dests: BasicBlock[] = new Array<BasicBlock>(ops.length - 2);
  for (let i = 2; i < ops.length; i++) dests[i - 2] = s.block(ops[i]!, 'indirectbr');
  return new IndirectBrInst(VoidType, [addr], dests);
}

export function decodeUnreachable(): UnreachableInst {
  return new UnreachableInst(VoidType, []);
}

/** PHI: [type, (value as signed relative id, block)..., fmf?] */
export function decodePhi(s: FnState): PhiInst {
  const ops = s.ops;
  if (ops.length === 0) s.bad('phi', 'no type');
  const ty: Type = s.type(ops[0]!);
  if (!ty.isFirstClass() || ty.kind === TypeKind.Label) s.bad('phi', 'invalid type');
  const n = (ops.length - 1) >> 1;
  const vals: Value[] = new Array<Value>(n);
  const blocks: BasicBlock[] = new Array<BasicBlock>(n);
  for (let i = 0; i < n; i++) {
    blocks[i] = s.block(ops[2 + 2 * i]!, 'phi');
    vals[i] = s.valueById(s.signedValueId(1 + 2 * i), ty);
  }
  const phi = new PhiInst(ty, vals, blocks);
  // An even record length means a trailing fast-math word.
  if (ops.length % 2 === 0) phi.fastMath = decodeFastMath(ops[ops.length - 1]!);
  return phi;
}
