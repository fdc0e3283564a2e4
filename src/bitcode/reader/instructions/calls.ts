/** call, callbr, va_arg and the operand bundles that precede calls. */
import type { FnState } from './operands.js';
import { decodeFastMath } from '../opcode-maps.js';
import { CallBrInst, CallInst, VAArgInst } from '../../../ir/instructions.js';
import { TailKind } from '../../../ir/opcodes.js';
import { TypeKind, type FunctionType, type Type } from '../../../ir/types.js';
import type { Value } from '../../../ir/value.js';
import type { BasicBlock } from '../../../ir/globals.js';

// Bits of the calling-convention word of CALL / CALLBR records.
const CALL_TAIL = 1;
const CALL_CCONV_MASK = 0x7ff; // calling convention in bits 1-10
const CALL_MUSTTAIL = 1 << 14;
const CALL_EXPLICIT_TYPE = 1 << 15;
const CALL_NOTAIL = 1 << 16;
const CALL_FMF = 1 << 17;

/** Explicit function type (when flagged) or the pointee of a typed callee pointer. */
function readFunctionType(s: FnState, cc: number, what: string): FunctionType | null {
  if ((cc & CALL_EXPLICIT_TYPE) === 0) return null;
  const t = s.typeAt(s.p++, what);
  if (t.kind !== TypeKind.Function) s.bad(what, 'explicit call type is not a function type');
  return t as FunctionType;
}

function calleeFunctionType(s: FnState, explicit: FunctionType | null, callee: Value, what: string): FunctionType {
  if (callee.type.kind !== TypeKind.Pointer) s.bad(what, 'callee is not a pointer');
  if (explicit) return explicit;
  const t: Type = s.pointee(callee.type, what);
  if (t.kind !== TypeKind.Function) s.bad(what, 'callee is not a pointer to a function');
  return t as FunctionType;
}

/**
 * Fixed arguments (typed by the function type; `label` parameters are block ids), then
 * value/type pairs for the variadic part. Returns the operand list with room for the callee.
 */
function readArgs(s: FnState, fnTy: FunctionType, what: string): Value[] {
  const params = fnTy.params;
  if (s.remaining < params.length) s.bad(what, 'too few arguments');
  const args: Value[] = [];
  for (let i = 0; i < params.length; i++) {
    const pt = params[i]!;
    args.push(pt.kind === TypeKind.Label ? s.block(s.ops[s.p++]!, what) : s.value(pt, what));
  }
  if (!fnTy.varArgs) {
    if (s.p !== s.ops.length) s.bad(what, 'too many arguments');
  } else {
    while (s.p < s.ops.length) args.push(s.pair(what));
  }
  return args;
}

/** CALL: [attributes, cc word, fmf?, fnty?, callee (pair), args...] */
export function decodeCall(s: FnState): CallInst {
  if (s.ops.length < 3) s.bad('call', 'too few operands');
  const attrs = s.ctx.attrs.list(s.u32(0));
  const cc = s.u32(1);
  s.p = 2;
  let fmf = 0;
  if (cc & CALL_FMF) {
    fmf = decodeFastMath(s.op(s.p++, 'call'));
    if (fmf === 0) s.bad('call', 'fast-math flag indicator set without flags');
  }
  const explicit = readFunctionType(s, cc, 'call');
  const callee = s.pair('call');
  const fnTy = calleeFunctionType(s, explicit, callee, 'call');
  const ops = readArgs(s, fnTy, 'call');
  ops.push(callee);
  const inst = new CallInst(fnTy.ret, ops, fnTy);
  inst.attributes = attrs;
  inst.callingConv = (cc & CALL_CCONV_MASK) >>> 1;
  if (cc & CALL_NOTAIL) inst.tailKind = TailKind.NoTail;
  else if (cc & CALL_MUSTTAIL) inst.tailKind = TailKind.MustTail;
  else if (cc & CALL_TAIL) inst.tailKind = TailKind.Tail;
  inst.fastMath = fmf;
  inst.bundles = s.bundles;
  s.bundles = null;
  return inst;
}

/** CALLBR: [attributes, cc word, default dest, n, n indirect dests, fnty?, callee (pair), args...] */
export function decodeCallBr(s: FnState): CallBrInst {
  if (s.ops.length < 4) s.bad('callbr', 'too few operands');
  const attrs = s.ctx.attrs.list(s.u32(0));
  const cc = s.u32(1);
  const dflt = s.block(s.ops[2]!, 'callbr');
  const n = s.ops[3]!;
  if (n > s.ops.length - 4) s.bad('callbr', 'too few operands');
  const indirect: BasicBlock[] = new Array<BasicBlock>(n);
  for (let i = 0; i < n; i++) indirect[i] = s.block(s.ops[4 + i]!, 'callbr');
  s.p = 4 + n;
  const explicit = readFunctionType(s, cc, 'callbr');
  const callee = s.pair('callbr');
  const fnTy = calleeFunctionType(s, explicit, callee, 'callbr');
  const ops = readArgs(s, fnTy, 'callbr');
  ops.push(callee);
  const inst = new CallBrInst(fnTy.ret, ops, fnTy, dflt, indirect);
  inst.attributes = attrs;
  inst.callingConv = (cc & CALL_CCONV_MASK) >>> 1;
  inst.bundles = s.bundles;
  s.bundles = null;
  return inst;
}

/** VAARG: [va_list type, va_list, result type] */
export function decodeVAArg(s: FnState): VAArgInst {
  if (s.ops.length < 3) s.bad('va_arg', 'too few operands');
  const listTy = s.type(s.ops[0]!);
  s.p = 1;
  const list = s.value(listTy, 'va_arg');
  return new VAArgInst(s.type(s.ops[2]!), [list]);
}

/** OPERAND_BUNDLE: [tag id, inputs (pairs)...], kept for the next call. */
export function decodeOperandBundle(s: FnState): void {
  const tags = s.ctx.bundleTags;
  if (s.ops.length === 0 || s.ops[0]! >= tags.length) s.bad('operand bundle', 'unknown tag');
  s.p = 1;
  const inputs: Value[] = [];
  while (s.p < s.ops.length) inputs.push(s.pair('operand bundle'));
  (s.bundles ??= []).push({ tag: tags[s.ops[0]!]!, inputs });
}
