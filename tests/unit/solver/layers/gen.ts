/** Test support: random small expressions over tiny arrays, and path-shaped query workloads. */
import { builder as b, ExprArray, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { Rng } from '../../expr/helpers.js';

export { Rng };

export class SmallGen {
  readonly a = new ExprArray('a', 2);
  readonly b = new ExprArray('b', 1);
  readonly c = new ExprArray('c', 1);
  readonly k = new ExprArray('k', 2, new Uint8Array([7, 200]));
  /** The symbolic arrays in use: a, b, c (4 bytes), or only b and c (2 bytes, for exact brute force). */
  readonly arrays: ExprArray[];

  constructor(
    readonly rng: Rng,
    twoBytes = false,
  ) {
    this.arrays = twoBytes ? [this.b, this.c] : [this.a, this.b, this.c];
  }

  private ul(arr: ExprArray): UpdateList {
    let ul = new UpdateList(arr);
    if (this.rng.chance(0.15)) ul = ul.extend(this.index(arr.size), this.byte(2));
    return ul;
  }

  /**
   * An index below `size` (reads out of bounds differ between the evaluator, which reads 0,
   * and an SMT array; the engine bounds-checks every access, so queries never have them):
   * constant (mostly) or symbolic.
   */
  index(size: number): Expr {
    if (this.rng.chance(0.8)) return b.constant(this.rng.int(size), 32);
    const s = b.read(new UpdateList(this.rng.pick([this.b, this.c])), b.constant(0, 32));
    // size 1: s >> (s | 8) is always 0, but not syntactically
    const byte = size === 1 ? b.lshr(s, b.or(s, b.constant(8, 8))) : b.and(s, b.constant(1, 8));
    return b.zext(byte, 32);
  }

  read(): Expr {
    const arr = this.rng.chance(0.1) ? this.k : this.rng.pick(this.arrays);
    return b.read(this.ul(arr), this.index(arr.size));
  }

  byte(depth: number): Expr {
    const r = this.rng;
    if (depth <= 0 || r.chance(0.3)) return r.chance(0.7) ? this.read() : b.constant(r.pick([0, 1, 2, 3, 0x7f, 0x80, 0xfe, 0xff, r.int(256)]), 8);
    const op = r.pick(['add', 'sub', 'xor', 'and', 'or', 'mul', 'udiv', 'urem', 'shl', 'lshr', 'select', 'extract'] as const);
    if (op === 'select') return b.select(this.bool(depth - 1), this.byte(depth - 1), this.byte(depth - 1));
    if (op === 'extract') return b.extract(b.concat(this.byte(depth - 1), this.byte(depth - 1)), r.int(9), 8);
    return b[op](this.byte(depth - 1), this.byte(depth - 1));
  }

  bool(depth: number): Expr {
    const r = this.rng;
    if (depth > 0 && r.chance(0.2)) {
      const op = r.pick(['and', 'or', 'not'] as const);
      if (op === 'not') return b.not(this.bool(depth - 1));
      return b[op](this.bool(depth - 1), this.bool(depth - 1));
    }
    if (r.chance(0.25)) return b.eq(b.constant(r.pick([0, 1, 2, 0x80, 0xff]), 8), this.read()); // equalities with constants
    const cmp = r.pick(['eq', 'ne', 'ult', 'ule', 'ugt', 'uge', 'slt', 'sle', 'sgt', 'sge'] as const);
    if (r.chance(0.15)) {
      const w = b.concat(this.byte(depth - 1), this.byte(depth - 1));
      return b[cmp](w, b.constant(r.int(65536), 16));
    }
    return b[cmp](this.byte(depth - 1), this.byte(depth - 1));
  }
}

/** The bytes domain used by the random differential tests (contains 0). */
export const SMALL_DOMAIN = [0, 1, 2, 3, 0x7f, 0x80, 0xfe, 0xff] as const;
