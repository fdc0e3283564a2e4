/**
 * Calls: direct calls into defined functions, special functions and intrinsics, calls
 * through function pointers (one state per possible target), inline assembly, and the
 * variadic argument area (KLEE's x86-64 convention: every variadic argument in one object,
 * reached through overflow_arg_area).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV } from '../expr/expr.js';
import { PointerType, type Type } from '../ir/types.js';
import type { InlineAsm } from '../ir/constants.js';
import type { CallInst } from '../ir/instructions.js';
import { ObjectKind, type MemoryObject, type ObjectState } from '../memory/index.js';
import type { Executor } from './executor.js';
import { StackFrame, type ExecutionState } from './state.js';
import type { CallTarget, KFunction, KInst } from './prepare/kinst.js';
import { Msg, Termination } from './errors.js';
import { allocSite, readAt, resolveAccess, writeAt } from './exec-memory.js';
import { fromExpr, toExpr, toUNum, type Scalar, type Val } from './values.js';
import { compileAsm, runAsm, type AsmProgram } from './inline-asm.js';
import { checkError } from './exec-arith.js';
import { intWidth } from './scalar.js';
import { coerceArgs } from './call-coerce.js';

/** Arguments of a call instruction, in order. */
export function callArgs(st: ExecutionState, ki: KInst): Val[] {
  const regs = st.top.regs;
  const r = ki.args!;
  const out: Val[] = new Array<Val>(r.length);
  for (let i = 0; i < r.length; i++) out[i] = regs[r[i]!]!;
  return out;
}

/** Enter a defined function (KLEE's executeCall for a function with a body). */
export function enterFunction(ex: Executor, st: ExecutionState, ki: KInst, kf: KFunction, args: Val[]): void {
  if (st.stack.length >= ex.opts.maxStackFrames) {
    // KLEE's wording (Executor::executeCall): a warning, and the state ends early (.early test)
    ex.warning('Maximum stack size reached.');
    ex.terminateEarly(st, 'Maximum stack size reached.', Termination.OutOfStackMemory);
    return;
  }
  const fn = kf.fn;
  const nparams = fn.args.length;
  args = coerceArgs(ki, fn.functionType, args);
  if (args.length < nparams) {
    ex.terminateOnError(st, 'calling function with too few arguments', Termination.User);
    return;
  }
  if (!fn.functionType.varArgs && args.length > nparams) {
    ex.warningOnce(`extra-args:${fn.name}`, `calling ${fn.name} with extra arguments.`);
  }
  const regs = kf.template.slice();
  for (let i = 0; i < nparams; i++) regs[kf.argBase + i] = args[i]!;
  const frame = new StackFrame(kf, regs, st.prevPc);
  // The caller must be writable again when this frame returns; the callee starts fresh.
  st.stack.push(frame);
  const copies: ByvalCopy[] = [];
  if (fn.functionType.varArgs) {
    const extra = args.slice(nparams);
    const types = (ki.inst.ops.slice(nparams, ki.args!.length) as { type: Type }[]).map((o) => o.type);
    setupVarargs(ex, st, frame, ki, nparams, extra, types, copies);
  }
  // byval arguments: the callee gets its own copy (the caller's stays intact).
  byvalCopies(ex, st, frame, ki, copies);
  st.pc = kf.entryPc;
  copyByval(ex, st, copies);
}

/** Bytes of a by-value argument to copy into the callee's object `dst` at `off` (from the caller's pointer `src`). */
interface ByvalCopy {
  dst: MemoryObject;
  off: number;
  type: Type;
  src: Scalar;
}

/** The by-value type of a call's argument i (`byval(T)` on the call site), or null. */
function byvalType(ki: KInst, i: number): Type | null {
  const attrs = (ki.inst as CallInst).attributes;
  return attrs?.paramAttr(i, 'byval')?.type ?? null;
}

/**
 * The variadic arguments, laid out as the x86-64 ABI's overflow area (KLEE lays every one
 * there): 8-byte slots, 16-byte aligned for types wider than 64 bits or aligned to 16; a
 * by-value struct's bytes (not the pointer the IR passes) in ceil(size / 8) slots.
 */
function setupVarargs(ex: Executor, st: ExecutionState, frame: StackFrame, ki: KInst, first: number, extra: Val[], types: Type[], copies: ByvalCopy[]): void {
  const dl = ex.km.dl;
  const layout: { off: number; type: Type; byval: boolean }[] = [];
  let size = 0;
  let align16 = false;
  for (let i = 0; i < types.length; i++) {
    const bv = byvalType(ki, first + i);
    const t = bv ?? types[i]!;
    const bytes = bv !== null ? Math.ceil(dl.typeAllocSize(t) / 8) * 8 : Math.ceil(dl.typeSizeInBits(t) / 64) * 8;
    if (bv !== null ? dl.abiAlign(t) > 8 : dl.typeSizeInBits(t) > 64) {
      size = Math.ceil(size / 16) * 16;
      align16 = true;
    }
    layout.push({ off: size, type: t, byval: bv !== null });
    size += bytes;
  }
  if (size === 0 && extra.length === 0) return;
  const os = st.memory.allocate(size, ObjectKind.Fixed, align16 ? 16 : 8, allocSite(ki))!;
  const mo = os.mo!;
  mo.name = 'varargs';
  for (let i = 0; i < extra.length; i++) {
    const l = layout[i]!;
    if (l.byval) copies.push({ dst: mo, off: l.off, type: l.type, src: extra[i] as Scalar });
    else ex.km.io.write(os, l.off, l.type, extra[i]!);
  }
  frame.varargs = mo;
}

/** Objects for the callee's byval parameters (their registers point to them); the bytes come in copyByval. */
function byvalCopies(ex: Executor, st: ExecutionState, frame: StackFrame, ki: KInst, copies: ByvalCopy[]): void {
  const byval = frame.kf.byval;
  if (byval === null) return;
  for (let i = 0; i < byval.length; i++) {
    const t = byval[i];
    if (t === null || t === undefined) continue;
    const src = frame.regs[frame.kf.argBase + i] as Scalar;
    const size = ex.km.dl.typeAllocSize(t);
    const mo = st.memory.allocate(size, ObjectKind.Stack, Math.max(8, ex.km.dl.abiAlign(t)), allocSite(ki))!.mo!;
    (frame.allocas ??= []).push(mo);
    frame.regs[frame.kf.argBase + i] = st.memory.pointerOf(mo);
    copies.push({ dst: mo, off: 0, type: t, src });
  }
}

/**
 * Copies each by-value argument from the caller's object: a pointer that may point into
 * several objects forks (resolveAccess), and every resulting state gets its own copy.
 */
function copyByval(ex: Executor, st: ExecutionState, copies: ByvalCopy[]): void {
  let states = [st];
  for (const c of copies) {
    const size = ex.km.dl.typeStoreSize(c.type);
    const next: ExecutionState[] = [];
    for (const s of states) {
      for (const acc of resolveAccess(ex, s, c.src, size)) {
        ex.km.io.write(acc.st.memory.writeableOf(c.dst)!, c.off, c.type, readAt(ex, acc, c.type));
        next.push(acc.st);
      }
    }
    states = next;
  }
}

export function execCallDirect(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as CallTarget;
  enterFunction(ex, st, ki, t.kf!, callArgs(st, ki));
}

export function execCallSpecial(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as CallTarget;
  t.handler!(ex, st, ki, callArgs(st, ki));
}

export function execCallExternal(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as CallTarget;
  callExternal(ex, st, t.name);
}

/** tsklee never runs the program's code natively (DESIGN decision 8). */
export function callExternal(ex: Executor, st: ExecutionState, name: string): void {
  if (name.startsWith('llvm.')) {
    ex.terminateOnError(st, `unsupported intrinsic ${name}`, Termination.Execution);
    return;
  }
  ex.warningOnce(`external:${name}`, `undefined function ${name}: tsklee does not call external functions (the path ends with an error)`);
  ex.terminateOnError(st, Msg.externalCall(name), Termination.External);
}

/** Call a target chosen at run time (function pointers). */
function callTarget(ex: Executor, st: ExecutionState, ki: KInst, t: CallTarget, args: Val[]): void {
  if (t.handler !== null) t.handler(ex, st, ki, args);
  else if (t.kf !== null) enterFunction(ex, st, ki, t.kf, args);
  else callExternal(ex, st, t.name);
}

export function execCallIndirect(ex: Executor, st: ExecutionState, ki: KInst): void {
  const args = callArgs(st, ki);
  const fp = st.top.regs[ki.a] as Scalar;
  if (typeof fp !== 'object') {
    const kf = ex.km.functionAt.get(toUNum(fp, 64));
    if (kf === undefined) {
      ex.terminateOnError(st, Msg.invalidFunctionPointer, Termination.Execution);
      return;
    }
    callTarget(ex, st, ki, ex.km.bindCallee(kf.fn), args);
    return;
  }
  // KLEE: take a value the pointer can have, fork on it, repeat on the rest.
  const e = fp;
  let free: ExecutionState | null = st;
  let first = true;
  let reportedInvalid = false;
  while (free !== null) {
    const v = ex.getValue(free, e);
    const [hit, rest]: [ExecutionState | null, ExecutionState | null] = ex.fork(free, builder.eq(e, v));
    if (hit !== null) {
      const kf = ex.km.functionAt.get(Number(v.value));
      if (kf !== undefined) {
        if (rest !== null || !first) ex.warningOnce(`fnptr:${kf.name}`, `resolved symbolic function pointer to: ${kf.name}`);
        callTarget(ex, hit, ki, ex.km.bindCallee(kf.fn), args);
      } else if (!reportedInvalid) {
        ex.terminateOnError(hit, Msg.invalidFunctionPointer, Termination.Execution);
        reportedInvalid = true;
      } else ex.terminateSilently(hit, Termination.Execution);
    }
    first = false;
    free = rest;
    if (ex.haltReason !== null) break;
  }
}

/**
 * Inline assembly: empty templates (compiler barriers); `cpuid` as <cpuid.h> emits it
 * (a struct of eax, ebx, ecx, edx), answered as by a CPU that reports no leaf at all: so
 * `__get_cpuid` fails and programs take their portable code (coreutils' wc and cksum skip
 * AVX2/PCLMUL) — the one answer that holds for every machine a test may be replayed on;
 * and x86-64 integer templates (longlong.h's umul_ppmm, udiv_qrnnd, add_ssaaaa, …), lifted
 * to expressions by inline-asm.ts.
 */
export function execCallAsm(ex: Executor, st: ExecutionState, ki: KInst): void {
  const asm = ki.aux as InlineAsm;
  const text = asm.asm.replace(/#[^\n]*/g, '').trim();
  if (text === '' && ki.dest < 0) return;
  // KLEE runs inline asm as an external call: --external-calls=none refuses it
  if (ex.opts.externalCalls === 'none') {
    ex.terminateOnError(st, 'external calls disallowed (in particular inline asm)', Termination.User);
    return;
  }
  if (isCpuid(text, ki.inst.type)) {
    ex.bindLocal(st, ki, [0, 0, 0, 0]);
    return;
  }
  const prog = liftedAsm(ki, asm);
  if (typeof prog === 'string') {
    ex.warningOnce(`asm:${asm.asm}`, `inline assembly not supported (${prog}): ${JSON.stringify(asm.asm)}`);
    ex.terminateOnError(st, Msg.inlineAsm, Termination.Execution);
    return;
  }
  const call = ki.inst as CallInst;
  const args = callArgs(st, ki).map((v, i) => toExpr(v as Scalar, intWidth(call.ops[i]!.type)));
  let target: ExecutionState | null = st;
  const out = runAsm(prog, args, {
    check(bad, kind) {
      target = kind === 'div-zero' ? checkError(ex, target!, bad, Msg.divByZero, 'div.err') : checkError(ex, target!, bad, Msg.divOverflow, 'overflow.err');
      return target !== null;
    },
  });
  if (out === null || target === null) return;
  const vals = out.map(fromExpr);
  if (ki.dest >= 0) ex.bindLocal(target, ki, ki.inst.type.isStruct() ? vals : vals[0]!);
}

const LIFTED = new WeakMap<KInst, AsmProgram | string>();

function liftedAsm(ki: KInst, asm: InlineAsm): AsmProgram | string {
  let p = LIFTED.get(ki);
  if (p === undefined) {
    const call = ki.inst as CallInst;
    const argTypes = Array.from({ length: call.argCount }, (_, i) => call.ops[i]!.type);
    LIFTED.set(ki, (p = compileAsm(asm, argTypes, ki.inst.type)));
  }
  return p;
}

/** `cpuid`, alone or between the `xchg` that save %rbx, giving four i32 registers. */
function isCpuid(text: string, result: Type): boolean {
  const insns = text.split(/[\n;]/).map((l) => l.trim()).filter((l) => l !== '');
  if (!insns.includes('cpuid') || !insns.every((l) => l === 'cpuid' || /^xchg[lq]?\s/.test(l))) return false;
  return result.isStruct() && result.elements.length === 4 && result.elements.every((e) => e.isInteger(32));
}

// ---------------------------------------------------------------- varargs

/** va_start: the x86-64 va_list made to say "everything is in overflow_arg_area" (as KLEE). */
export function vaStart(ex: Executor, st: ExecutionState, listPtr: Scalar): void {
  // with no variadic arguments the list still gets a consistent shape (an empty area)
  const area = st.top.varargs;
  writeVaList(ex, st, listPtr, area === null ? 0 : area.address);
}

function writeVaList(ex: Executor, st: ExecutionState, p: Scalar, area: number): void {
  for (const a of resolveAccess(ex, st, p, 24)) {
    const wos = a.st.memory.writeableOf(a.mo)!;
    if (typeof a.offset !== 'number') continue;
    const o = a.offset;
    writeU32(wos, o, 48); // gp_offset = 48: no general-purpose registers left
    writeU32(wos, o + 4, 304); // fp_offset = 304: no vector registers left
    writeU64(wos, o + 8, area); // overflow_arg_area: every variadic argument is here
    writeU64(wos, o + 16, 0); // reg_save_area
  }
}

function writeU32(os: ObjectState, off: number, v: number): void {
  for (let i = 0; i < 4; i++) os.write8(off + i, (v >>> (8 * i)) & 0xff);
}

function writeU64(os: ObjectState, off: number, v: number): void {
  const lo = v >>> 0;
  const hi = Math.floor(v / 0x1_0000_0000) >>> 0;
  for (let i = 0; i < 4; i++) os.write8(off + i, (lo >>> (8 * i)) & 0xff);
  for (let i = 0; i < 4; i++) os.write8(off + 4 + i, (hi >>> (8 * i)) & 0xff);
}

/** The va_arg instruction (clang expands va_arg itself on x86-64; kept for other front ends). */
export function execVAArg(ex: Executor, st: ExecutionState, ki: KInst): void {
  const t = ki.aux as Type;
  const listPtr = st.top.regs[ki.a] as Scalar;
  const step = Math.ceil(ex.km.dl.typeSizeInBits(t) / 64) * 8;
  for (const a of resolveAccess(ex, st, listPtr, 24)) {
    const slot = { ...a, offset: typeof a.offset === 'number' ? a.offset + 8 : builder.add(a.offset, constantFromBV(8n, 64)) };
    const area = readAt(ex, slot, PTR) as Scalar;
    for (const b of resolveAccess(ex, a.st, area, ex.km.dl.typeStoreSize(t))) {
      const v = readAt(ex, b, t);
      const next = typeof area === 'object' ? builder.add(area, constantFromBV(BigInt(step), 64)) : toUNum(area, 64) + step;
      writeAt(ex, { ...slot, st: b.st }, PTR, next);
      ex.bindLocal(b.st, ki, v);
    }
  }
}

const PTR: Type = PointerType.opaque();
