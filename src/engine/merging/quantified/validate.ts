/**
 * Theorem 3.7's check on a quantified merge (--debug-validate-solver): with s' the standard
 * merge of the leaves and s the pattern-based one, `pc(s') ⇔ ∃k. pc(s)` under the root's
 * path condition, and under each leaf's path, every merged value at k = k_j is the leaf's.
 * k ranges over the k_j, so ∃k is the disjunction of the instances and each ∀ expands
 * exactly: the checks are quantifier-free questions to the solver chain. A failed check is
 * a bug of tsklee and stops the run with the merge's details.
 */
import { builder, collectArrays, TRUE, UpdateList, type Expr } from '../../../expr/index.js';
import type { ConstraintSet } from '../../../solver/layers/constraint-set.js';
import { replaceExprs } from '../../../solver/layers/replace.js';
import { expandAll } from '../../../solver/quantifiers.js';
import type { Executor } from '../../executor.js';

function conjunction(cs: readonly Expr[]): Expr {
  let e: Expr = TRUE;
  for (const x of cs) e = builder.and(e, x);
  return e;
}

/** The substitution of k's value (and of every byte read of its array) by the count v. */
function countAt(k: Expr, v: bigint): Map<Expr, Expr> {
  const m = new Map<Expr, Expr>([[k, builder.constant(v, k.width)]]);
  const arrays = [...collectArrays(k)];
  if (arrays.length !== 1) throw new Error('Theorem 3.7 check: k is not one auxiliary array');
  const ul = new UpdateList(arrays[0]!);
  for (let b = 0; b < k.width / 8; b++) m.set(builder.read(ul, builder.constant(b, 32)), builder.constant((v >> BigInt(8 * b)) & 0xffn, 8));
  return m;
}

export function checkTheorem37(
  ex: Executor,
  root: ConstraintSet,
  traces: readonly (readonly Expr[])[],
  ks: readonly bigint[],
  k: Expr,
  extra: readonly Expr[],
  values: readonly { term: Expr; vals: readonly Expr[] }[],
): void {
  const expanded = expandAll(extra, 1 << 16);
  if (expanded === null) throw new Error('Theorem 3.7 check: the merged path condition has a ∀ without a known bound');
  const pat = conjunction(expanded);
  // k at k_j: its value and each of its bytes (narrow terms read k's low bytes directly)
  const at = (e: Expr, j: number): Expr => replaceExprs(e, countAt(k, ks[j]!));
  let std: Expr = builder.bool(false);
  let exists: Expr = builder.bool(false);
  for (let j = 0; j < traces.length; j++) {
    std = builder.or(std, conjunction(traces[j]!));
    exists = builder.or(exists, at(pat, j));
  }
  const differ = builder.or(builder.and(std, builder.not(exists)), builder.and(exists, builder.not(std)));
  const cs = root.toArray();
  if (!ex.solver.computeTruth({ constraints: cs, expr: builder.not(differ) })) {
    throw new Error(`Theorem 3.7 check failed: the quantified path condition is not the standard merge's\n  ${extra.map((e) => e.toString()).join('\n  ')}`);
  }
  for (const { term, vals } of values) {
    for (let j = 0; j < traces.length; j++) {
      const eq = builder.eq(at(term, j), vals[j]!);
      if (!ex.solver.computeTruth({ constraints: [...cs, ...traces[j]!], expr: eq })) {
        throw new Error(`Theorem 3.7 check failed: merged value ${term.toString()} at k = ${ks[j]} is not ${vals[j]!.toString()}`);
      }
    }
  }
}
