/**
 * KLEE's --optimize-array=value (ArrayExprOptimizer's value-based transformation): a byte
 * read at a symbolic index from an object whose bytes are all concrete becomes a choice
 * among the values the object holds — `ite(idx ∈ {positions of v1}, v1, ite(…, v2, …))` —
 * instead of a read of a constant array, so the solver needs no array theory for it. The
 * positions of the most frequent value are the default branch (fewest comparisons).
 * Objects larger than MAX_OPTIMIZED_SIZE keep the array read (the choice would be larger
 * than the array).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';

export const MAX_OPTIMIZED_SIZE = 1024;

/** The byte at `index` (32 bits) of `bytes`, as a choice among the values present. */
export function valueChoice(bytes: Uint8Array, index: Expr): Expr {
  const positions = new Map<number, number[]>();
  for (let i = 0; i < bytes.length; i++) {
    const v = bytes[i]!;
    let list = positions.get(v);
    if (list === undefined) positions.set(v, (list = []));
    list.push(i);
  }
  // most frequent last: it becomes the default
  const groups = [...positions.entries()].sort((a, b) => a[1].length - b[1].length || a[0] - b[0]);
  let e: Expr = constantFromBV(groups[groups.length - 1]![0], 8);
  for (let g = groups.length - 2; g >= 0; g--) {
    const [value, at] = groups[g]!;
    let cond: Expr | null = null;
    for (const i of at) {
      const eq = builder.eq(index, constantFromBV(i, 32));
      cond = cond === null ? eq : builder.or(cond, eq);
    }
    e = builder.select(cond!, constantFromBV(value, 8), e);
  }
  return e;
}
