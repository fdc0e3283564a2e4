/**
 * Where a state stands, as state merging needs it: a string key equal for two states exactly
 * when they are at the same instruction of the same call stack (where they may merge), and a
 * topological position that orders states across calls (static merging picks the least;
 * dynamic merging fast-forwards the least of its candidates).
 *
 * The position compares frame by frame, outermost first: which entry function runs (those
 * still queued come first), then per frame the function and the place of its current
 * instruction (the call, for frames below the top) in the function's loop-contiguous
 * topological order (cfg.ts). A state about to make a call comes before one inside it.
 */
import type { KFunction } from '../prepare/kinst.js';
import type { ExecutionState } from '../state.js';
import { FunctionCfg } from './cfg.js';

interface FunctionOrder {
  cfg: FunctionCfg;
  /** Topological position of each pc. */
  pos: Int32Array;
  /** Block index of each pc. */
  blockOf: Int32Array;
  ordinal: number;
}

const orders = new WeakMap<KFunction, FunctionOrder>();
let nextOrdinal = 0;

export function functionOrder(kf: KFunction): FunctionOrder {
  let o = orders.get(kf);
  if (o !== undefined) return o;
  const cfg = FunctionCfg.of(kf.fn);
  const n = kf.insts.length;
  const blockOf = new Int32Array(n);
  for (let pc = 0; pc < n; pc++) blockOf[pc] = kf.insts[pc]!.inst.parent.index;
  const byRank = Array.from({ length: n }, (_, pc) => pc).sort((x, y) => cfg.topoRank[blockOf[x]!]! - cfg.topoRank[blockOf[y]!]! || x - y);
  const pos = new Int32Array(n);
  byRank.forEach((pc, i) => (pos[pc] = i));
  o = { cfg, pos, blockOf, ordinal: nextOrdinal++ };
  orders.set(kf, o);
  return o;
}

export function functionCfg(kf: KFunction): FunctionCfg {
  return functionOrder(kf).cfg;
}

/** The block index of a state's frame i (its current instruction, or the call it waits in). */
export function framePc(st: ExecutionState, i: number): number {
  return i === st.stack.length - 1 ? st.pc : st.stack[i + 1]!.callerPc;
}

/** Equal for two states exactly when they stand at the same instruction of the same call stack. */
export function locationKey(st: ExecutionState): string {
  let k = `${st.entryQueue.length}`;
  for (let i = 0; i < st.stack.length; i++) {
    const f = st.stack[i]!;
    k += `|${functionOrder(f.kf).ordinal}:${framePc(st, i)}`;
  }
  return k;
}

/** The topological position (compare with searchers' comparePositions). */
export function topoPosition(st: ExecutionState): number[] {
  const key = [-st.entryQueue.length];
  for (let i = 0; i < st.stack.length; i++) {
    const f = st.stack[i]!;
    const o = functionOrder(f.kf);
    key.push(o.ordinal, o.pos[framePc(st, i)] ?? 0);
  }
  return key;
}
