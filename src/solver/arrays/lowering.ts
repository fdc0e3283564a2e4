/**
 * tsklee's own array encoding, step 1 (paper 002, Algorithm 2's `abstract`): a formula over
 * arrays becomes one over bit-vectors.
 *
 *  - A write is lowered to ite (read-over-write, axiom (3)): root[i] after writes (j, v)…
 *    is ite(i = j_newest, v_newest, ite(…, root[i])). Writes whose index is a different
 *    constant from a constant i drop out, and so (interval mode) do writes at a constant
 *    index outside the read index's interval.
 *  - A read of the root at a constant index stays as it is: a byte of a symbolic array
 *    (z3 sees `select` at a constant, one variable per byte) or the constant itself.
 *  - A read of the root at a symbolic index becomes a fresh 8-bit variable (a 1-byte array
 *    of its own), one per (root, index): the congruence and element axioms that tie it to
 *    the array are not in the lowered formula — array-axioms.ts adds them (lazily or
 *    eagerly, pruned by type and interval).
 *
 * Fresh variables are kept per (root, index) expression across queries (a WeakMap on the
 * hash-consed read node), so the backend's translation cache sees the same terms again.
 */
import {
  builder,
  constant,
  ExprArray,
  ExprKind,
  UpdateList,
  UpdateNode,
  walkDag,
  type Expr,
  type Vertex,
} from '../../expr/index.js';

/** A closed integer interval of an index's values. */
export interface Interval {
  lo: bigint;
  hi: bigint;
}

/** One read at a symbolic index, replaced by a fresh variable. */
export interface SymbolicRead {
  root: ExprArray;
  /** The lowered index (32 bits). */
  index: Expr;
  /** The index as it appeared in the query (intervals are keyed by it). */
  originalIndex: Expr;
  /** The fresh 8-bit variable standing for root[index]. */
  value: Expr;
  /** The 1-byte array holding `value` (for backends that answer with array bytes). */
  valueArray: ExprArray;
}

interface FreshVar {
  value: Expr;
  array: ExprArray;
}

const freshVars = new WeakMap<Expr, FreshVar>();
let freshCounter = 0;

function freshFor(key: Expr): FreshVar {
  let f = freshVars.get(key);
  if (f === undefined) {
    const array = new ExprArray(`rd${++freshCounter}`, 1);
    f = { value: builder.read(new UpdateList(array, null), constant(0, 32)), array };
    freshVars.set(key, f);
  }
  return f;
}

export class Lowering {
  /** Reads at symbolic indices, in the order they were met. */
  readonly reads: SymbolicRead[] = [];
  /** Per root array: its reads at symbolic indices. */
  readonly readsByRoot = new Map<ExprArray, SymbolicRead[]>();
  /** Per symbolic root: its bytes read at constant indices (index → the read). */
  readonly knownBytes = new Map<ExprArray, Map<number, Expr>>();
  private readonly done = new Map<Vertex, Expr>();
  private readonly byKey = new Map<Expr, SymbolicRead>();

  /**
   * @param interval the interval of an (original) index expression, if known: writes at
   *   constant indices outside it are dropped (sound only when the caller asserts it)
   */
  constructor(private readonly interval: (index: Expr) => Interval | undefined = () => undefined) {}

  lower(e: Expr): Expr {
    if (e.kind === ExprKind.Constant) return e;
    const known = this.done.get(e);
    if (known !== undefined) return known;
    walkDag([e], {
      prune: (v) => this.done.has(v) || (!(v instanceof UpdateNode) && v.kind === ExprKind.Constant),
      post: (v) => {
        if (v instanceof UpdateNode) return;
        this.done.set(v, v.kind === ExprKind.Read ? this.lowerRead(v) : rebuild(v, (x) => this.get(x)));
      },
    });
    return this.done.get(e)!;
  }

  private get(x: Expr): Expr {
    return x.kind === ExprKind.Constant ? x : this.done.get(x)!;
  }

  private lowerRead(v: Expr & { kind: ExprKind.Read }): Expr {
    const index = this.get(v.index);
    const iv = this.interval(v.index);
    const writes: Expr[] = []; // (index, value) pairs, newest first
    for (let n = v.updates.head; n !== null; n = n.next) {
      const j = this.get(n.index);
      const value = this.get(n.value);
      if (index.kind === ExprKind.Constant && j.kind === ExprKind.Constant) {
        if (index.value === j.value) return this.fold(writes, index, value);
        continue;
      }
      if (iv !== undefined && j.kind === ExprKind.Constant && (j.value < iv.lo || j.value > iv.hi)) continue;
      writes.push(j, value);
    }
    return this.fold(writes, index, this.rootRead(v.updates.root, index, v.index));
  }

  /** ite over the kept writes (newest outermost) with `base` innermost. */
  private fold(writes: Expr[], index: Expr, base: Expr): Expr {
    let r = base;
    for (let k = writes.length - 2; k >= 0; k -= 2) r = builder.select(builder.eq(index, writes[k]!), writes[k + 1]!, r);
    return r;
  }

  private rootRead(root: ExprArray, index: Expr, originalIndex: Expr): Expr {
    if (index.kind === ExprKind.Constant) {
      const k = Number(index.value);
      if (root.constantValues !== null) return constant(k < root.size ? root.constantValues[k]! : 0, 8);
      const r = builder.read(new UpdateList(root, null), index);
      let m = this.knownBytes.get(root);
      if (m === undefined) this.knownBytes.set(root, (m = new Map()));
      m.set(k, r);
      return r;
    }
    const key = builder.read(new UpdateList(root, null), index);
    const seen = this.byKey.get(key);
    if (seen !== undefined) return seen.value;
    const f = freshFor(key);
    const read: SymbolicRead = { root, index, originalIndex, value: f.value, valueArray: f.array };
    this.byKey.set(key, read);
    this.reads.push(read);
    let list = this.readsByRoot.get(root);
    if (list === undefined) this.readsByRoot.set(root, (list = []));
    list.push(read);
    return f.value;
  }
}

/** v with its children lowered (v itself when none changed). */
function rebuild(v: Expr, k: (x: Expr) => Expr): Expr {
  switch (v.kind) {
    case ExprKind.Constant:
    case ExprKind.Read:
      return v;
    case ExprKind.Select: {
      const c = k(v.cond);
      const t = k(v.trueExpr);
      const f = k(v.falseExpr);
      return c === v.cond && t === v.trueExpr && f === v.falseExpr ? v : builder.select(c, t, f);
    }
    case ExprKind.Concat: {
      const l = k(v.left);
      const r = k(v.right);
      return l === v.left && r === v.right ? v : builder.concat(l, r);
    }
    case ExprKind.Extract: {
      const x = k(v.expr);
      return x === v.expr ? v : builder.extract(x, v.offset, v.width);
    }
    case ExprKind.ZExt: {
      const x = k(v.expr);
      return x === v.expr ? v : builder.zext(x, v.width);
    }
    case ExprKind.SExt: {
      const x = k(v.expr);
      return x === v.expr ? v : builder.sext(x, v.width);
    }
    case ExprKind.Not: {
      const x = k(v.expr);
      return x === v.expr ? v : builder.not(x);
    }
    case ExprKind.BoundVar:
    case ExprKind.Forall:
      // the quantified-query layer (solver/quantifiers.ts) sends quantified queries to the backend itself
      throw new Error('the array encoding does not take quantified queries');
    default: {
      const l = k(v.left);
      const r = k(v.right);
      return l === v.left && r === v.right ? v : builder.binary(v.kind, l, r);
    }
  }
}
