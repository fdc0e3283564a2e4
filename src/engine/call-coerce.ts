/**
 * Calls whose call-site type differs from the callee's: a C call through an unprototyped or
 * mismatched declaration (`int read();` against `ssize_t read(int, void *, size_t)`), which
 * llvm-link accepts. As KLEE does (Executor's call and ret), an integer or pointer argument
 * or result of another width is extended — sign-extended when the call site marks it
 * `signext` — or truncated to the receiving type; other values pass unchanged.
 */
import { Opcode } from '../ir/opcodes.js';
import { TypeKind, type FunctionType, type Type } from '../ir/types.js';
import type { AttributeList } from '../ir/attributes.js';
import type { KInst } from './prepare/kinst.js';
import { intCast, intWidth } from './scalar.js';
import type { Scalar, Val } from './values.js';

const intLike = (t: Type): boolean => t.kind === TypeKind.Integer || t.kind === TypeKind.Pointer;

/** v of type `from` as a value of type `to`. */
export function coerceValue(v: Val, from: Type, to: Type, signExt: boolean): Val {
  if (from === to || Array.isArray(v) || !intLike(from) || !intLike(to)) return v;
  const fw = intWidth(from);
  const tw = intWidth(to);
  if (fw === tw) return v;
  return intCast(tw < fw ? Opcode.Trunc : signExt ? Opcode.SExt : Opcode.ZExt, v as Scalar, fw, tw);
}

function callSite(ki: KInst): { functionType?: FunctionType; attributes?: AttributeList } {
  return ki.inst as unknown as { functionType?: FunctionType; attributes?: AttributeList };
}

/** The arguments as the callee's parameters take them (the same array when the types agree). */
export function coerceArgs(ki: KInst, callee: FunctionType, args: Val[]): Val[] {
  const site = callSite(ki);
  const ft = site.functionType;
  if (ft === undefined || ft === callee) return args;
  let out = args;
  const n = Math.min(callee.params.length, args.length);
  for (let i = 0; i < n; i++) {
    const from = i < ft.params.length ? ft.params[i]! : ki.inst.ops[i]!.type;
    const v = coerceValue(args[i]!, from, callee.params[i]!, site.attributes?.hasParamAttr(i, 'signext') === true);
    if (v !== args[i]) {
      if (out === args) out = args.slice();
      out[i] = v;
    }
  }
  return out;
}

/** The callee's result as the call site's type takes it. */
export function coerceResult(ki: KInst, callee: FunctionType, v: Val): Val {
  const site = callSite(ki);
  const ft = site.functionType;
  if (ft === undefined || ft === callee) return v;
  return coerceValue(v, callee.ret, ft.ret, site.attributes?.ret.some((a) => a.kind === 'signext') === true);
}
