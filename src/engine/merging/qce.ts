/**
 * Query count estimation (paper 001 §3, the digest's §3.2 and §3.5): which variables will feed
 * many of a location's future solver queries. Static, per function, computed the first time a
 * state's frames need it and kept for the run.
 *
 * Variables are the function's registers (arguments, phis, instruction results) and memory
 * cells at constant offsets from an alloca or a global (at -O0 every local lives in an alloca).
 * A path-insensitive data-dependence graph links a register to its operands, a load from a
 * cell to the cell, a cell to the values stored into it; a load through any other pointer
 * depends on the pointer (dependences between memory cells are not tracked, as in the paper).
 *
 * Queries come from conditional branches, switches, indirect branches, loads and stores
 * through pointers that are not constant offsets (a symbolic address is a query), divisions
 * by a non-constant divisor (the zero check) and klee_assume; each depends on the closure of
 * its operand. A call adds the callee's counts at its entry (bottom-up over the call graph;
 * a recursive call adds nothing): its Qt, and for a caller variable the largest Qadd of a
 * parameter whose argument depends on it, plus the callee's global cells. Counts over the
 * control-flow graph are qce-counts.ts's.
 */
import { Opcode } from '../../ir/opcodes.js';
import { ValueKind, type Value } from '../../ir/value.js';
import type { CallInst, GetElementPtrInst, LoadInst, PhiInst, StoreInst } from '../../ir/instructions.js';
import type { ConstantExpr, ConstantInt } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/globals.js';
import type { Type } from '../../ir/types.js';
import type { KModule } from '../prepare/kmodule.js';
import type { KFunction } from '../prepare/kinst.js';
import { functionOrder } from './location.js';
import { computeCounts, Counts, type BlockCounts } from './qce-counts.js';
import { tripCounts } from './trip-count.js';
import { CellLiveness } from './cell-liveness.js';

export interface QceParams {
  alpha: number;
  beta: number;
  kappa: number;
}

/** A memory cell: bytes [offset, offset+size) of an alloca's object (by its register) or a global. */
export interface Cell {
  readonly alloca: number;
  readonly global: GlobalVariable | null;
  readonly offset: number;
  size: number;
}

interface Root {
  alloca: number;
  global: GlobalVariable | null;
  offset: number;
}

const DIVISIONS = new Set([Opcode.UDiv, Opcode.SDiv, Opcode.URem, Opcode.SRem]);

export class FunctionQce {
  /** Cells, variable id numRegs + k. */
  readonly cells: Cell[] = [];
  private readonly cellIndex = new Map<string, number>();
  readonly numRegs: number;
  private counts: BlockCounts | null = null;
  /** Each block's queries in instruction order: pc and counts. */
  private readonly sitesOf: { pc: number; c: Counts }[][] = [];
  private readonly atPc = new Map<number, Counts>();
  private cellLiveness: CellLiveness | null = null;

  /** Whether variable v (a register's liveness is liveness.ts's) may still matter from pc on: cells of locals dead there do not. */
  cellLive(pc: number, v: number): boolean {
    const c = this.cell(v);
    return c.global !== null || this.cellLiveness === null || this.cellLiveness.isLive(pc, c.alloca, c.offset);
  }

  /** Variables the returned value depends on (their later uses are the caller's). */
  readonly returnDeps = new Set<number>();
  /**
   * Variables that may feed the address of a memory access through a pointer that is not a
   * constant offset, here or in a callee (path-insensitive): an ite in such a variable makes
   * every access through it a symbolic-address read (QCE's ite term, similarity.ts).
   */
  readonly addressDeps = new Set<number>();

  constructor(
    readonly kf: KFunction,
    private readonly analysis: QceAnalysis,
  ) {
    this.numRegs = kf.numRegs;
  }

  /** Variable id of a global cell, made if new (callers map their callees' global cells). */
  cellId(root: Root, size: number): number {
    const key = root.global !== null ? `g${root.global.name}:${root.offset}` : `a${root.alloca}:${root.offset}`;
    let k = this.cellIndex.get(key);
    if (k === undefined) {
      k = this.cells.length;
      this.cells.push({ alloca: root.alloca, global: root.global, offset: root.offset, size });
      this.cellIndex.set(key, k);
    } else if (this.cells[k]!.size < size) this.cells[k]!.size = size;
    return this.numRegs + k;
  }

  isCell(v: number): boolean {
    return v >= this.numRegs;
  }

  cell(v: number): Cell {
    return this.cells[v - this.numRegs]!;
  }

  /** Local counts at the function's entry. */
  entryCounts(): Counts {
    return this.countsAt(this.kf.entryPc);
  }

  /** Local counts from instruction pc on (the queries at pc and after, within this call). */
  countsAt(pc: number): Counts {
    let c = this.atPc.get(pc);
    if (c !== undefined) return c;
    const counts = this.counts!;
    const b = functionOrder(this.kf).blockOf[pc];
    if (b === undefined) return new Counts();
    c = counts.after[b]!.copy();
    for (const s of this.sitesOf[b]!) if (s.pc >= pc) c.addScaled(s.c, 1);
    this.atPc.set(pc, c);
    return c;
  }

  /** Build the dependence graph and the counts (called once by QceAnalysis). */
  analyse(km: KModule, params: QceParams): void {
    const kf = this.kf;
    const fn = kf.fn;
    const reg = (v: Value): number => kf.regOf.get(v) ?? -1;
    const deps = new Map<number, number[]>();
    const addDep = (node: number, on: number): void => {
      if (node < 0 || on < 0) return;
      let l = deps.get(node);
      if (l === undefined) deps.set(node, (l = []));
      l.push(on);
    };
    const roots = new Map<Value, Root | null>();
    const rootOf = (v: Value): Root | null => {
      const known = roots.get(v);
      if (known !== undefined) return known;
      roots.set(v, null); // cycles (phis of pointers) resolve to "not a constant offset"
      let r: Root | null = null;
      if (v.vkind === ValueKind.GlobalVariable) r = { alloca: -1, global: v as GlobalVariable, offset: 0 };
      else if (v.vkind === ValueKind.Instruction) {
        const inst = v as unknown as { opcode: Opcode; ops: Value[] };
        if (inst.opcode === Opcode.Alloca) r = { alloca: reg(v), global: null, offset: 0 };
        else if (inst.opcode === Opcode.GetElementPtr) r = gepRoot(km, inst.ops, (v as unknown as GetElementPtrInst).sourceElementType, rootOf);
        else if (inst.opcode === Opcode.BitCast || inst.opcode === Opcode.AddrSpaceCast) r = rootOf(inst.ops[0]!);
      } else if (v.vkind === ValueKind.ConstantExpr) {
        const ce = v as ConstantExpr;
        if (ce.opcode === Opcode.GetElementPtr && ce.gep !== undefined) r = gepRoot(km, ce.ops, ce.gep.sourceElementType, rootOf);
        else if (ce.opcode === Opcode.BitCast || ce.opcode === Opcode.AddrSpaceCast) r = rootOf(ce.ops[0]!);
      }
      roots.set(v, r);
      return r;
    };
    const sizeOf = (v: Value): number => Math.max(1, Number(km.dl.typeStoreSize(v.type)));
    /** Per block, the queries: a register whose closure they depend on, or a call's counts. */
    const rawSites: { pc: number; on: number; call?: CallInst; address?: boolean }[][] = fn.blocks.map(() => []);
    const pcOf = new Map<unknown, number>();
    for (const ki of kf.insts) pcOf.set(ki.inst, ki.index);
    fn.blocks.forEach((bb, b) => {
      for (const inst of bb.insts) {
        const r = reg(inst);
        const pc = pcOf.get(inst) ?? -1;
        const site = (on: Value, address = false): void => {
          const x = reg(on);
          if (x >= 0 && pc >= 0) rawSites[b]!.push({ pc, on: x, address });
        };
        switch (inst.opcode) {
          case Opcode.Phi: {
            const phi = inst as PhiInst;
            for (const op of phi.ops) addDep(r, reg(op));
            break;
          }
          case Opcode.Load: {
            const p = (inst as LoadInst).pointer;
            const root = rootOf(p);
            if (root !== null) addDep(r, this.cellId(root, sizeOf(inst)));
            else {
              addDep(r, reg(p));
              site(p, true);
            }
            break;
          }
          case Opcode.Store: {
            const st = inst as StoreInst;
            const root = rootOf(st.pointer);
            if (root !== null) addDep(this.cellId(root, sizeOf(st.value)), reg(st.value));
            else site(st.pointer, true);
            break;
          }
          case Opcode.Br:
            if (inst.ops.length === 1) site(inst.ops[0]!);
            break;
          case Opcode.Switch:
          case Opcode.IndirectBr:
            site(inst.ops[0]!);
            break;
          case Opcode.Call: {
            const call = inst as CallInst;
            const callee = call.callee;
            const args = call.ops.slice(0, -1);
            for (const a of args) addDep(r, reg(a));
            if (callee.vkind === ValueKind.Function) {
              const f = callee as Function;
              if (f.name === 'klee_assume' && args[0] !== undefined) site(args[0]);
              else if (!f.isDeclaration && pc >= 0) rawSites[b]!.push({ pc, on: -1, call });
              // an intrinsic or external that takes a pointer (memcpy, memset, …) accesses memory through it
              else if (f.isDeclaration && !f.name.startsWith('llvm.dbg.') && !f.name.startsWith('llvm.lifetime.'))
                for (const a of args) if (a.type.isPointer() && rootOf(a) === null) site(a, true);
            } else site(callee);
            break;
          }
          default:
            if (DIVISIONS.has(inst.opcode)) site(inst.ops[1]!);
            for (const op of inst.ops) addDep(r, reg(op));
        }
      }
    });
    // closures, memoised per starting variable
    const closures = new Map<number, number[]>();
    const closure = (start: number): number[] => {
      let c = closures.get(start);
      if (c !== undefined) return c;
      const seen = new Set<number>([start]);
      const work = [start];
      while (work.length > 0) {
        const x = work.pop()!;
        for (const y of deps.get(x) ?? []) {
          if (!seen.has(y)) {
            seen.add(y);
            work.push(y);
          }
        }
      }
      c = [...seen];
      closures.set(start, c);
      return c;
    };
    for (const bb of fn.blocks) {
      const t = bb.terminator;
      if (t?.opcode === Opcode.Ret && t.ops.length > 0) {
        const r = reg(t.ops[0]!);
        if (r >= 0) for (const v of closure(r)) this.returnDeps.add(v);
      }
    }
    for (const block of rawSites) {
      for (const s of block) {
        if (s.address === true) for (const v of closure(s.on)) this.addressDeps.add(v);
        else if (s.call !== undefined) this.calleeAddresses(km, s.call, reg, closure);
      }
    }
    const local: Counts[] = [];
    fn.blocks.forEach((_bb, b) => {
      const sites: { pc: number; c: Counts }[] = [];
      for (const s of rawSites[b]!) {
        sites.push({ pc: s.pc, c: s.call !== undefined ? this.callCounts(km, s.call, reg, closure) : Counts.site(1, closure(s.on)) });
      }
      this.sitesOf.push(sites);
      const sum = new Counts();
      for (const s of sites) sum.addScaled(s.c, 1);
      local.push(sum);
    });
    this.cellLiveness = new CellLiveness(
      kf,
      (v) => {
        const r = rootOf(v);
        return r !== null && r.global === null ? { alloca: r.alloca, offset: r.offset, size: 0 } : null;
      },
      sizeOf,
    );
    const cfg = functionOrder(kf).cfg;
    const trips = tripCounts(kf, cfg);
    this.counts = computeCounts(cfg, local, { beta: params.beta, tripCount: (l) => trips.get(l) ?? params.kappa });
  }

  /** The caller's variables that feed a callee's addresses: through its parameters and global cells. */
  private calleeAddresses(km: KModule, call: CallInst, reg: (v: Value) => number, closure: (v: number) => number[]): void {
    const ckf = km.kfunction(call.callee as Function);
    const callee = ckf === undefined ? null : this.analysis.of(ckf);
    if (callee === null) return;
    call.ops.slice(0, -1).forEach((a, i) => {
      const r = reg(a);
      if (r >= 0 && callee.addressDeps.has(ckf!.argBase + i)) for (const v of closure(r)) this.addressDeps.add(v);
    });
    for (const v of callee.addressDeps) {
      if (!callee.isCell(v)) continue;
      const cell = callee.cell(v);
      if (cell.global !== null) this.addressDeps.add(this.cellId({ alloca: -1, global: cell.global, offset: cell.offset }, cell.size));
    }
  }

  /** What a call adds: the callee's entry counts, mapped onto the caller's variables. */
  private callCounts(km: KModule, call: CallInst, reg: (v: Value) => number, closure: (v: number) => number[]): Counts {
    const ckf = km.kfunction(call.callee as Function);
    const callee = ckf === undefined ? null : this.analysis.of(ckf);
    const c = new Counts();
    if (callee === null) return c; // recursion (or nothing known): no queries counted
    const entry = callee.entryCounts();
    c.qt = entry.qt;
    const args = call.ops.slice(0, -1);
    args.forEach((a, i) => {
      const x = entry.get(ckf!.argBase + i);
      const r = reg(a);
      if (x === 0 || r < 0) return;
      for (const v of closure(r)) if (x > c.get(v)) c.add.set(v, x);
    });
    for (const [v, x] of entry.add) {
      if (!callee.isCell(v)) continue;
      const cell = callee.cell(v);
      if (cell.global === null) continue;
      const mine = this.cellId({ alloca: -1, global: cell.global, offset: cell.offset }, cell.size);
      c.add.set(mine, Math.max(c.get(mine), x));
    }
    return c;
  }
}

/** A GEP of a constant-offset pointer with constant indices is one too. */
function gepRoot(km: KModule, ops: readonly Value[], source: Type, rootOf: (v: Value) => Root | null): Root | null {
  const base = rootOf(ops[0]!);
  if (base === null) return null;
  const idx: bigint[] = [];
  for (const op of ops.slice(1)) {
    if (op.vkind !== ValueKind.ConstantInt) return null;
    const w = (op.type as unknown as { bits?: number }).bits ?? 64;
    idx.push(BigInt.asIntN(w, (op as ConstantInt).value));
  }
  const off = Number(km.dl.gepOffset(source, idx));
  return { alloca: base.alloca, global: base.global, offset: base.offset + off };
}

/** The analysis of a run: one FunctionQce per function, made on demand, callees first. */
export class QceAnalysis {
  private readonly done = new Map<KFunction, FunctionQce>();
  private readonly inProgress = new Set<KFunction>();

  constructor(
    readonly km: KModule,
    readonly params: QceParams,
  ) {}

  /** The function's analysis, or null while it is being analysed (a recursive call). */
  of(kf: KFunction): FunctionQce | null {
    const d = this.done.get(kf);
    if (d !== undefined) return d;
    if (this.inProgress.has(kf) || kf.isDeclaration || kf.insts.length === 0) return null;
    this.inProgress.add(kf);
    const f = new FunctionQce(kf, this);
    f.analyse(this.km, this.params);
    this.inProgress.delete(kf);
    this.done.set(kf, f);
    return f;
  }
}
