/**
 * The array axioms of a lowered query (paper 002, Algorithm 4), their pruning, and the
 * check of a model against them (Algorithm 2's Select).
 *
 * For a read r = root[v] at a symbolic index (lowering.ts), the candidate axioms are
 *  - element:  v = j ⇒ r = root[j]     for every byte j of a constant root (its value), or
 *              every byte j of a symbolic root the query reads at a constant index;
 *  - pair:     v = w ⇒ r = s           for every other read s = root[w] of the same root;
 *  - bound:    v ≥ size ⇒ r = 0        for a constant root (reads past its end give 0, as
 *              the backend's constant arrays and evaluate() do).
 * Together they are exact: a model of the lowered formula satisfying all of them is a model
 * of the original one. Pruning keeps that exactness:
 *  - typed: with m the power-of-two part of the root's access size M(a) (AccessTypes), an
 *    element axiom is dropped when j mod m differs from v's residue mod m and a pair when
 *    the two residues differ — but only residues proven from the index's own structure
 *    (low-bits.ts), so an unaligned access simply prunes nothing: v = j cannot hold, the
 *    axiom is vacuous;
 *  - interval: element axioms for j outside v's interval, pairs with disjoint intervals and
 *    bound axioms of indices that stay below the size are dropped; the layer asserts each
 *    interval (implied by the query's own constraints), so they are vacuous too.
 *
 * The pool is never materialised for the lazy mode: a model's violations are computed
 * directly (each read's index value names the one element axiom that can fire), and the
 * pool's size is counted arithmetically.
 */
import { builder, constant, type Expr, type ExprArray } from '../../expr/index.js';
import { residue } from './low-bits.js';
import type { Interval, Lowering, SymbolicRead } from './lowering.js';

export type AxiomMode = 'plain' | 'typed' | 'typed-interval';

export interface AxiomCounts {
  element: number;
  pair: number;
  bound: number;
}

/** Values of the lowered query's terms in one model of the abstraction. */
export interface ModelValues {
  value(e: Expr): bigint;
}

interface ReadInfo {
  read: SymbolicRead;
  /** Offset modulo the root's modulus, when proven; null otherwise. */
  offset: number | null;
  interval: Interval;
}

const FULL: Interval = { lo: 0n, hi: 0xffff_ffffn };

export class AxiomPool {
  /** Per root: the modulus type pruning uses (1: none). */
  private readonly modulus = new Map<ExprArray, number>();
  private readonly infos = new Map<SymbolicRead, ReadInfo>();
  /** Candidate axioms with no pruning, and after pruning. */
  readonly unpruned: AxiomCounts = { element: 0, pair: 0, bound: 0 };
  readonly pruned: AxiomCounts = { element: 0, pair: 0, bound: 0 };

  constructor(
    private readonly lowering: Lowering,
    readonly mode: AxiomMode,
    intervalOf: (index: Expr) => Interval | undefined,
  ) {
    for (const [root, reads] of lowering.readsByRoot) {
      const m = mode === 'plain' ? 1 : (root.access?.modulus ?? 1);
      this.modulus.set(root, m);
      for (const read of reads) {
        const iv = mode === 'typed-interval' ? (intervalOf(read.originalIndex) ?? FULL) : FULL;
        this.infos.set(read, { read, offset: m > 1 ? residue(read.index, m) : null, interval: iv });
      }
    }
    this.count();
  }

  /** The intervals the layer must assert (interval mode only). */
  assertedIntervals(): { index: Expr; interval: Interval }[] {
    if (this.mode !== 'typed-interval') return [];
    const out: { index: Expr; interval: Interval }[] = [];
    for (const info of this.infos.values()) {
      if (info.interval.lo > 0n || info.interval.hi < FULL.hi) out.push({ index: info.read.index, interval: info.interval });
    }
    return out;
  }

  /** Every kept axiom, as formulas (the eager mode). */
  all(): Expr[] {
    const out: Expr[] = [];
    for (const [root, reads] of this.lowering.readsByRoot) {
      for (const r of reads) {
        const info = this.infos.get(r)!;
        for (const j of this.elementIndices(root, info)) out.push(this.elementAxiom(root, r, j));
        if (this.keepsBound(root, info)) out.push(boundAxiom(root, r));
      }
      for (let a = 0; a < reads.length; a++) {
        for (let b = a + 1; b < reads.length; b++) {
          if (this.keepsPair(this.infos.get(reads[a]!)!, this.infos.get(reads[b]!)!)) out.push(pairAxiom(reads[a]!, reads[b]!));
        }
      }
    }
    return out;
  }

  /**
   * The axioms (kept or not) that the model violates; `outsidePool` counts those pruning had
   * dropped (never expected: a pruned axiom is vacuous under the asserted intervals).
   */
  violated(m: ModelValues): { axioms: Expr[]; outsidePool: number } {
    const axioms: Expr[] = [];
    let outsidePool = 0;
    for (const [root, reads] of this.lowering.readsByRoot) {
      const byIndex = new Map<bigint, SymbolicRead>();
      const known = this.lowering.knownBytes.get(root);
      for (const r of reads) {
        const info = this.infos.get(r)!;
        const v = m.value(r.index);
        const x = m.value(r.value);
        if (root.constantValues !== null) {
          const inside = v < BigInt(root.size);
          const want = inside ? BigInt(root.constantValues[Number(v)]!) : 0n;
          if (x !== want) {
            if (inside) {
              if (!this.keepsElement(root, info, Number(v))) outsidePool++;
              axioms.push(this.elementAxiom(root, r, Number(v)));
            } else {
              if (!this.keepsBound(root, info)) outsidePool++;
              axioms.push(boundAxiom(root, r));
            }
          }
        } else if (v <= 0xffff_ffffn && known?.has(Number(v)) === true) {
          if (x !== m.value(known.get(Number(v))!)) {
            if (!this.keepsElement(root, info, Number(v))) outsidePool++;
            axioms.push(this.elementAxiom(root, r, Number(v)));
          }
        }
        const other = byIndex.get(v);
        if (other === undefined) byIndex.set(v, r);
        else if (m.value(other.value) !== x) {
          if (!this.keepsPair(this.infos.get(other)!, info)) outsidePool++;
          axioms.push(pairAxiom(other, r));
        }
      }
    }
    return { axioms, outsidePool };
  }

  // ---- which axioms pruning keeps ----

  private keepsElement(root: ExprArray, info: ReadInfo, j: number): boolean {
    const m = this.modulus.get(root)!;
    if (info.offset !== null && j % m !== info.offset) return false;
    return BigInt(j) >= info.interval.lo && BigInt(j) <= info.interval.hi;
  }

  private keepsBound(root: ExprArray, info: ReadInfo): boolean {
    return root.constantValues !== null && info.interval.hi >= BigInt(root.size);
  }

  private keepsPair(a: ReadInfo, b: ReadInfo): boolean {
    if (a.offset !== null && b.offset !== null && a.offset !== b.offset) return false;
    return a.interval.lo <= b.interval.hi && b.interval.lo <= a.interval.hi;
  }

  /** The byte positions j of the root's element axioms for one read (kept ones). */
  private *elementIndices(root: ExprArray, info: ReadInfo): Generator<number> {
    if (root.constantValues !== null) {
      const m = this.modulus.get(root)!;
      const lo = Number(info.interval.lo < 0n ? 0n : info.interval.lo);
      const hi = Math.min(root.size - 1, Number(info.interval.hi > 0xffff_ffffn ? 0xffff_ffffn : info.interval.hi));
      let j = lo;
      if (info.offset !== null) j += (((info.offset - lo) % m) + m) % m;
      for (; j <= hi; j += info.offset !== null ? m : 1) yield j;
      return;
    }
    for (const k of this.lowering.knownBytes.get(root)?.keys() ?? []) if (this.keepsElement(root, info, k)) yield k;
  }

  private elementAxiom(root: ExprArray, r: SymbolicRead, j: number): Expr {
    const value = root.constantValues !== null ? constant(root.constantValues[j]!, 8) : this.lowering.knownBytes.get(root)!.get(j)!;
    return builder.or(builder.ne(r.index, constant(j, 32)), builder.eq(r.value, value));
  }

  private count(): void {
    for (const [root, reads] of this.lowering.readsByRoot) {
      const bytes = root.constantValues !== null ? root.size : (this.lowering.knownBytes.get(root)?.size ?? 0);
      this.unpruned.element += bytes * reads.length;
      this.unpruned.pair += (reads.length * (reads.length - 1)) / 2;
      if (root.constantValues !== null) this.unpruned.bound += reads.length;
      for (let a = 0; a < reads.length; a++) {
        const info = this.infos.get(reads[a]!)!;
        this.pruned.element += this.countElements(root, info);
        if (this.keepsBound(root, info)) this.pruned.bound++;
        for (let b = a + 1; b < reads.length; b++) if (this.keepsPair(info, this.infos.get(reads[b]!)!)) this.pruned.pair++;
      }
    }
  }

  private countElements(root: ExprArray, info: ReadInfo): number {
    if (root.constantValues === null) {
      let n = 0;
      for (const k of this.lowering.knownBytes.get(root)?.keys() ?? []) if (this.keepsElement(root, info, k)) n++;
      return n;
    }
    const lo = info.interval.lo < 0n ? 0 : Number(info.interval.lo);
    const hi = Math.min(root.size - 1, info.interval.hi > 0xffff_ffffn ? 0xffff_ffff : Number(info.interval.hi));
    if (hi < lo) return 0;
    if (info.offset === null) return hi - lo + 1;
    const m = this.modulus.get(root)!;
    const first = lo + ((((info.offset - lo) % m) + m) % m);
    return first > hi ? 0 : Math.floor((hi - first) / m) + 1;
  }
}

function boundAxiom(root: ExprArray, r: SymbolicRead): Expr {
  return builder.or(builder.ult(r.index, constant(root.size, 32)), builder.eq(r.value, constant(0, 8)));
}

function pairAxiom(a: SymbolicRead, b: SymbolicRead): Expr {
  return builder.or(builder.ne(a.index, b.index), builder.eq(a.value, b.value));
}

/** Sum of an axiom count's parts. */
export function totalAxioms(c: AxiomCounts): number {
  return c.element + c.pair + c.bound;
}
