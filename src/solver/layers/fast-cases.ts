/**
 * Case splits for the fast solver layer: a merged state's path condition is
 * prefix ∧ (suffix₁ ∨ suffix₂) (engine/merging/core.ts), nested once per merge, and its
 * branch conditions read several bytes at once, so as one constraint it is "complex" and
 * the layer's byte search rarely decides it within budget. Split on the disjunction instead:
 * the question is unsatisfiable when every case is, and a model of one case (a disjunct's
 * conjuncts with the other constraints) is a model of the question. Each case is mostly
 * simple constraints again, which interval reasoning decides at once.
 */
import { builder, ExprKind, type Expr } from '../../expr/index.js';

/**
 * The disjuncts of a width-1 expression (Or trees, ¬(a ∧ b) as ¬a ∨ ¬b); null when it is not a
 * disjunction. Iterative, left to right: a merged path condition of thousands of states is an
 * Or chain deeper than the stack.
 */
export function disjunctsOf(e: Expr): Expr[] | null {
  if (e.width !== 1) return null;
  if (e.kind !== ExprKind.Or && !(e.kind === ExprKind.Not && e.expr.kind === ExprKind.And)) return null;
  const out: Expr[] = [];
  const stack: [Expr, boolean][] = [[e, false]];
  while (stack.length > 0) {
    const [x, negated] = stack.pop()!;
    if ((!negated && x.kind === ExprKind.Or) || (negated && x.kind === ExprKind.And)) stack.push([x.right, negated], [x.left, negated]);
    else if (!negated && x.kind === ExprKind.Not && x.expr.kind === ExprKind.And) stack.push([x.expr, true]);
    else out.push(negated ? builder.not(x) : x);
  }
  return out;
}

/** Appends the conjuncts of a width-1 expression (And trees, ¬(a ∨ b) as ¬a ∧ ¬b) to `out` (iteratively, left to right). */
export function conjunctsInto(e: Expr, out: Expr[]): void {
  const stack = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.width === 1 && x.kind === ExprKind.And) stack.push(x.right, x.left);
    else if (x.width === 1 && x.kind === ExprKind.Not && x.expr.kind === ExprKind.Or) stack.push(builder.not(x.expr.right), builder.not(x.expr.left));
    else out.push(x);
  }
}

/** Whether some constraint is an And (to flatten) or a disjunction (to split). */
export function hasCompound(exprs: readonly Expr[]): boolean {
  for (const e of exprs) {
    if (e.width !== 1) continue;
    if (e.kind === ExprKind.Or || e.kind === ExprKind.And) return true;
    if (e.kind === ExprKind.Not && (e.expr.kind === ExprKind.And || e.expr.kind === ExprKind.Or)) return true;
  }
  return false;
}
