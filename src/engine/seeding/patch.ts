/**
 * Seed patching (KLEE's SeedInfo::patchSeed): a constraint is about to join a state's path
 * condition and a seed of that state violates it. The seed's bytes are changed, one at a time,
 * to values that satisfy the path condition and the constraint: first the bytes the constraint
 * reads directly (usually enough), then, if the seed still violates it, every bound byte. A
 * byte keeps its seed value whenever that value is still possible.
 */
import { builder, ExprKind, UpdateList, walkDag, type ConstantExpr, type Expr, type ExprArray } from '../../expr/index.js';
import { constantFromBV } from '../../expr/expr.js';
import { seedEvaluate } from './seed-eval.js';
import type { SeedInfo } from './seed-info.js';

/** Solver questions under the state's path condition plus `extra` constraints. */
export interface PatchQueries {
  mustBeFalse(extra: readonly Expr[], e: Expr): boolean;
  getValue(extra: readonly Expr[], e: Expr): ConstantExpr;
}

/** The (array, index) pairs of the reads in e at constant indices (not through its writes). */
function directReads(e: Expr): [ExprArray, number][] {
  const out: [ExprArray, number][] = [];
  const seen = new Set<string>();
  walkDag([e], {
    prune: (v) => !('kind' in v),
    post: (v) => {
      if (!('kind' in v) || v.kind !== ExprKind.Read || v.index.kind !== ExprKind.Constant) return;
      const root = v.updates.root;
      const i = Number(v.index.value);
      const key = `${root.id}:${i}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push([root, i]);
      }
    },
  });
  return out.sort((a, b) => a[0].id - b[0].id || a[1] - b[1]);
}

/** Patch `seed` so that it satisfies `condition` (and the path condition, which it already satisfies). */
export function patchSeed(seed: SeedInfo, condition: Expr, q: PatchQueries): void {
  const required: Expr[] = [condition];
  const fixByte = (array: ExprArray, bytes: Uint8Array, i: number): void => {
    const read = builder.read(new UpdateList(array, null), constantFromBV(i, 32));
    const isSeed = builder.eq(read, constantFromBV(bytes[i]!, 8));
    if (q.mustBeFalse(required, isSeed)) {
      const v = q.getValue(required, read);
      bytes[i] = Number(v.value);
      required.push(builder.eq(read, v));
    } else required.push(isSeed);
  };
  for (const [array, i] of directReads(condition)) {
    const bytes = seed.assignment.get(array);
    if (bytes !== undefined && i < bytes.length) fixByte(array, bytes, i);
  }
  if (!q.mustBeFalse([], seedEvaluate(condition, seed))) return;
  const arrays = [...seed.assignment.entries()].sort((a, b) => a[0].id - b[0].id);
  for (const [array, bytes] of arrays) for (let i = 0; i < bytes.length; i++) fixByte(array, bytes, i);
}
