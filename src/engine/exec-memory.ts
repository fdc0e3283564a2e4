/**
 * Memory instructions (alloca, load, store, getelementptr, atomics) and the memory
 * operations shared with intrinsics and special functions: bounds-checked access through a
 * possibly symbolic pointer (KLEE's executeMemoryOperation), allocation (executeAlloc),
 * free (executeFree) and exact resolution (resolveExact).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { TypeKind, type IntegerType, type Type } from '../ir/types.js';
import { ExprArray, UpdateList } from '../expr/array.js';
import { Opcode, RMWOp } from '../ir/opcodes.js';
import { printInstruction } from '../ir/printer/index.js';
import { NULL_PAGE_SIZE, ObjectKind, type MemoryObject, type ObjectState, type PNode, type ResolveOracle, type StateMemory } from '../memory/index.js';
import type { Executor } from './executor.js';
import { nowMs } from '../util/clock.js';
import type { ExecutionState } from './state.js';
import type { KInst } from './prepare/kinst.js';
import type { GepInfo } from './prepare/kmodule.js';
import { Msg, Termination } from './errors.js';
import { selectValue, wideOperand } from './exec-arith.js';
import { wideFloat } from './wide-float.js';
import { icmp, intWidth } from './scalar.js';
import { fromExpr, intBinary, intFrom, toExpr, toSBig, toUNum, wideNorm, type Scalar, type Val } from './values.js';
import { ExprKind as EK } from '../expr/kinds.js';

/** A resolved, in-bounds access: in which state, which object, at which offset. */
export interface Access {
  st: ExecutionState;
  mo: MemoryObject;
  /** Byte offset in the object: a number, or a 64-bit expression. */
  offset: number | Expr;
}

function oracle(ex: Executor, st: ExecutionState): ResolveOracle {
  return {
    example: (p) => Number(ex.getValue(st, p).value),
    mayBeTrue: (e) => ex.mayBeTrue(st, e),
    mustBeTrue: (e) => ex.mustBeTrue(st, e),
  };
}

/**
 * Resolve an access of `bytes` bytes at `address` (KLEE's executeMemoryOperation, without the
 * access itself): states in which the access is in bounds, one per object it may hit; the
 * rest of the paths end with a memory error here.
 */
export function resolveAccess(ex: Executor, st: ExecutionState, address: Scalar, bytes: number, read = false): Access[] {
  const mem = st.memory;
  const a = typeof address !== 'object' ? Number(address) : mem.constantAddress(address);
  if (a !== null) {
    const n = mem.objectAt(a);
    if (n !== null && a - n.mo.address + bytes <= n.mo.size) return [{ st, mo: n.mo, offset: a - n.mo.address }];
    memoryError(ex, st, address);
    return [];
  }
  const p = address as Expr;
  const o = oracle(ex, st);
  const t0 = nowMs();
  const one = mem.resolveOne(p, o);
  ex.stats?.onResolve(st, nowMs() - t0);
  if (one !== null && ex.mustBeTrue(st, mem.inBounds(one.mo, p, bytes))) {
    // a read at a symbolic offset may make the model split the object (relocatable addressing): read again
    if (read && mem.onSymbolicRead(one.mo, p, bytes, o)) return resolveAccess(ex, st, address, bytes, read);
    const maxSym = ex.opts.maxSymArraySize;
    if (maxSym > 0 && one.mo.size >= maxSym) {
      // --max-sym-array-size: a symbolic offset into a large object is fixed to one value
      const c = fromExpr(ex.toConstant(st, p, 'max-sym-array-size')) as number | bigint;
      return [{ st, mo: one.mo, offset: Number(c) - one.mo.address }];
    }
    return [{ st, mo: one.mo, offset: mem.offsetOf(one.mo, p) }];
  }
  const base = ex.opts.singleObjectResolution ? baseObject(mem, p) : null;
  if (base !== null) {
    // --single-object-resolution: a known base plus a symbolic offset stays in the base's
    // object; the rest of the paths are out of its bounds (no fork into its neighbours)
    const [bound, rest]: [ExecutionState | null, ExecutionState | null] = ex.fork(st, mem.inBounds(base, p, bytes));
    if (rest !== null) memoryError(ex, rest, address);
    return bound !== null ? [{ st: bound, mo: base, offset: mem.offsetOf(base, p) }] : [];
  }
  const t1 = nowMs();
  const site = ex.currentInst(st)?.gid ?? -1;
  const candidates = mem.resolveAll(p, o, 0, site);
  ex.stats?.onResolve(st, nowMs() - t1);
  // several objects: the model may merge them into one (relocatable addressing), then resolve again
  if (candidates.length > 1 && mem.onMultipleResolution(candidates, p, o, site)) return resolveAccess(ex, st, address, bytes, read);
  const out: Access[] = [];
  let unbound: ExecutionState | null = st;
  for (const n of candidates) {
    const [bound, rest]: [ExecutionState | null, ExecutionState | null] = ex.fork(unbound!, mem.inBounds(n.mo, p, bytes));
    if (bound !== null) {
      // the read in this state may make the model split its object (relocatable addressing): read again
      if (read && bound.memory.onSymbolicRead(n.mo, p, bytes, oracle(ex, bound))) out.push(...resolveAccess(ex, bound, address, bytes, read));
      else out.push({ st: bound, mo: n.mo, offset: bound.memory.offsetOf(n.mo, p) });
    }
    unbound = rest;
    if (unbound === null) break;
  }
  if (unbound !== null) memoryError(ex, unbound, address);
  return out;
}

/** The object of `base` in an address `base + offset` (a constant base inside a live object), else null. */
function baseObject(mem: StateMemory, p: Expr): MemoryObject | null {
  if (p.kind !== ExprKind.Add) return null;
  const c = p.left.kind === ExprKind.Constant ? p.left : p.right.kind === ExprKind.Constant ? p.right : null;
  if (c === null) return null;
  const n = mem.objectAt(Number(c.value));
  return n !== null && n.os !== null ? n.mo : null;
}

/** End a state whose access at `address` hit no object (null page, freed object, nothing). */
function memoryError(ex: Executor, st: ExecutionState, address: Scalar): void {
  let msg: string = Msg.outOfBound;
  const known = typeof address === 'object' ? st.memory.constantAddress(address) : null;
  if (known !== null) address = known;
  if (typeof address !== 'object') {
    const a = Number(address);
    if (a >= 0 && a < NULL_PAGE_SIZE) msg = Msg.nullPage;
    else {
      const n = st.memory.bindingAt(a);
      if (ex.opts.kdalloc && n !== null && n.os === null && n.mo.isHeap) msg = Msg.useAfterFree;
    }
  }
  ex.terminateOnError(st, msg, Termination.Ptr, addressInfo(ex, st, address));
}

/** KLEE's getAddressInfo: the address, an example when symbolic, and the neighbouring objects. */
export function addressInfo(ex: Executor, st: ExecutionState, address: Scalar): string {
  let s = '';
  let example: number;
  // a relocatable pointer with one address: reported as that address, as the forking model does
  const known = typeof address === 'object' ? st.memory.constantAddress(address) : null;
  if (known !== null) address = known;
  if (typeof address !== 'object') {
    example = toUNum(address, 64);
    s += `\taddress: ${example}\n`;
  } else {
    s += `\taddress: ${st.memory.solverView(address).toString()}\n`;
    try {
      example = Number(ex.getValue(st, address).value);
    } catch {
      example = 0;
    }
    s += `\texample: ${example}\n`;
  }
  const mem = st.memory;
  let next = mem.bindingAbove(example);
  while (next !== null && next.os === null) next = mem.bindingAbove(next.key);
  s += '\tnext: ';
  s += next === null ? 'none\n' : `object at ${next.mo.address} of size ${next.mo.size}\n\t\t${next.mo.allocInfo()}\n`;
  let prev = mem.bindingBelow(example + 1);
  while (prev !== null && prev.os === null) prev = mem.bindingBelow(prev.key);
  if (prev !== null) s += `\tprev: object at ${prev.mo.address} of size ${prev.mo.size}\n\t\t${prev.mo.allocInfo()}\n`;
  return s;
}

/** Read a value of type t from an access. */
export function readAt(ex: Executor, a: Access, t: Type): Val {
  const os = a.st.memory.stateOf(a.mo)!;
  if (typeof a.offset === 'number') return ex.km.io.read(os, a.offset, t);
  return ex.km.io.readSym(os, builder.extract(a.offset, 0, 32), t);
}

/** Write a value of type t through an access; false (and the state ended) if read-only. */
export function writeAt(ex: Executor, a: Access, t: Type, v: Val): boolean {
  const os = a.st.memory.stateOf(a.mo)!;
  if (os.readOnly) {
    ex.terminateOnError(a.st, Msg.readOnly, Termination.ReadOnly);
    return false;
  }
  const wos = a.st.memory.writeableOf(a.mo)!;
  if (typeof a.offset === 'number') ex.km.io.write(wos, a.offset, t, v);
  else ex.km.io.writeSym(wos, builder.extract(a.offset, 0, 32), t, v);
  return true;
}

export function execLoad(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as Type;
  const n = ex.opts.makeConcreteSymbolic;
  for (const a of resolveAccess(ex, st, st.top.regs[ki.a] as Scalar, ki.w, true)) {
    const v = readAt(ex, a, t);
    ex.bindLocal(a.st, ki, n > 0 && t.kind === TypeKind.Integer ? concreteReadAsSymbolic(ex, a.st, v, (t as IntegerType).bits, n) : v);
  }
}

/** rrws_arr numbering, per run (deterministic names). */
const rrwsArrays = new WeakMap<Executor, number>();

/**
 * --make-concrete-symbolic=N (KLEE's replaceReadWithSymbolic): about one in N concrete
 * integer loads (every one for N = 1) yields a read of a fresh array `rrws_arrK` constrained
 * to equal the loaded value: same paths, but the value is symbolic from here on (a test of the
 * solver and the engine's symbolic paths). The array is no test input.
 */
function concreteReadAsSymbolic(ex: Executor, st: ExecutionState, v: Val, w: number, n: number): Val {
  if (typeof v !== 'number' && typeof v !== 'bigint') return v;
  if (ex.opts.replay !== undefined || (n !== 1 && ex.rng.nextU32() % n !== 0)) return v;
  const bytes = Math.ceil(w / 8);
  const id = (rrwsArrays.get(ex) ?? 0) + 1;
  rrwsArrays.set(ex, id);
  const ul = new UpdateList(new ExprArray(`rrws_arr${id}`, bytes), null);
  let read: Expr = builder.read(ul, constantFromBV(0, 32));
  for (let i = 1; i < bytes; i++) read = builder.concat(builder.read(ul, constantFromBV(i, 32)), read);
  if (read.width !== w) read = builder.extract(read, 0, w);
  st.addConstraint(builder.eq(toExpr(v, w), read));
  return fromExpr(read);
}

export function execStore(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as Type;
  const v = st.top.regs[ki.a]!;
  for (const a of resolveAccess(ex, st, st.top.regs[ki.b] as Scalar, ki.w)) writeAt(ex, a, t, v);
}

/** getelementptr with a symbolic or huge operand: 64-bit address arithmetic. */
export function execGep(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const g = ki.aux as GepInfo;
  let addr: Scalar = regs[ki.a] as Scalar;
  addr = intBinary(EK.Add, 64, addr, intFrom(ki.imm, 64));
  for (let i = 0; i < g.regs.length; i++) {
    const w = g.widths[i]!;
    let idx = regs[g.regs[i]!] as Scalar;
    if (typeof idx === 'object') idx = fromExpr(builder.sext(idx, 64));
    else idx = wideNorm(toSBig(idx, w), 64);
    addr = intBinary(EK.Add, 64, addr, intBinary(EK.Mul, 64, idx, intFrom(g.scales[i]!, 64)));
  }
  ex.bindLocal(st, ki, addr);
}

/** Where an alloca or malloc came from, for error reports ("main():  %3 = alloca i32"). */
/**
 * An instruction printed on its own, for an allocation site: without its metadata
 * attachments (`, !dbg !DILocation(…)`: printed alone they cannot name their scope) and
 * attribute groups (`#<nounwind …>`), which say nothing about where the object came from.
 */
export function siteText(printed: string): string {
  let text = printed.trim();
  const attachments = text.search(/, ![A-Za-z_.][\w.-]* !/);
  if (attachments >= 0) text = text.slice(0, attachments);
  return text.replace(/ #<[^>]*>/g, '');
}

/** Where an allocation happens, for context resolution: the instruction, then the call sites up the stack (ids). */
function allocationContext(st: ExecutionState, ki: KInst): number[] {
  const out = [ki.gid];
  for (let i = st.stack.length - 1; i > 0 && out.length < MAX_CONTEXT; i--) {
    const caller = st.stack[i - 1]!;
    const call = caller.kf.insts[st.stack[i]!.callerPc];
    if (call !== undefined) out.push(call.gid);
  }
  return out;
}

/** Call sites an allocation context keeps (context resolution's k is at most this minus one). */
const MAX_CONTEXT = 8;

export function allocSite(ki: KInst): () => string {
  return () => {
    let text: string;
    try {
      text = siteText(printInstruction(ki.inst));
    } catch {
      text = `<instruction ${ki.index}>`;
    }
    return `${ki.kf.name}():  ${text}`;
  };
}

/** Above this many bytes an allocation gets KLEE's "Large alloc" warning. */
const LARGE_ALLOCATION = 10 * 1024 * 1024;

/**
 * Allocate an object of `size` bytes (KLEE's executeAlloc) and bind its address to ki's
 * result. A symbolic size is concretized the way KLEE does it (a small value first, forking
 * off the rest). `reallocFrom` copies the old contents and frees the old object.
 */
export function executeAlloc(
  ex: Executor,
  st: ExecutionState,
  size: Scalar,
  kind: ObjectKind,
  ki: KInst,
  zeroMemory: boolean,
  reallocFrom: { mo: MemoryObject; pointer: Expr } | null = null,
  align = 0,
): void {
  if (typeof size === 'object') {
    allocSymbolicSize(ex, st, size, kind, ki, zeroMemory, reallocFrom, align);
    return;
  }
  const n = toUNum(size, 64);
  // KLEE's MemoryManager::allocate warns once; beyond MAX_ALLOCATION the result is NULL
  if (n > LARGE_ALLOCATION) ex.warningOnce('large-alloc', `Large alloc: ${n} bytes.  KLEE may run out of memory.`);
  const a = align > 0 ? align : kind === ObjectKind.Stack ? 8 : 16;
  const os = st.memory.allocate(n, kind, a, allocSite(ki), st.memory.wantsAllocationContext ? allocationContext(st, ki) : undefined);
  if (os === null) {
    ex.bindLocal(st, ki, 0);
    return;
  }
  const mo = os.mo!;
  // Uninitialised memory reads as 0xAB, as in KLEE (initializeToRandom).
  if (!zeroMemory) os.fill(0xab);
  if (kind === ObjectKind.Stack) {
    const f = st.thawTop();
    (f.allocas ??= []).push(mo);
  }
  ex.bindLocal(st, ki, st.memory.pointerOf(mo));
  if (reallocFrom !== null) {
    const old = st.memory.allocationOf(reallocFrom.mo, reallocFrom.pointer);
    if (old !== null) {
      const count = Math.min(old.size, os.size);
      for (let i = 0; i < count; i++) os.write8(i, old.read8(i));
    }
    st.memory.free(reallocFrom.mo, reallocFrom.pointer);
  }
}

function allocSymbolicSize(
  ex: Executor,
  st: ExecutionState,
  size: Expr,
  kind: ObjectKind,
  ki: KInst,
  zeroMemory: boolean,
  reallocFrom: { mo: MemoryObject; pointer: Expr } | null,
  align: number,
): void {
  const w = size.width;
  let example = ex.getValue(st, size);
  // Try a small example first.
  while (example.value > 128n) {
    const half = constantFromBV(example.value >> 1n, w);
    if (!ex.mayBeTrue(st, builder.eq(half, size))) break;
    example = half;
  }
  const [fixed, other] = ex.fork(st, builder.eq(example, size));
  if (other !== null) {
    const tmp = ex.getValue(other, size);
    if (ex.mustBeTrue(other, builder.eq(tmp, size))) {
      executeAlloc(ex, other, fromExpr(tmp), kind, ki, zeroMemory, reallocFrom, align);
    } else {
      const [huge, rest] = ex.fork(other, builder.ult(constantFromBV(2n ** 31n, w), size));
      if (huge !== null) {
        ex.message('NOTE: found huge malloc, returning 0');
        ex.bindLocal(huge, ki, 0);
      }
      if (rest !== null) {
        const info = `  size expr: ${size.toString()}\n  concretization : ${example.value}\n  unbound example: ${tmp.value}\n`;
        ex.terminateOnError(rest, Msg.concretizedSize, Termination.Model, info);
      }
    }
  }
  if (fixed !== null) executeAlloc(ex, fixed, fromExpr(example), kind, ki, zeroMemory, reallocFrom, align);
}

export function execAlloca(ex: Executor, st: ExecutionState, ki: KInst): void {
  const count = st.top.regs[ki.a] as Scalar;
  const size = typeof count === 'object' ? fromExpr(builder.mul(builder.zext(count, 64), constantFromBV(BigInt(ki.w), 64))) : intFrom(toUNum(count, ki.w2) * ki.w, 64);
  executeAlloc(ex, st, size, ObjectKind.Stack, ki, false, null, ki.imm);
}

/**
 * The objects p points exactly at (KLEE's resolveExact): one state per object, the others
 * end with "memory error: invalid pointer: <name>" (under --kdalloc, a second free: double free).
 */
export function resolveExact(ex: Executor, st: ExecutionState, p: Scalar, name: string): { st: ExecutionState; mo: MemoryObject; node: PNode }[] {
  const mem = st.memory;
  const out: { st: ExecutionState; mo: MemoryObject; node: PNode }[] = [];
  let candidates: PNode[];
  if (typeof p !== 'object') {
    const n = mem.objectAt(toUNum(p, 64));
    candidates = n === null ? [] : [n];
  } else {
    const t0 = nowMs();
    candidates = mem.resolveAll(p, oracle(ex, st));
    ex.stats?.onResolve(st, nowMs() - t0);
  }
  const pe = toExpr(p, 64);
  let unbound: ExecutionState | null = st;
  for (const n of candidates) {
    const [hit, rest]: [ExecutionState | null, ExecutionState | null] = ex.fork(unbound!, mem.pointsAt(n.mo, pe));
    if (hit !== null) out.push({ st: hit, mo: n.mo, node: n });
    unbound = rest;
    if (unbound === null) break;
  }
  if (unbound !== null) {
    let msg = Msg.invalidPointer(name);
    const at = typeof p !== 'object' ? toUNum(p, 64) : unbound.memory.constantAddress(p);
    if (ex.opts.kdalloc && at !== null && name === 'free') {
      const n = unbound.memory.bindingAt(at);
      if (n !== null && n.os === null && n.mo.isHeap && n.mo.address === at) msg = Msg.doubleFree;
    }
    ex.terminateOnError(unbound, msg, Termination.Ptr, addressInfo(ex, unbound, p));
  }
  return out;
}

/** free(p) (KLEE's executeFree); binds 0 to ki's result when ki is given and has one. */
export function executeFree(ex: Executor, st: ExecutionState, p: Scalar, ki: KInst | null): void {
  const [isNull, notNull] = ex.fork(st, builder.eq(toExpr(p, 64), constantFromBV(0n, 64)));
  if (isNull !== null && ki !== null) ex.bindLocal(isNull, ki, 0);
  if (notNull === null) return;
  for (const r of resolveExact(ex, notNull, p, 'free')) {
    const mo = r.mo;
    if (mo.isLocal) ex.terminateOnError(r.st, Msg.freeOfAlloca, Termination.Free, addressInfo(ex, r.st, p));
    else if (mo.isGlobal || mo.kind === ObjectKind.Fixed) {
      ex.terminateOnError(r.st, Msg.freeOfGlobal, Termination.Free, addressInfo(ex, r.st, p));
    } else {
      r.st.memory.free(mo, toExpr(p, 64));
      if (ki !== null) ex.bindLocal(r.st, ki, 0);
    }
  }
}

// ---------------------------------------------------------------- atomics (sequential)

export function execCmpXchg(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const t = ki.aux as Type;
  const w = intWidth(t);
  const expected = regs[ki.b] as Scalar;
  const nv = regs[ki.c] as Scalar;
  const bytes = ex.km.dl.typeStoreSize(t);
  for (const a of resolveAccess(ex, st, regs[ki.a] as Scalar, bytes)) {
    const old = readAt(ex, a, t) as Scalar;
    const eq = icmp(32 /* eq */, w, old, expected);
    let stored: Val;
    if (typeof eq !== 'object') stored = eq !== 0 ? nv : old;
    else stored = selectValue(ex, a.st, t, eq, nv, old);
    if (writeAt(ex, a, t, stored)) ex.bindLocal(a.st, ki, [old, eq]);
  }
}

export function execAtomicRMW(ex: Executor, st: ExecutionState, ki: KInst): void {
  const regs = st.top.regs;
  const t = ki.aux as Type;
  const v = regs[ki.b]!;
  const bytes = ex.km.dl.typeStoreSize(t);
  for (const a of resolveAccess(ex, st, regs[ki.a] as Scalar, bytes)) {
    const old = readAt(ex, a, t);
    const nv = rmw(ex, a.st, ki.imm as RMWOp, t, old, v);
    if (nv === null) {
      ex.terminateOnError(a.st, `unsupported atomicrmw operation ${RMWOp[ki.imm]}`, Termination.Execution);
      continue;
    }
    if (writeAt(ex, a, t, nv)) ex.bindLocal(a.st, ki, old);
  }
}

function rmw(ex: Executor, st: ExecutionState, op: RMWOp, t: Type, old: Val, v: Val): Val | null {
  const wf = wideFloat(t.kind);
  if (wf !== null && op !== RMWOp.Xchg) {
    const x = wideOperand(ex, st, old, wf);
    const y = wideOperand(ex, st, v, wf);
    switch (op) {
      case RMWOp.FAdd:
        return wf.binary(Opcode.FAdd, x, y);
      case RMWOp.FSub:
        return wf.binary(Opcode.FSub, x, y);
      case RMWOp.FMax:
        return wf.minMax(x, y, true);
      case RMWOp.FMin:
        return wf.minMax(x, y, false);
      default:
        return null;
    }
  }
  if (t.kind !== TypeKind.Integer && t.kind !== TypeKind.Pointer) {
    const x = old as number;
    const y = v as number;
    switch (op) {
      case RMWOp.Xchg:
        return v;
      case RMWOp.FAdd:
        return t.kind === TypeKind.Float ? Math.fround(x + y) : x + y;
      case RMWOp.FSub:
        return t.kind === TypeKind.Float ? Math.fround(x - y) : x - y;
      case RMWOp.FMax:
        return Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.max(x, y);
      case RMWOp.FMin:
        return Number.isNaN(x) ? y : Number.isNaN(y) ? x : Math.min(x, y);
      default:
        return null;
    }
  }
  const w = intWidth(t);
  const x = old as Scalar;
  const y = v as Scalar;
  const pick = (pred: number): Val => {
    const c = icmp(pred, w, x, y);
    return typeof c !== 'object' ? (c !== 0 ? x : y) : selectValue(ex, st, t, c, x, y);
  };
  switch (op) {
    case RMWOp.Xchg:
      return y;
    case RMWOp.Add:
      return intBinary(EK.Add, w, x, y);
    case RMWOp.Sub:
      return intBinary(EK.Sub, w, x, y);
    case RMWOp.And:
      return intBinary(EK.And, w, x, y);
    case RMWOp.Nand:
      return fromExpr(builder.not(toExpr(intBinary(EK.And, w, x, y), w)));
    case RMWOp.Or:
      return intBinary(EK.Or, w, x, y);
    case RMWOp.Xor:
      return intBinary(EK.Xor, w, x, y);
    case RMWOp.Max:
      return pick(38 /* sgt */);
    case RMWOp.Min:
      return pick(40 /* slt */);
    case RMWOp.UMax:
      return pick(34 /* ugt */);
    case RMWOp.UMin:
      return pick(36 /* ult */);
    case RMWOp.UIncWrap: {
      // old >= v ? 0 : old + 1
      const c = icmp(35 /* uge */, w, x, y);
      const inc = intBinary(EK.Add, w, x, intFrom(1, w));
      return typeof c !== 'object' ? (c !== 0 ? 0 : inc) : selectValue(ex, st, t, c, 0, inc);
    }
    case RMWOp.UDecWrap: {
      // (old == 0 || old > v) ? v : old - 1
      const z = icmp(32, w, x, 0);
      const gt = icmp(34, w, x, y);
      const dec = intBinary(EK.Sub, w, x, intFrom(1, w));
      const c = intBinary(EK.Or, 1, z, gt);
      return typeof c !== 'object' ? (c !== 0 ? y : dec) : selectValue(ex, st, t, c as Expr, y, dec);
    }
    case RMWOp.USubCond: {
      // old >= v ? old - v : old
      const c = icmp(35, w, x, y);
      const d = intBinary(EK.Sub, w, x, y);
      return typeof c !== 'object' ? (c !== 0 ? d : x) : selectValue(ex, st, t, c, d, x);
    }
    case RMWOp.USubSat: {
      const c = icmp(35, w, x, y);
      const d = intBinary(EK.Sub, w, x, y);
      return typeof c !== 'object' ? (c !== 0 ? d : 0) : selectValue(ex, st, t, c, d, 0);
    }
    default:
      return null;
  }
}

/** Copy `n` bytes from one object state to another (memcpy/memmove core; overlap-safe). */
export function copyBytes(dst: ObjectState, dOff: number, src: ObjectState, sOff: number, n: number): void {
  if (src.nonConcrete === 0 && dst.nonConcrete === 0 && dst.ul === null && src !== dst) {
    dst.setConcrete(dOff, src.concreteBytes(sOff, n));
    return;
  }
  const tmp: (number | Expr)[] = [];
  for (let i = 0; i < n; i++) tmp.push(src.read8(sOff + i));
  for (let i = 0; i < n; i++) dst.write8(dOff + i, tmp[i]!);
}
