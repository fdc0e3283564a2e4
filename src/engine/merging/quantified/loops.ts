/**
 * Merge regions of quantified merging found at load time (paper 000, §3.4): natural loops
 * (cfg.ts) some of whose exits are decided by a condition that depends on input — through
 * the function's SSA operands, on a load, a call's result or an argument. A loop whose exits
 * all depend only on constants and registers updated from constants cannot fork in its exit
 * conditions; every other loop becomes a region. Whether an exit condition is symbolic on a
 * given path is seen at run time: a region whose states never fork releases one leaf at once.
 */
import { Opcode } from '../../../ir/opcodes.js';
import { BranchInst, SwitchInst, type Instruction } from '../../../ir/instructions.js';
import { ValueKind, type Value } from '../../../ir/value.js';
import type { KFunction } from '../../prepare/kinst.js';
import { functionCfg } from '../location.js';
import type { Loop } from '../cfg.js';

export interface LoopRegion {
  readonly loop: Loop;
  /** pc of the header's first instruction. */
  readonly headerPc: number;
  /** pc of each exit block's first instruction (blocks outside the loop entered from it). */
  readonly exitPcs: ReadonlySet<number>;
}

const regions = new WeakMap<KFunction, Map<number, LoopRegion>>();

/** The loop regions of a function, by header pc (computed once per function). */
export function loopRegions(kf: KFunction): ReadonlyMap<number, LoopRegion> {
  let m = regions.get(kf);
  if (m !== undefined) return m;
  m = new Map();
  regions.set(kf, m);
  if (kf.fn.isDeclaration) return m;
  const cfg = functionCfg(kf);
  const blocks = kf.fn.blocks;
  for (const loop of cfg.loops) {
    const exits = new Set<number>();
    let dependent = false;
    for (const b of loop.blocks) {
      const outside = cfg.succ[b]!.filter((s) => !loop.blocks.has(s));
      if (outside.length === 0) continue;
      for (const s of outside) exits.add(kf.blockPc[s]!);
      const term = blocks[b]!.terminator;
      if (term !== undefined && dependsOnInput(exitCondition(term))) dependent = true;
    }
    if (!dependent || exits.size === 0) continue;
    m.set(kf.blockPc[loop.header]!, { loop, headerPc: kf.blockPc[loop.header]!, exitPcs: exits });
  }
  return m;
}

function exitCondition(term: Instruction): Value | null {
  if (term instanceof BranchInst) return term.isConditional ? term.condition : null;
  if (term instanceof SwitchInst) return term.ops[0] ?? null;
  return null;
}

/** Whether v depends, through SSA operands, on a load, a call, or an argument. */
function dependsOnInput(v: Value | null): boolean {
  if (v === null) return false;
  const seen = new Set<Value>();
  const stack: Value[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (seen.has(x)) continue;
    seen.add(x);
    if (x.vkind === ValueKind.Argument) return true;
    if (x.vkind !== ValueKind.Instruction) continue;
    const inst = x as Instruction;
    if (inst.opcode === Opcode.Load || inst.opcode === Opcode.Call) return true;
    for (const op of inst.ops) stack.push(op);
  }
  return false;
}
