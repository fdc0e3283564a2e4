/**
 * src/engine/fp80.ts and fp80-math.ts against this machine's x87: a native helper
 * (fp80-oracle.c, built once here with clang -O2) computes every operation on the same
 * operand bit patterns — corner cases (zeros, denormals, pseudo-denormals, extremes,
 * infinities, quiet/signalling NaNs with payloads, the indefinite, unnormals, pseudo-NaNs,
 * halfway cases of every rounding) crossed with each other, plus seeded random operands —
 * and every result pattern must be identical.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  f80Abs,
  f80Add,
  f80Compare,
  f80CopySign,
  f80Div,
  f80Fcmp,
  f80Fma,
  f80FromBytes,
  f80FromDouble,
  f80FromDoubleBits,
  f80FromFloatBits,
  f80FromInt,
  f80Mul,
  f80Neg,
  f80Rem,
  f80Sqrt,
  f80Sub,
  f80ToBytes,
  f80ToDouble,
  f80ToDoubleBits,
  f80ToFloatBits,
  f80ToInt,
  REL_EQ,
  REL_GT,
  REL_LT,
} from '../../../src/engine/fp80.js';
import { f80FpClass, f80Frexp, f80Ldexp, f80MinMax, f80Modf, f80RoundIntegral, IntegralMode } from '../../../src/engine/fp80-math.js';
import { fcmp } from '../../../src/engine/scalar.js';
import { Predicate } from '../../../src/ir/opcodes.js';
import { prng } from '../../support/prng.js';

const ORACLE_SRC = join(fileURLToPath(new URL('.', import.meta.url)), 'fp80-oracle.c');

const rand = prng(0x80f80);
const bits = (n: number): bigint => {
  let v = 0n;
  for (let i = 0; i < n; i += 16) v = (v << 16n) | BigInt(Math.floor(rand() * 65536));
  return v & ((1n << BigInt(n)) - 1n);
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const f80 = (sign: number, exp: number, mant: bigint): bigint => (BigInt(sign) << 79n) | (BigInt(exp) << 64n) | mant;
const I = 1n << 63n;

/** Corner-case operands (both signs of each). */
const CORNERS: bigint[] = (() => {
  const mags = [
    0n,
    f80(0, 0, 1n), // smallest denormal
    f80(0, 0, I - 1n), // largest denormal
    f80(0, 0, I), // pseudo-denormal = 2^-16382
    f80(0, 0, I | 12345n),
    f80(0, 1, I), // smallest normal
    f80(0, 1, I | 1n),
    f80(0, 0x3fff, I), // 1
    f80(0, 0x3fff, I | 1n), // 1 + ulp
    f80(0, 0x3fff, (1n << 64n) - 1n), // 2 − ulp
    f80(0, 0x3fff, I | (1n << 62n)), // 1.5
    f80(0, 0x4000, I), // 2
    f80(0, 0x4000, I | (1n << 62n)), // 3
    f80(0, 0x3ffd, 0xaaaaaaaaaaaaaaabn), // ~1/3
    f80(0, 0x3fff, I | 0x400n), // 1 + 2^-53: halfway for double
    f80(0, 0x3fff, I | 0xc00n),
    f80(0, 0x3fff, I | 0x401n),
    f80(0, 0x3fff, I | (1n << 39n)), // halfway for float
    f80(0, 0x3fff, I | (3n << 39n)),
    f80(0, 0x4002, I | (1n << 61n)), // 9 (x.5 cases come from the random set)
    f80(0, 0x3ffe, I), // 0.5
    f80(0, 0x4000, I | (1n << 61n)), // 2.5
    f80(0, 0x403e, I), // 2^63
    f80(0, 0x403e, (1n << 64n) - 1n), // 2^64 − 1
    f80(0, 0x401e, I), // 2^31
    f80(0, 0x43fe, (1n << 64n) - 1n), // just below double max·2^?: overflow to double ∞
    f80(0, 0x43fe, I | 0xfffffffffffff800n), // DBL_MAX region halfway
    f80(0, 0x3c00, I), // double min normal
    f80(0, 0x3bcd, I), // 2^-1074
    f80(0, 0x3bcc, I), // 2^-1075: ties to 0
    f80(0, 0x3bcc, I | 1n),
    f80(0, 0x7ffe, (1n << 64n) - 1n), // max
    f80(0, 0x7ffe, I),
    f80(0, 0x7fff, I), // ∞
    f80(0, 0x7fff, I | (1n << 62n)), // QNaN (indefinite's magnitude)
    f80(0, 0x7fff, I | (1n << 62n) | 5n),
    f80(0, 0x7fff, (1n << 64n) - 1n),
    f80(0, 0x7fff, I | 1n), // SNaN
    f80(0, 0x7fff, I | 7n),
    f80(0, 0x7fff, I | ((1n << 62n) - 1n)),
    f80(0, 0x3fff, 0n), // unnormal
    f80(0, 0x4000, I - 1n), // unnormal
    f80(0, 0x7fff, 0n), // pseudo-infinity
    f80(0, 0x7fff, 1n << 62n), // pseudo-NaN
  ];
  return mags.flatMap((m) => [m, m | (1n << 79n)]);
})();

/** A random operand: mostly valid values at assorted scales, some raw patterns. */
function randomOperand(): bigint {
  const r = rand();
  const sign = rand() < 0.5 ? 1 : 0;
  const mant = I | bits(63);
  if (r < 0.45) return f80(sign, 0x3fff + Math.floor(rand() * 160) - 80, mant);
  if (r < 0.55) return f80(sign, 0x3fff + Math.floor(rand() * 8) - 4, I | (bits(63) & ~((1n << BigInt(Math.floor(rand() * 62))) - 1n)));
  if (r < 0.65) return f80(sign, Math.floor(rand() * 80), rand() < 0.3 ? bits(63) : mant); // (pseudo-)denormals, tiny normals
  if (r < 0.75) return f80(sign, 0x7ffe - Math.floor(rand() * 80), mant); // near overflow
  if (r < 0.85) return f80(sign, 1 + Math.floor(rand() * 0x7ffe), mant); // any normal
  if (r < 0.9) return pick(CORNERS);
  return bits(80);
}

/** A random operand close to `a` (cancellation, equal exponents, equal values). */
function nearby(a: bigint): bigint {
  const r = rand();
  if (r < 0.3) return a;
  if (r < 0.6) return a ^ (1n << 79n);
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

const hex = (v: bigint): string => v.toString(16);

let oracle = '';

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-fp80-'));
  oracle = join(dir, 'oracle');
  const cc = ['clang-19', 'clang-16', 'clang', 'gcc'].find((c) => spawnSync(c, ['--version']).status === 0);
  if (!cc) throw new Error('no C compiler to build the fp80 oracle');
  execFileSync(cc, ['-O2', '-fno-math-errno', '-ffp-contract=off', '-o', oracle, ORACLE_SRC, '-lm']);
  expect(existsSync(oracle)).toBe(true);
});

/** Runs every line through the oracle; returns its output lines. */
function native(lines: string[]): string[] {
  const r = spawnSync(oracle, [], { input: lines.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`fp80 oracle failed: ${r.stderr}`);
  const out = r.stdout.split('\n');
  out.pop();
  expect(out).toHaveLength(lines.length);
  return out;
}

/**
 * Compares `mine` with the oracle on each case; reports the first 10 differences. Each case is
 * [oracle line, tsklee's answer in the oracle's notation].
 */
function compare(cases: Iterable<[string, string]>): void {
  const all = [...cases];
  const theirs = native(all.map((c) => c[0]));
  const bad: string[] = [];
  all.forEach(([line, mine], i) => {
    const t = theirs[i]!.trim();
    const norm = (s: string): string => s.split(' ').map((x) => (/^-?\d+$/.test(x) && line.startsWith('frexp') ? x : BigInt(`0x${x}`).toString(16))).join(' ');
    if (norm(t) !== mine) bad.push(`${line}: native ${t}, tsklee ${mine}`);
  });
  expect(bad.slice(0, 10)).toEqual([]);
}

const N = 3000;

describe('fp80 arithmetic against the x87', () => {
  const binary: [string, (a: bigint, b: bigint) => bigint][] = [
    ['add', f80Add],
    ['sub', f80Sub],
    ['mul', f80Mul],
    ['div', f80Div],
    ['rem', f80Rem],
  ];
  it.each(binary)('%s', (name, f) => {
    compare((function* () {
      for (const [a, b] of pairs(N)) yield [`${name} ${hex(a)} ${hex(b)}`, hex(f(a, b))] as [string, string];
    })());
  });

  it('sqrt, neg, fabs', () => {
    compare((function* () {
      for (const a of singles(N)) {
        yield [`sqrt ${hex(a)}`, hex(f80Sqrt(a))] as [string, string];
        yield [`neg ${hex(a)}`, hex(f80Neg(a))] as [string, string];
        yield [`abs ${hex(a)}`, hex(f80Abs(a))] as [string, string];
      }
    })());
  });

  it('comparison relation', () => {
    const code = (r: number): string => (r === REL_LT ? '0' : r === REL_EQ ? '1' : r === REL_GT ? '2' : '3');
    compare((function* () {
      for (const [a, b] of pairs(N)) yield [`cmp ${hex(a)} ${hex(b)}`, code(f80Compare(a, b))] as [string, string];
    })());
  });

  it('fma (fmal)', () => {
    const few = CORNERS.filter((_, i) => i % 3 === 0);
    compare((function* () {
      for (const a of few) for (const b of few) for (const c of few) yield [`fma ${hex(a)} ${hex(b)} ${hex(c)}`, hex(f80Fma(a, b, c))] as [string, string];
      for (let i = 0; i < N; i++) {
        const a = randomOperand();
        const b = randomOperand();
        // c near −a·b exercises cancellation
        const c = rand() < 0.5 ? randomOperand() : nearby(f80Neg(f80Mul(a, b)));
        yield [`fma ${hex(a)} ${hex(b)} ${hex(c)}`, hex(f80Fma(a, b, c))] as [string, string];
      }
    })());
  });
});

describe('fp80 in the IR', () => {
  it('every fcmp predicate agrees with the double comparison on values doubles hold', () => {
    const xs = [0, -0, 1, -1, 1.5, 2 ** -1074, -Infinity, Infinity, NaN, 1e300];
    const bad: string[] = [];
    for (let pred = Predicate.FCMP_FALSE; pred <= Predicate.FCMP_TRUE; pred++)
      for (const x of xs)
        for (const y of xs) {
          const got = f80Fcmp(pred, f80FromDouble(x), f80FromDouble(y));
          if (got !== fcmp(pred, x, y)) bad.push(`${Predicate[pred]}(${x}, ${y}) = ${got}`);
        }
    expect(bad).toEqual([]);
  });

  it('bytes round-trip and doubles widen exactly', () => {
    const out = new Uint8Array(12);
    for (const a of singles(200)) {
      f80ToBytes(a, out, 1);
      expect(f80FromBytes(out, 1)).toBe(a);
    }
    for (const x of [0.1, -3.5e-310, 1.7976931348623157e308, -0]) expect(Object.is(f80ToDouble(f80FromDouble(x)), x)).toBe(true);
  });
});

describe('fp80 conversions against the x87', () => {
  it('to and from double and float', () => {
    compare((function* () {
      for (const a of singles(N)) {
        yield [`todouble ${hex(a)}`, hex(f80ToDoubleBits(a))] as [string, string];
        yield [`tofloat ${hex(a)}`, hex(BigInt(f80ToFloatBits(a)))] as [string, string];
      }
      const dcorners = [0n, 1n, 0xfffffffffffffn, 0x10000000000000n, 0x3ff0000000000000n, 0x7fefffffffffffffn, 0x7ff0000000000000n, 0x7ff0000000000001n, 0x7ff8000000000000n, 0x7fffffffffffffffn];
      for (const d of [...dcorners, ...dcorners.map((x) => x | (1n << 63n)), ...Array.from({ length: N }, () => bits(64))])
        yield [`fromdouble ${hex(d)}`, hex(f80FromDoubleBits(d))] as [string, string];
      const fcorners = [0, 1, 0x7fffff, 0x800000, 0x3f800000, 0x7f7fffff, 0x7f800000, 0x7f800001, 0x7fc00000, 0x7fffffff];
      for (const f of [...fcorners, ...fcorners.map((x) => (x | 0x80000000) >>> 0), ...Array.from({ length: N }, () => Number(bits(32)))])
        yield [`fromfloat ${f.toString(16)}`, hex(f80FromFloatBits(f))] as [string, string];
    })());
  });

  it('to integers (in range: truncation; out of range: what the x87 sequences give)', () => {
    // Out of range is poison in LLVM; natively up to 64 bits it is what clang's fistp sequences
    // give (f80ToInt), compared here; 128-bit conversions are library calls: in range only.
    const inRange = (a: bigint, w: number, signed: boolean): boolean => {
      const t = f80RoundIntegral(a, IntegralMode.Trunc);
      const lo = signed ? f80FromInt(-(1n << BigInt(w - 1))) : f80FromInt(0n);
      const hi = signed ? f80FromInt(1n << BigInt(w - 1)) : f80FromInt(1n << BigInt(w));
      const c1 = f80Compare(t, lo);
      return (c1 === REL_GT || c1 === REL_EQ) && f80Compare(t, hi) === REL_LT;
    };
    compare((function* () {
      const ops: [string, number, boolean][] = [
        ['toi64', 64, true], ['toi32', 32, true], ['toi16', 16, true], ['toi8', 8, true],
        ['tou64', 64, false], ['tou32', 32, false], ['tou16', 16, false], ['tou8', 8, false],
        ['toi128', 128, true], ['tou128', 128, false],
      ];
      const ints = Array.from({ length: N }, () => f80FromInt(BigInt.asIntN(Math.floor(rand() * 70), bits(64))));
      const halves = Array.from({ length: 300 }, () => f80Add(f80FromInt(BigInt.asIntN(40, bits(40))), f80(rand() < 0.5 ? 1 : 0, 0x3ffe, I)));
      for (const a of [...singles(N), ...ints, ...halves])
        for (const [op, w, signed] of ops) {
          if (!inRange(a, w, signed) && w > 64) continue;
          yield [`${op} ${hex(a)}`, hex(f80ToInt(a, w, signed))] as [string, string];
        }
    })());
  });

  it('from integers (exact up to 64 bits, rounded to nearest even from 128)', () => {
    compare((function* () {
      for (let i = 0; i < N; i++) {
        const w = 1 + Math.floor(rand() * 128);
        const u = bits(128) >> BigInt(128 - w);
        const s64 = BigInt.asIntN(64, u);
        yield [`fromi64 ${hex(BigInt.asUintN(64, u))}`, hex(f80FromInt(s64))] as [string, string];
        yield [`fromu64 ${hex(BigInt.asUintN(64, u))}`, hex(f80FromInt(BigInt.asUintN(64, u)))] as [string, string];
        yield [`fromi32 ${hex(BigInt.asUintN(32, u))}`, hex(f80FromInt(BigInt.asIntN(32, u)))] as [string, string];
        yield [`fromi128 ${hex(u)}`, hex(f80FromInt(BigInt.asIntN(128, u)))] as [string, string];
        yield [`fromu128 ${hex(u)}`, hex(f80FromInt(u))] as [string, string];
        // halfway cases of the 64-bit significand
        const tie = (bits(64) | (1n << 63n)) << 1n | 1n;
        const t = tie << BigInt(Math.floor(rand() * 62));
        yield [`fromu128 ${hex(t)}`, hex(f80FromInt(t))] as [string, string];
      }
    })());
  });
});

describe('fp80 <math.h> functions against glibc', () => {
  // glibc's C implementations rewrite unnormals' bits in their own ways: valid encodings only
  const valid = (a: bigint): boolean => {
    const ex = Number((a >> 64n) & 0x7fffn);
    return ex === 0 || (a & I) !== 0n;
  };

  it('floorl, ceill, truncl, roundl, rintl, nearbyintl', () => {
    const modes: [string, IntegralMode][] = [['floor', IntegralMode.Floor], ['ceil', IntegralMode.Ceil], ['trunc', IntegralMode.Trunc], ['round', IntegralMode.HalfAway], ['rint', IntegralMode.HalfEven], ['nearbyint', IntegralMode.HalfEven]];
    compare((function* () {
      const halves = Array.from({ length: 500 }, () => f80Add(f80FromInt(BigInt.asIntN(50, bits(50))), f80(rand() < 0.5 ? 1 : 0, 0x3ffe, I)));
      for (const a of [...singles(N), ...halves]) {
        if (!valid(a)) continue;
        for (const [op, m] of modes) yield [`${op} ${hex(a)}`, hex(f80RoundIntegral(a, m))] as [string, string];
      }
    })());
  });

  it('fminl, fmaxl, copysignl', () => {
    compare((function* () {
      for (const [a, b] of pairs(N)) {
        if (!valid(a) || !valid(b)) continue;
        yield [`fmin ${hex(a)} ${hex(b)}`, hex(f80MinMax(a, b, false))] as [string, string];
        yield [`fmax ${hex(a)} ${hex(b)}`, hex(f80MinMax(a, b, true))] as [string, string];
        yield [`copysign ${hex(a)} ${hex(b)}`, hex(f80CopySign(a, b))] as [string, string];
      }
    })());
  });

  it('frexpl, ldexpl, modfl', () => {
    compare((function* () {
      for (const a of singles(N)) {
        if (!valid(a)) continue;
        const [m, e] = f80Frexp(a);
        yield [`frexp ${hex(a)}`, `${hex(m)} ${e}`] as [string, string];
        const [fr, ip] = f80Modf(a);
        yield [`modf ${hex(a)}`, `${hex(fr)} ${hex(ip)}`] as [string, string];
        const n = pick([0, 1, -1, 63, -64, 16000, -16000, -16400, 16400, 40000, -40000, Math.floor(rand() * 65536) - 32768]);
        yield [`ldexp ${hex(a)} ${n}`, hex(f80Ldexp(a, n))] as [string, string];
      }
    })());
  });
});

describe('llvm.is.fpclass on x86_fp80 (clang 19 __builtin_isfpclass)', () => {
  it('class of every operand', () => {
    compare((function* () {
      for (const a of singles(N)) {
        const c = f80FpClass(a);
        yield [`fpclass ${hex(a)}`, (c < 0 ? 0 : 1 << c).toString(16)] as [string, string];
      }
    })());
  });
});
