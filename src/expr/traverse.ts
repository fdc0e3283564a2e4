/**
 * Iterative DAG traversal over expressions and update nodes. Expressions can be far deeper
 * than the JS stack (long Add chains from loops, long update lists), so nothing that walks a
 * whole expression recurses.
 */
import { UpdateNode } from './array.js';
import type { Expr } from './expr.js';
import { ExprKind } from './kinds.js';

/** A node of the expression DAG: an expression or one write of an update list. */
export type Vertex = Expr | UpdateNode;

/** Successors of a vertex: kids of an expression (a Read's head write first), or a write's next, index and value. */
export function successors(v: Vertex, out: Vertex[]): void {
  if (v instanceof UpdateNode) {
    if (v.next !== null) out.push(v.next);
    out.push(v.index, v.value);
    return;
  }
  switch (v.kind) {
    case ExprKind.Constant:
      return;
    case ExprKind.Read:
      if (v.updates.head !== null) out.push(v.updates.head);
      out.push(v.index);
      return;
    case ExprKind.Select:
      out.push(v.cond, v.trueExpr, v.falseExpr);
      return;
    default:
      for (let i = 0, n = v.numKids; i < n; i++) out.push(v.kid(i));
  }
}

export interface WalkOptions {
  /** Called after all successors of v (each distinct vertex once). */
  post?: (v: Vertex) => void;
  /** Called for every edge parent → child, including edges to vertices already seen. */
  edge?: (child: Vertex, parent: Vertex) => void;
  /** Vertices for which this returns true are neither entered nor posted. */
  prune?: (v: Vertex) => boolean;
}

/** Depth-first walk from the roots, each distinct vertex once, children before parents. */
export function walkDag(roots: Iterable<Vertex>, opts: WalkOptions): void {
  const { post, edge, prune } = opts;
  const seen = new Set<Vertex>();
  const done = new Set<Vertex>();
  const stack: Vertex[] = [];
  const succ: Vertex[] = [];
  for (const root of roots) {
    if (seen.has(root) || prune?.(root)) continue;
    stack.push(root);
    while (stack.length > 0) {
      const v = stack[stack.length - 1]!;
      if (!seen.has(v)) {
        seen.add(v);
        succ.length = 0;
        successors(v, succ);
        for (let i = succ.length - 1; i >= 0; i--) {
          const c = succ[i]!;
          edge?.(c, v);
          if (!seen.has(c) && !prune?.(c)) stack.push(c);
        }
      } else {
        stack.pop();
        if (!done.has(v)) {
          done.add(v);
          post?.(v);
        }
      }
    }
  }
}

/** Whether the DAG under `root` has more than `limit` distinct vertices (a walk of at most limit + 1). */
export function dagLargerThan(root: Vertex, limit: number): boolean {
  const seen = new Set<Vertex>([root]);
  const stack: Vertex[] = [root];
  const succ: Vertex[] = [];
  while (stack.length > 0) {
    succ.length = 0;
    successors(stack.pop()!, succ);
    for (const c of succ) {
      if (seen.has(c)) continue;
      if (seen.size >= limit) return true;
      seen.add(c);
      stack.push(c);
    }
  }
  return false;
}
