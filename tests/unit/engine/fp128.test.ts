/**
 * src/engine/fp128.ts and fp128-math.ts against this machine: a native helper (fp128-oracle.c,
 * built once here with clang) computes every operation on the same operand bit patterns with
 * libgcc's soft-fp (__addtf3, __fixtfdi, __extendxftf2, …) and glibc's *f128 functions —
 * corner cases (zeros, subnormals, extremes, infinities, quiet/signalling NaNs with payloads,
 * halfway cases at 113 bits and at every narrower precision, values near 2^53/2^64/2^113)
 * crossed with each other, plus seeded random operands — and every result pattern must be
 * identical.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BINARY16,
  BINARY32,
  BINARY64,
  f128Abs,
  f128Add,
  f128Compare,
  f128CopySign,
  f128Div,
  f128Fcmp,
  f128Fma,
  f128FromBytes,
  f128FromDouble,
  f128FromF80,
  f128FromIeee,
  f128FromInt,
  f128Mul,
  f128Neg,
  f128Rem,
  f128Sqrt,
  f128Sub,
  f128ToBytes,
  f128ToF80,
  f128ToIeee,
  f128ToInt,
  REL_EQ,
  REL_GT,
  REL_LT,
} from '../../../src/engine/fp128.js';
import {
  f128FpClass,
  f128Frexp,
  f128Ldexp,
  f128MinimumMaximum,
  f128MinMax,
  f128Modf,
  f128RoundIntegral,
  f128ToIntRounded,
  IntegralMode,
} from '../../../src/engine/fp128-math.js';
import { quadmathModf, quadmathSqrt } from '../../../src/engine/fp128-quadmath.js';
import { X86_FP80 } from '../../../src/engine/wide-float.js';
import { bitsToHalf, halfToBits } from '../../../src/engine/values.js';
import { TypeKind } from '../../../src/ir/types.js';
import { fcmp } from '../../../src/engine/scalar.js';
import { Predicate } from '../../../src/ir/opcodes.js';
import { prng } from '../../support/prng.js';

const ORACLE_SRC = join(fileURLToPath(new URL('.', import.meta.url)), 'fp128-oracle.c');

const rand = prng(0xf128);
const bits = (n: number): bigint => {
  let v = 0n;
  for (let i = 0; i < n; i += 16) v = (v << 16n) | BigInt(Math.floor(rand() * 65536));
  return v & ((1n << BigInt(n)) - 1n);
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const q = (sign: number, exp: number, frac: bigint): bigint => (BigInt(sign) << 127n) | (BigInt(exp) << 112n) | frac;
const B = 0x3fff;
const FRAC = (1n << 112n) - 1n;
const QUIET = 1n << 111n;

/** Corner-case operands (both signs of each). */
const CORNERS: bigint[] = (() => {
  const mags = [
    0n,
    q(0, 0, 1n), // smallest subnormal
    q(0, 0, FRAC), // largest subnormal
    q(0, 0, 1n << 111n),
    q(0, 1, 0n), // smallest normal
    q(0, 1, 1n),
    q(0, B, 0n), // 1
    q(0, B, 1n), // 1 + ulp
    q(0, B, FRAC), // 2 − ulp
    q(0, B, 1n << 111n), // 1.5
    q(0, B + 1, 0n), // 2
    q(0, B + 1, 1n << 111n), // 3
    q(0, B - 2, 0x5555555555555555555555555555n), // ~1/3
    q(0, B, 1n << 59n), // 1 + 2^-53: halfway for double
    q(0, B, 3n << 59n),
    q(0, B, (1n << 59n) | 1n),
    q(0, B, 1n << 88n), // halfway for float
    q(0, B, 1n << 48n), // halfway for x86_fp80 (1 + 2^-64)
    q(0, B, (1n << 48n) | (1n << 49n)),
    q(0, B + 3, 1n << 108n), // 9
    q(0, B - 1, 0n), // 0.5
    q(0, B + 1, 1n << 110n), // 2.5
    q(0, B + 52, 0n), // 2^52
    q(0, B + 52, 1n << 111n), // 2^52 + 2^51
    q(0, B + 53, 0n), // 2^53
    q(0, B + 53, 1n << 59n), // 2^53 + 1
    q(0, B + 63, 0n), // 2^63
    q(0, B + 63, FRAC), // just below 2^64
    q(0, B + 64, 0n), // 2^64
    q(0, B + 31, 0n), // 2^31
    q(0, B + 112, 0n), // 2^112
    q(0, B + 112, 1n), // 2^112 + 1
    q(0, B + 112, FRAC), // 2^113 − 1
    q(0, B + 113, 0n), // 2^113
    q(0, B + 113, 1n), // 2^113 + 2
    q(0, B + 111, FRAC), // 2^112 − 0.5: tie for rint
    q(0, B + 126, FRAC), // just below 2^127
    q(0, B + 127, 0n), // 2^127
    q(0, B + 128, 0n), // 2^128
    q(0, 0x7ffe, FRAC), // max
    q(0, 0x7ffe, 0n),
    q(0, B + 1023, FRAC), // above DBL_MAX: overflows to double ∞
    q(0, B + 1023, 0xfffffffffffff8000000000000000n), // DBL_MAX + half ulp
    q(0, B - 1022, 0n), // double min normal
    q(0, B - 1074, 0n), // 2^-1074
    q(0, B - 1075, 0n), // 2^-1075: ties to 0
    q(0, B - 1075, 1n),
    q(0, B - 16382 + 0, 0n),
    q(0, 0x7fff, 0n), // ∞
    q(0, 0x7fff, QUIET), // QNaN
    q(0, 0x7fff, QUIET | 5n),
    q(0, 0x7fff, FRAC),
    q(0, 0x7fff, 1n), // SNaN
    q(0, 0x7fff, 7n << 60n),
    q(0, 0x7fff, QUIET - 1n),
  ];
  return mags.flatMap((m) => [m, m | (1n << 127n)]);
})();

/** A random operand: mostly values at assorted scales, some raw patterns. */
function randomOperand(): bigint {
  const r = rand();
  const sign = rand() < 0.5 ? 1 : 0;
  const frac = bits(112);
  if (r < 0.45) return q(sign, B + Math.floor(rand() * 260) - 130, frac);
  if (r < 0.55) return q(sign, B + Math.floor(rand() * 8) - 4, frac & ~((1n << BigInt(Math.floor(rand() * 111))) - 1n));
  if (r < 0.65) return q(sign, Math.floor(rand() * 120), frac); // subnormals, tiny normals
  if (r < 0.75) return q(sign, 0x7ffe - Math.floor(rand() * 120), frac); // near overflow
  if (r < 0.85) return q(sign, 1 + Math.floor(rand() * 0x7ffe), frac); // any normal
  if (r < 0.9) return pick(CORNERS);
  return bits(128);
}

/** A random operand close to `a` (cancellation, equal exponents, equal values). */
function nearby(a: bigint): bigint {
  const r = rand();
  if (r < 0.3) return a;
  if (r < 0.6) return a ^ (1n << 127n);
  return a ^ bits(Math.floor(rand() * 20));
}

function* pairs(n: number): Generator<[bigint, bigint]> {
  for (const a of CORNERS) for (const b of CORNERS) yield [a, b];
  for (let i = 0; i < n; i++) {
    const a = randomOperand();
    yield [a, rand() < 0.3 ? nearby(a) : randomOperand()];
  }
}

function* singles(n: number): Generator<bigint> {
  yield* CORNERS;
  for (let i = 0; i < n; i++) yield randomOperand();
}

/** Integral values and halfway cases (x.5) of assorted sizes. */
function* integralish(n: number): Generator<bigint> {
  for (let i = 0; i < n; i++) {
    const v = f128FromInt(BigInt.asIntN(1 + Math.floor(rand() * 127), bits(128)));
    yield v;
    yield f128Add(v, q(rand() < 0.5 ? 1 : 0, B - 1, 0n));
  }
}

const hex = (v: bigint): string => v.toString(16);

/** The oracle with glibc's *f128 functions, and the one with libquadmath's *q functions. */
let oracle = '';
let quadmathOracle = '';

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-fp128-'));
  oracle = join(dir, 'oracle');
  quadmathOracle = join(dir, 'oracle-q');
  // __builtin_isfpclass needs clang ≥ 17 (the fpclass case), _BitInt conversions clang ≥ 16
  const cc = ['clang-19', 'clang-16'].find((c) => spawnSync(c, ['--version']).status === 0);
  if (!cc) throw new Error('no clang to build the fp128 oracle');
  const flags = ['-O2', '-fno-math-errno', '-ffp-contract=off'];
  execFileSync(cc, [...flags, '-o', oracle, ORACLE_SRC, '-lm']);
  execFileSync(cc, [...flags, '-DQUADMATH', '-o', quadmathOracle, ORACLE_SRC, '-lquadmath', '-lm']);
  expect(existsSync(oracle) && existsSync(quadmathOracle)).toBe(true);
});

/** Runs every line through the oracle; returns its output lines. */
function native(lines: string[], exe = oracle): string[] {
  const r = spawnSync(exe, [], { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`fp128 oracle failed: ${r.stderr}`);
  const out = r.stdout.split('\n');
  out.pop();
  expect(out).toHaveLength(lines.length);
  return out;
}

type Case = [string, string];

/** Compares tsklee's answer with the oracle's on each case; reports the first 10 differences. */
function compare(cases: Iterable<Case>, exe = oracle): void {
  const all = [...cases];
  const theirs = native(all.map((c) => c[0]), exe);
  const bad: string[] = [];
  all.forEach(([line, mine], i) => {
    const t = theirs[i]!.trim();
    const norm = (s: string): string => s.split(' ').map((x) => (/^-?\d+$/.test(x) && line.startsWith('frexp') ? x : BigInt(`0x${x}`).toString(16))).join(' ');
    if (norm(t) !== mine) bad.push(`${line}: native ${t}, tsklee ${mine}`);
  });
  expect(bad.slice(0, 10)).toEqual([]);
}

const N = 3000;

describe('fp128 arithmetic against libgcc and glibc', () => {
  const binary: [string, (a: bigint, b: bigint) => bigint][] = [
    ['add', f128Add],
    ['sub', f128Sub],
    ['mul', f128Mul],
    ['div', f128Div],
    ['rem', f128Rem],
  ];
  it.each(binary)('%s', (name, f) => {
    compare((function* (): Generator<Case> {
      for (const [a, b] of pairs(N)) yield [`${name} ${hex(a)} ${hex(b)}`, hex(f(a, b))];
    })());
  });

  it('sqrtf128, neg, fabsf128', () => {
    compare((function* (): Generator<Case> {
      for (const a of singles(N)) {
        yield [`sqrt ${hex(a)}`, hex(f128Sqrt(a))];
        yield [`neg ${hex(a)}`, hex(f128Neg(a))];
        yield [`abs ${hex(a)}`, hex(f128Abs(a))];
      }
    })());
  });

  it('comparison relation', () => {
    const code = (r: number): string => (r === REL_LT ? '0' : r === REL_EQ ? '1' : r === REL_GT ? '2' : '3');
    compare((function* (): Generator<Case> {
      for (const [a, b] of pairs(N)) yield [`cmp ${hex(a)} ${hex(b)}`, code(f128Compare(a, b))];
    })());
  });

  it('fmaf128', () => {
    const few = CORNERS.filter((_, i) => i % 4 === 0);
    compare((function* (): Generator<Case> {
      for (const a of few) for (const b of few) for (const c of few) yield [`fma ${hex(a)} ${hex(b)} ${hex(c)}`, hex(f128Fma(a, b, c))];
      for (let i = 0; i < N; i++) {
        const a = randomOperand();
        const b = randomOperand();
        // c near −a·b exercises cancellation
        const c = rand() < 0.5 ? randomOperand() : nearby(f128Neg(f128Mul(a, b)));
        yield [`fma ${hex(a)} ${hex(b)} ${hex(c)}`, hex(f128Fma(a, b, c))];
      }
    })());
  });

  it('every fcmp predicate agrees with the double comparison on values doubles hold', () => {
    const xs = [0, -0, 1, -1, 1.5, 2 ** -1074, -Infinity, Infinity, NaN, 1e300];
    const bad: string[] = [];
    for (let pred = Predicate.FCMP_FALSE; pred <= Predicate.FCMP_TRUE; pred++)
      for (const x of xs)
        for (const y of xs) {
          const got = f128Fcmp(pred, f128FromDouble(x), f128FromDouble(y));
          if (got !== fcmp(pred, x, y)) bad.push(`${Predicate[pred]}(${x}, ${y}) = ${got}`);
        }
    expect(bad).toEqual([]);
  });

  it('bytes round-trip', () => {
    const out = new Uint8Array(20);
    for (const a of singles(200)) {
      f128ToBytes(a, out, 3);
      expect(f128FromBytes(out, 3)).toBe(a);
    }
  });
});

describe('fp128 conversions against libgcc', () => {
  it('to and from double, float, _Float16 and x86_fp80', () => {
    const I = 1n << 63n;
    const f80s = [0n, 1n, I - 1n, I, I | 1n, (0x3fffn << 64n) | I, (0x3fffn << 64n) | (I >> 1n), (1n << 64n) | 1n, 0x7fffn << 64n, (0x7fffn << 64n) | I, (0x7fffn << 64n) | 1n, (0x7fffn << 64n) | I | (1n << 62n) | 3n, (0x7ffen << 64n) | ((1n << 64n) - 1n)];
    compare((function* (): Generator<Case> {
      for (const a of singles(N)) {
        yield [`todouble ${hex(a)}`, hex(f128ToIeee(BINARY64, a))];
        yield [`tofloat ${hex(a)}`, hex(f128ToIeee(BINARY32, a))];
        yield [`tohalf ${hex(a)}`, hex(f128ToIeee(BINARY16, a))];
        yield [`tof80 ${hex(a)}`, hex(f128ToF80(a))];
      }
      for (const d of [...Array.from({ length: N }, () => bits(64)), 0n, 1n, 0x7ff0000000000000n, 0x7ff0000000000001n, 0xfff8000000000000n])
        yield [`fromdouble ${hex(d)}`, hex(f128FromIeee(BINARY64, d))];
      for (const f of [...Array.from({ length: N }, () => bits(32)), 0x7f800001n, 0xffc00000n]) yield [`fromfloat ${hex(f)}`, hex(f128FromIeee(BINARY32, f))];
      for (let h = 0n; h < 0x10000n; h += 7n) {
        yield [`fromhalf ${hex(h)}`, hex(f128FromIeee(BINARY16, h))];
        yield [`halftof80 ${hex(h)}`, hex(X86_FP80.fromKind(TypeKind.Half, bitsToHalf(Number(h))))];
      }
      for (const x of [...f80s, ...f80s.map((v) => v | (1n << 79n)), ...Array.from({ length: N }, () => bits(80))]) {
        yield [`fromf80 ${hex(x)}`, hex(f128FromF80(x))];
        // long double → _Float16 is libgcc's __truncxfhf2: the same soft-fp reading of the x87 format, one rounding
        yield [`f80tohalf ${hex(x)}`, hex(BigInt(halfToBits(X86_FP80.toKind(TypeKind.Half, x) as number)))];
      }
      for (let i = 0; i < N; i++) {
        const x = (BigInt(0x3fff + Math.floor(rand() * 60) - 40) << 64n) | (1n << 63n) | bits(63);
        yield [`f80tohalf ${hex(x)}`, hex(BigInt(halfToBits(X86_FP80.toKind(TypeKind.Half, x) as number)))];
      }
    })());
  });

  it('to integers of every width (out of range: what libgcc\'s __fix* calls give)', () => {
    // Widths the oracle converts with C types or _BitInt(N). Out of range is poison in LLVM;
    // natively it is what the libgcc call returns, truncated to the C type — but for
    // _BitInt(N) of an odd width the legalized register is wider and LLVM assumes the extra
    // bits are an extension, so the native program keeps the call's other bits there (a
    // 24-bit unsigned −1.0 prints as 0xffffffff): odd widths are compared in range only.
    const widths = [8, 16, 24, 32, 40, 63, 64, 65, 100, 127, 128];
    const exact = new Set([8, 16, 32, 64, 128]);
    const inRange = (a: bigint, w: number, signed: boolean): boolean => {
      const t = f128RoundIntegral(a, IntegralMode.Trunc);
      const lo = signed ? f128FromInt(-(1n << BigInt(w - 1))) : f128FromInt(0n);
      const hi = signed ? f128FromInt(1n << BigInt(w - 1)) : f128FromInt(1n << BigInt(w));
      const c1 = f128Compare(t, lo);
      return (c1 === REL_GT || c1 === REL_EQ) && f128Compare(t, hi) === REL_LT;
    };
    compare((function* (): Generator<Case> {
      for (const a of [...singles(N), ...integralish(N)])
        for (const w of widths)
          for (const signed of [true, false]) {
            if (!exact.has(w) && !inRange(a, w, signed)) continue;
            yield [`${signed ? 'toi' : 'tou'}${w} ${hex(a)}`, hex(f128ToInt(a, w, signed))];
          }
    })());
  });

  it('from integers of every width (rounded to nearest even above 113 bits)', () => {
    const widths = [8, 16, 24, 32, 40, 63, 64, 65, 100, 127, 128];
    compare((function* (): Generator<Case> {
      for (let i = 0; i < N; i++) {
        const w = pick(widths);
        let u = bits(w) >> BigInt(Math.floor(rand() * w));
        if (rand() < 0.3 && w > 114) u = ((bits(113) | (1n << 113n)) << 1n | 1n) << BigInt(Math.floor(rand() * (w - 115))); // ties
        u = BigInt.asUintN(w, rand() < 0.2 ? -u : u);
        yield [`fromu${w} ${hex(u)}`, hex(f128FromInt(u))];
        yield [`fromi${w} ${hex(u)}`, hex(f128FromInt(BigInt.asIntN(w, u)))];
      }
    })());
  });
});

describe('fp128 <math.h> functions against glibc', () => {
  it('floorf128, ceilf128, truncf128, roundf128, roundevenf128, rintf128, nearbyintf128', () => {
    const modes: [string, IntegralMode][] = [['floor', IntegralMode.Floor], ['ceil', IntegralMode.Ceil], ['trunc', IntegralMode.Trunc], ['round', IntegralMode.HalfAway], ['roundeven', IntegralMode.HalfEven], ['rint', IntegralMode.HalfEven], ['nearbyint', IntegralMode.HalfEven]];
    compare((function* (): Generator<Case> {
      for (const a of [...singles(N), ...integralish(500)]) for (const [op, m] of modes) yield [`${op} ${hex(a)}`, hex(f128RoundIntegral(a, m))];
    })());
  });

  it('lrintf128, lroundf128', () => {
    compare((function* (): Generator<Case> {
      for (const a of [...singles(N), ...integralish(500)]) {
        yield [`lrint ${hex(a)}`, hex(f128ToIntRounded(a, IntegralMode.HalfEven, 64))];
        yield [`lround ${hex(a)}`, hex(f128ToIntRounded(a, IntegralMode.HalfAway, 64))];
      }
    })());
  });

  it('fminf128, fmaxf128, fminimumf128, fmaximumf128, copysignf128', () => {
    compare((function* (): Generator<Case> {
      for (const [a, b] of pairs(N)) {
        yield [`fmin ${hex(a)} ${hex(b)}`, hex(f128MinMax(a, b, false))];
        yield [`fmax ${hex(a)} ${hex(b)}`, hex(f128MinMax(a, b, true))];
        yield [`fminimum ${hex(a)} ${hex(b)}`, hex(f128MinimumMaximum(a, b, false))];
        yield [`fmaximum ${hex(a)} ${hex(b)}`, hex(f128MinimumMaximum(a, b, true))];
        yield [`copysign ${hex(a)} ${hex(b)}`, hex(f128CopySign(a, b))];
      }
    })());
  });

  it('frexpf128, ldexpf128, modff128', () => {
    compare((function* (): Generator<Case> {
      for (const a of singles(N)) {
        const [m, e] = f128Frexp(a);
        yield [`frexp ${hex(a)}`, `${hex(m)} ${e}`];
        const [fr, ip] = f128Modf(a);
        yield [`modf ${hex(a)}`, `${hex(fr)} ${hex(ip)}`];
        const n = pick([0, 1, -1, 113, -114, 16000, -16000, -16494, -16495, 16400, 40000, -40000, Math.floor(rand() * 65536) - 32768]);
        yield [`ldexp ${hex(a)} ${n}`, hex(f128Ldexp(a, n))];
      }
    })());
  });

  it('llvm.is.fpclass (clang 19 __builtin_isfpclass)', () => {
    compare((function* (): Generator<Case> {
      for (const a of singles(N)) yield [`fpclass ${hex(a)}`, (1 << f128FpClass(a)).toString(16)];
    })());
  });
});

describe('libquadmath *q functions', () => {
  it('sqrtq (Newton steps from a double or long double root) and modfq', () => {
    compare((function* (): Generator<Case> {
      for (const a of singles(N)) {
        yield [`sqrt ${hex(a)}`, hex(quadmathSqrt(a))];
        const [fr, ip] = quadmathModf(a);
        yield [`modf ${hex(a)}`, `${hex(fr)} ${hex(ip)}`];
      }
    })(), quadmathOracle);
  });

  it('the others agree with glibc (fmodq, fmaq, floorq … lroundq, fminq, frexpq, ldexpq, copysignq)', () => {
    const modes: [string, IntegralMode][] = [['floor', IntegralMode.Floor], ['ceil', IntegralMode.Ceil], ['trunc', IntegralMode.Trunc], ['round', IntegralMode.HalfAway], ['rint', IntegralMode.HalfEven], ['nearbyint', IntegralMode.HalfEven]];
    compare((function* (): Generator<Case> {
      for (const [a, b] of pairs(N / 3)) {
        yield [`rem ${hex(a)} ${hex(b)}`, hex(f128Rem(a, b))];
        yield [`fmin ${hex(a)} ${hex(b)}`, hex(f128MinMax(a, b, false))];
        yield [`fmax ${hex(a)} ${hex(b)}`, hex(f128MinMax(a, b, true))];
        yield [`copysign ${hex(a)} ${hex(b)}`, hex(f128CopySign(a, b))];
        yield [`fma ${hex(a)} ${hex(b)} ${hex(a)}`, hex(f128Fma(a, b, a))];
      }
      for (const a of [...singles(N / 3), ...integralish(300)]) {
        for (const [op, m] of modes) yield [`${op} ${hex(a)}`, hex(f128RoundIntegral(a, m))];
        yield [`lrint ${hex(a)}`, hex(f128ToIntRounded(a, IntegralMode.HalfEven, 64))];
        yield [`lround ${hex(a)}`, hex(f128ToIntRounded(a, IntegralMode.HalfAway, 64))];
        yield [`abs ${hex(a)}`, hex(f128Abs(a))];
        const [m, e] = f128Frexp(a);
        yield [`frexp ${hex(a)}`, `${hex(m)} ${e}`];
        yield [`ldexp ${hex(a)} -16400`, hex(f128Ldexp(a, -16400))];
      }
    })(), quadmathOracle);
  });
});
