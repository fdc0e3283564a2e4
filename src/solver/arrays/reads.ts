/** Which queries involve arrays beyond constant-index reads (the array layers' work). */
import { ExprKind, type Expr } from '../../expr/index.js';
import type { Query } from '../solver.js';

const symbolicReadMemo = new WeakMap<Expr, boolean>();

/** Whether any expression of the query reads an array at a symbolic index or through writes. */
export function hasSymbolicRead(q: Query): boolean {
  for (const c of q.constraints) if (symbolicReadIn(c)) return true;
  return symbolicReadIn(q.expr);
}

function symbolicReadIn(e: Expr): boolean {
  if (e.kind === ExprKind.Constant) return false;
  const known = symbolicReadMemo.get(e);
  if (known !== undefined) return known;
  let r: boolean;
  if (e.kind === ExprKind.Read) {
    r = e.index.kind !== ExprKind.Constant || e.updates.head !== null || symbolicReadIn(e.index);
  } else {
    r = false;
    for (let i = 0; i < e.numKids && !r; i++) r = symbolicReadIn(e.kid(i));
  }
  symbolicReadMemo.set(e, r);
  return r;
}

/** Index expressions of reads at symbolic indices (outermost first). */
export function collectReadIndices(exprs: readonly Expr[], out: Expr[]): void {
  const seen = new Set<Expr>();
  const stack = [...exprs];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === ExprKind.Constant || seen.has(e) || !symbolicReadIn(e)) continue;
    seen.add(e);
    if (e.kind === ExprKind.Read) {
      if (e.index.kind !== ExprKind.Constant) out.push(e.index);
      stack.push(e.index);
      for (let n = e.updates.head; n !== null; n = n.next) stack.push(n.index, n.value);
    } else for (let i = 0; i < e.numKids; i++) stack.push(e.kid(i));
  }
}

