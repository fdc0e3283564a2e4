/**
 * State merging at klee_open_merge / klee_close_merge (KLEE's MergeHandler and
 * ExecutionState::merge), with --use-merge.
 *
 * klee_open_merge starts a merge region: the state and every state forked from it inside the
 * region share one MergeGroup. A state reaching klee_close_merge pauses there (it leaves the
 * searcher) and is merged into an already paused state at the same instruction when the two
 * are compatible; the merged-away state ends without a test. When no running state of the
 * group is left, the paused states continue.
 *
 * Two states merge when they stand at the same instruction with the same call stack, the
 * same symbolic objects and the same live memory objects. The result keeps the constraints
 * both share plus (suffixA ∨ suffixB); every register and memory byte that differs becomes
 * `select(suffixA, a, b)`.
 */
import { builder } from '../expr/builder.js';
import { TRUE, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { ConstraintSet } from '../solver/layers/constraint-set.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import { selectValue } from './exec-arith.js';
import type { Val } from './values.js';

export class MergeGroup {
  /** Live, running states whose innermost open region is this one. */
  running = 0;
  /** Paused states, by the pc (function name + index) of their klee_close_merge. */
  readonly closed = new Map<string, ExecutionState[]>();

  constructor(readonly id: number) {}
}

/** Paused states merge only with states paused at the same klee_close_merge call. */
export function closeKey(st: ExecutionState): string {
  return `${st.stack.length}:${st.top.kf.name}:${st.prevPc}`;
}

function sameVal(a: Val, b: Val): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameVal(x, b[i]!));
  return false;
}

/** Whether b can be merged into a (KLEE's checks in ExecutionState::merge). */
function compatible(a: ExecutionState, b: ExecutionState): boolean {
  if (a.pc !== b.pc || a.stack.length !== b.stack.length) return false;
  for (let i = 0; i < a.stack.length; i++) {
    const fa = a.stack[i]!;
    const fb = b.stack[i]!;
    if (fa.kf !== fb.kf || fa.callerPc !== fb.callerPc) return false;
  }
  // console output is a persistent list: states that printed differently cannot merge
  if (a.console !== b.console) return false;
  if (a.symbolics.length !== b.symbolics.length) return false;
  for (let i = 0; i < a.symbolics.length; i++) if (a.symbolics[i]!.array !== b.symbolics[i]!.array) return false;
  if (a.openMergeStack.length !== b.openMergeStack.length || a.openMergeStack.some((g, i) => g !== b.openMergeStack[i])) return false;
  const ma = a.addressSpace.bindings();
  const mb = b.addressSpace.bindings();
  if (ma.length !== mb.length) return false;
  for (let i = 0; i < ma.length; i++) {
    if (ma[i]!.mo !== mb[i]!.mo || (ma[i]!.os === null) !== (mb[i]!.os === null)) return false;
  }
  return true;
}

function conjunction(cs: readonly Expr[]): Expr {
  let e: Expr = TRUE;
  for (const c of cs) e = builder.and(e, c);
  return e;
}

/** Merge b into a; false (nothing changed) when they are not compatible. */
export function mergeStates(ex: Executor, a: ExecutionState, b: ExecutionState): boolean {
  if (!compatible(a, b)) return false;
  const ca = a.constraints.toArray();
  const cb = b.constraints.toArray();
  const inB = new Set(cb);
  const common = ca.filter((c) => inB.has(c));
  const commonSet = new Set(common);
  const condA = conjunction(ca.filter((c) => !commonSet.has(c)));
  const condB = conjunction(cb.filter((c) => !commonSet.has(c)));
  // registers
  for (let i = 0; i < a.stack.length; i++) {
    const fb = b.stack[i]!;
    let fa = a.stack[i]!;
    const types = fa.kf.regTypes;
    for (let r = 0; r < fa.regs.length; r++) {
      const va = fa.regs[r]!;
      const vb = fb.regs[r]!;
      if (sameVal(va, vb)) continue;
      const t = types[r];
      if (t === null || t === undefined) continue;
      if (fa.frozen) {
        fa = fa.clone();
        a.stack[i] = fa;
      }
      fa.regs[r] = selectValue(ex, a, t, condA, va, vb);
    }
  }
  // memory
  const nb = b.addressSpace.bindings();
  for (const na of a.addressSpace.bindings()) {
    if (na.os === null) continue;
    const osb = nb.find((n) => n.mo === na.mo)!.os!;
    const osa = na.os;
    if (osa === osb) continue;
    let w: typeof osa | null = null;
    for (let i = 0; i < osa.size; i++) {
      const x = osa.read8(i);
      const y = osb.read8(i);
      if (x === y) continue;
      w ??= a.addressSpace.writeableOf(na.mo)!;
      const xe = typeof x === 'number' ? builder.constant(x, 8) : x;
      const ye = typeof y === 'number' ? builder.constant(y, 8) : y;
      w.write8(i, builder.select(condA, xe, ye));
    }
  }
  const merged = new ConstraintSet({ rewriteEqualities: ex.opts.rewriteEqualities });
  for (const c of common) merged.add(c);
  const either = builder.or(condA, condB);
  if (either.kind !== ExprKind.Constant) merged.add(either);
  a.constraints = merged;
  a.depth = Math.max(a.depth, b.depth);
  a.coveredNew = a.coveredNew || b.coveredNew;
  return true;
}
