/**
 * The common <math.h> functions, for programs that call them without a libm linked. KLEE
 * runs such calls natively (external calls with concrete arguments); tsklee computes them
 * here on concrete values instead (symbolic arguments are concretized, as for an external
 * call). Used only for declarations: a module that defines them runs its own.
 *
 * Precision: the float and double forms compute in double, then round. The long double forms
 * (x86_fp80) of sqrtl, fabsl, floorl, ceill, truncl, roundl, rintl, nearbyintl, fmodl, fminl,
 * fmaxl, copysignl, fmal, frexpl, ldexpl, scalbnl, modfl, lrintl, llroundl, … are exact, as
 * glibc's (fp80.ts, fp80-math.ts); the transcendental ones (expl, logl, sinl, powl, cbrtl,
 * hypotl, …) compute in double and widen the result, so they carry double precision only.
 * frexp, ldexp, scalbn, modf, lrint, llrint, lround and llround of every precision go through
 * the exact fp80 forms (widening float and double is exact, and so is narrowing their results
 * back, up to the one rounding ldexp needs).
 */
import type { KInst, SpecialHandler } from '../prepare/kinst.js';
import { f80Operand, fpOperand } from '../exec-arith.js';
import { resolveAccess, writeAt } from '../exec-memory.js';
import { roundTo } from '../scalar.js';
import { DoubleTy, FloatTy, I32, TypeKind, X86FP80Type, type Type } from '../../ir/types.js';
import type { Scalar, Val } from '../values.js';
import { toSNum } from '../values.js';
import { f80Abs, f80CopySign, f80FromDouble, f80Fma, f80Rem, f80Sqrt, f80ToDouble } from '../fp80.js';
import { f80Frexp, f80Ldexp, f80MinMax, f80Modf, f80RoundIntegral, IntegralMode } from '../fp80-math.js';
import { f80FromFloatKind, f80ToFloatKind, f80ToIntReg } from '../fp80-ir.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';

type F80Fn = (...xs: bigint[]) => bigint;

/** A function of n floating-point arguments; `exact` computes its long double form. */
function fp(n: number, f: (...xs: number[]) => number, exact?: F80Fn): SpecialHandler {
  return (ex, st, ki, args) => {
    if (ki.inst.type.kind === TypeKind.X86_FP80) {
      const xs: bigint[] = [];
      for (let i = 0; i < n; i++) xs.push(f80Operand(ex, st, args[i]!));
      ex.bindLocal(st, ki, exact ? exact(...xs) : f80FromDouble(f(...xs.map(f80ToDouble))));
      return;
    }
    const xs: number[] = [];
    for (let i = 0; i < n; i++) xs.push(fpOperand(ex, st, args[i]!, ki.inst.ops[i]!.type.kind));
    ex.bindLocal(st, ki, roundTo(ki.inst.type.kind, f(...xs)));
  };
}

function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

function roundEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** C's fmod: the remainder with the sign of x (JS % has the same definition). */
function fmod(x: number, y: number): number {
  return x % y;
}

const integral =
  (mode: IntegralMode): F80Fn =>
  (x) =>
    f80RoundIntegral(x, mode);

const BASE: Record<string, [number, (...xs: number[]) => number, F80Fn?]> = {
  sqrt: [1, Math.sqrt, f80Sqrt],
  cbrt: [1, Math.cbrt],
  fabs: [1, Math.abs, f80Abs],
  floor: [1, Math.floor, integral(IntegralMode.Floor)],
  ceil: [1, Math.ceil, integral(IntegralMode.Ceil)],
  trunc: [1, Math.trunc, integral(IntegralMode.Trunc)],
  round: [1, roundHalfAway, integral(IntegralMode.HalfAway)],
  rint: [1, roundEven, integral(IntegralMode.HalfEven)],
  nearbyint: [1, roundEven, integral(IntegralMode.HalfEven)],
  pow: [2, Math.pow],
  exp: [1, Math.exp],
  exp2: [1, (x) => 2 ** x],
  expm1: [1, Math.expm1],
  log: [1, Math.log],
  log2: [1, Math.log2],
  log10: [1, Math.log10],
  log1p: [1, Math.log1p],
  sin: [1, Math.sin],
  cos: [1, Math.cos],
  tan: [1, Math.tan],
  asin: [1, Math.asin],
  acos: [1, Math.acos],
  atan: [1, Math.atan],
  atan2: [2, Math.atan2],
  sinh: [1, Math.sinh],
  cosh: [1, Math.cosh],
  tanh: [1, Math.tanh],
  hypot: [2, Math.hypot],
  fmod: [2, fmod, f80Rem],
  fmin: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)), (a, b) => f80MinMax(a, b, false)],
  fmax: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)), (a, b) => f80MinMax(a, b, true)],
  copysign: [2, (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a)), f80CopySign],
};

// ------------------------------------------------------------ frexp, ldexp, scalbn, modf

/** The IR type of each precision's floating-point argument. */
const KIND_TYPE: Partial<Record<TypeKind, Type>> = {
  [TypeKind.Float]: FloatTy,
  [TypeKind.Double]: DoubleTy,
  [TypeKind.X86_FP80]: X86FP80Type,
};

/** Argument i as an fp80 pattern (float and double widen exactly). */
function wideArg(ex: Executor, st: ExecutionState, kind: TypeKind, v: Val): bigint {
  return kind === TypeKind.X86_FP80 ? f80Operand(ex, st, v) : f80FromFloatKind(kind, fpOperand(ex, st, v, kind));
}

/** An fp80 result narrowed back to the call's precision. */
function narrowResult(kind: TypeKind, a: bigint): Val {
  return kind === TypeKind.X86_FP80 ? a : f80ToFloatKind(kind, a);
}

/** Store v (of type t) through the pointer p, then bind the call's result in each resulting state. */
function storeThenBind(ex: Executor, st: ExecutionState, ki: KInst, p: Val, t: Type, v: Val, result: Val): void {
  for (const a of resolveAccess(ex, st, p as Scalar, ex.km.dl.typeStoreSize(t))) if (writeAt(ex, a, t, v)) ex.bindLocal(a.st, ki, result);
}

const frexp: SpecialHandler = (ex, st, ki, args) => {
  const kind = ki.inst.type.kind;
  const [m, e] = f80Frexp(wideArg(ex, st, kind, args[0]!));
  storeThenBind(ex, st, ki, args[1]!, I32, e >>> 0, narrowResult(kind, m));
};

/** ldexp, scalbn (int exponent), scalbln (long exponent). */
const ldexp: SpecialHandler = (ex, st, ki, args) => {
  const kind = ki.inst.type.kind;
  const w = (ki.inst.ops[1]!.type as unknown as { bits: number }).bits;
  const n = toSNum(ex.concretize(st, args[1] as Scalar, w, 'floating point'), w);
  ex.bindLocal(st, ki, narrowResult(kind, f80Ldexp(wideArg(ex, st, kind, args[0]!), n)));
};

const modf: SpecialHandler = (ex, st, ki, args) => {
  const kind = ki.inst.type.kind;
  const [fr, ip] = f80Modf(wideArg(ex, st, kind, args[0]!));
  storeThenBind(ex, st, ki, args[1]!, KIND_TYPE[kind]!, narrowResult(kind, ip), narrowResult(kind, fr));
};

/** fmal, fused (fma and fmaf are not modelled: they would need a fused double rounding). */
const fmal: SpecialHandler = (ex, st, ki, args) => {
  ex.bindLocal(st, ki, f80Fma(f80Operand(ex, st, args[0]!), f80Operand(ex, st, args[1]!), f80Operand(ex, st, args[2]!)));
};

/** lrint, llrint, lround, llround: rounded to an integer (out of range: as fptosi, see f80ToInt). */
function toIntRounded(mode: IntegralMode): SpecialHandler {
  return (ex, st, ki, args) => {
    const kind = ki.inst.ops[0]!.type.kind;
    const w = (ki.inst.type as unknown as { bits: number }).bits;
    ex.bindLocal(st, ki, f80ToIntReg(f80RoundIntegral(wideArg(ex, st, kind, args[0]!), mode), w, true));
  };
}

/** sqrt, sqrtf, sqrtl, … */
export const LIBM: Record<string, SpecialHandler> = {
  ...Object.fromEntries(
    Object.entries(BASE).flatMap(([name, [n, f, exact]]) => {
      const h = fp(n, f, exact);
      return [name, `${name}f`, `${name}l`].map((k) => [k, h] as const);
    }),
  ),
  ...Object.fromEntries(
    (
      [
        ['frexp', frexp],
        ['ldexp', ldexp],
        ['scalbn', ldexp],
        ['scalbln', ldexp],
        ['modf', modf],
        ['lrint', toIntRounded(IntegralMode.HalfEven)],
        ['llrint', toIntRounded(IntegralMode.HalfEven)],
        ['lround', toIntRounded(IntegralMode.HalfAway)],
        ['llround', toIntRounded(IntegralMode.HalfAway)],
      ] as const
    ).flatMap(([name, h]) => [name, `${name}f`, `${name}l`].map((k) => [k, h] as const)),
  ),
  fmal,
};
