/**
 * Hashing and the interning (hash-consing) tables behind expressions and update nodes.
 *
 * Hashes are structural (computed from kinds, widths, values and children's hashes, never
 * from ids or addresses), so they do not depend on creation order. They are kept to 30 bits
 * so that Map keys stay small integers (V8 Smis) and lookups allocate nothing.
 *
 * Weak vs strong table, measured on this (shared, 2-core) machine with Node 20:
 *  - lookups that hit (e.g. folding 32-bit constants into interned results): ~80 ns weak
 *    (thanks to the strong front cache below) vs ~70-100 ns strong: no difference;
 *  - a workload building mostly fresh nodes (20 M builder calls, yielding to the event loop
 *    every 2000 steps): weak 0.45-0.55 M calls/s and an 11 MB heap at the end; strong
 *    0.7-1.0 M calls/s but 11 M nodes (1.7 GB) kept forever;
 *  - a sweep-on-doubling variant without FinalizationRegistry was slower still (0.35-0.4 M/s).
 * So the table is weak (WeakRef + FinalizationRegistry). Caveat, V8 semantics, verified: a
 * WeakRef keeps its target alive until the current job ends, so nothing is reclaimed while the
 * engine runs synchronously (the same workload without yields: 0.33 M/s and a 2 GB heap).
 * The engine must return to the event loop every few milliseconds (e.g. `await` a
 * `setImmediate` between searcher steps) for dead expressions to be dropped.
 */

export function mixHash(h: number, v: number): number {
  h = Math.imul(h ^ v, 0x5bd1e995);
  return h ^ (h >>> 15);
}

export function finishHash(h: number): number {
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & 0x3fffffff;
}

/** FNV-1a over UTF-16 code units. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return finishHash(h);
}

export function hashBigInt(h: number, v: bigint): number {
  while (v > 0n) {
    h = mixHash(h, Number(v & 0xffffffffn));
    v >>= 32n;
  }
  return h;
}

/** What a lookup compares candidates against; a reused object, so lookups allocate nothing. */
export interface Probe<T> {
  matches(candidate: T): boolean;
}

export interface InternTable<T extends object> {
  find(hash: number, probe: Probe<T>): T | undefined;
  add(hash: number, value: T): void;
  /** Number of hash buckets (a live-size estimate, for statistics and tests). */
  readonly size: number;
}

/**
 * Lookups of the interning tables and those that found an existing node (run.stats'
 * ExprIntern* columns). The tables are never trimmed by age or size: evicting a node that is
 * still alive would let a structurally equal one get another id, breaking hash-consing
 * (identity is equality; caches key on ids). The weak table drops exactly the dead ones.
 */
export const internCounters = { lookups: 0, hits: 0 };

/** Slots of the strong, direct-mapped cache in front of the weak table (a power of two). */
const RECENT_SLOTS = 8192;

/**
 * Values are held through WeakRefs; buckets are swept when their values are collected.
 * A small direct-mapped cache of strong references to recently found or added values sits in
 * front: hits skip `deref()` (which costs a hash-set insertion in V8) and it keeps at most
 * RECENT_SLOTS values alive, so it cannot leak.
 */
export class WeakInternTable<T extends object> implements InternTable<T> {
  private readonly map = new Map<number, WeakRef<T> | WeakRef<T>[]>();
  private readonly registry = new FinalizationRegistry<number>((h) => this.sweep(h));
  private readonly recent: (T | undefined)[] = new Array<T | undefined>(RECENT_SLOTS).fill(undefined);

  get size(): number {
    return this.map.size;
  }

  find(hash: number, probe: Probe<T>): T | undefined {
    internCounters.lookups++;
    const slot = hash & (RECENT_SLOTS - 1);
    const r = this.recent[slot];
    if (r !== undefined && probe.matches(r)) {
      internCounters.hits++;
      return r;
    }
    const e = this.map.get(hash);
    if (e === undefined) return undefined;
    if (e instanceof WeakRef) {
      const v = e.deref();
      if (v === undefined || !probe.matches(v)) return undefined;
      this.recent[slot] = v;
      internCounters.hits++;
      return v;
    }
    for (let i = 0; i < e.length; i++) {
      const v = e[i]!.deref();
      if (v !== undefined && probe.matches(v)) {
        this.recent[slot] = v;
        internCounters.hits++;
        return v;
      }
    }
    return undefined;
  }

  add(hash: number, value: T): void {
    this.recent[hash & (RECENT_SLOTS - 1)] = value;
    const ref = new WeakRef(value);
    this.registry.register(value, hash);
    const e = this.map.get(hash);
    if (e === undefined) this.map.set(hash, ref);
    else if (e instanceof WeakRef) this.map.set(hash, e.deref() === undefined ? ref : [e, ref]);
    else e.push(ref);
  }

  private sweep(hash: number): void {
    const e = this.map.get(hash);
    if (e === undefined) return;
    if (e instanceof WeakRef) {
      if (e.deref() === undefined) this.map.delete(hash);
      return;
    }
    const live = e.filter((r) => r.deref() !== undefined);
    if (live.length === 0) this.map.delete(hash);
    else this.map.set(hash, live.length === 1 ? live[0]! : live);
  }
}

/** Keeps every value forever; only for measurements and short-lived tools. */
export class StrongInternTable<T extends object> implements InternTable<T> {
  private readonly map = new Map<number, T | T[]>();

  get size(): number {
    return this.map.size;
  }

  find(hash: number, probe: Probe<T>): T | undefined {
    const e = this.map.get(hash);
    if (e === undefined) return undefined;
    if (!Array.isArray(e)) return probe.matches(e) ? e : undefined;
    for (let i = 0; i < e.length; i++) if (probe.matches(e[i]!)) return e[i];
    return undefined;
  }

  add(hash: number, value: T): void {
    const e = this.map.get(hash);
    if (e === undefined) this.map.set(hash, value);
    else if (Array.isArray(e)) e.push(value);
    else this.map.set(hash, [e, value]);
  }
}
