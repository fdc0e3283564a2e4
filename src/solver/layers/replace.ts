/**
 * Substitution in expressions (KLEE's ExprReplaceVisitor / ExprReplaceVisitor2): every
 * occurrence of a key of `map` is replaced by its value and the expression is rebuilt
 * bottom-up with the simplifying builder, so the replacement folds (e.g. `x == 3` under
 * x ↦ 3 becomes true). Reads are rebuilt with their update lists' indices and values
 * substituted too. Iterative (walkDag), so deep expressions do not exhaust the stack.
 */
import {
  builder,
  ExprKind,
  hasAddressSymbol,
  UpdateList,
  UpdateNode,
  walkDag,
  type Expr,
  type Vertex,
} from '../../expr/index.js';

/** What replaceExprs substitutes: a Map, or anything that looks up like one. */
export interface Substitution {
  get(e: Expr): Expr | undefined;
  has(e: Expr): boolean;
  readonly size: number;
  /** Every key is an address symbol (relocatable addressing): subexpressions that mention none stay as they are, unvisited. */
  readonly addressSymbolsOnly?: boolean;
  /** Rewrites kept across calls while the substitution stays the same (vertex → its rewrite): shared update lists are walked once. */
  readonly memo?: Map<Vertex, Vertex>;
}

/** A rewrite of the update lists of rebuilt reads (the identity when absent). */
export type ListRewrite = (ul: UpdateList) => UpdateList;

let listRewrite: ListRewrite | null = null;

/**
 * e with each occurrence of a key of `map` replaced by its value (same widths). `lists`, when
 * given, rewrites the update list of every read that substitution changed.
 */
export function replaceExprs(e: Expr, map: Substitution, lists?: ListRewrite): Expr {
  if (map.size === 0 || e.kind === ExprKind.Constant) return map.get(e) ?? e;
  visits = 0;
  listRewrite = lists ?? null;
  try {
    return replaceSmall(e, map) ?? replaceDag(e, map);
  } finally {
    listRewrite = null;
  }
}

function readOf(ul: UpdateList, index: Expr): Expr {
  return builder.read(listRewrite === null ? ul : listRewrite(ul), index);
}

/** Most vertices replaceSmall visits before giving up (branch conditions are a few nodes). */
const SMALL_VISITS = 40;
let visits = 0;

/**
 * The same rebuild as replaceDag, by plain recursion without its sets and maps (most
 * branch conditions and constraints are a handful of nodes): null when e has more than
 * SMALL_VISITS vertices or reads through writes. A shared subexpression may be visited
 * twice; the builder is deterministic, so the result is the same.
 */
function replaceSmall(v: Expr, map: Substitution): Expr | null {
  if (v.kind === ExprKind.Constant || (map.addressSymbolsOnly === true && !hasAddressSymbol(v))) return v;
  const m = map.get(v);
  if (m !== undefined) return m;
  if (++visits > SMALL_VISITS) return null;
  switch (v.kind) {
    case ExprKind.Read: {
      if (v.updates.head !== null) return null;
      const index = replaceSmall(v.index, map);
      if (index === null) return null;
      return index === v.index ? v : readOf(v.updates, index);
    }
    case ExprKind.Select: {
      const c = replaceSmall(v.cond, map);
      if (c === null) return null;
      const t = replaceSmall(v.trueExpr, map);
      if (t === null) return null;
      const f = replaceSmall(v.falseExpr, map);
      if (f === null) return null;
      return c === v.cond && t === v.trueExpr && f === v.falseExpr ? v : builder.select(c, t, f);
    }
    case ExprKind.Concat: {
      const l = replaceSmall(v.left, map);
      if (l === null) return null;
      const r = replaceSmall(v.right, map);
      if (r === null) return null;
      return l === v.left && r === v.right ? v : builder.concat(l, r);
    }
    case ExprKind.Extract: {
      const x = replaceSmall(v.expr, map);
      if (x === null) return null;
      return x === v.expr ? v : builder.extract(x, v.offset, v.width);
    }
    case ExprKind.ZExt: {
      const x = replaceSmall(v.expr, map);
      if (x === null) return null;
      return x === v.expr ? v : builder.zext(x, v.width);
    }
    case ExprKind.SExt: {
      const x = replaceSmall(v.expr, map);
      if (x === null) return null;
      return x === v.expr ? v : builder.sext(x, v.width);
    }
    case ExprKind.Not: {
      const x = replaceSmall(v.expr, map);
      if (x === null) return null;
      return x === v.expr ? v : builder.not(x);
    }
    case ExprKind.BoundVar:
      return v;
    case ExprKind.Forall: {
      const u = replaceSmall(v.upper, map);
      if (u === null) return null;
      const b = replaceSmall(v.body, map);
      if (b === null) return null;
      return u === v.upper && b === v.body ? v : builder.forall(v.bound, u, b);
    }
    default: {
      const l = replaceSmall(v.left, map);
      if (l === null) return null;
      const r = replaceSmall(v.right, map);
      if (r === null) return null;
      return l === v.left && r === v.right ? v : builder.binary(v.kind, l, r);
    }
  }
}

/** replaceExprs for any expression: an iterative walk, each distinct vertex once. */
function replaceDag(e: Expr, map: Substitution): Expr {
  const memo = map.memo;
  const done = memo ?? new Map<Vertex, Vertex>();
  const onlyAddress = map.addressSymbolsOnly === true;
  const unchanged = (v: Vertex): boolean => (v instanceof UpdateNode ? !v.mentionsAddress : !hasAddressSymbol(v));
  const get = (v: Vertex): Vertex => {
    if (!(v instanceof UpdateNode)) {
      if (v.kind === ExprKind.Constant) return v;
      const m = map.get(v);
      if (m !== undefined) return m;
    }
    return done.get(v) ?? v;
  };
  walkDag([e], {
    prune: (v) => (onlyAddress && unchanged(v)) || (memo !== undefined && memo.has(v)) || (!(v instanceof UpdateNode) && (v.kind === ExprKind.Constant || map.has(v))),
    post: (v) => {
      if (v instanceof UpdateNode) {
        const next = v.next === null ? null : (get(v.next) as UpdateNode);
        const index = get(v.index) as Expr;
        const value = get(v.value) as Expr;
        if (next !== v.next || index !== v.index || value !== v.value) done.set(v, UpdateNode.create(v.root, index, value, next));
        else if (memo !== undefined) done.set(v, v);
        return;
      }
      const r = rebuild(v, get);
      if (r !== v || memo !== undefined) done.set(v, r);
    },
  });
  return get(e) as Expr;
}

/** v with its children mapped through `get`, or v itself when none changed. */
function rebuild(v: Expr, get: (x: Vertex) => Vertex): Expr {
  const k = (x: Expr): Expr => get(x) as Expr;
  switch (v.kind) {
    case ExprKind.Constant:
      return v;
    case ExprKind.Read: {
      const head = v.updates.head === null ? null : (get(v.updates.head) as UpdateNode);
      const index = k(v.index);
      if (head === v.updates.head && index === v.index) return v;
      return readOf(head === v.updates.head ? v.updates : new UpdateList(v.updates.root, head), index);
    }
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
      return v;
    case ExprKind.Forall: {
      const u = k(v.upper);
      const b = k(v.body);
      return u === v.upper && b === v.body ? v : builder.forall(v.bound, u, b);
    }
    default: {
      const l = k(v.left);
      const r = k(v.right);
      return l === v.left && r === v.right ? v : builder.binary(v.kind, l, r);
    }
  }
}
