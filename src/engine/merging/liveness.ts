/**
 * Register liveness of one prepared function: which registers (arguments, phis, instruction
 * results) may still be read from a given instruction on. Merging uses it twice: a register
 * that is dead where two states meet needs no ite (either value will do), and QCE counts only
 * the variables defined and live at a location (paper 001 §3.6: "drop SSA values not yet
 * defined at ℓ"). Phi operands are uses at the end of the incoming block.
 */
import { Opcode } from '../../ir/opcodes.js';
import type { PhiInst } from '../../ir/instructions.js';
import type { Value } from '../../ir/value.js';
import type { KFunction } from '../prepare/kinst.js';
import { functionOrder } from './location.js';

class BitSet {
  readonly words: Uint32Array;
  constructor(n: number) {
    this.words = new Uint32Array((n + 31) >>> 5);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  add(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  delete(i: number): void {
    this.words[i >>> 5]! &= ~(1 << (i & 31));
  }
  /** this |= o; whether anything changed. */
  union(o: BitSet): boolean {
    let changed = false;
    for (let i = 0; i < this.words.length; i++) {
      const w = (this.words[i]! | o.words[i]!) >>> 0; // unsigned, as the array holds it (bit 31)
      if (w !== this.words[i]) {
        this.words[i] = w;
        changed = true;
      }
    }
    return changed;
  }
  copy(): BitSet {
    const c = new BitSet(0);
    (c as { words: Uint32Array }).words = this.words.slice();
    return c;
  }
}

export class Liveness {
  /** Registers live on entry of each block (phis of the block excluded: they are defined on the edge). */
  private readonly liveIn: BitSet[];
  private readonly liveOut: BitSet[];
  private readonly atPc = new Map<number, BitSet>();
  /** Registers of IR values (arguments, phis, instruction results). */
  private readonly irRegs: ReadonlySet<number>;

  constructor(private readonly kf: KFunction) {
    this.irRegs = new Set(kf.regOf.values());
    const fn = kf.fn;
    const n = fn.blocks.length;
    const numRegs = kf.numRegs;
    const reg = (v: Value): number => kf.regOf.get(v) ?? -1;
    const use: BitSet[] = [];
    const def: BitSet[] = [];
    /** Phi uses per (pred → succ) edge, attributed to the end of pred. */
    const phiUse: BitSet[] = [];
    for (let b = 0; b < n; b++) {
      use.push(new BitSet(numRegs));
      def.push(new BitSet(numRegs));
      phiUse.push(new BitSet(numRegs));
    }
    fn.blocks.forEach((bb, b) => {
      const u = use[b]!;
      const d = def[b]!;
      for (const inst of bb.insts) {
        if (inst.opcode === Opcode.Phi) {
          const phi = inst as PhiInst;
          d.add(reg(phi));
          phi.blocks.forEach((from, k) => {
            const r = reg(phi.ops[k]!);
            if (r >= 0) phiUse[from.index]!.add(r);
          });
          continue;
        }
        for (const op of inst.ops) {
          const r = reg(op);
          if (r >= 0 && !d.has(r)) u.add(r);
        }
        const r = reg(inst);
        if (r >= 0) d.add(r);
      }
    });
    const cfg = functionOrder(kf).cfg;
    this.liveIn = use.map(() => new BitSet(numRegs));
    this.liveOut = use.map(() => new BitSet(numRegs));
    // backward data flow to a fixed point (post-order converges fastest)
    const order = Array.from({ length: n }, (_, b) => b).sort((x, y) => cfg.rpo[y]! - cfg.rpo[x]!);
    for (let changed = true; changed; ) {
      changed = false;
      for (const b of order) {
        const out = this.liveOut[b]!;
        out.union(phiUse[b]!);
        for (const s of cfg.succ[b]!) out.union(this.liveIn[s]!);
        const inn = out.copy();
        for (let w = 0; w < inn.words.length; w++) inn.words[w] = (inn.words[w]! & ~def[b]!.words[w]!) | use[b]!.words[w]!;
        if (this.liveIn[b]!.union(inn)) changed = true;
      }
    }
  }

  /**
   * Registers that may be read from instruction `pc` on (pc included). Registers that stand
   * for no IR value (poison shadows, prepare/poison.ts) are always live: nothing here knows
   * their uses.
   */
  liveAt(pc: number): { has(r: number): boolean } {
    const s = this.liveBits(pc);
    const ir = this.irRegs;
    return { has: (r) => !ir.has(r) || s.has(r) };
  }

  private liveBits(pc: number): BitSet {
    let s = this.atPc.get(pc);
    if (s !== undefined) return s;
    const kf = this.kf;
    const o = functionOrder(kf);
    const b = o.blockOf[pc]!;
    s = this.liveOut[b]!.copy();
    const reg = (v: Value): number => kf.regOf.get(v) ?? -1;
    // backward over the block's instructions from its end down to pc
    const end = b + 1 < kf.blockPc.length ? kf.blockPc[b + 1]! : kf.insts.length;
    for (let p = Math.max(end, pc) - 1; p >= pc; p--) {
      const inst = kf.insts[p]!.inst;
      const r = reg(inst);
      if (r >= 0) s.delete(r);
      for (const op of inst.ops) {
        const u = reg(op);
        if (u >= 0) s.add(u);
      }
    }
    this.atPc.set(pc, s);
    return s;
  }
}

const cache = new WeakMap<KFunction, Liveness>();

export function livenessOf(kf: KFunction): Liveness {
  let l = cache.get(kf);
  if (l === undefined) {
    l = new Liveness(kf);
    cache.set(kf, l);
  }
  return l;
}
