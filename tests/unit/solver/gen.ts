/**
 * Random expressions for the solver's differential tests: every kind at widths 1…128, over
 * small symbolic and constant arrays with update lists. Indices stay inside the arrays:
 * a solver treats bytes past the end of a symbolic array as unconstrained while evaluate()
 * reads them as 0, and the engine never asks about such reads (it bounds-checks first).
 */
import { builder, raw, ExprArray, UpdateList, type Expr, type ExprBuilder } from '../../../src/expr/index.js';
import { Rng } from '../../../src/util/rng.js';

export const WIDTHS = [1, 7, 8, 16, 32, 33, 64, 65, 128] as const;
/** Every array has this many bytes, so a 4-bit index is always in bounds. */
export const ARRAY_SIZE = 16;

const BIN = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr'] as const;
const CMP = ['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const;

/** Constraints fixing every byte of `arrays` that `asg` gives a value. */
export function pin(arrays: readonly ExprArray[], asg: Map<ExprArray, Uint8Array>): Expr[] {
  const out: Expr[] = [];
  for (const a of arrays) {
    const bytes = asg.get(a);
    if (bytes === undefined) continue;
    const ul = new UpdateList(a);
    for (let i = 0; i < bytes.length; i++) out.push(builder.eq(builder.read(ul, builder.constant(i, 32)), builder.constant(bytes[i]!, 8)));
  }
  return out;
}

export function makeArrays(): ExprArray[] {
  const k = new Uint8Array(ARRAY_SIZE);
  for (let i = 0; i < ARRAY_SIZE; i++) k[i] = (i * 37 + 11) & 0xff;
  k[3] = 0;
  return [new ExprArray('a', ARRAY_SIZE), new ExprArray('b', ARRAY_SIZE), new ExprArray('k', ARRAY_SIZE, k)];
}

export class ExprGen {
  /** Builder for the next node: mostly the simplifying one, sometimes raw (unfolded shapes). */
  private b: ExprBuilder = builder;

  constructor(
    readonly rng: Rng,
    readonly arrays: readonly ExprArray[],
    readonly maxDepth = 4,
    /** Probability of building a node raw. */
    readonly rawChance = 0.3,
  ) {}

  int(n: number): number {
    return this.rng.nextInt(n);
  }

  chance(p: number): boolean {
    return this.rng.nextFloat() < p;
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }

  /** A w-bit value biased towards edge cases. */
  value(w: number): bigint {
    const m = (1n << BigInt(w)) - 1n;
    switch (this.int(8)) {
      case 0:
        return 0n;
      case 1:
        return 1n;
      case 2:
        return m;
      case 3:
        return 1n << BigInt(w - 1);
      case 4:
        return m >> 1n;
      case 5:
        return BigInt(w + this.int(3) - 1) & m; // around the shift limit
      default: {
        let v = 0n;
        for (let i = 0; i < w; i += 32) v = (v << 32n) | BigInt(this.rng.nextU32());
        return v & m;
      }
    }
  }

  constant(w: number): Expr {
    return this.b.constant(this.value(w), w);
  }

  /** A 32-bit index in [0, ARRAY_SIZE). */
  index(depth: number): Expr {
    if (depth >= this.maxDepth || this.chance(0.5)) return this.b.constant(this.int(ARRAY_SIZE), 32);
    return this.b.zext(this.b.extract(this.gen(8, depth + 1), this.int(5), 4), 32);
  }

  updates(depth: number): UpdateList {
    let ul = new UpdateList(this.pick(this.arrays));
    const n = this.int(4);
    for (let i = 0; i < n; i++) {
      const v = depth >= this.maxDepth || this.chance(0.5) ? this.constant(8) : this.gen(8, depth + 2);
      ul = ul.extend(this.index(depth + 1), v);
    }
    return ul;
  }

  read(depth: number): Expr {
    return this.b.read(this.updates(depth), this.index(depth));
  }

  /** A symbolic leaf of width w built from byte reads. */
  leaf(w: number, depth: number): Expr {
    const byte = this.read(depth);
    if (w === 8) return byte;
    if (w < 8) return this.b.extract(byte, this.int(8 - w + 1), w);
    if (w >= 16 && this.chance(0.5)) return this.b.concat(this.leaf(w - 8, depth + 1), byte);
    return this.chance(0.5) ? this.b.zext(byte, w) : this.b.sext(byte, w);
  }

  gen(w: number, depth = 0): Expr {
    this.b = this.chance(this.rawChance) ? raw : builder;
    const b = this.b;
    if (depth >= this.maxDepth) return this.chance(0.3) ? this.constant(w) : this.leaf(w, depth);
    const d = depth + 1;
    switch (this.int(10)) {
      case 0:
        return this.constant(w);
      case 1:
        return this.leaf(w, depth);
      case 2:
      case 3: {
        const op = this.pick(BIN);
        const l = this.gen(w, d);
        const r = this.chance(0.4) ? this.constant(w) : this.gen(w, d);
        return (this.chance(this.rawChance) ? raw : builder)[op](l, r);
      }
      case 4:
        return b.not(this.gen(w, d));
      case 5:
        return b.select(this.gen(1, d), this.gen(w, d), this.gen(w, d));
      case 6: {
        if (w < 2) return this.gen(1, d);
        const lw = 1 + this.int(w - 1);
        return b.concat(this.gen(w - lw, d), this.gen(lw, d));
      }
      case 7: {
        const from = this.pick(WIDTHS.filter((x) => x >= w));
        return b.extract(this.gen(from, d), this.int(from - w + 1), w);
      }
      case 8: {
        const smaller = WIDTHS.filter((x) => x < w);
        if (smaller.length === 0) return this.gen(w, d);
        const x = this.gen(this.pick(smaller), d);
        return this.chance(0.5) ? b.sext(x, w) : b.zext(x, w);
      }
      default: {
        if (w !== 1) return w === 8 ? this.read(depth) : this.gen(w, d);
        const cw = this.pick(WIDTHS);
        const l = this.gen(cw, d);
        const r = this.chance(0.3) ? this.constant(cw) : this.gen(cw, d);
        return (this.chance(this.rawChance) ? raw : builder)[this.pick(CMP)](l, r);
      }
    }
  }

  /** Random contents for the symbolic arrays. */
  assignment(): Map<ExprArray, Uint8Array> {
    const m = new Map<ExprArray, Uint8Array>();
    for (const a of this.arrays) {
      if (a.isConstant()) continue;
      const bytes = new Uint8Array(a.size);
      for (let i = 0; i < a.size; i++) bytes[i] = Number(this.value(8));
      m.set(a, bytes);
    }
    return m;
  }
}

export { Rng };
