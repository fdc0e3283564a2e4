/**
 * Test support for src/expr: a seeded PRNG, and a generator of random expressions built in
 * lockstep with the simplifying builder and the raw builder (same random choices, so the two
 * results must always evaluate equally).
 */
import {
  builder,
  raw,
  evaluate,
  ExprArray,
  UpdateList,
  type Assignment,
  type Expr,
  type ExprBuilder,
} from '../../../src/expr/index.js';

/** xoshiro128** — small, fast, seedable. */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  constructor(seed: number) {
    // splitmix32 to spread the seed over the state
    let x = seed >>> 0;
    const next = (): number => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next() | 1;
  }
  u32(): number {
    const r = Math.imul(((Math.imul(this.s1, 5) << 7) | (Math.imul(this.s1, 5) >>> 25)) >>> 0, 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return r;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor((this.u32() / 2 ** 32) * n);
  }
  chance(p: number): boolean {
    return this.u32() / 2 ** 32 < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  /** Uniform w-bit value as a bigint. */
  bits(w: number): bigint {
    let v = 0n;
    for (let i = 0; i < w; i += 32) v = (v << 32n) | BigInt(this.u32());
    return BigInt.asUintN(w, v);
  }
  /** A w-bit value biased towards edge cases. */
  interesting(w: number): bigint {
    const m = (1n << BigInt(w)) - 1n;
    switch (this.int(9)) {
      case 0:
        return 0n;
      case 1:
        return 1n & m;
      case 2:
        return m;
      case 3:
        return 1n << BigInt(w - 1);
      case 4:
        return (1n << BigInt(w - 1)) - 1n;
      case 5:
        return BigInt(this.int(4)) & m;
      case 6:
        return BigInt(w) & m;
      case 7:
        return (m - BigInt(this.int(3))) & m;
      default:
        return this.bits(w);
    }
  }
}

export const WIDTHS = [1, 7, 8, 16, 32, 33, 64, 65, 128] as const;

export interface Pair {
  s: Expr;
  r: Expr;
}

/** The arrays random expressions read from. */
export function makeArrays(): ExprArray[] {
  const cv = new Uint8Array(8);
  for (let i = 0; i < 8; i++) cv[i] = (i * 37 + 11) & 0xff;
  return [new ExprArray('a', 8), new ExprArray('b', 16), new ExprArray('k', 8, cv)];
}

const BIN = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr'] as const;
const ARITH = ['add', 'sub', 'mul', 'and', 'or', 'xor'] as const;
const CMP = ['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const;

/** Generates expressions of a requested width, identically through both builders. */
export class PairGen {
  private readonly pool = new Map<number, Pair[]>();
  constructor(
    readonly rng: Rng,
    readonly arrays: readonly ExprArray[],
    readonly maxDepth = 5,
  ) {}

  private both(f: (b: ExprBuilder, side: 's' | 'r') => Expr): Pair {
    return { s: f(builder, 's'), r: f(raw, 'r') };
  }

  private remember(w: number, p: Pair): Pair {
    let l = this.pool.get(w);
    if (l === undefined) this.pool.set(w, (l = []));
    if (l.length < 40) l.push(p);
    else l[this.rng.int(40)] = p;
    return p;
  }

  constant(w: number): Pair {
    const v = this.rng.interesting(w);
    return this.both((b) => b.constant(v, w));
  }

  /** A 32-bit index, mostly within the arrays' sizes. */
  index(depth: number): Pair {
    const rng = this.rng;
    if (depth >= this.maxDepth || rng.chance(0.5)) {
      const v = rng.chance(0.9) ? rng.int(18) : rng.u32();
      return this.both((b) => b.constant(v, 32));
    }
    const byte = this.gen(8, depth + 1);
    const mask = rng.chance(0.7) ? 15 : 255;
    return this.both((b, side) => b.zext(b.and(byte[side], b.constant(mask, 8)), 32));
  }

  /** An update list over one array with a few writes (constant and symbolic indices). */
  updates(depth: number): { s: UpdateList; r: UpdateList } {
    const root = this.rng.pick(this.arrays);
    let s = new UpdateList(root);
    let r = new UpdateList(root);
    const n = this.rng.int(4);
    for (let i = 0; i < n; i++) {
      const idx = this.index(depth + 1);
      const val = depth >= this.maxDepth || this.rng.chance(0.5) ? this.constant(8) : this.gen(8, depth + 2);
      s = s.extend(idx.s, val.s);
      r = r.extend(idx.r, val.r);
    }
    return { s, r };
  }

  read(depth: number): Pair {
    const ul = this.updates(depth);
    const idx = this.index(depth);
    return { s: builder.read(ul.s, idx.s), r: raw.read(ul.r, idx.r) };
  }

  /** A leaf-ish symbolic value of width w made from byte reads. */
  symbolic(w: number, depth: number): Pair {
    const byte = this.read(depth);
    if (w === 8) return byte;
    if (w < 8) {
      const off = this.rng.int(8 - w + 1);
      return this.both((b, side) => b.extract(byte[side], off, w));
    }
    const rng = this.rng;
    const choice = rng.int(3);
    if (choice === 2 && depth < this.maxDepth + 3) {
      const rest = this.symbolic(w - 8, depth + 1);
      return this.both((b, side) => b.concat(byte[side], rest[side]));
    }
    return this.both((b, side) => (choice === 0 ? b.zext(byte[side], w) : b.sext(byte[side], w)));
  }

  /** Shapes that the constant-pulling and comparison rules look for. */
  nested(w: number, d: number): Pair {
    const rng = this.rng;
    if (w === 1 && rng.chance(0.5)) {
      const cw = rng.pick(WIDTHS);
      const cc = this.constant(cw);
      const z = this.nested(cw, d + 1);
      const op = rng.pick(CMP);
      const swap = rng.chance(0.5);
      return this.both((b, side) => (swap ? b[op](z[side], cc[side]) : b[op](cc[side], z[side])));
    }
    const c1 = this.constant(w);
    const c2 = this.constant(w);
    const x = this.gen(w, d + 1);
    const y = this.gen(w, d + 1);
    const op1 = rng.pick(ARITH);
    const op2 = rng.pick(ARITH);
    const swap = rng.chance(0.5);
    const inner = this.both((b, side) => (swap ? b[op2](x[side], c2[side]) : b[op2](c2[side], x[side])));
    switch (rng.int(4)) {
      case 0:
        return this.both((b, side) => b[op1](c1[side], inner[side]));
      case 1:
        return this.both((b, side) => b[op1](inner[side], y[side]));
      case 2:
        return this.both((b, side) => b[op1](y[side], inner[side]));
      default:
        return this.both((b, side) => b[op1](inner[side], c1[side]));
    }
  }

  gen(w: number, depth = 0): Pair {
    const rng = this.rng;
    const pool = this.pool.get(w);
    if (pool !== undefined && pool.length > 0 && rng.chance(0.2)) return rng.pick(pool);
    if (depth >= this.maxDepth) return rng.chance(0.4) ? this.constant(w) : this.symbolic(w, depth);
    const d = depth + 1;
    let p: Pair;
    switch (rng.int(w === 1 ? 13 : 12)) {
      case 10:
      case 11:
        p = this.nested(w, d);
        break;
      case 0:
        p = this.constant(w);
        break;
      case 1:
        p = this.symbolic(w, depth);
        break;
      case 2:
      case 3: {
        const op = rng.pick(BIN);
        const l = rng.chance(0.3) ? this.constant(w) : this.gen(w, d);
        const r = rng.chance(0.4) ? this.constant(w) : rng.chance(0.15) ? l : this.gen(w, d);
        p = this.both((b, side) => b[op](l[side], r[side]));
        break;
      }
      case 4: {
        const x = this.gen(w, d);
        p = this.both((b, side) => b.not(x[side]));
        break;
      }
      case 5: {
        const c = this.gen(1, d);
        const t = this.gen(w, d);
        const f = rng.chance(0.1) ? t : this.gen(w, d);
        p = this.both((b, side) => b.select(c[side], t[side], f[side]));
        break;
      }
      case 6: {
        if (w < 2) return this.gen(w, d);
        const lw = 1 + rng.int(w - 1);
        const hi = this.gen(w - lw, d);
        const lo = this.gen(lw, d);
        p = this.both((b, side) => b.concat(hi[side], lo[side]));
        break;
      }
      case 7: {
        const sw = rng.pick(WIDTHS.filter((x) => x >= w));
        const off = rng.int(sw - w + 1);
        const x = this.gen(sw, d);
        p = this.both((b, side) => b.extract(x[side], off, w));
        break;
      }
      case 8: {
        const smaller = WIDTHS.filter((x) => x < w);
        if (smaller.length === 0) return this.gen(w, d);
        const x = this.gen(rng.pick(smaller), d);
        const sign = rng.chance(0.5);
        p = this.both((b, side) => (sign ? b.sext(x[side], w) : b.zext(x[side], w)));
        break;
      }
      case 9:
        p = w === 8 ? this.read(depth) : this.symbolic(w, depth);
        break;
      default: {
        const cw = rng.pick(WIDTHS);
        const l = this.gen(cw, d);
        const r = rng.chance(0.3) ? this.constant(cw) : rng.chance(0.1) ? l : this.gen(cw, d);
        const op = rng.pick(CMP);
        p = this.both((b, side) => b[op](l[side], r[side]));
      }
    }
    return this.remember(w, p);
  }
}

/** Random contents for the symbolic arrays (sometimes leaving one out: it then reads as zeros). */
export function randomAssignment(rng: Rng, arrays: readonly ExprArray[]): Map<ExprArray, Uint8Array> {
  const m = new Map<ExprArray, Uint8Array>();
  for (const a of arrays) {
    if (a.isConstant() || rng.chance(0.1)) continue;
    const bytes = new Uint8Array(a.size);
    for (let i = 0; i < a.size; i++) bytes[i] = Number(rng.interesting(8));
    m.set(a, bytes);
  }
  return m;
}

/** Asserts that two expressions agree under several random assignments. */
export function expectEquivalent(a: Expr, b: Expr, arrays: readonly ExprArray[], rng = new Rng(7), rounds = 20): void {
  expect(a.width).toBe(b.width);
  for (let i = 0; i < rounds; i++) {
    const asg: Assignment = randomAssignment(rng, arrays);
    const va = evaluate(a, asg);
    const vb = evaluate(b, asg);
    if (va !== vb) {
      throw new Error(`mismatch ${va} vs ${vb}\n  simplified: ${a.toString()}\n  raw:        ${b.toString()}`);
    }
  }
}
