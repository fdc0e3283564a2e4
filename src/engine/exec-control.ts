/**
 * Control flow: conditional branches on symbolic conditions (fork), switch (one state per
 * feasible target), indirectbr, return, unreachable.
 */
import { builder } from '../expr/builder.js';
import { FALSE, TRUE, type Expr } from '../expr/expr.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import type { Edge, KInst } from './prepare/kinst.js';
import type { SwitchInfo } from './prepare/kmodule.js';
import { copyPhis } from './interpreter.js';
import { Msg, Termination } from './errors.js';
import { fromExpr, toExpr, toUNum, type Scalar } from './values.js';
import { icmpConcrete } from './scalar.js';
import { coerceResult } from './call-coerce.js';
import type { BasicBlock } from '../ir/globals.js';

/** Continue st along an edge: phi copies, then the target block. */
export function transfer(ex: Executor, st: ExecutionState, e: Edge): void {
  // a branch side taken for the first time is new coverage too (merging keeps a test for it)
  if (ex.edgeTaken[e.id]++ === 0) st.coveredSinceMerge = true;
  if (e.phiDst.length !== 0) {
    copyPhis(st.thawTop().regs, e);
    ex.instructions += e.phiCount;
  }
  st.pc = e.pc;
  // merging: the step ends at the block entry (see interpret)
  if (ex.blockSteps) st.yieldStep = true;
}

export function execCondBr(ex: Executor, st: ExecutionState, ki: KInst): void {
  const edges = ki.aux as Edge[];
  const c = st.top.regs[ki.a] as Scalar;
  if (ex.opts.replayPath !== undefined) {
    replayBranch(ex, st, edges, c, ex.opts.replayPath);
    return;
  }
  const recording = ex.opts.writePaths || ex.opts.writeSymPaths;
  if (typeof c !== 'object') {
    if (recording) st.path = { bit: c !== 0 ? 1 : 0, prev: st.path };
    transfer(ex, st, edges[c !== 0 ? 0 : 1]!);
    return;
  }
  const [t, f] = ex.fork(st, c);
  if (recording) {
    // KLEE's path streams: every branch in .path, the ones that forked in .sym.path
    if (t !== null) t.path = { bit: 1, prev: t.path };
    if (f !== null) f.path = { bit: 0, prev: f.path };
    if (t !== null && f !== null) {
      t.symPath = { bit: 1, prev: t.symPath };
      f.symPath = { bit: 0, prev: f.symPath };
    }
  }
  if (t !== null) transfer(ex, t, edges[0]!);
  if (f !== null) transfer(ex, f, edges[1]!);
}

/**
 * --replay-path: each conditional branch takes the next decision of the file (no fork); a
 * decision the path condition rules out, or running out of decisions, ends the state (KLEE
 * stops with an assertion there).
 */
function replayBranch(ex: Executor, st: ExecutionState, edges: Edge[], c: Scalar, decisions: readonly (0 | 1)[]): void {
  const i = st.replayPathPosition++;
  if (i >= decisions.length) {
    ex.terminateOnError(st, 'replay path: ran out of branches in the path file', Termination.User);
    return;
  }
  const bit = decisions[i]!;
  st.path = { bit, prev: st.path };
  const cond: Expr = typeof c === 'object' ? c : c !== 0 ? TRUE : FALSE;
  const taken = bit === 1 ? cond : builder.not(cond);
  if (typeof c !== 'object' ? (c !== 0) !== (bit === 1) : ex.mustBeFalse(st, taken)) {
    ex.terminateOnError(st, `replay path: decision ${i + 1} (${bit}) is infeasible here`, Termination.User);
    return;
  }
  if (typeof c === 'object') st.addConstraint(taken);
  transfer(ex, st, edges[bit === 1 ? 0 : 1]!);
}

export function execBr(ex: Executor, st: ExecutionState, ki: KInst): void {
  transfer(ex, st, ki.aux as Edge);
}

/** Compare two constant case values (KLEE orders cases by value, unsigned). */
function compareValues(a: Scalar, b: Scalar, w: number): number {
  if (icmpConcrete(36 /* ult */, w, a as number | bigint, b as number | bigint)) return -1;
  return a === b ? 0 : 1;
}

export function execSwitch(ex: Executor, st: ExecutionState, ki: KInst): void {
  const info = ki.aux as SwitchInfo;
  const w = ki.w;
  let cond = st.top.regs[ki.a] as Scalar;
  if (typeof cond === 'object') cond = fromExpr(ex.toUnique(st, cond));
  if (typeof cond !== 'object') {
    transfer(ex, st, info.table.get(cond) ?? info.defaultEdge);
    return;
  }
  const ce = cond;
  if (ex.opts.switchType === 'simple') {
    switchAsBranches(ex, st, info, ce, w);
    return;
  }
  // KLEE's order: cases sorted by value, targets in order of first feasible case, default last.
  const order = info.values.map((_, i) => i).sort((i, j) => compareValues(info.values[i]!, info.values[j]!, w));
  const targets: Edge[] = [];
  const conds: Expr[] = [];
  const byBlock = new Map<number, number>();
  let defaultCond: Expr = TRUE;
  const seen = new Set<number | bigint>();
  for (const i of order) {
    const v = info.values[i]!;
    if (seen.has(v as number | bigint)) continue;
    seen.add(v as number | bigint);
    const e = info.edges[i]!;
    const match = builder.eq(ce, toExpr(v, w));
    if (e.block === info.defaultEdge.block) continue;
    defaultCond = builder.and(defaultCond, builder.not(match));
    if (!ex.mayBeTrue(st, match)) continue;
    const k = byBlock.get(e.block);
    if (k === undefined) {
      byBlock.set(e.block, targets.length);
      targets.push(e);
      conds.push(match);
    } else conds[k] = builder.or(match, conds[k]!);
  }
  if (ex.mayBeTrue(st, defaultCond)) {
    const k = byBlock.get(info.defaultEdge.block);
    if (k === undefined) {
      targets.push(info.defaultEdge);
      conds.push(defaultCond);
    }
  }
  if (targets.length === 0) {
    // cannot happen on a satisfiable path; keep the state consistent anyway
    ex.terminateOnError(st, 'switch with no feasible target', Termination.Execution);
    return;
  }
  const states = ex.branch(st, conds);
  for (let i = 0; i < states.length; i++) {
    const s = states[i];
    if (s !== null && s !== undefined) transfer(ex, s, targets[i]!);
  }
}

/**
 * --switch-type=simple (KLEE's LowerSwitchPass): the switch as a chain of `cond == case`
 * branches in the order of its cases, then the default — one two-way fork per feasible case,
 * so cases sharing a block are separate paths (the internal switch forks once per block).
 */
function switchAsBranches(ex: Executor, st: ExecutionState, info: SwitchInfo, ce: Expr, w: number): void {
  let rest: ExecutionState | null = st;
  const seen = new Set<number | bigint>();
  for (let i = 0; i < info.values.length && rest !== null; i++) {
    const v = info.values[i]! as number | bigint;
    if (seen.has(v)) continue;
    seen.add(v);
    const [hit, miss]: [ExecutionState | null, ExecutionState | null] = ex.fork(rest, builder.eq(ce, toExpr(v, w)));
    if (hit !== null) transfer(ex, hit, info.edges[i]!);
    rest = miss;
    if (ex.haltReason !== null) return;
  }
  if (rest !== null) transfer(ex, rest, info.defaultEdge);
}

export function execIndirectBr(ex: Executor, st: ExecutionState, ki: KInst): void {
  const dests = ki.aux as { block: BasicBlock; edge: Edge }[];
  const addr = st.top.regs[ki.a] as Scalar;
  const find = (a: number): Edge | null => {
    const b = ex.km.blockAt.get(a);
    if (b === undefined) return null;
    return dests.find((d) => d.block === b.block)?.edge ?? null;
  };
  if (typeof addr !== 'object') {
    const e = find(toUNum(addr, 64));
    if (e === null) ex.terminateOnError(st, 'indirectbr: illegal label address', Termination.Execution);
    else transfer(ex, st, e);
    return;
  }
  // Fork once per destination the address may equal (KLEE forks over the possible labels).
  const conds: Expr[] = [];
  const targets: Edge[] = [];
  let rest: Expr = TRUE;
  for (const [a, b] of ex.km.blockAt) {
    const d = dests.find((x) => x.block === b.block);
    if (d === undefined) continue;
    const c = builder.eq(addr, toExpr(a, 64));
    rest = builder.and(rest, builder.not(c));
    if (ex.mayBeTrue(st, c)) {
      conds.push(c);
      targets.push(d.edge);
    }
  }
  const bad = ex.mayBeTrue(st, rest);
  if (bad) conds.push(rest);
  if (conds.length === 0) return;
  const states = ex.branch(st, conds);
  states.forEach((s, i) => {
    if (s === null) return;
    if (i < targets.length) transfer(ex, s, targets[i]!);
    else ex.terminateOnError(s, 'indirectbr: illegal label address', Termination.Execution);
  });
}

export function execUnreachable(ex: Executor, st: ExecutionState): void {
  ex.terminateOnError(st, Msg.unreachable, Termination.Execution);
}

/** ret: pop the frame, free its allocas, give the caller the value (or end the path). */
export function execRet(ex: Executor, st: ExecutionState, ki: KInst): void {
  const frame = st.top;
  const value = ki.a >= 0 ? frame.regs[ki.a]! : undefined;
  st.stack.pop();
  // The last frame of a path needs no cleanup: the state ends or restarts in a new entry function.
  if (st.stack.length !== 0 || st.entryQueue.length !== 0) ex.releaseFrame(st, frame);
  if (st.stack.length === 0) {
    if (frame.kf === ex.mainKf) st.exitValue = value;
    // An entry function returned: run the next one (constructors → main → destructors) or exit.
    const next = st.entryQueue.shift();
    if (next === undefined) {
      ex.terminateOnExit(st);
      return;
    }
    ex.pushEntryFrame(st, next, next === ex.mainKf ? ex.mainArgs : []);
    return;
  }
  const caller = st.thawTop();
  const callKi = caller.kf.insts[frame.callerPc]!;
  st.pc = frame.callerPc + 1;
  st.prevPc = frame.callerPc;
  if (callKi.dest >= 0 && value !== undefined) caller.regs[callKi.dest] = coerceResult(callKi, frame.kf.fn.functionType, value);
}

/** A boolean register as an expression. */
export function boolExpr(c: Scalar): Expr {
  return typeof c === 'object' ? c : c !== 0 ? TRUE : FALSE;
}
