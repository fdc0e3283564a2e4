/**
 * What an expression reads, with KLEE's precision (IndependentSolver's IndependentElementSet):
 * for each array read only at constant indices, the set of byte indices; arrays read at a
 * symbolic index (anywhere, including inside an update list) count as a whole object. Reads of
 * a constant array without writes are ignored (they cannot link two constraints).
 *
 * Two expressions are independent when their sets do not intersect: no whole object of one is
 * touched by the other, and no byte is read by both.
 */
import { ExprKind, UpdateNode, walkDag, type Expr, type ExprArray } from '../../expr/index.js';

export class ElementSet {
  /** Arrays read only at constant indices → those indices. */
  readonly bytes = new Map<ExprArray, Set<number>>();
  /** Arrays read at some symbolic index. */
  readonly whole = new Set<ExprArray>();

  /** Every array mentioned. */
  arrays(): ExprArray[] {
    return [...this.whole, ...this.bytes.keys()];
  }

  isEmpty(): boolean {
    return this.whole.size === 0 && this.bytes.size === 0;
  }

  clone(): ElementSet {
    const c = new ElementSet();
    for (const a of this.whole) c.whole.add(a);
    for (const [a, s] of this.bytes) c.bytes.set(a, new Set(s));
    return c;
  }

  addByte(a: ExprArray, index: number): void {
    if (this.whole.has(a)) return;
    let s = this.bytes.get(a);
    if (s === undefined) this.bytes.set(a, (s = new Set()));
    s.add(index);
  }

  addWhole(a: ExprArray): void {
    this.bytes.delete(a);
    this.whole.add(a);
  }

  intersects(o: ElementSet): boolean {
    for (const a of this.whole) if (o.whole.has(a) || o.bytes.has(a)) return true;
    for (const [a, s] of this.bytes) {
      if (o.whole.has(a)) return true;
      const t = o.bytes.get(a);
      if (t === undefined) continue;
      const [small, big] = s.size <= t.size ? [s, t] : [t, s];
      for (const i of small) if (big.has(i)) return true;
    }
    return false;
  }

  /** Adds o into this set; returns whether this set grew. */
  add(o: ElementSet): boolean {
    let grew = false;
    for (const a of o.whole) {
      if (!this.whole.has(a)) {
        this.addWhole(a);
        grew = true;
      }
    }
    for (const [a, s] of o.bytes) {
      if (this.whole.has(a)) continue;
      let mine = this.bytes.get(a);
      if (mine === undefined) this.bytes.set(a, (mine = new Set()));
      for (const i of s) {
        if (!mine.has(i)) {
          mine.add(i);
          grew = true;
        }
      }
    }
    return grew;
  }
}

const memo = new WeakMap<Expr, ElementSet>();

/** The element set of one expression (memoised per node; do not mutate the result). */
export function elementsOf(e: Expr): ElementSet {
  const known = memo.get(e);
  if (known !== undefined) return known;
  const set = new ElementSet();
  if (e.kind !== ExprKind.Constant) {
    walkDag([e], {
      prune: (v) => !(v instanceof UpdateNode) && v.kind === ExprKind.Constant,
      post: (v) => {
        if (v instanceof UpdateNode || v.kind !== ExprKind.Read) return;
        const root = v.updates.root;
        if (root.isConstant() && v.updates.head === null) return;
        if (v.index.kind === ExprKind.Constant && v.index.width <= 32) set.addByte(root, v.index.toNumber());
        else set.addWhole(root);
      },
    });
  }
  memo.set(e, set);
  return set;
}

/** The union of the element sets of several expressions (a fresh set). */
export function elementsOfAll(es: Iterable<Expr>): ElementSet {
  const s = new ElementSet();
  for (const e of es) s.add(elementsOf(e));
  return s;
}
