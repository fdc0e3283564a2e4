/**
 * The typed access sizes a program uses on one memory object (paper 002, §3: the "access
 * type" M(a), the minimum typed access size). The memory layer records every access at a
 * symbolic offset (a typed load/store: its store size; a byte-granular operation such as a
 * symbolic-offset memcpy: 1); each array made from the object (klee_make_symbolic, or the
 * constant array `flush` builds) links to the object's record, so the solver's array
 * encoding can read M(a) from the array of a query.
 *
 * One record per object, shared by every state: M only ever decreases (a global monotone
 * minimum, which is sound because a smaller M only prunes less). Accesses at concrete offsets
 * are not recorded: they create no index variables (and clang's byte-wise initialisers
 * would otherwise force M to 1 everywhere).
 */
export class AccessTypes {
  /** Smallest recorded size in bytes; Infinity before any symbolic-offset access. */
  minSize = Infinity;
  /** Bit k set: an access of 2^k bytes was seen (sizes that are not powers of two: bit 31). */
  sizes = 0;

  record(bytes: number): void {
    if (bytes < this.minSize) this.minSize = bytes;
    const k = Math.log2(bytes);
    this.sizes |= Number.isInteger(k) && k < 31 ? 1 << k : 1 << 31;
  }

  /**
   * The modulus type-aware pruning may use: the largest power of two dividing M (a 12-byte
   * element still has a fixed offset modulo 4), 1 when nothing was recorded.
   */
  get modulus(): number {
    const m = this.minSize;
    if (!Number.isFinite(m) || m < 1) return 1;
    return m & -m;
  }
}
