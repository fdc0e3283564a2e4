/**
 * Liveness of a function's local memory cells (bytes at a constant offset of an alloca), for
 * QCE (paper 001): at -O0 every C local lives in an alloca, and a loop counter that the next
 * iteration overwrites before reading is as dead as an SSA value out of scope — it must not
 * keep states apart (the digest's "i is dead after the exit" assumes mem2reg).
 *
 * A cell is live at pc when some path from pc loads it before a store covering it. Only
 * allocas whose address never escapes are tracked (used only as the pointer of a load or a
 * store, directly or through constant GEPs and casts), and whose cells do not overlap; any
 * other alloca's cells count as always live, as do globals. Nothing is live after a return
 * (the frame's allocas die with it).
 */
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import type { CallInst, StoreInst } from '../../ir/instructions.js';
import type { KFunction } from '../prepare/kinst.js';
import { functionOrder } from './location.js';

export interface CellAccess {
  /** The alloca's register, or -1 for other roots. */
  alloca: number;
  offset: number;
  size: number;
}

/** How the analysis sees pointers: the constant-offset root of a value, or null. */
export type RootOf = (v: Value) => CellAccess | null;

type Effect = { cell: number; def: boolean };

export class CellLiveness {
  /** Cell keys tracked (alloca register and offset → index). */
  private readonly index = new Map<string, number>();
  private readonly effects = new Map<number, Effect[]>();
  private readonly liveIn: Set<number>[];
  private readonly atPc = new Map<number, Set<number>>();
  /** Per tracked alloca, the size of each cell by offset. */
  private readonly sizes = new Map<number, Map<number, number>>();

  constructor(
    private readonly kf: KFunction,
    rootOf: RootOf,
    sizeOf: (v: Value) => number,
  ) {
    const fn = kf.fn;
    const escaped = new Set<number>();
    const accesses: { pc: number; a: CellAccess; def: boolean }[] = [];
    const pcOf = new Map<unknown, number>();
    for (const ki of kf.insts) pcOf.set(ki.inst, ki.index);
    const allocaOf = (v: Value): number => {
      const r = rootOf(v);
      return r !== null ? r.alloca : -1;
    };
    for (const bb of fn.blocks) {
      for (const inst of bb.insts) {
        const pc = pcOf.get(inst) ?? -1;
        inst.ops.forEach((op, k) => {
          const a = allocaOf(op);
          if (a < 0) return;
          switch (inst.opcode) {
            case Opcode.Load:
              if (pc >= 0) accesses.push({ pc, a: { ...rootOf(op)!, size: sizeOf(inst) }, def: false });
              return;
            case Opcode.Store:
              if (k === 1 && pc >= 0) {
                accesses.push({ pc, a: { ...rootOf(op)!, size: sizeOf((inst as StoreInst).value) }, def: true });
                return;
              }
              break; // the address itself stored: escapes
            case Opcode.GetElementPtr:
            case Opcode.BitCast:
            case Opcode.AddrSpaceCast:
              // a derived pointer: its own uses are checked; a non-constant GEP escapes
              if (rootOf(inst) !== null) return;
              break;
            case Opcode.Call: {
              const callee = (inst as CallInst).callee;
              if (callee.vkind === ValueKind.Function && (callee as unknown as { name: string }).name.startsWith('llvm.dbg.')) return;
              break;
            }
            default:
              break;
          }
          escaped.add(a);
        });
      }
    }
    // cells of one alloca must not overlap (a struct copied whole and read by field, say)
    const byAlloca = new Map<number, CellAccess[]>();
    for (const { a } of accesses) {
      if (escaped.has(a.alloca)) continue;
      let l = byAlloca.get(a.alloca);
      if (l === undefined) byAlloca.set(a.alloca, (l = []));
      l.push(a);
    }
    for (const [alloca, list] of byAlloca) {
      const extent = new Map<number, number>();
      for (const a of list) extent.set(a.offset, Math.max(extent.get(a.offset) ?? 0, a.size));
      const offs = [...extent.keys()].sort((x, y) => x - y);
      for (let i = 1; i < offs.length; i++) if (offs[i - 1]! + extent.get(offs[i - 1]!)! > offs[i]!) escaped.add(alloca);
      if (escaped.has(alloca)) continue;
      for (const o of offs) this.index.set(`${alloca}:${o}`, this.index.size);
      this.sizes.set(alloca, extent);
    }
    for (const { pc, a, def } of accesses) {
      const cell = this.index.get(`${a.alloca}:${a.offset}`);
      if (cell === undefined) continue;
      // a store covering less than the cell reads nothing but does not kill it either
      if (def && a.size < this.sizes.get(a.alloca)!.get(a.offset)!) continue;
      let l = this.effects.get(pc);
      if (l === undefined) this.effects.set(pc, (l = []));
      l.push({ cell, def });
    }
    // backward data flow over blocks (nothing live after a return)
    const cfg = functionOrder(kf).cfg;
    const n = fn.blocks.length;
    this.liveIn = Array.from({ length: n }, () => new Set<number>());
    const order = Array.from({ length: n }, (_, b) => b).sort((x, y) => cfg.rpo[y]! - cfg.rpo[x]!);
    for (let changed = true; changed; ) {
      changed = false;
      for (const b of order) {
        const live = new Set<number>();
        for (const s of cfg.succ[b]!) for (const c of this.liveIn[s]!) live.add(c);
        this.transferBlock(b, live, -1);
        const old = this.liveIn[b]!;
        if (live.size !== old.size || [...live].some((c) => !old.has(c))) {
          this.liveIn[b] = live;
          changed = true;
        }
      }
    }
  }

  /** Applies block b's effects backward to `live` (its live-out), down to pc `stopAt` (inclusive; -1: the whole block). */
  private transferBlock(b: number, live: Set<number>, stopAt: number): void {
    const kf = this.kf;
    const first = kf.blockPc[b]!;
    const end = b + 1 < kf.blockPc.length ? kf.blockPc[b + 1]! : kf.insts.length;
    const low = stopAt < 0 ? first : stopAt;
    for (let p = end - 1; p >= low; p--) {
      for (const e of this.effects.get(p) ?? []) {
        if (e.def) live.delete(e.cell);
        else live.add(e.cell);
      }
    }
  }

  /**
   * Whether the cell (alloca register, offset) may be read from pc on; true for cells this
   * analysis does not track (escaped or overlapping allocas, or never accessed).
   */
  isLive(pc: number, alloca: number, offset: number): boolean {
    const cell = this.index.get(`${alloca}:${offset}`);
    if (cell === undefined) return true;
    let s = this.atPc.get(pc);
    if (s === undefined) {
      const b = functionOrder(this.kf).blockOf[pc];
      if (b === undefined) return true;
      const cfg = functionOrder(this.kf).cfg;
      s = new Set<number>();
      for (const x of cfg.succ[b]!) for (const c of this.liveIn[x]!) s.add(c);
      this.transferBlock(b, s, pc);
      this.atPc.set(pc, s);
    }
    return s.has(cell);
  }

  /** For tests: the number of cells tracked. */
  get trackedCells(): number {
    return this.index.size;
  }
}
