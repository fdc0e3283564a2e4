/**
 * The heap: malloc, calloc, realloc, free, the aligned allocators and C++ new/delete
 * (KLEE's handlers; posix_memalign, aligned_alloc and valloc are tsklee's, since with
 * --libc=none nothing else provides them).
 */
import { builder } from '../../expr/builder.js';
import { constantFromBV } from '../../expr/expr.js';
import { ObjectKind } from '../../memory/index.js';
import { PointerType } from '../../ir/types.js';
import type { SpecialHandler } from '../prepare/kinst.js';
import { executeAlloc, executeFree, resolveAccess, resolveExact, writeAt } from '../exec-memory.js';
import { Termination } from '../errors.js';
import { fromExpr, intBinary, toExpr, type Scalar } from '../values.js';
import { ExprKind } from '../../expr/kinds.js';
import { argWidth, concreteU } from './util.js';

function size64(v: Scalar, w: number): Scalar {
  if (w === 64) return v;
  return typeof v === 'object' ? fromExpr(builder.zext(v, 64)) : v;
}

export const handleMalloc: SpecialHandler = (ex, st, ki, args) => {
  executeAlloc(ex, st, size64(args[0] as Scalar, argWidth(ki, 0)), ObjectKind.Heap, ki, false);
};

export const handleCalloc: SpecialHandler = (ex, st, ki, args) => {
  const n = size64(args[0] as Scalar, argWidth(ki, 0));
  const m = size64(args[1] as Scalar, argWidth(ki, 1));
  executeAlloc(ex, st, intBinary(ExprKind.Mul, 64, n, m), ObjectKind.Heap, ki, true);
};

export const handleFree: SpecialHandler = (ex, st, _ki, args) => {
  executeFree(ex, st, args[0] as Scalar, null);
};

export const handleRealloc: SpecialHandler = (ex, st, ki, args) => {
  reallocTo(ex, st, ki, args[0] as Scalar, size64(args[1] as Scalar, argWidth(ki, 1)));
};

/**
 * reallocarray(p, n, size) (glibc 2.26+, gnulib's xreallocarray): realloc(p, n * size), but
 * NULL when the product overflows (known only for concrete n and size; a symbolic product
 * wraps, as calloc's does).
 */
export const handleReallocArray: SpecialHandler = (ex, st, ki, args) => {
  const n = size64(args[1] as Scalar, argWidth(ki, 1));
  const m = size64(args[2] as Scalar, argWidth(ki, 2));
  if (typeof n !== 'object' && typeof m !== 'object' && BigInt(n) * BigInt(m) >= 1n << 64n) {
    ex.bindLocal(st, ki, 0);
    return;
  }
  reallocTo(ex, st, ki, args[0] as Scalar, intBinary(ExprKind.Mul, 64, n, m));
};

/**
 * glibc's realloc: of NULL, malloc(size) (a block even for size 0: gnulib's xreallocarray(NULL,
 * 0, s) dies on NULL, as `users` did with no login records); of a block with size 0, free it and
 * give NULL; otherwise move it. (KLEE gives NULL for realloc(NULL, 0).)
 */
function reallocTo(ex: Parameters<SpecialHandler>[0], st: Parameters<SpecialHandler>[1], ki: Parameters<SpecialHandler>[2], p: Scalar, size: Scalar): void {
  const [isNull, notNull] = ex.fork(st, builder.eq(toExpr(p, 64), constantFromBV(0n, 64)));
  if (isNull !== null) executeAlloc(ex, isNull, size, ObjectKind.Heap, ki, false);
  if (notNull === null) return;
  const [zero, nonZero] = ex.fork(notNull, builder.eq(toExpr(size, 64), constantFromBV(0n, 64)));
  if (zero !== null) executeFree(ex, zero, p, ki);
  if (nonZero === null) return;
  for (const r of resolveExact(ex, nonZero, p, 'realloc')) executeAlloc(ex, r.st, size, ObjectKind.Heap, ki, false, { mo: r.mo, pointer: toExpr(p, 64) });
}

function alignment(ex: Parameters<SpecialHandler>[0], st: Parameters<SpecialHandler>[1], v: Scalar, w: number): number {
  const a = concreteU(ex, st, v, w, 'alignment');
  return a > 0 && (a & (a - 1)) === 0 ? a : 16;
}

export const handleMemalign: SpecialHandler = (ex, st, ki, args) => {
  const a = alignment(ex, st, args[0] as Scalar, argWidth(ki, 0));
  executeAlloc(ex, st, size64(args[1] as Scalar, argWidth(ki, 1)), ObjectKind.Heap, ki, false, null, a);
};

export const handleAlignedAlloc: SpecialHandler = handleMemalign;

export const handleValloc: SpecialHandler = (ex, st, ki, args) => {
  executeAlloc(ex, st, size64(args[0] as Scalar, argWidth(ki, 0)), ObjectKind.Heap, ki, false, null, 4096);
};

/** posix_memalign(&p, alignment, size): stores the block in *p and returns 0. */
export const handlePosixMemalign: SpecialHandler = (ex, st, ki, args) => {
  const a = alignment(ex, st, args[1] as Scalar, argWidth(ki, 1));
  const size = size64(args[2] as Scalar, argWidth(ki, 2));
  const before = ex.added.length;
  // Allocate into ki's result register first, then move the pointer to *memptr.
  executeAlloc(ex, st, size, ObjectKind.Heap, ki, false, null, a);
  const states = [st, ...ex.added.slice(before)];
  for (const s of states) {
    if (s.status !== 0) continue;
    const ptr = s.top.regs[ki.dest] as Scalar;
    for (const acc of resolveAccess(ex, s, args[0] as Scalar, 8)) {
      if (writeAt(ex, acc, PointerType.opaque(), ptr)) ex.bindLocal(acc.st, ki, 0);
    }
  }
};

export const handleDelete: SpecialHandler = (ex, st, _ki, args) => {
  executeFree(ex, st, args[0] as Scalar, null);
};

export const handleNew: SpecialHandler = handleMalloc;

export const handleBadAlloc: SpecialHandler = (ex, st) => {
  ex.terminateOnError(st, 'unsupported C++ allocation function', Termination.Execution);
};
