/**
 * memcpy / memmove / memset, as intrinsics (llvm.memcpy.*, …) and as the C functions a
 * program without libc calls. KLEE runs both through its freestanding C versions, byte loops
 * (`while (len-- > 0) *d++ = *s++;`); tsklee copies natively, and for a symbolic length it
 * reproduces what the loop does: one path per feasible length (the loop exits when the
 * remaining length is 0), the continuing path copying one more byte each time and failing
 * with a memory error where a byte falls out of bounds.
 */
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import { resolveAccess, type Access } from '../exec-memory.js';
import { Msg, Termination } from '../errors.js';
import { builder } from '../../expr/builder.js';
import { constantFromBV, type Expr } from '../../expr/expr.js';
import { intBinary, toUNum, type Scalar } from '../values.js';
import { ExprKind } from '../../expr/kinds.js';
import { argWidth, readByte, writeByte } from './util.js';
import { copyBytes } from '../exec-memory.js';

/** Copy n bytes from src to dst in st and every state the pointer resolution forks. */
export function memCopy(ex: Executor, st: ExecutionState, dst: Scalar, src: Scalar, n: number): ExecutionState[] {
  if (n === 0) return [st];
  const out: ExecutionState[] = [];
  for (const d of resolveAccess(ex, st, dst, n)) {
    for (const s of resolveAccess(ex, d.st, src, n)) {
      if (!writable(ex, s.st, d)) continue;
      const sos = s.st.memory.stateOf(s.mo)!;
      const dos = s.st.memory.writeableOf(d.mo)!;
      if (typeof d.offset === 'number' && typeof s.offset === 'number') copyBytes(dos, d.offset, sos, s.offset, n);
      else {
        const tmp: (number | Expr)[] = [];
        for (let i = 0; i < n; i++) tmp.push(readByte(sos, s.offset, i));
        for (let i = 0; i < n; i++) writeByte(dos, d.offset, i, tmp[i]!);
      }
      out.push(s.st);
    }
  }
  return out;
}

function writable(ex: Executor, st: ExecutionState, d: Access): boolean {
  if (st.memory.stateOf(d.mo)!.readOnly) {
    ex.terminateOnError(st, Msg.readOnly, Termination.ReadOnly);
    return false;
  }
  return true;
}

export function memSet(ex: Executor, st: ExecutionState, dst: Scalar, value: Scalar, n: number): ExecutionState[] {
  if (n === 0) return [st];
  const out: ExecutionState[] = [];
  const byte: number | Expr = typeof value === 'object' ? builder.extract(value, 0, 8) : Number(value) & 0xff;
  for (const d of resolveAccess(ex, st, dst, n)) {
    if (!writable(ex, d.st, d)) continue;
    const os = d.st.memory.writeableOf(d.mo)!;
    if (typeof d.offset === 'number' && typeof byte === 'number' && os.nonConcrete === 0 && os.ul === null) os.fillConcrete(d.offset, n, byte);
    else for (let i = 0; i < n; i++) writeByte(os, d.offset, i, byte);
    out.push(d.st);
  }
  return out;
}

/** A copy or set of `n` bytes (one operation on one state): the states it continues in. */
type ByteOp = (st: ExecutionState, n: number) => ExecutionState[];

/**
 * Run `op` for a length that may be symbolic. Concrete: once. Symbolic: KLEE's byte loop, one
 * path per feasible length; each path ends with op applied to its length.
 */
function withLength(ex: Executor, st: ExecutionState, len: Scalar, w: number, op: ByteOp): { st: ExecutionState; n: number }[] {
  if (typeof len !== 'object') {
    const n = toUNum(len, w);
    return op(st, n).map((s) => ({ st: s, n }));
  }
  const out: { st: ExecutionState; n: number }[] = [];
  let rest: ExecutionState | null = st;
  for (let k = 0; rest !== null; k++) {
    // `len-- > 0` on iteration k: exits when len == k (a new state), continues otherwise
    const [more, done]: [ExecutionState | null, ExecutionState | null] = ex.fork(rest, builder.ne(len, constantFromBV(BigInt(k), w)));
    if (done !== null) for (const s of op(done, k)) out.push({ st: s, n: k });
    if (more === null) break;
    // the continuing path touches byte k: stop where that is out of bounds
    const probe = op(more, k + 1);
    if (probe.length === 0 || probe[0] !== more) break;
    rest = more;
    if (ex.haltReason !== null) break;
  }
  return out;
}

/** llvm.memcpy / llvm.memmove (dst, src, len, volatile). */
export const intrinsicMemCopy: SpecialHandler = (ex, st, ki, args) => {
  withLength(ex, st, args[2] as Scalar, argWidth(ki, 2), (s, n) => memCopy(ex, s, args[0] as Scalar, args[1] as Scalar, n));
};

/** llvm.memset (dst, byte, len, volatile). */
export const intrinsicMemSet: SpecialHandler = (ex, st, ki, args) => {
  withLength(ex, st, args[2] as Scalar, argWidth(ki, 2), (s, n) => memSet(ex, s, args[0] as Scalar, args[1] as Scalar, n));
};

/** memcpy/memmove(dst, src, n) → dst. */
export const handleMemCopy: SpecialHandler = (ex, st, ki, args) => {
  for (const r of withLength(ex, st, args[2] as Scalar, argWidth(ki, 2), (s, n) => memCopy(ex, s, args[0] as Scalar, args[1] as Scalar, n))) {
    ex.bindLocal(r.st, ki, args[0]!);
  }
};

/** mempcpy(dst, src, n) → dst + n. */
export const handleMemPCopy: SpecialHandler = (ex, st, ki, args) => {
  for (const r of withLength(ex, st, args[2] as Scalar, argWidth(ki, 2), (s, n) => memCopy(ex, s, args[0] as Scalar, args[1] as Scalar, n))) {
    ex.bindLocal(r.st, ki, intBinary(ExprKind.Add, 64, args[0] as Scalar, r.n));
  }
};

/** memset(dst, c, n) → dst. */
export const handleMemSet: SpecialHandler = (ex, st, ki, args) => {
  for (const r of withLength(ex, st, args[2] as Scalar, argWidth(ki, 2), (s, n) => memSet(ex, s, args[0] as Scalar, args[1] as Scalar, n))) {
    ex.bindLocal(r.st, ki, args[0]!);
  }
};
