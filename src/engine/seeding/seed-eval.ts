/**
 * An expression under a seed's assignment (KLEE's Assignment::evaluate with free values
 * allowed): what the seed fixes becomes constant, what it leaves free stays symbolic. When
 * every array the expression reads is bound in full (the usual case) the result is a constant;
 * otherwise each Read that depends only on fully bound arrays, and each direct read of a bound
 * byte, is replaced by its value and the rest is rebuilt around them.
 */
import { collectArrays, Evaluator, ExprKind, walkDag, type Expr, type ExprArray } from '../../expr/index.js';
import { constantFromBV } from '../../expr/expr.js';
import { replaceExprs } from '../../solver/layers/replace.js';
import type { SeedInfo } from './seed-info.js';

export function seedEvaluate(e: Expr, seed: SeedInfo): Expr {
  if (e.kind === ExprKind.Constant) return e;
  const closed = (arrays: ReadonlySet<ExprArray>): boolean => {
    for (const a of arrays) if (a.isSymbolic() && !seed.bindsAll(a)) return false;
    return true;
  };
  const evaluator = new Evaluator(seed.assignment);
  if (closed(collectArrays(e))) return constantFromBV(evaluator.valueOf(e), e.width);
  const map = new Map<Expr, Expr>();
  walkDag([e], {
    prune: (v) => 'kind' in v && v.kind === ExprKind.Constant,
    post: (v) => {
      if (!('kind' in v) || v.kind !== ExprKind.Read) return;
      if (closed(collectArrays(v))) {
        map.set(v, constantFromBV(evaluator.valueOf(v), v.width));
        return;
      }
      // a byte read directly, with no writes on top: its seed value when it has one
      const bytes = seed.assignment.get(v.updates.root);
      if (bytes !== undefined && v.updates.head === null && v.index.kind === ExprKind.Constant) {
        const i = Number(v.index.value);
        if (i < bytes.length) map.set(v, constantFromBV(bytes[i]!, 8));
      }
    },
  });
  return replaceExprs(e, map);
}
