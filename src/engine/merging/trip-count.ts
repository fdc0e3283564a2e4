/**
 * Constant trip counts of loops, for query count estimation (paper 001 §3.5: "tries to
 * determine loop trip counts statically and falls back to κ"). Two shapes are recognised, the
 * SSA one (after mem2reg or at -O1 and above) and the -O0 one:
 *
 *   header: %i = phi [C0, outside], [%i.next, latch]     header: %i = load %i.addr
 *           br (icmp %i, C2), body, exit                         br (icmp %i, C2), body, exit
 *   latch:  %i.next = add %i, C1                          %i.addr: one store of C0 before the loop,
 *                                                                   stores of (load %i.addr) + C1 in it
 *
 * The count is found by running the comparison (its width and signedness exactly) for at most
 * MAX_TRIPS iterations; anything else, or a longer loop, has no constant trip count.
 */
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import type { BinaryOperator, CmpInst, LoadInst, PhiInst, StoreInst } from '../../ir/instructions.js';
import type { ConstantInt } from '../../ir/constants.js';
import type { Instruction } from '../../ir/instructions.js';
import type { KFunction } from '../prepare/kinst.js';
import { icmpConcrete } from '../scalar.js';
import type { FunctionCfg, Loop } from './cfg.js';

export const MAX_TRIPS = 1000;

function constInt(v: Value): bigint | null {
  return v.vkind === ValueKind.ConstantInt ? (v as ConstantInt).value : null;
}

function widthOf(v: Value): number {
  return (v.type as unknown as { bits?: number }).bits ?? 0;
}

function asInst(v: Value, op: Opcode): Instruction | null {
  return v.vkind === ValueKind.Instruction && (v as Instruction).opcode === op ? (v as Instruction) : null;
}

/** `x + C` (or `C + x`, or `x - C`) as the step C, for x matching `isBase`. */
function stepOf(v: Value, isBase: (x: Value) => boolean): bigint | null {
  const add = asInst(v, Opcode.Add) ?? asInst(v, Opcode.Sub);
  if (add === null) return null;
  const [a, b] = (add as BinaryOperator).ops as [Value, Value];
  const sign = add.opcode === Opcode.Sub ? -1n : 1n;
  if (isBase(a) && constInt(b) !== null) return sign * constInt(b)!;
  if (add.opcode === Opcode.Add && isBase(b) && constInt(a) !== null) return constInt(a)!;
  return null;
}

export function tripCounts(kf: KFunction, cfg: FunctionCfg): Map<Loop, number> {
  const out = new Map<Loop, number>();
  const blocks = kf.fn.blocks;
  for (const loop of cfg.loops) {
    const header = blocks[loop.header]!;
    const br = header.terminator;
    if (br === undefined || br.opcode !== Opcode.Br || br.ops.length !== 1) continue;
    const cmp = asInst(br.ops[0]!, Opcode.ICmp) as CmpInst | null;
    if (cmp === null) continue;
    const succ = (br as unknown as { successors: { index: number }[] }).successors;
    const continueWhenTrue = loop.blocks.has(succ[0]!.index);
    if (continueWhenTrue === loop.blocks.has(succ[1]!.index)) continue;
    let [iv, limit] = cmp.ops as [Value, Value];
    let pred = cmp.predicate;
    if (constInt(limit) === null) {
      [iv, limit] = [limit, iv];
      pred = swapPredicate(pred);
    }
    const c2 = constInt(limit);
    if (c2 === null) continue;
    const w = widthOf(iv);
    if (w === 0 || w > 64) continue;
    const start = inductionStart(loop, iv, blocks);
    if (start === null) continue;
    const t = simulate(start.c0, start.c1, c2, pred, w, continueWhenTrue);
    if (t !== null) out.set(loop, t);
  }
  return out;
}

function inductionStart(loop: Loop, iv: Value, blocks: readonly { insts: Instruction[] }[]): { c0: bigint; c1: bigint } | null {
  const inLoop = (i: Instruction): boolean => loop.blocks.has(i.parent.index);
  const phi = asInst(iv, Opcode.Phi) as PhiInst | null;
  if (phi !== null) {
    if (phi.parent.index !== loop.header || phi.ops.length !== 2) return null;
    let c0: bigint | null = null;
    let c1: bigint | null = null;
    phi.blocks.forEach((from, k) => {
      const op = phi.ops[k]!;
      if (loop.blocks.has(from.index)) c1 = stepOf(op, (x) => x === phi);
      else c0 = constInt(op);
    });
    return c0 !== null && c1 !== null ? { c0, c1 } : null;
  }
  const load = asInst(iv, Opcode.Load) as LoadInst | null;
  if (load === null || load.parent.index !== loop.header) return null;
  const addr = load.pointer;
  if (asInst(addr, Opcode.Alloca) === null) return null;
  // every use of the alloca must be a direct load or store to it (no escape)
  let c0: bigint | null = null;
  let c1: bigint | null = null;
  let initStores = 0;
  for (const bb of blocks) {
    for (const inst of bb.insts) {
      const uses = inst.ops.indexOf(addr);
      if (uses < 0) continue;
      if (inst.opcode === Opcode.Load) continue;
      if (inst.opcode === Opcode.Call && isDebugCall(inst)) continue;
      if (inst.opcode !== Opcode.Store || (inst as StoreInst).pointer !== addr || (inst as StoreInst).value === addr) return null;
      const v = (inst as StoreInst).value;
      if (inLoop(inst)) {
        const step = stepOf(v, (x) => {
          const l = asInst(x, Opcode.Load) as LoadInst | null;
          return l !== null && l.pointer === addr;
        });
        if (step === null || (c1 !== null && c1 !== step)) return null;
        c1 = step;
      } else {
        const c = constInt(v);
        if (c === null) return null;
        c0 = c;
        initStores++;
      }
    }
  }
  return initStores === 1 && c0 !== null && c1 !== null ? { c0, c1 } : null;
}

function isDebugCall(inst: Instruction): boolean {
  const callee = inst.ops[inst.ops.length - 1];
  return callee !== undefined && callee.vkind === ValueKind.Function && (callee as unknown as { name: string }).name.startsWith('llvm.dbg.');
}

function swapPredicate(p: number): number {
  // sgt ↔ slt, sge ↔ sle, ugt ↔ ult, uge ↔ ule; eq and ne stay
  const swap: Record<number, number> = { 34: 36, 35: 37, 36: 34, 37: 35, 38: 40, 39: 41, 40: 38, 41: 39 };
  return swap[p] ?? p;
}

function simulate(c0: bigint, c1: bigint, c2: bigint, pred: number, w: number, continueWhenTrue: boolean): number | null {
  const norm = (x: bigint): number | bigint => {
    const u = BigInt.asUintN(w, x);
    return w <= 32 ? Number(u) : u;
  };
  let i = c0;
  const limit = norm(c2);
  for (let t = 0; t <= MAX_TRIPS; t++) {
    if (icmpConcrete(pred, w, norm(i), limit) !== continueWhenTrue) return t;
    i += c1;
  }
  return null;
}
