/**
 * Queries over expressions: arrays mentioned (memoised on the nodes), DAG size.
 */
import { UpdateNode, type ExprArray } from './array.js';
import { memoSlot, type Expr } from './expr.js';
import { ExprKind } from './kinds.js';
import { successors, walkDag, type Vertex } from './traverse.js';

const EMPTY: ReadonlySet<ExprArray> = new Set();
const singletons = new WeakMap<ExprArray, ReadonlySet<ExprArray>>();
// Update nodes are fewer than expressions; a side table keeps their class free of util state.
const updateMemo = new WeakMap<UpdateNode, ReadonlySet<ExprArray>>();

function singleton(a: ExprArray): ReadonlySet<ExprArray> {
  let s = singletons.get(a);
  if (s === undefined) singletons.set(a, (s = new Set([a])));
  return s;
}

function subset(a: ReadonlySet<ExprArray>, b: ReadonlySet<ExprArray>): boolean {
  if (a.size > b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/** Union that reuses an operand when it already contains the other, so memos share sets. */
function union(a: ReadonlySet<ExprArray>, b: ReadonlySet<ExprArray>): ReadonlySet<ExprArray> {
  if (a === b || subset(b, a)) return a;
  if (subset(a, b)) return b;
  return new Set([...a, ...b]);
}

function memoOf(v: Vertex): ReadonlySet<ExprArray> | undefined {
  if (v instanceof UpdateNode) return updateMemo.get(v);
  if (v.kind === ExprKind.Constant) return EMPTY;
  return memoSlot(v).arraysMemo as ReadonlySet<ExprArray> | undefined;
}

/**
 * The arrays an expression reads (through Reads and the writes of their update lists).
 * Memoised per node; the returned set is shared and must not be mutated.
 */
export function collectArrays(e: Expr): ReadonlySet<ExprArray> {
  const known = memoOf(e);
  if (known !== undefined) return known;
  const succ: Vertex[] = [];
  walkDag([e], {
    prune: (v) => memoOf(v) !== undefined,
    post: (v) => {
      let acc = EMPTY;
      if (v instanceof UpdateNode) acc = singleton(v.root);
      else if (v.kind === ExprKind.Read) acc = singleton(v.updates.root);
      succ.length = 0;
      successors(v, succ);
      for (const c of succ) acc = union(acc, memoOf(c)!);
      if (v instanceof UpdateNode) updateMemo.set(v, acc);
      else memoSlot(v).arraysMemo = acc;
    },
  });
  return memoOf(e)!;
}

/** The arrays read by any of the expressions (a fresh set). */
export function collectArraysOf(exprs: Iterable<Expr>): Set<ExprArray> {
  const out = new Set<ExprArray>();
  for (const e of exprs) for (const a of collectArrays(e)) out.add(a);
  return out;
}

/** Number of distinct expressions and update nodes reachable from e. */
export function dagSize(e: Expr): number {
  let n = 0;
  walkDag([e], { post: () => void n++ });
  return n;
}
