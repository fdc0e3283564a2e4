/**
 * Over-wide shifts as LLVM defines them: `shl/lshr/ashr` by an amount ≥ the width yields
 * poison, which is undefined behaviour only where the program observes it. Optimised code
 * computes shifts speculatively — clang -O2 turns `(r >= 32 || x > (127 >> r)) ? x : x << r`
 * into a `lshr 127, r` before the test and a select that discards it — so reporting every
 * over-wide shift (KLEE's --check-overshift) reports errors the C program does not have.
 *
 * Where a function is treated so (EngineOptions.overshiftAt): 'use' everywhere, 'shift'
 * nowhere (an error at the shift, as KLEE), 'auto' (default) in every function without
 * `optnone`. clang -O0 marks every function optnone: there each IR shift is a shift the C
 * program executes, and the error is reported at the shift as before. (-O0 bitcode built with
 * `-Xclang -disable-O0-optnone`, as for KLEE, counts as optimised: its shifts' results are
 * stored right away, so the report comes one instruction later, on the same line.)
 *
 * In such a function, every value that may carry the poison of a shift with a non-constant
 * amount (the forward closure through arithmetic, casts, comparisons, select, phi, GEP,
 * aggregates and pure intrinsics; freeze, loads and calls end it) gets a shadow register: 0
 * (not poison), 1 (poison) or a width-1 expression (poison when true). The instructions that
 * read or make such values become Op.Poison (run by exec-poison.ts, which keeps the shadows
 * and checks them); phis copy their shadows on the edges. Observations — the condition of a
 * branch or switch, the target of indirectbr, a stored value, an address, a call argument,
 * a returned value, a divisor, an alloca size — report "overshift error" when the shadow may
 * be true. Code without such shifts is prepared exactly as before.
 */
import { IntegerType, Opcode, ValueKind, type CallInst, type Function, type Instruction, type Value } from '../../ir/index.js';
import { Edge, KFunction, KInst, Op } from './kinst.js';
import type { KModule, SwitchInfo } from './kmodule.js';

/** When an over-wide shift is an error: at the shift, where its poison is observed, or by optnone. */
export type OvershiftAt = 'auto' | 'shift' | 'use';

export interface PoisonInfo {
  /** The instruction as prepared (its own Op), run after the poison bookkeeping. */
  readonly inner: KInst;
  /** Shadow register of the result, or -1 when the result never carries poison. */
  readonly dest: number;
  /** Shadow registers of operands whose poison flows into the result (select: [cond, a, b]). */
  readonly props: Int32Array;
  /** Shadow registers of operands the instruction observes (poison there is an error). */
  readonly sinks: Int32Array;
  /** The instruction is a shift whose own amount may be over-wide. */
  readonly shift: boolean;
  /** props are a select's [cond, true value, false value] (only the chosen side's poison flows). */
  readonly select: boolean;
}

/** The instruction a prepared instruction stands for (Op.Poison wraps it). */
export function baseInst(ki: KInst): KInst {
  return ki.op === Op.Poison ? (ki.aux as PoisonInfo).inner : ki;
}

const PURE_INTRINSIC = /^llvm\.(?:[su](?:max|min)|abs|ctpop|ctlz|cttz|bswap|bitreverse|fshl|fshr|expect|[su](?:add|sub|mul)\.with\.overflow|[su](?:add|sub|shl)\.sat|vector\.reduce\.[a-z]+)\./;

function isShift(op: Opcode): boolean {
  return op === Opcode.Shl || op === Opcode.LShr || op === Opcode.AShr;
}

function calleeName(call: CallInst): string {
  const c = call.callee;
  return c.vkind === ValueKind.Function ? (c as Function).name : '';
}

/** Whether poison in an operand of inst flows into its result. */
function propagates(inst: Instruction): boolean {
  switch (inst.opcode) {
    case Opcode.Load:
    case Opcode.Store:
    case Opcode.Alloca:
    case Opcode.Freeze:
    case Opcode.AtomicCmpXchg:
    case Opcode.AtomicRMW:
    case Opcode.VAArg:
    case Opcode.Fence:
      return false;
    case Opcode.Call:
      return PURE_INTRINSIC.test(calleeName(inst as CallInst));
    default:
      return !inst.type.isVoid();
  }
}

/** Operand indices inst observes (an error if poison), given that it does not propagate them. */
function observedOperands(inst: Instruction): number[] {
  switch (inst.opcode) {
    case Opcode.UDiv:
    case Opcode.SDiv:
    case Opcode.URem:
    case Opcode.SRem:
      return [1]; // the divisor; the dividend's poison flows into the quotient
    case Opcode.Freeze:
      return [];
    case Opcode.Call:
      if (PURE_INTRINSIC.test(calleeName(inst as CallInst))) return [];
      return inst.ops.map((_, i) => i);
    default:
      return propagates(inst) ? [] : inst.ops.map((_, i) => i);
  }
}

/** Shifts whose amount is not a constant: the only poison the engine tracks. */
function poisonSources(fn: Function): Instruction[] {
  const out: Instruction[] = [];
  for (const bb of fn.blocks) for (const inst of bb.insts) if (isShift(inst.opcode) && !inst.ops[1]!.isConstant()) out.push(inst);
  return out;
}

/** The values that may carry a source's poison (forward closure over def-use). */
function taintedValues(fn: Function, sources: Instruction[]): Set<Value> {
  const users = new Map<Value, Instruction[]>();
  for (const bb of fn.blocks)
    for (const inst of bb.insts)
      for (const op of inst.ops) {
        let u = users.get(op);
        if (u === undefined) users.set(op, (u = []));
        u.push(inst);
      }
  const tainted = new Set<Value>(sources);
  const work = [...sources];
  while (work.length > 0) {
    const v = work.pop()!;
    for (const u of users.get(v) ?? []) {
      if (tainted.has(u) || !propagates(u)) continue;
      tainted.add(u);
      work.push(u);
    }
  }
  return tainted;
}

function edgesOf(ki: KInst): Edge[] {
  switch (ki.op) {
    case Op.Br:
      return [ki.aux as Edge];
    case Op.CondBr:
      return ki.aux as Edge[];
    case Op.Switch: {
      const s = ki.aux as SwitchInfo;
      return [s.defaultEdge, ...s.edges];
    }
    case Op.IndirectBr:
      return (ki.aux as { edge: Edge }[]).map((d) => d.edge);
    default:
      return [];
  }
}

/** Whether kf's over-wide shifts are reported where observed (see the module comment). */
export function reportsAtUse(kf: KFunction, at: OvershiftAt): boolean {
  if (at === 'auto') return !kf.fn.attributes.hasFnAttr('optnone');
  return at === 'use';
}

/** Rewrites kf for poison tracking (nothing when it has no shift by a non-constant amount). */
export function trackPoison(kf: KFunction): void {
  const sources = poisonSources(kf.fn);
  if (sources.length === 0) return;
  const tainted = taintedValues(kf.fn, sources);
  const shadow = new Map<number, number>();
  const newReg = (v: number, type: IntegerType | null): number => {
    const r = kf.numRegs++;
    kf.template.push(v);
    kf.regTypes.push(type);
    return r;
  };
  const i1 = IntegerType.get(1);
  for (const v of tainted) {
    const slot = kf.slots.get(v);
    if (slot !== undefined) shadow.set(slot, newReg(0, i1));
  }
  const zero = newReg(0, null); // the shadow of everything untracked: never poison
  const shadowOf = (v: Value): number => {
    const slot = kf.slots.get(v);
    return slot === undefined ? -1 : (shadow.get(slot) ?? -1);
  };
  // phis: their shadows travel with them on every edge
  const seen = new Set<Edge>();
  for (const ki of kf.insts) {
    for (const e of edgesOf(ki)) {
      if (seen.has(e)) continue;
      seen.add(e);
      const dst: number[] = [];
      const src: number[] = [];
      for (let i = 0; i < e.phiCount; i++) {
        const sd = shadow.get(e.phiDst[i]!);
        if (sd === undefined) continue;
        dst.push(sd);
        src.push(shadow.get(e.phiSrc[i]!) ?? zero);
      }
      if (dst.length === 0) continue;
      e.phiDst = Int32Array.from([...e.phiDst, ...dst]);
      e.phiSrc = Int32Array.from([...e.phiSrc, ...src]);
    }
  }
  for (let pc = 0; pc < kf.insts.length; pc++) {
    const ki = kf.insts[pc]!;
    const inst = ki.inst;
    const shift = isShift(inst.opcode) && tainted.has(inst);
    const readsPoison = inst.ops.some((op) => shadowOf(op) >= 0);
    if (!shift && !readsPoison) continue;
    if (ki.op === Op.Unsupported) continue;
    const dest = tainted.has(inst) ? shadowOf(inst) : -1;
    const select = ki.op === Op.Select; // (a vector select: any lane's poison, as other vector ops)
    const props = select ? inst.ops.map((op) => (shadowOf(op) >= 0 ? shadowOf(op) : zero)) : dest >= 0 ? inst.ops.map(shadowOf).filter((r) => r >= 0) : [];
    const sinks = observedOperands(inst)
      .map((i) => shadowOf(inst.ops[i]!))
      .filter((r) => r >= 0);
    const inner = Object.assign(new KInst(inst, kf, ki.index), ki);
    inner.poisonShift = shift;
    const info: PoisonInfo = { inner, dest, props: Int32Array.from(props), sinks: Int32Array.from(sinks), shift, select };
    ki.op = Op.Poison;
    ki.aux = info;
  }
}

/** Poison tracking in every function of km that reports over-wide shifts where observed. */
export function applyPoisonTracking(km: KModule, at: OvershiftAt): void {
  for (const kf of km.functions.values()) if (!kf.isDeclaration && reportsAtUse(kf, at)) trackPoison(kf);
}
