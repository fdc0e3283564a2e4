/**
 * Sets of unsigned values of one width as sorted, disjoint, non-adjacent closed intervals
 * (bigint bounds: widths up to 64 bits and more are exact). Immutable. Used by the fast
 * solver layer to describe the values a variable may take under simple constraints.
 */
export class IntervalSet {
  private constructor(
    readonly width: number,
    /** lo0, hi0, lo1, hi1, …: sorted, disjoint and not adjacent. */
    private readonly b: readonly bigint[],
  ) {}

  static full(width: number): IntervalSet {
    return new IntervalSet(width, [0n, maxOf(width)]);
  }

  static empty(width: number): IntervalSet {
    return new IntervalSet(width, []);
  }

  /** [lo, hi] taken modulo 2^width; wraps around when lo > hi after reduction. */
  static range(width: number, lo: bigint, hi: bigint): IntervalSet {
    const m = 1n << BigInt(width);
    lo = ((lo % m) + m) % m;
    hi = ((hi % m) + m) % m;
    if (lo <= hi) return new IntervalSet(width, [lo, hi]);
    return IntervalSet.fromPairs(width, [0n, hi, lo, m - 1n]);
  }

  /** [lo, hi] as signed values (lo ≤ hi, both within the signed range), as unsigned values. */
  static signedRange(width: number, lo: bigint, hi: bigint): IntervalSet {
    if (lo > hi) return IntervalSet.empty(width);
    const m = 1n << BigInt(width);
    if (lo >= 0n) return new IntervalSet(width, [lo, hi]);
    if (hi < 0n) return new IntervalSet(width, [lo + m, hi + m]);
    return IntervalSet.fromPairs(width, [0n, hi, lo + m, m - 1n]);
  }

  /** From 256 membership flags (width 8). */
  static fromFlags(flags: Uint8Array): IntervalSet {
    const out: bigint[] = [];
    for (let v = 0; v < flags.length; v++) {
      if (flags[v] === 0) continue;
      if (out.length > 0 && out[out.length - 1] === BigInt(v - 1)) out[out.length - 1] = BigInt(v);
      else out.push(BigInt(v), BigInt(v));
    }
    return new IntervalSet(8, out);
  }

  /** Normalises possibly unsorted, overlapping or adjacent pairs. */
  private static fromPairs(width: number, pairs: bigint[]): IntervalSet {
    const idx: number[] = [];
    for (let i = 0; i < pairs.length; i += 2) if (pairs[i]! <= pairs[i + 1]!) idx.push(i);
    idx.sort((x, y) => (pairs[x]! < pairs[y]! ? -1 : pairs[x]! > pairs[y]! ? 1 : 0));
    const out: bigint[] = [];
    for (const i of idx) {
      const lo = pairs[i]!;
      const hi = pairs[i + 1]!;
      if (out.length > 0 && lo <= out[out.length - 1]! + 1n) {
        if (hi > out[out.length - 1]!) out[out.length - 1] = hi;
      } else out.push(lo, hi);
    }
    return new IntervalSet(width, out);
  }

  isEmpty(): boolean {
    return this.b.length === 0;
  }

  isFull(): boolean {
    return this.b.length === 2 && this.b[0] === 0n && this.b[1] === maxOf(this.width);
  }

  /** Number of values. */
  size(): bigint {
    let n = 0n;
    for (let i = 0; i < this.b.length; i += 2) n += this.b[i + 1]! - this.b[i]! + 1n;
    return n;
  }

  /** The k-th smallest member, 0 ≤ k < size() (sampling uniformly over the set). */
  nth(k: bigint): bigint {
    for (let i = 0; i < this.b.length; i += 2) {
      const n = this.b[i + 1]! - this.b[i]! + 1n;
      if (k < n) return this.b[i]! + k;
      k -= n;
    }
    throw new RangeError(`IntervalSet.nth: index beyond the set's ${this.size()} members`);
  }

  /** The smallest value (the set must not be empty). */
  min(): bigint {
    return this.b[0]!;
  }

  /** The largest value (the set must not be empty). */
  max(): bigint {
    return this.b[this.b.length - 1]!;
  }

  has(v: bigint): boolean {
    for (let i = 0; i < this.b.length; i += 2) if (v >= this.b[i]! && v <= this.b[i + 1]!) return true;
    return false;
  }

  /** Every value in increasing order. */
  *values(): IterableIterator<bigint> {
    for (let i = 0; i < this.b.length; i += 2) for (let v = this.b[i]!; v <= this.b[i + 1]!; v++) yield v;
  }

  intersect(o: IntervalSet): IntervalSet {
    const a = this.b;
    const c = o.b;
    const out: bigint[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length && j < c.length) {
      const lo = a[i]! > c[j]! ? a[i]! : c[j]!;
      const hi = a[i + 1]! < c[j + 1]! ? a[i + 1]! : c[j + 1]!;
      if (lo <= hi) out.push(lo, hi);
      if (a[i + 1]! < c[j + 1]!) i += 2;
      else j += 2;
    }
    return new IntervalSet(this.width, out);
  }

  /** this ∩ o is not empty (no allocation: the fast layer asks this per branch). */
  overlaps(o: IntervalSet): boolean {
    const a = this.b;
    const c = o.b;
    let i = 0;
    let j = 0;
    while (i < a.length && j < c.length) {
      if (a[i + 1]! < c[j]!) i += 2;
      else if (c[j + 1]! < a[i]!) j += 2;
      else return true;
    }
    return false;
  }

  /** Every value of this is in o (o's intervals are not adjacent, so each of ours must fit in one of its). */
  isSubsetOf(o: IntervalSet): boolean {
    const a = this.b;
    const c = o.b;
    let j = 0;
    for (let i = 0; i < a.length; i += 2) {
      while (j < c.length && c[j + 1]! < a[i]!) j += 2;
      if (j >= c.length || c[j]! > a[i]! || c[j + 1]! < a[i + 1]!) return false;
    }
    return true;
  }

  union(o: IntervalSet): IntervalSet {
    return IntervalSet.fromPairs(this.width, [...this.b, ...o.b]);
  }

  complement(): IntervalSet {
    const out: bigint[] = [];
    let next = 0n;
    for (let i = 0; i < this.b.length; i += 2) {
      if (this.b[i]! > next) out.push(next, this.b[i]! - 1n);
      next = this.b[i + 1]! + 1n;
    }
    const max = maxOf(this.width);
    if (next <= max) out.push(next, max);
    return new IntervalSet(this.width, out);
  }

  /** { v + k mod 2^width : v in this set }. */
  shift(k: bigint): IntervalSet {
    const pairs: bigint[] = [];
    for (let i = 0; i < this.b.length; i += 2) {
      const r = IntervalSet.range(this.width, this.b[i]! + k, this.b[i + 1]! + k);
      pairs.push(...r.b);
    }
    return IntervalSet.fromPairs(this.width, pairs);
  }

  /** { k - v mod 2^width : v in this set }. */
  reflect(k: bigint): IntervalSet {
    const pairs: bigint[] = [];
    for (let i = 0; i < this.b.length; i += 2) {
      const r = IntervalSet.range(this.width, k - this.b[i + 1]!, k - this.b[i]!);
      pairs.push(...r.b);
    }
    return IntervalSet.fromPairs(this.width, pairs);
  }

  /** The same values in another width (they must fit). */
  withWidth(width: number): IntervalSet {
    return new IntervalSet(width, this.b);
  }

  /** The values below 2^width, in that width. */
  truncateTo(width: number): IntervalSet {
    return this.intersect(IntervalSet.range(this.width, 0n, maxOf(width))).withWidth(width);
  }

  toString(): string {
    const parts: string[] = [];
    for (let i = 0; i < this.b.length; i += 2) parts.push(`[${this.b[i]}, ${this.b[i + 1]}]`);
    return `{${parts.join(' ')}}/${this.width}`;
  }
}

const MAX_OF: bigint[] = [];
for (let w = 0; w <= 64; w++) MAX_OF.push((1n << BigInt(w)) - 1n);

export function maxOf(width: number): bigint {
  return width <= 64 ? MAX_OF[width]! : (1n << BigInt(width)) - 1n;
}
