/**
 * LLVM intrinsics (KLEE handles some in the executor and lowers others in its
 * IntrinsicCleaner pass; tsklee implements them all here). An intrinsic tsklee does not know
 * ends the state that calls it with an exec error naming it; the run goes on.
 */
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import type { KInst, SpecialHandler } from './prepare/kinst.js';
import { Msg, Termination } from './errors.js';
import { INT_INTRINSICS } from './intrinsics-int.js';
import { intrinsicMemCopy, intrinsicMemSet } from './special/mem.js';
import { vaStart } from './exec-call.js';
import { fpOperand, wideOperand } from './exec-arith.js';
import { memCopy } from './special/mem.js';
import { I32, TypeKind, type Type, type VectorType } from '../ir/types.js';
import { intBinary, intFrom, intSExt, toSNum, type Scalar, type Val } from './values.js';
import { readAt, resolveAccess } from './exec-memory.js';
import { ExprKind } from '../expr/kinds.js';
import { roundTo, fpToInt } from './scalar.js';
import { IntegralMode } from './fp80-math.js';
import { wideFloat, X86_FP80, type WideFloat } from './wide-float.js';

/** The exact form of a floating-point intrinsic on x86_fp80 and fp128 (on bit patterns). */
type WideFn = (w: WideFloat, xs: bigint[]) => bigint;

const nop: SpecialHandler = () => {};
const identity: SpecialHandler = (ex, st, ki, args) => ex.bindLocal(st, ki, args[0]!);

function elemKind(t: Type): TypeKind {
  return t.kind === TypeKind.Vector ? (t as VectorType).element.kind : t.kind;
}

/**
 * A floating-point intrinsic on concrete values (symbolic floats are concretized, as KLEE).
 * On x86_fp80 and fp128 it uses `exact` when given; otherwise (sin, exp, pow, …) it computes in
 * double and widens the result, so those carry double precision only.
 */
function fp(n: number, f: (...xs: number[]) => number, exact?: WideFn): SpecialHandler {
  return (ex, st, ki, args) => {
    const k = elemKind(ki.inst.ops[0]!.type);
    const rk = elemKind(ki.inst.type);
    const wf = wideFloat(k);
    const one =
      wf !== null
        ? (xs: Val[]): Val => {
            const ops = xs.slice(0, n).map((x) => wideOperand(ex, st, x, wf));
            return exact ? exact(wf, ops) : wf.fromDouble(f(...ops.map(wf.toDouble)));
          }
        : (xs: Val[]): Val => roundTo(rk, f(...xs.slice(0, n).map((x) => fpOperand(ex, st, x, k))));
    if (Array.isArray(args[0])) {
      const len = (args[0] as Val[]).length;
      const out: Val[] = [];
      for (let i = 0; i < len; i++) out.push(one(args.map((a) => (Array.isArray(a) ? a[i]! : a))));
      ex.bindLocal(st, ki, out);
    } else ex.bindLocal(st, ki, one(args));
  };
}

function roundEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function minnum(a: number, b: number): number {
  return Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b);
}

function maxnum(a: number, b: number): number {
  return Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b);
}

/** fp → integer rounding intrinsics (lround, llrint, …) */
function fpToIntRound(round: (x: number) => number, mode: IntegralMode): SpecialHandler {
  return (ex, st, ki, args) => {
    const k = elemKind(ki.inst.ops[0]!.type);
    const w = (ki.inst.type as unknown as { bits: number }).bits;
    const wf = wideFloat(k);
    if (wf !== null) ex.bindLocal(st, ki, wf.toIntRounded(wideOperand(ex, st, args[0]!, wf), mode, w));
    else ex.bindLocal(st, ki, fpToInt(round(fpOperand(ex, st, args[0]!, k)), w, true));
  };
}

const roundAway = (x: number): number => (x < 0 ? -Math.round(-x) : Math.round(x));
const integral =
  (mode: IntegralMode): WideFn =>
  (w, [x]) =>
    w.roundIntegral(x!, mode);

const FP_INTRINSICS: Record<string, SpecialHandler> = {
  'llvm.fabs': fp(1, Math.abs, (w, [a]) => w.abs(a!)),
  'llvm.copysign': fp(2, (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a)), (w, [a, b]) => w.copySign(a!, b!)),
  'llvm.floor': fp(1, Math.floor, integral(IntegralMode.Floor)),
  'llvm.ceil': fp(1, Math.ceil, integral(IntegralMode.Ceil)),
  'llvm.trunc': fp(1, Math.trunc, integral(IntegralMode.Trunc)),
  'llvm.rint': fp(1, roundEven, integral(IntegralMode.HalfEven)),
  'llvm.nearbyint': fp(1, roundEven, integral(IntegralMode.HalfEven)),
  'llvm.roundeven': fp(1, roundEven, integral(IntegralMode.HalfEven)),
  'llvm.round': fp(1, roundAway, integral(IntegralMode.HalfAway)),
  'llvm.sqrt': fp(1, Math.sqrt, (w, [a]) => w.sqrt(a!)),
  'llvm.fma': fp(3, (a, b, c) => a * b + c, (w, [a, b, c]) => w.fma(a!, b!, c!)),
  // no fused multiply-add in x86-64 hardware for these types: codegen multiplies then adds
  'llvm.fmuladd': fp(3, (a, b, c) => a * b + c, (w, [a, b, c]) => w.mulAdd(a!, b!, c!)),
  'llvm.minnum': fp(2, minnum, (w, [a, b]) => w.minMax(a!, b!, false)),
  'llvm.maxnum': fp(2, maxnum, (w, [a, b]) => w.minMax(a!, b!, true)),
  'llvm.minimum': fp(2, (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)), (w, [a, b]) => w.minimumMaximum(a!, b!, false)),
  'llvm.maximum': fp(2, (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)), (w, [a, b]) => w.minimumMaximum(a!, b!, true)),
  'llvm.sin': fp(1, Math.sin),
  'llvm.cos': fp(1, Math.cos),
  'llvm.tan': fp(1, Math.tan),
  'llvm.exp': fp(1, Math.exp),
  'llvm.exp2': fp(1, (x) => 2 ** x),
  'llvm.log': fp(1, Math.log),
  'llvm.log2': fp(1, Math.log2),
  'llvm.log10': fp(1, Math.log10),
  'llvm.pow': fp(2, Math.pow),
  // canonicalize multiplies by 1 (quiets NaNs; x87: normalizes pseudo-denormals)
  'llvm.canonicalize': fp(1, (x) => x, (w, [x]) => w.canonicalize(x!)),
  'llvm.lround': fpToIntRound(roundAway, IntegralMode.HalfAway),
  'llvm.llround': fpToIntRound(roundAway, IntegralMode.HalfAway),
  'llvm.lrint': fpToIntRound(roundEven, IntegralMode.HalfEven),
  'llvm.llrint': fpToIntRound(roundEven, IntegralMode.HalfEven),
};

/**
 * An operand as an exact pattern: x86_fp80 and fp128 as themselves, float and double widened to
 * fp80 (exactly), with the implementation that computes on it.
 */
function wideOperandOf(ex: Executor, st: ExecutionState, v: Val, k: TypeKind): [WideFloat, bigint] {
  const wf = wideFloat(k);
  if (wf !== null) return [wf, wideOperand(ex, st, v, wf)];
  return [X86_FP80, X86_FP80.fromKind(k, fpOperand(ex, st, v, k))];
}

/** A result of wideOperandOf's implementation back in kind k (rounded once). */
function narrowed(k: TypeKind, w: WideFloat, a: bigint): Val {
  return w.kind === k ? a : w.toKind(k, a);
}

/** llvm.frexp (LLVM 17+): {mantissa in [0.5, 1), exponent}, as frexpl (exact for every precision). */
const frexpIntrinsic: SpecialHandler = (ex, st, ki, args) => {
  const k = elemKind(ki.inst.ops[0]!.type);
  if (Array.isArray(args[0])) {
    ex.terminateOnError(st, 'unsupported: llvm.frexp on vectors', Termination.Execution);
    return;
  }
  const [wf, x] = wideOperandOf(ex, st, args[0]!, k);
  const [m, e] = wf.frexp(x);
  ex.bindLocal(st, ki, [narrowed(k, wf, m), e >>> 0]);
};

/** llvm.ldexp (LLVM 17+): x · 2^n rounded once. */
const ldexpIntrinsic: SpecialHandler = (ex, st, ki, args) => {
  const k = elemKind(ki.inst.ops[0]!.type);
  if (Array.isArray(args[0])) {
    ex.terminateOnError(st, 'unsupported: llvm.ldexp on vectors', Termination.Execution);
    return;
  }
  const w = (ki.inst.ops[1]!.type as unknown as { bits: number }).bits;
  const n = toSNum(ex.concretize(st, args[1] as Scalar, w, 'floating point'), w);
  const [wf, x] = wideOperandOf(ex, st, args[0]!, k);
  ex.bindLocal(st, ki, narrowed(k, wf, wf.ldexp(x, n)));
};

/** The smallest normal magnitude of half, float, double (x86_fp80 and fp128 classify their patterns). */
function minNormal(k: TypeKind): number {
  return k === TypeKind.Float ? 2 ** -126 : k === TypeKind.Half ? 2 ** -14 : 2 ** -1022;
}

/**
 * llvm.is.fpclass(x, mask): whether x is in one of the classes the mask bits name (0 signalling
 * NaN, 1 quiet NaN, 2 -inf, 3 -normal, 4 -subnormal, 5 -0, 6 +0, 7 +subnormal, 8 +normal,
 * 9 +inf). Concrete floats are JS numbers, which keep no NaN payload: every NaN is quiet.
 * x86_fp80 and fp128 values are exact patterns (incl. LLVM's "no class" for x87 unnormals).
 */
const isFpClass: SpecialHandler = (ex, st, ki, args) => {
  const k = elemKind(ki.inst.ops[0]!.type);
  const mask = Number(args[1] as number);
  const classOf = (x: number): number => {
    if (Number.isNaN(x)) return 1;
    const neg = x < 0 || Object.is(x, -0);
    const a = Math.abs(x);
    const c = a === Infinity ? 9 : a === 0 ? 6 : a < minNormal(k) ? 7 : 8;
    return neg ? 11 - c : c;
  };
  const wf = wideFloat(k);
  const one =
    wf !== null
      ? (v: Val): number => {
          const c = wf.fpClass(wideOperand(ex, st, v, wf));
          return c < 0 ? 0 : (mask >> c) & 1;
        }
      : (v: Val): number => (mask >> classOf(fpOperand(ex, st, v, k))) & 1;
  ex.bindLocal(st, ki, Array.isArray(args[0]) ? (args[0] as Val[]).map(one) : one(args[0]!));
};

/** llvm.load.relative(ptr, offset): ptr + sext(the i32 at ptr + offset) (relative lookup tables). */
const loadRelative: SpecialHandler = (ex, st, ki, args) => {
  const base = args[0] as Scalar;
  for (const a of resolveAccess(ex, st, intBinary(ExprKind.Add, 64, base, args[1] as Scalar), 4))
    ex.bindLocal(a.st, ki, intBinary(ExprKind.Add, 64, base, intSExt(readAt(ex, a, I32) as Scalar, 32, 64)));
};

const trap: SpecialHandler = (ex, st) => ex.terminateOnError(st, Msg.abort, Termination.Abort);

/** llvm.objectsize(ptr, min, nullunknown, dynamic): "unknown" (-1, or 0 when asked for the minimum). */
const objectSize: SpecialHandler = (ex, st, ki, args) => {
  const w = (ki.inst.type as unknown as { bits: number }).bits;
  const min = args[1] !== 0;
  ex.bindLocal(st, ki, min ? 0 : intFrom(-1, w));
};

/** llvm.is.constant: whether the operand is a constant in the IR (as LLVM lowers it). */
const isConstant: SpecialHandler = (ex, st, ki) => {
  ex.bindLocal(st, ki, ki.inst.ops[0]!.isConstant() ? 1 : 0);
};

const vaStartHandler: SpecialHandler = (ex, st, _ki, args) => vaStart(ex, st, args[0] as Scalar);

/** va_copy(dst, src): the 24-byte va_list copied. */
const vaCopy: SpecialHandler = (ex, st, _ki, args) => {
  memCopy(ex, st, args[0] as Scalar, args[1] as Scalar, 24);
};

/** stacksave returns a token (the number of allocas of the frame); stackrestore frees those made since. */
const stackSave: SpecialHandler = (ex, st, ki) => {
  ex.bindLocal(st, ki, st.top.allocas?.length ?? 0);
};

const stackRestore: SpecialHandler = (_ex, st, _ki, args) => {
  const keep = Number(args[0] as number);
  const f = st.thawTop();
  if (f.allocas === null) return;
  while (f.allocas.length > keep) st.memory.unbind(f.allocas.pop()!);
};

const ptrMask: SpecialHandler = (ex, st, ki, args) => {
  ex.bindLocal(st, ki, intBinary(ExprKind.And, 64, args[0] as Scalar, args[1] as Scalar));
};

const rounding: SpecialHandler = (ex, st, ki) => ex.bindLocal(st, ki, 1); // to nearest

const EXACT: Record<string, SpecialHandler> = {
  'llvm.trap': trap,
  'llvm.ubsantrap': trap,
  'llvm.debugtrap': trap,
  'llvm.assume': nop,
  'llvm.donothing': nop,
  'llvm.sideeffect': nop,
  'llvm.get.rounding': rounding,
  'llvm.flt.rounds': rounding,
  'llvm.clear_cache': nop,
};

/** Handlers looked up by the name without its type suffix (llvm.memcpy.p0.p0.i64 → llvm.memcpy). */
const BY_PREFIX: Record<string, SpecialHandler> = {
  ...FP_INTRINSICS,
  ...INT_INTRINSICS,
  'llvm.va_start': vaStartHandler,
  'llvm.va_end': nop,
  'llvm.va_copy': vaCopy,
  'llvm.stacksave': stackSave,
  'llvm.stackrestore': stackRestore,
  'llvm.memcpy': intrinsicMemCopy,
  'llvm.memcpy.inline': intrinsicMemCopy,
  'llvm.memmove': intrinsicMemCopy,
  'llvm.memset': intrinsicMemSet,
  'llvm.memset.inline': intrinsicMemSet,
  'llvm.lifetime.start': nop,
  'llvm.lifetime.end': nop,
  'llvm.invariant.start': nop,
  'llvm.invariant.end': nop,
  'llvm.prefetch': nop,
  'llvm.experimental.noalias.scope.decl': nop,
  'llvm.var.annotation': nop,
  'llvm.codeview.annotation': nop,
  'llvm.pseudoprobe': nop,
  'llvm.instrprof.increment': nop,
  'llvm.ptr.annotation': identity,
  'llvm.annotation': identity,
  'llvm.expect': identity,
  'llvm.expect.with.probability': identity,
  'llvm.threadlocal.address': identity,
  'llvm.launder.invariant.group': identity,
  'llvm.strip.invariant.group': identity,
  'llvm.ssa.copy': identity,
  'llvm.objectsize': objectSize,
  'llvm.is.constant': isConstant,
  'llvm.ptrmask': ptrMask,
  'llvm.is.fpclass': isFpClass,
  'llvm.frexp': frexpIntrinsic,
  'llvm.ldexp': ldexpIntrinsic,
  'llvm.load.relative': loadRelative,
};

/** An intrinsic unknown to tsklee: the calling state ends with an exec error naming it. */
function unknownIntrinsic(name: string): SpecialHandler {
  return (ex: Executor, st: ExecutionState, _ki: KInst) => {
    ex.warningOnce(`intrinsic:${name}`, `unimplemented intrinsic: ${name}`);
    ex.terminateOnError(st, `unimplemented intrinsic: ${name}`, Termination.Execution);
  };
}

/** The handler of an intrinsic by its full name. */
export function lookupIntrinsic(name: string): SpecialHandler {
  const exact = EXACT[name];
  if (exact !== undefined) return exact;
  // Strip type suffixes one component at a time: llvm.sadd.with.overflow.i32 → llvm.sadd.with.overflow
  let base = name;
  for (;;) {
    const h = BY_PREFIX[base];
    if (h !== undefined) return h;
    const dot = base.lastIndexOf('.');
    if (dot <= 'llvm'.length) break;
    base = base.slice(0, dot);
  }
  return unknownIntrinsic(name);
}
