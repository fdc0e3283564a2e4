/**
 * The common <math.h> functions, for programs that call them without a libm linked. KLEE
 * runs such calls natively (external calls with concrete arguments); tsklee computes them
 * here on concrete values instead (symbolic arguments are concretized, as for an external
 * call). Used only for declarations: a module that defines them runs its own.
 */
import type { SpecialHandler } from '../prepare/kinst.js';
import { fpOperand } from '../exec-arith.js';
import { roundTo } from '../scalar.js';

function fp(n: number, f: (...xs: number[]) => number): SpecialHandler {
  return (ex, st, ki, args) => {
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

const BASE: Record<string, [number, (...xs: number[]) => number]> = {
  sqrt: [1, Math.sqrt],
  cbrt: [1, Math.cbrt],
  fabs: [1, Math.abs],
  floor: [1, Math.floor],
  ceil: [1, Math.ceil],
  trunc: [1, Math.trunc],
  round: [1, roundHalfAway],
  rint: [1, roundEven],
  nearbyint: [1, roundEven],
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
  fmod: [2, fmod],
  fmin: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.min(a, b))],
  fmax: [2, (a, b) => (Number.isNaN(a) ? b : Number.isNaN(b) ? a : Math.max(a, b))],
  copysign: [2, (a, b) => (Object.is(b, -0) || b < 0 ? -Math.abs(a) : Math.abs(a))],
};

/** sqrt, sqrtf, sqrtl, … (the float/long double variants compute in double, then round). */
export const LIBM: Record<string, SpecialHandler> = Object.fromEntries(
  Object.entries(BASE).flatMap(([name, [n, f]]) => {
    const h = fp(n, f);
    return [name, `${name}f`, `${name}l`].map((k) => [k, h] as const);
  }),
);
