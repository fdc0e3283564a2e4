/**
 * A map with a bounded number of entries, evicting the least recently used ones in bulk:
 * two generations (maps). Entries go into the young one; an entry found in the old one moves
 * to the young one; when the young one is full it becomes the old one and the old one is
 * dropped (each dropped entry passed to `onEvict`). So the map holds at most 2 × capacity
 * entries and never drops one used within the last `capacity` insertions.
 *
 * Why not an npm LRU (lru-cache, the well-kept one): a hit here is one Map lookup with no
 * bookkeeping, eviction is O(1) amortised without per-entry links, and `manual` rotation lets
 * the z3 translation cache evict only between queries (while a query is being translated, its
 * children's handles must stay valid), which an LRU that evicts inside `set` does not allow.
 */
export interface GenerationalMapOptions<V> {
  /** Entries per generation (the map holds up to twice as many). */
  capacity: number;
  /** Called for each entry dropped by a rotation. */
  onEvict?: (value: V) => void;
  /** Rotate only when `rotateIfFull()` is called, not inside `set` (default false). */
  manual?: boolean;
}

export class GenerationalMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  /** Entries dropped by rotations so far. */
  evicted = 0;
  /** Rotations so far. */
  rotations = 0;

  constructor(private readonly opts: GenerationalMapOptions<V>) {
    if (!(opts.capacity >= 1)) throw new RangeError(`GenerationalMap: capacity must be at least 1 (got ${opts.capacity})`);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  /** Entries in the young generation (used or added since the last rotation). */
  get youngSize(): number {
    return this.young.size;
  }

  get(key: K): V | undefined {
    const v = this.young.get(key);
    if (v !== undefined) return v;
    return this.promote(key);
  }

  has(key: K): boolean {
    return this.young.has(key) || this.promote(key) !== undefined;
  }

  set(key: K, value: V): void {
    this.young.set(key, value);
    if (!this.opts.manual) this.rotateIfFull();
  }

  /** Makes the young generation the old one when it is full (dropping the old one). */
  rotateIfFull(): void {
    if (this.young.size >= this.opts.capacity) this.rotate();
  }

  /** Makes the young generation the old one, dropping the old one. */
  rotate(): void {
    const dropped = this.old;
    this.old = this.young;
    this.young = new Map();
    this.evicted += dropped.size;
    this.rotations++;
    const onEvict = this.opts.onEvict;
    if (onEvict !== undefined) for (const v of dropped.values()) onEvict(v);
  }

  /** Every entry, young ones first. */
  *values(): IterableIterator<V> {
    yield* this.young.values();
    yield* this.old.values();
  }

  /** Drops every entry (each passed to `onEvict`). */
  clear(): void {
    const onEvict = this.opts.onEvict;
    if (onEvict !== undefined) for (const v of this.values()) onEvict(v);
    this.young.clear();
    this.old.clear();
  }

  private promote(key: K): V | undefined {
    const v = this.old.get(key);
    if (v === undefined) return undefined;
    this.old.delete(key);
    this.young.set(key, v);
    // no rotation here: a lookup never evicts (the caller may hold values it just looked up)
    return v;
  }
}
