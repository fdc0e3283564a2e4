/**
 * Count lemmas from written cells, for the fast layer's count splits (fast-counts.ts): paper
 * 000's update-list lemmas, on quantifier-free constraints. A constraint that reads a string
 * at an index over counts only, `48 ≤ s[k1 + k2 + 9]`, where the string's update list writes
 * a value at a constant index (the terminator, `s[100] = 0`) and the constraint is false with
 * that value in place of the read, says that the index never equals it: `k1 + k2 + 9 ≠ 100`.
 * Such a lemma reads counts only, so the split turns it into an interval on the last count
 * instead of building and failing every case one by one (a loop over digits after two merged
 * loops: one constraint per digit, each false at a different pair of counts).
 */
import { builder, collectArrays, ExprKind, FALSE, UpdateNode, walkDag, type Expr, type ReadExpr } from '../../expr/index.js';
import { replaceExprs } from './replace.js';

/** Most writes looked at per read (the newest ones: a string's terminator is written last). */
const MAX_WRITES = 8;
/** Most reads of one constraint looked at. */
const MAX_READS = 8;

const memo = new WeakMap<Expr, readonly Expr[]>();

/** The lemmas of e (memoised): each `¬(index = c)`, its index reading auxiliary counts only. */
export function writtenCellLemmas(e: Expr): readonly Expr[] {
  let out = memo.get(e);
  if (out === undefined) {
    out = compute(e);
    memo.set(e, out);
  }
  return out;
}

function compute(e: Expr): Expr[] {
  const reads: ReadExpr[] = [];
  let bound = false;
  walkDag([e], {
    prune: (v) => v instanceof UpdateNode,
    post: (v) => {
      if (v instanceof UpdateNode) return;
      if (v.kind === ExprKind.BoundVar || v.kind === ExprKind.Forall) bound = true;
      else if (v.kind === ExprKind.Read && v.updates.head !== null && v.index.kind !== ExprKind.Constant && countsOnly(v.index)) reads.push(v);
    },
  });
  if (bound || reads.length > MAX_READS) return [];
  const out: Expr[] = [];
  for (const r of reads) {
    const seen = new Set<bigint>();
    let n = 0;
    // from the newest write while the indices are constant: each is then what a read at its index returns
    for (let w = r.updates.head; w !== null && n < MAX_WRITES && w.index.kind === ExprKind.Constant; w = w.next, n++) {
      const at = w.index.value;
      if (seen.has(at)) continue;
      seen.add(at);
      if (replaceExprs(e, new Map([[r as Expr, w.value]])) === FALSE) out.push(builder.not(builder.eq(r.index, w.index)));
    }
  }
  return out;
}

/** e reads arrays, all of them auxiliary counts. */
function countsOnly(e: Expr): boolean {
  const arrays = collectArrays(e);
  if (arrays.size === 0) return false;
  for (const a of arrays) if (a.auxMax === null) return false;
  return true;
}
