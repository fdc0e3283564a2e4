/**
 * The common <math.h> functions, for programs that call them without a libm linked. KLEE
 * runs such calls natively (external calls with concrete arguments); tsklee computes them
 * here on concrete values instead (symbolic arguments are concretized, as for an external
 * call). Used only for declarations: a module that defines them runs its own.
 *
 * Names: name (double), namef, namel (x86_fp80 long double), namef128 (glibc's _Float128
 * functions) and nameq (libquadmath's __float128 ones).
 *
 * Precision: the float and double forms compute in double, then round. The long double and
 * __float128 forms of sqrt, fabs, floor, ceil, trunc, round, roundeven, rint, nearbyint, fmod,
 * fmin, fmax, copysign, fma, frexp, ldexp, scalbn, modf, lrint, llround, … are exact, as glibc's
 * (fp80.ts, fp80-math.ts, fp128.ts, fp128-math.ts) and libquadmath's (fp128-quadmath.ts: sqrtq
 * is its Newton iteration, not correctly rounded); the transcendental ones (expl, logf128,
 * sinq, powl, cbrtf128, hypotq, …) compute in double and widen the result, so they carry double
 * precision only. frexp, ldexp, scalbn, modf, lrint, llrint, lround and llround of float and
 * double go through the exact fp80 forms (widening float and double is exact, and so is
 * narrowing their results back, up to the one rounding ldexp needs).
 */
import type { KInst, SpecialHandler } from '../prepare/kinst.js';
import { fpOperand, wideOperand } from '../exec-arith.js';
import { resolveAccess, writeAt } from '../exec-memory.js';
import { roundTo } from '../scalar.js';
import { DoubleTy, FloatTy, FP128Type, I32, TypeKind, X86FP80Type, type Type } from '../../ir/types.js';
import type { Scalar, Val } from '../values.js';
import { toSNum } from '../values.js';
import { IntegralMode } from '../fp80-math.js';
import { quadmathModf, quadmathSqrt } from '../fp128-quadmath.js';
import { wideFloat, X86_FP80, type WideFloat } from '../wide-float.js';
import { Termination } from '../errors.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';

/** The exact form of a function on x86_fp80 and fp128 bit patterns. */
type WideFn = (w: WideFloat, xs: bigint[]) => bigint;

/** A function of n floating-point arguments; `exact` computes its long double and __float128 forms. */
function fp(n: number, f: (...xs: number[]) => number, exact?: WideFn): SpecialHandler {
  return (ex, st, ki, args) => {
    const wf = wideFloat(ki.inst.type.kind);
    if (wf !== null) {
      const xs: bigint[] = [];
      for (let i = 0; i < n; i++) xs.push(wideOperand(ex, st, args[i]!, wf));
      ex.bindLocal(st, ki, exact ? exact(wf, xs) : wf.fromDouble(f(...xs.map(wf.toDouble))));
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
  (mode: IntegralMode): WideFn =>
  (w, [x]) =>
    w.roundIntegral(x!, mode);

const BASE: Record<string, [number, (...xs: number[]) => number, WideFn?]> = {
  sqrt: [1, Math.sqrt, (w, [a]) => w.sqrt(a!)],
  cbrt: [1, Math.cbrt],
  fabs: [1, Math.abs, (w, [a]) => w.abs(a!)],
  floor: [1, Math.floor, integral(IntegralMode.Floor)],
  ceil: [1, Math.ceil, integral(IntegralMode.Ceil)],
  trunc: [1, Math.trunc, integral(IntegralMode.Trunc)],
  round: [1, roundHalfAway, integral(IntegralMode.HalfAway)],
  roundeven: [1, roundEven, integral(IntegralMode.HalfEven)],
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
  fmod: [2, fmod, (w, [a, b]) => w.rem(a!, b!)],
  fmin: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b)), (w, [a, b]) => w.minMax(a!, b!, false)],
  fmax: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b)), (w, [a, b]) => w.minMax(a!, b!, true)],
  copysign: [2, (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a)), (w, [a, b]) => w.copySign(a!, b!)],
};

/** The suffixes of a function's precisions: double, float, long double, _Float128 (glibc), __float128 (libquadmath). */
const SUFFIXES = ['', 'f', 'l', 'f128', 'q'];

// ------------------------------------------------------------ frexp, ldexp, scalbn, modf

/** The IR type of each precision's floating-point argument. */
const KIND_TYPE: Partial<Record<TypeKind, Type>> = {
  [TypeKind.Float]: FloatTy,
  [TypeKind.Double]: DoubleTy,
  [TypeKind.X86_FP80]: X86FP80Type,
  [TypeKind.FP128]: FP128Type,
};

/** Argument v as an exact pattern with its implementation (float and double widen exactly to fp80). */
function wideArg(ex: Executor, st: ExecutionState, kind: TypeKind, v: Val): [WideFloat, bigint] {
  const wf = wideFloat(kind);
  if (wf !== null) return [wf, wideOperand(ex, st, v, wf)];
  return [X86_FP80, X86_FP80.fromKind(kind, fpOperand(ex, st, v, kind))];
}

/** A wideArg result narrowed back to the call's precision. */
function narrowResult(kind: TypeKind, w: WideFloat, a: bigint): Val {
  return w.kind === kind ? a : w.toKind(kind, a);
}

/** Store v (of type t) through the pointer p, then bind the call's result in each resulting state. */
function storeThenBind(ex: Executor, st: ExecutionState, ki: KInst, p: Val, t: Type, v: Val, result: Val): void {
  for (const a of resolveAccess(ex, st, p as Scalar, ex.km.dl.typeStoreSize(t))) if (writeAt(ex, a, t, v)) ex.bindLocal(a.st, ki, result);
}

const frexp: SpecialHandler = (ex, st, ki, args) => {
  const kind = ki.inst.type.kind;
  const [w, x] = wideArg(ex, st, kind, args[0]!);
  const [m, e] = w.frexp(x);
  storeThenBind(ex, st, ki, args[1]!, I32, e >>> 0, narrowResult(kind, w, m));
};

/** ldexp, scalbn (int exponent), scalbln (long exponent). */
const ldexp: SpecialHandler = (ex, st, ki, args) => {
  const kind = ki.inst.type.kind;
  const bits = (ki.inst.ops[1]!.type as unknown as { bits: number }).bits;
  const n = toSNum(ex.concretize(st, args[1] as Scalar, bits, 'floating point'), bits);
  const [w, x] = wideArg(ex, st, kind, args[0]!);
  ex.bindLocal(st, ki, narrowResult(kind, w, w.ldexp(x, n)));
};

function modfWith(split: (w: WideFloat, x: bigint) => [bigint, bigint]): SpecialHandler {
  return (ex, st, ki, args) => {
    const kind = ki.inst.type.kind;
    const [w, x] = wideArg(ex, st, kind, args[0]!);
    const [fr, ip] = split(w, x);
    storeThenBind(ex, st, ki, args[1]!, KIND_TYPE[kind]!, narrowResult(kind, w, ip), narrowResult(kind, w, fr));
  };
}

/** fmal, fmaf128, fmaq: fused (fma and fmaf are not modelled: they would need a fused double rounding). */
const fmaWide: SpecialHandler = (ex, st, ki, args) => {
  const w = wideFloat(ki.inst.type.kind);
  if (w === null) {
    ex.terminateOnError(st, "fmal, fmaf128 or fmaq declared with a type that is not long double or __float128", Termination.Execution);
    return;
  }
  const [a, b, c] = [0, 1, 2].map((i) => wideOperand(ex, st, args[i]!, w));
  ex.bindLocal(st, ki, w.fma(a!, b!, c!));
};

/** lrint, llrint, lround, llround: rounded to an integer (out of range: as the platform's library). */
function toIntRounded(mode: IntegralMode): SpecialHandler {
  return (ex, st, ki, args) => {
    const kind = ki.inst.ops[0]!.type.kind;
    const bits = (ki.inst.type as unknown as { bits: number }).bits;
    const [w, x] = wideArg(ex, st, kind, args[0]!);
    ex.bindLocal(st, ki, w.toIntRounded(x, mode, bits));
  };
}

/** sqrt, sqrtf, sqrtl, sqrtf128, sqrtq, … */
export const LIBM: Record<string, SpecialHandler> = {
  ...Object.fromEntries(
    Object.entries(BASE).flatMap(([name, [n, f, exact]]) => {
      const h = fp(n, f, exact);
      return SUFFIXES.map((k) => [`${name}${k}`, h] as const);
    }),
  ),
  ...Object.fromEntries(
    (
      [
        ['frexp', frexp],
        ['ldexp', ldexp],
        ['scalbn', ldexp],
        ['scalbln', ldexp],
        ['modf', modfWith((w, x) => w.modf(x))],
        ['lrint', toIntRounded(IntegralMode.HalfEven)],
        ['llrint', toIntRounded(IntegralMode.HalfEven)],
        ['lround', toIntRounded(IntegralMode.HalfAway)],
        ['llround', toIntRounded(IntegralMode.HalfAway)],
      ] as const
    ).flatMap(([name, h]) => SUFFIXES.map((k) => [`${name}${k}`, h] as const)),
  ),
  fmal: fmaWide,
  fmaf128: fmaWide,
  fmaq: fmaWide,
  // libquadmath's own algorithms
  sqrtq: fp(1, Math.sqrt, (_w, [a]) => quadmathSqrt(a!)),
  modfq: modfWith((_w, x) => quadmathModf(x)),
};
