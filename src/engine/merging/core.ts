/**
 * The merge core: the one place that merges two execution states (DESIGN "Merge core"),
 * used by manual merging (klee_open_merge / klee_close_merge), static and dynamic state
 * merging.
 *
 * Two states merge when they stand at the same instruction with the same call stack, the same
 * symbolic arrays, the same open merge regions and the same memory objects. Objects are the
 * same when both address spaces bind an object at the same address with the same size, kind
 * and liveness: the allocator is deterministic per path, so two paths that made the same
 * allocations (a malloc on each side of a diamond, a call's allocas) have them at the same
 * addresses even though each path made its own MemoryObject (KLEE requires the very same
 * objects, which forbids merging across most calls).
 *
 * The result (KLEE's ExecutionState::merge, and the digest of paper 001 §4.4): the path
 * condition is the common constraints ∧ (suffixA ∨ suffixB); each register, memory byte and
 * console record that differs becomes `ite(suffixA, a, b)`; the multiplicity (how many paths
 * the state stands for) is the sum.
 */
import { builder } from '../../expr/builder.js';
import { TRUE, type Expr } from '../../expr/expr.js';
import { ExprKind } from '../../expr/kinds.js';
import type { Type } from '../../ir/types.js';
import { livenessOf } from './liveness.js';
import { framePc } from './location.js';
import type { PNode } from '../../memory/pmap.js';
import type { Executor } from '../executor.js';
import type { ExecutionState, Witness } from '../state.js';
import { selectValue } from '../exec-arith.js';
import type { Val } from '../values.js';
import type { ConsoleChunk } from '../special/console.js';

export function sameVal(a: Val, b: Val): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameVal(a[i]!, b[i]!)) return false;
    return true;
  }
  return false;
}

/** Both stand at the same instruction of the same call stack. */
export function sameLocation(a: ExecutionState, b: ExecutionState): boolean {
  if (a.pc !== b.pc || a.stack.length !== b.stack.length) return false;
  for (let i = 0; i < a.stack.length; i++) {
    const fa = a.stack[i]!;
    const fb = b.stack[i]!;
    if (fa.kf !== fb.kf || fa.callerPc !== fb.callerPc) return false;
  }
  return true;
}

function sameObject(x: PNode, y: PNode): boolean {
  if (x.mo === y.mo) return (x.os === null) === (y.os === null);
  return x.mo.address === y.mo.address && x.mo.size === y.mo.size && x.mo.kind === y.mo.kind && (x.os === null) === (y.os === null);
}

/**
 * Why b cannot be merged into a, or null when it can (the structural conditions; whether a
 * merge pays is the similarity relation's business, merging/similarity.ts).
 */
export function mergeBlocker(a: ExecutionState, b: ExecutionState): string | null {
  if (!sameLocation(a, b)) return 'location';
  if (a.entryQueue.length !== b.entryQueue.length || a.entryQueue.some((k, i) => k !== b.entryQueue[i])) return 'entry functions';
  if (a.pendingError !== null || b.pendingError !== null) return 'pending error';
  if (a.symbolics.length !== b.symbolics.length) return 'symbolic objects';
  for (let i = 0; i < a.symbolics.length; i++) if (a.symbolics[i]!.array !== b.symbolics[i]!.array) return 'symbolic objects';
  if (a.openMergeStack.length !== b.openMergeStack.length || a.openMergeStack.some((g, i) => g !== b.openMergeStack[i])) return 'merge regions';
  if (a.replayPosition !== b.replayPosition) return 'replay position';
  // an exit value is set after main returned: too late to be worth an ite of unknown width
  if (a.exitValue !== b.exitValue && !(a.exitValue !== undefined && b.exitValue !== undefined && sameVal(a.exitValue, b.exitValue))) return 'exit value';
  for (let i = 0; i < a.stack.length; i++) {
    const fa = a.stack[i]!;
    const fb = b.stack[i]!;
    if ((fa.varargs === null) !== (fb.varargs === null)) return 'varargs';
    if (fa.varargs !== null && fa.varargs.address !== fb.varargs!.address) return 'varargs';
  }
  const model = a.memory.mergeBlocker(b.memory);
  if (model !== null) return model;
  if (a.memory.liveObjects !== b.memory.liveObjects) return 'memory objects';
  const ma = a.memory.bindings();
  const mb = b.memory.bindings();
  if (ma.length !== mb.length) return 'memory objects';
  for (let i = 0; i < ma.length; i++) if (!sameObject(ma[i]!, mb[i]!)) return 'memory objects';
  return null;
}

function conjunction(cs: readonly Expr[]): Expr {
  if (cs.length === 1) return cs[0]!;
  let e: Expr = TRUE;
  for (const c of cs) e = builder.and(e, c);
  return e;
}

/** What the console shows under `cond ? a : b` (the merged record; special/console.ts reads it). */
function mergeConsole(cond: Expr, a: ConsoleChunk | null, b: ConsoleChunk | null): ConsoleChunk | null {
  if (a === b) return a;
  return { fd: 1, bytes: [], prev: null, choice: { cond, then: a, else: b } };
}

/** Witness conditions a state keeps at most (each costs a query and a test when it ends). */
const MAX_WITNESSES = 64;

/** Coverage events of merged-in paths: the next number, and those some test already follows. */
export interface WitnessEvents {
  next: number;
  readonly done: Set<number>;
}

/** Counters of what merges did (run statistics). */
export interface MergeCounters {
  merges: number;
  /** Registers and memory bytes that became an ite. */
  itesCreated: number;
}

/**
 * Merge b into a, which then stands for both paths; b must be ended by the caller (it is
 * left untouched). Call only when mergeBlocker(a, b) is null.
 */
export function mergeInto(
  ex: Executor,
  a: ExecutionState,
  b: ExecutionState,
  counters?: MergeCounters,
  witnesses?: WitnessEvents,
  /** --debug-log-merge: receives what became an ite (registers by frame, memory bytes by object). */
  notes?: string[],
): void {
  const ca = a.constraints.toArray();
  const cb = b.constraints.toArray();
  // states forked from one ancestor share their path condition's prefix, element for element
  let p = 0;
  while (p < ca.length && p < cb.length && ca[p] === cb[p]) p++;
  const condA = conjunction(ca.slice(p));
  const condB = conjunction(cb.slice(p));
  // the selector is the shorter suffix (merging into an accumulating state keeps its own
  // suffix, a growing disjunction, out of every new ite): a's values where sel holds, or b's
  let sel: Expr = TRUE;
  let aWhenSel = true;
  if (condB !== TRUE && (cb.length <= ca.length || condA === TRUE)) {
    sel = condB;
    aWhenSel = false;
  } else if (condA !== TRUE) sel = condA;
  let ites = 0;
  if (sel !== TRUE) {
    const pick = (x: Val, y: Val, t: Type): Val => (aWhenSel ? selectValue(ex, a, t, sel, x, y) : selectValue(ex, a, t, sel, y, x));
    for (let i = 0; i < a.stack.length; i++) {
      const fb = b.stack[i]!;
      let fa = a.stack[i]!;
      const types = fa.kf.regTypes;
      const live = liveRegisters(a, i);
      for (let r = 0; r < fa.regs.length; r++) {
        const va = fa.regs[r]!;
        const vb = fb.regs[r]!;
        if (va === undefined || vb === undefined || sameVal(va, vb) || !live(r)) continue;
        const t = types[r];
        if (t === null || t === undefined) continue;
        if (fa.shares > 1) {
          fa.shares--;
          fa = fa.clone();
          a.stack[i] = fa;
        }
        fa.regs[r] = pick(va, vb, t);
        ites++;
        notes?.push(`${fa.kf.name}:r${r}${typeof va === 'object' || typeof vb === 'object' ? '' : '(concrete)'}`);
      }
    }
    ites += mergeMemory(a, b, (x, y) => (aWhenSel ? builder.select(sel, x, y) : builder.select(sel, y, x)), notes);
    a.console = aWhenSel ? mergeConsole(sel, a.console, b.console) : mergeConsole(sel, b.console, a.console);
  }
  // the paths of each side that covered new code since its last merge keep a test of their
  // own (state.witnesses): a witness is that side's whole path condition now, which pins its
  // path, whatever later merges do to the state's own path condition
  if (witnesses !== undefined) {
    const merged: Witness[] = [];
    const seen = new Set<number>();
    const add = (w: Witness): void => {
      if (seen.has(w.event) || witnesses.done.has(w.event) || merged.length >= MAX_WITNESSES) return;
      seen.add(w.event);
      merged.push(w);
    };
    for (const w of a.witnesses) add(w);
    for (const w of b.witnesses) add(w);
    if (a.coveredSinceMerge) add({ event: witnesses.next++, constraints: ca });
    if (b.coveredSinceMerge) add({ event: witnesses.next++, constraints: cb });
    a.witnesses = merged;
  }
  const either = builder.or(condA, condB);
  a.constraints = a.constraints.prefixThen(p, either.kind === ExprKind.Constant ? null : either);
  // the allocator continues past everything either path allocated
  a.memory.joinAllocation(b.memory);
  a.depth = Math.max(a.depth, b.depth);
  a.coveredNew = a.coveredNew || b.coveredNew;
  a.coveredSinceMerge = false;
  a.instsSinceCovNew = Math.min(a.instsSinceCovNew, b.instsSinceCovNew);
  a.queryCostMs += b.queryCostMs;
  a.multiplicity += b.multiplicity;
  a.forkDisabled = a.forkDisabled && b.forkDisabled;
  for (const c of b.cexPreferences) if (!a.cexPreferences.includes(c)) a.cexPreferences.push(c);
  if (counters !== undefined) {
    counters.merges++;
    counters.itesCreated += ites;
  }
}

/**
 * Which registers of frame i may still be read: at the top frame's pc, and for a frame waiting
 * in a call at the instruction after it (the call's own result is written on return: dead).
 * Dead registers need no ite when states merge.
 */
export function liveRegisters(st: ExecutionState, i: number): (r: number) => boolean {
  const f = st.stack[i]!;
  const top = i === st.stack.length - 1;
  const pc = top ? st.pc : framePc(st, i) + 1;
  if (pc >= f.kf.insts.length) return () => true;
  const live = livenessOf(f.kf).liveAt(pc);
  const dest = top ? -1 : (f.kf.insts[pc - 1]?.dest ?? -1);
  return (r) => r !== dest && live.has(r);
}

/** Differing bytes of the objects both states bind become ites (`choose(a's, b's)`) in a's copy. */
function mergeMemory(a: ExecutionState, b: ExecutionState, choose: (x: Expr, y: Expr) => Expr, notes?: string[]): number {
  let ites = 0;
  const nb = b.memory.bindings();
  const na = a.memory.bindings();
  for (let k = 0; k < na.length; k++) {
    const x = na[k]!;
    const y = nb[k]!;
    if (x.os === null || y.os === null || x.os === y.os) continue;
    const osa = x.os;
    const osb = y.os;
    let w: typeof osa | null = null;
    for (let i = 0; i < osa.size; i++) {
      // pages both copies still share are equal without reading them
      const same = osa.sharedSpan(osb, i);
      if (same > 0) {
        i += same - 1;
        continue;
      }
      const p = osa.read8(i);
      const q = osb.read8(i);
      if (p === q) continue;
      w ??= a.memory.writeableOf(x.mo)!;
      const pe = typeof p === 'number' ? builder.constant(p, 8) : p;
      const qe = typeof q === 'number' ? builder.constant(q, 8) : q;
      w.write8(i, choose(pe, qe));
      ites++;
      if (notes !== undefined && (i === 0 || osa.read8(i - 1) === osb.read8(i - 1) || notes.length === 0)) notes.push(`${x.mo.allocInfo()}+${i}${typeof p === 'number' && typeof q === 'number' ? '(concrete)' : ''}`);
    }
  }
  return ites;
}
