/**
 * A discrete probability distribution over items with non-negative weights: insert, remove
 * and re-weight an item, and draw an item with probability weight / total — each in
 * O(log n). It plays the part of KLEE's DiscretePDF (a balanced tree of partial sums).
 *
 * Structure: a complete binary tree of partial sums over "slots", stored in a Float64Array
 * (leaves at [cap, 2·cap), node i has children 2i and 2i+1). An item owns one slot; freed
 * slots are reused last-freed-first, so the layout — and every draw — depends only on the
 * sequence of operations (deterministic). Each inner sum is recomputed as left + right on
 * every change (never incrementally adjusted), so rounding errors do not accumulate however
 * many updates a long run makes, and removed items contribute exactly 0.
 */

const MIN_CAPACITY = 16;

export class DiscretePDF<T> {
  private cap = 0;
  private sums = new Float64Array(0);
  private items: (T | undefined)[] = [];
  private readonly slotOf = new Map<T, number>();
  private readonly free: number[] = [];
  private used = 0; // slots [0, used) have been handed out at least once

  /** `owner` names the user in error messages. */
  constructor(private readonly owner = 'DiscretePDF') {}

  get size(): number {
    return this.slotOf.size;
  }

  empty(): boolean {
    return this.slotOf.size === 0;
  }

  has(item: T): boolean {
    return this.slotOf.has(item);
  }

  /** The sum of all weights. */
  get totalWeight(): number {
    return this.cap === 0 ? 0 : this.sums[1]!;
  }

  /** The weight of a member. */
  weightOf(item: T): number {
    return this.sums[this.cap + this.slot(item, 'weightOf')]!;
  }

  insert(item: T, weight: number): void {
    this.check(weight);
    if (this.slotOf.has(item)) throw new Error(`${this.owner}: item inserted twice`);
    let slot = this.free.pop();
    if (slot === undefined) {
      if (this.used === this.cap) this.grow();
      slot = this.used++;
    }
    this.slotOf.set(item, slot);
    this.items[slot] = item;
    this.set(slot, weight);
  }

  update(item: T, weight: number): void {
    this.check(weight);
    this.set(this.slot(item, 'update'), weight);
  }

  remove(item: T): void {
    const slot = this.slot(item, 'remove');
    this.set(slot, 0);
    this.items[slot] = undefined;
    this.slotOf.delete(item);
    this.free.push(slot);
  }

  /**
   * The item whose cumulative-weight interval contains `u · total` (`u` uniform in [0, 1)), so
   * each item is drawn with probability weight / total; an item of weight 0 is never drawn.
   * undefined when there is no item or every weight is 0 (the caller decides what then).
   */
  choose(u: number): T | undefined {
    if (this.cap === 0) return undefined;
    const sums = this.sums;
    const total = sums[1]!;
    if (!(total > 0)) return undefined;
    let target = u * total;
    let i = 1;
    while (i < this.cap) {
      const l = sums[2 * i]!;
      const r = sums[2 * i + 1]!;
      // Go left when the target falls in the left sum; never into a subtree of weight 0
      // (guards the right edge against rounding: u · total may round up to total).
      if ((target < l && l > 0) || !(r > 0)) {
        i = 2 * i;
      } else {
        target -= l;
        i = 2 * i + 1;
      }
    }
    return this.items[i - this.cap];
  }

  /** Every member with its weight, in slot order. */
  *entries(): IterableIterator<[T, number]> {
    for (let s = 0; s < this.used; s++) {
      const item = this.items[s];
      if (item !== undefined && this.slotOf.get(item) === s) yield [item, this.sums[this.cap + s]!];
    }
  }

  private slot(item: T, op: string): number {
    const slot = this.slotOf.get(item);
    if (slot === undefined) throw new Error(`${this.owner}: ${op} of an item that is not in the distribution`);
    return slot;
  }

  private check(weight: number): void {
    if (!(weight >= 0) || weight === Infinity) {
      throw new RangeError(`${this.owner}: a weight must be finite and >= 0, got ${weight}`);
    }
  }

  private set(slot: number, weight: number): void {
    const sums = this.sums;
    let i = this.cap + slot;
    sums[i] = weight;
    for (i >>= 1; i >= 1; i >>= 1) sums[i] = sums[2 * i]! + sums[2 * i + 1]!;
  }

  private grow(): void {
    const oldCap = this.cap;
    const cap = oldCap === 0 ? MIN_CAPACITY : oldCap * 2;
    const sums = new Float64Array(2 * cap);
    sums.set(this.sums.subarray(oldCap, 2 * oldCap), cap);
    for (let i = cap - 1; i >= 1; i--) sums[i] = sums[2 * i]! + sums[2 * i + 1]!;
    this.cap = cap;
    this.sums = sums;
    this.items.length = cap;
  }
}
