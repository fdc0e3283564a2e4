/**
 * The klee_* API (KLEE's SpecialFunctionHandler and the functions of KLEE's intrinsic
 * runtime library: klee_int, klee_range, klee_choose, klee_is_replay), with KLEE's messages.
 */
import { builder } from '../../expr/builder.js';
import { constantFromBV, type ConstantExpr, type Expr } from '../../expr/expr.js';
import { ExprKind } from '../../expr/kinds.js';
import { MemoryObject, ObjectKind } from '../../memory/index.js';
import { TypeKind } from '../../ir/types.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import { Msg, Termination } from '../errors.js';
import { closeMergeRegion, openMergeRegion } from '../merging/close.js';
import { addressInfo, allocSite, resolveExact } from '../exec-memory.js';
import { fromExpr, toExpr, toUNum, type Scalar, type Val } from '../values.js';
import { bitsToFp } from '../scalar.js';
import { wideFloat } from '../wide-float.js';
import { argWidth, nonZero, readString } from './util.js';
import type { Executor } from '../executor.js';
import { StateStatus, type ExecutionState } from '../state.js';

export const handleMakeSymbolic: SpecialHandler = (ex, st, ki, args) => {
  if (args.length !== 3) {
    ex.terminateOnError(st, 'Incorrect number of arguments to klee_make_symbolic(void*, size_t, char*)', Termination.User);
    return;
  }
  let name = '';
  const np = args[2] as Scalar;
  if (!(typeof np !== 'object' && Number(np) === 0)) {
    const s = readString(ex, st, np);
    if (s === null) return;
    name = s;
  }
  if (name.length === 0) {
    name = 'unnamed';
    ex.warning('klee_make_symbolic: renamed empty name to "unnamed"');
  }
  const sizeW = argWidth(ki, 1);
  for (const r of resolveExact(ex, st, args[0] as Scalar, 'make_symbolic')) {
    r.mo.name = name;
    const os = r.st.memory.stateOf(r.mo)!;
    if (os.readOnly) {
      ex.terminateOnError(r.st, 'cannot make readonly object symbolic', Termination.User);
      return;
    }
    const size = toExpr(args[1] as Scalar, sizeW);
    const ok = ex.mustBeTrue(r.st, builder.eq(builder.zext(size, 64), constantFromBV(BigInt(r.mo.size), 64)));
    if (ok) ex.executeMakeSymbolic(r.st, r.mo, name);
    else ex.terminateOnError(r.st, 'Wrong size given to klee_make_symbolic', Termination.User);
  }
};

export const handleAssume: SpecialHandler = (ex, st, ki, args) => {
  const e = nonZero(args[0]!, argWidth(ki, 0));
  // provably false, or false once added (the simplifier proves it): KLEE's user error, or with
  // --silent-klee-assume the path just ends, without a test or an error
  if (ex.mustBeFalse(st, e) || !ex.addAssumption(st, e)) {
    if (ex.opts.silentKleeAssume) ex.terminateSilently(st, Termination.SilentExit);
    else ex.terminateOnError(st, Msg.assumeFalse, Termination.User);
  }
};

export const handleIsSymbolic: SpecialHandler = (ex, st, ki, args) => {
  const v = args[0]!;
  ex.bindLocal(st, ki, typeof v === 'object' && !Array.isArray(v) ? 1 : 0);
};

export const handlePreferCex: SpecialHandler = (_ex, st, ki, args) => {
  st.cexPreferences.push(nonZero(args[1]!, argWidth(ki, 1)));
};

/** The POSIX model's preference (printable input bytes): heeded only with --readable-posix-inputs, as in KLEE. */
export const handlePosixPreferCex: SpecialHandler = (ex, st, ki, args) => {
  if (ex.opts.readablePosixInputs) handlePreferCex(ex, st, ki, args);
};

export const handlePrintExpr: SpecialHandler = (ex, st, ki, args) => {
  const msg = readString(ex, st, args[0]!);
  if (msg === null) return;
  const v = args[1];
  const text = v === undefined ? '' : typeof v === 'object' && !Array.isArray(v) ? v.toString() : printConst(v, ki.inst.ops[1]?.type.kind);
  ex.print(`${msg}:${text}`);
};

function printConst(v: Val, kind: TypeKind | undefined): string {
  if (Array.isArray(v)) return `[${v.map((x) => printConst(x, undefined)).join(', ')}]`;
  if (kind === TypeKind.Integer || kind === TypeKind.Pointer || kind === undefined) return String(v);
  return String(v);
}

export const handlePrintRange: SpecialHandler = (ex, st, ki, args) => {
  const name = readString(ex, st, args[0]!);
  if (name === null) return;
  const w = argWidth(ki, 1);
  const v = args[1] as Scalar;
  if (typeof v !== 'object') {
    ex.print(`${name}:${toUNum(v, w)}`);
    return;
  }
  const value = ex.getValue(st, v);
  if (ex.mustBeTrue(st, builder.eq(v, value))) ex.print(`${name}:${v.toString()} == ${value.value}`);
  else ex.print(`${name}:${v.toString()} ~= ${value.value}`);
};

export const handleSetForking: SpecialHandler = (ex, st, ki, args) => {
  const v = ex.toUnique(st, toExpr(args[0] as Scalar, argWidth(ki, 0)));
  if (v.kind !== ExprKind.Constant) {
    ex.terminateOnError(st, 'klee_set_forking requires a constant arg', Termination.User);
    return;
  }
  st.forkDisabled = v.value === 0n;
};

export const handleStackTrace: SpecialHandler = (ex, st) => {
  for (const [i, f] of ex.writer.stackInfo(st).entries()) ex.print(`\t#${i} in ${f.fn}()${f.file ? ` at ${f.file}:${f.line}` : ''}`);
};

export const handleWarning: SpecialHandler = (ex, st, _ki, args) => {
  const msg = readString(ex, st, args[0]!);
  if (msg === null) return;
  ex.warning(`${st.top.kf.name}: ${msg}`);
};

export const handleWarningOnce: SpecialHandler = (ex, st, _ki, args) => {
  const msg = readString(ex, st, args[0]!);
  if (msg === null) return;
  ex.warningOnce(`user:${msg}`, `${st.top.kf.name}: ${msg}`);
};

/** klee_get_value*: some value of the expression on this path (no constraint is added, as in KLEE). */
export const handleGetValue: SpecialHandler = (ex, st, ki, args) => {
  const t = ki.inst.ops[0]!.type;
  const v = args[0]!;
  if (t.kind === TypeKind.Float || t.kind === TypeKind.Double) {
    if (typeof v === 'number') {
      ex.bindLocal(st, ki, v);
      return;
    }
    const toFp = (c: ConstantExpr): Val => bitsToFp(t.kind, fromExpr(c) as number | bigint);
    if (!seededGetValue(ex, st, ki, v as Expr, toFp)) ex.bindLocal(st, ki, toFp(ex.getValue(st, v as Expr)));
    return;
  }
  if (wideFloat(t.kind) !== null) {
    // x86_fp80 and fp128 registers hold their unsigned pattern
    if (typeof v !== 'object') ex.bindLocal(st, ki, v);
    else if (!seededGetValue(ex, st, ki, v as Expr, (c) => c.value)) ex.bindLocal(st, ki, ex.getValue(st, v as Expr).value);
    return;
  }
  const w = argWidth(ki, 0);
  if (typeof v !== 'object') ex.bindLocal(st, ki, v);
  else if (!seededGetValue(ex, st, ki, toExpr(v as Scalar, w), (c) => fromExpr(c))) ex.bindLocal(st, ki, fromExpr(ex.getValue(st, toExpr(v as Scalar, w))));
};

/**
 * klee_get_value on a state that follows seeds (KLEE's executeGetValue): one branch per
 * distinct value the seeds give `e`, each with that value. False when st has no seeds.
 */
function seededGetValue(ex: Executor, st: ExecutionState, ki: Parameters<SpecialHandler>[2], e: Expr, toVal: (c: ConstantExpr) => Val): boolean {
  const values = ex.seeding?.seedValues(st, e) ?? null;
  if (values === null) return false;
  const states = ex.branch(
    st,
    values.map((v) => builder.eq(e, v)),
  );
  for (let i = 0; i < values.length; i++) {
    const s = states[i];
    if (s !== null && s !== undefined) ex.bindLocal(s, ki, toVal(values[i]!));
  }
  return true;
}

export const handleDefineFixedObject: SpecialHandler = (ex, st, ki, args) => {
  const a = args[0] as Scalar;
  const s = args[1] as Scalar;
  if (typeof a === 'object' || typeof s === 'object') {
    ex.terminateOnError(st, 'klee_define_fixed_object requires constant arguments', Termination.User);
    return;
  }
  const addr = toUNum(a, 64);
  const size = toUNum(s, argWidth(ki, 1));
  for (let i = 0; i < Math.max(size, 1); i += Math.max(1, Math.floor(size / 64))) {
    if (st.memory.bindingAt(addr + i) !== null) {
      ex.terminateOnError(st, 'klee_define_fixed_object: the range overlaps an existing object', Termination.User);
      return;
    }
  }
  const mo = new MemoryObject(addr, size, ObjectKind.Fixed, 1, allocSite(ki));
  st.memory.bindObject(mo);
};

export const handleGetObjSize: SpecialHandler = (ex, st, ki, args) => {
  for (const r of resolveExact(ex, st, args[0] as Scalar, 'klee_get_obj_size')) ex.bindLocal(r.st, ki, r.mo.size);
};

export const handleCheckMemoryAccess: SpecialHandler = (ex, st, ki, args) => {
  const a = ex.toUnique(st, toExpr(args[0] as Scalar, 64));
  const s = ex.toUnique(st, toExpr(args[1] as Scalar, argWidth(ki, 1)));
  if (a.kind !== ExprKind.Constant || s.kind !== ExprKind.Constant) {
    ex.terminateOnError(st, 'check_memory_access requires constant args', Termination.User);
    return;
  }
  const addr = Number(a.value);
  const n = st.memory.objectAt(addr);
  if (n === null || addr - n.mo.address + Number(s.value) > n.mo.size) {
    ex.terminateOnError(st, 'check_memory_access: memory error', Termination.Ptr, addressInfo(ex, st, addr));
  }
};

/** klee_mark_global(p): the object p points at becomes global (KLEE: for free's "free of global"). */
export const handleMarkGlobal: SpecialHandler = (ex, st, _ki, args) => {
  for (const r of resolveExact(ex, st, args[0] as Scalar, 'mark_global')) {
    if (r.mo.isLocal) ex.terminateOnError(r.st, 'klee_mark_global of a stack object', Termination.User);
    else r.mo.markedGlobal = true;
  }
};

export const handleOpenMerge: SpecialHandler = (ex, st) => {
  if (!ex.opts.useMerge) ex.warningOnce('merge-open', "klee_open_merge ignored, use '-use-merge'");
  else openMergeRegion(ex, st);
};

export const handleCloseMerge: SpecialHandler = (ex, st) => {
  if (!ex.opts.useMerge) ex.warningOnce('merge-close', "klee_close_merge ignored, use '-use-merge'");
  else closeMergeRegion(ex, st);
};

export const handleAliasFunction: SpecialHandler = (ex, st) => {
  ex.terminateOnError(st, 'klee_alias_function is not supported', Termination.Execution);
};

export const handleGetErrno: SpecialHandler = (ex, st, ki) => {
  const mo = ex.errnoObject(st);
  const os = st.memory.stateOf(mo)!;
  ex.bindLocal(st, ki, ex.km.io.intFromBytes(32, (i) => os.read8(i), 0));
};

export const handleErrnoLocation: SpecialHandler = (ex, st, ki) => {
  ex.bindLocal(st, ki, st.memory.pointerOf(ex.errnoObject(st)));
};

/** A fresh symbolic object of `size` bytes named `name`, read back as a w-bit value. */
function freshSymbolic(ex: Executor, st: ExecutionState, ki: Parameters<SpecialHandler>[2], name: string, size: number): Expr | null {
  const mo = st.memory.allocate(size, ObjectKind.Stack, size, allocSite(ki))!.mo!;
  mo.name = name;
  ex.executeMakeSymbolic(st, mo, name);
  // a seed without a fitting object ends the state (seeding/seeding.ts)
  if (st.status !== StateStatus.Running) return null;
  const os = st.memory.stateOf(mo)!;
  let e: Expr | null = null;
  for (let i = size - 1; i >= 0; i--) {
    const b = os.read8Expr(i);
    e = e === null ? b : builder.concat(e, b);
  }
  // the object belonged to the runtime function's frame: it is gone after the call
  st.memory.unbind(mo);
  return e!;
}

/** klee_int(name): a fresh symbolic int (KLEE's runtime klee_int). */
export const handleKleeInt: SpecialHandler = (ex, st, ki, args) => {
  const name = readString(ex, st, args[0]!);
  if (name === null) return;
  const x = freshSymbolic(ex, st, ki, name, 4);
  if (x !== null) ex.bindLocal(st, ki, x);
};

/** klee_range(start, end, name): a symbolic int in [start, end) (KLEE's runtime klee_range). */
export const handleKleeRange: SpecialHandler = (ex, st, ki, args) => {
  const start = Number(BigInt.asIntN(32, BigInt(ex.concretize(st, args[0] as Scalar, 32, 'klee_range'))));
  const end = Number(BigInt.asIntN(32, BigInt(ex.concretize(st, args[1] as Scalar, 32, 'klee_range'))));
  if (start >= end) {
    ex.terminateOnError(st, 'invalid range', Termination.ReportError, undefined, 'user');
    return;
  }
  if (start + 1 === end) {
    ex.bindLocal(st, ki, start >>> 0);
    return;
  }
  const name = readString(ex, st, args[2]!);
  if (name === null) return;
  const x = freshSymbolic(ex, st, ki, name, 4);
  if (x === null) return;
  const c = (n: number): Expr => constantFromBV(n >>> 0, 32);
  const conds: Expr[] = start === 0 ? [builder.ult(x, c(end))] : [builder.sle(c(start), x), builder.slt(x, c(end))];
  for (const cond of conds) {
    if (ex.mustBeFalse(st, cond) || !ex.addAssumption(st, cond)) {
      ex.terminateOnError(st, Msg.assumeFalse, Termination.User);
      return;
    }
  }
  ex.bindLocal(st, ki, x);
};

/** klee_choose(n): a symbolic value below n; paths where it is not end silently. */
export const handleKleeChoose: SpecialHandler = (ex, st, ki, args) => {
  const x = freshSymbolic(ex, st, ki, 'klee_choose', 8);
  if (x === null) return;
  const n = toExpr(args[0] as Scalar, argWidth(ki, 0));
  const [bad, good] = ex.fork(st, builder.uge(x, builder.zext(n, 64)));
  if (bad !== null) ex.terminateSilently(bad);
  if (good !== null) ex.bindLocal(good, ki, fromExpr(x));
};

export const handleIsReplay: SpecialHandler = (ex, st, ki) => {
  ex.bindLocal(st, ki, 0);
};
