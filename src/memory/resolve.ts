/**
 * Resolution of a symbolic pointer to the objects it may point into (KLEE's
 * AddressSpace::resolveOne and ::resolve, same search order): start at the object containing
 * a value the solver gives for the pointer, then walk down, then up, asking the solver
 * whether the pointer may be inside each object and stopping when it must be beyond.
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import type { AddressSpace } from './address-space.js';
import type { MemoryObject } from './memory-object.js';
import type { PNode } from './pmap.js';
import type { ResolveOracle } from './model.js';

export type { ResolveOracle };

/** `p` points into mo (KLEE's getBoundsCheckPointer: offset < size; a size-0 object only at its base). */
export function pointsInto(mo: MemoryObject, p: Expr): Expr {
  const off = builder.sub(p, constantFromBV(BigInt(mo.address), 64));
  if (mo.size === 0) return builder.eq(off, constantFromBV(0n, 64));
  return builder.ult(off, constantFromBV(BigInt(mo.size), 64));
}

/** An access of `bytes` bytes at p stays inside mo (KLEE's getBoundsCheckPointer(p, bytes)). */
export function accessInBounds(mo: MemoryObject, p: Expr, bytes: number): Expr {
  if (bytes > mo.size) return builder.bool(false);
  const off = builder.sub(p, constantFromBV(BigInt(mo.address), 64));
  return builder.ult(off, constantFromBV(BigInt(mo.size - bytes + 1), 64));
}

/** The next live binding above / below an address. */
function liveAbove(as: AddressSpace, addr: number): PNode | null {
  let n = as.next(addr);
  while (n !== null && n.os === null) n = as.next(n.key);
  return n;
}

function liveAtOrBelow(as: AddressSpace, addr: number): PNode | null {
  let n = as.prev(addr + 1);
  while (n !== null && n.os === null) n = as.prev(n.key);
  return n;
}

/** One live object the symbolic pointer may point into, or null (KLEE's resolveOne). */
export function resolveOneSymbolic(as: AddressSpace, p: Expr, o: ResolveOracle): PNode | null {
  const example = o.example(p);
  const hit = as.resolveOne(example);
  if (hit !== null) return hit;
  for (let n = liveAtOrBelow(as, example); n !== null; n = liveAtOrBelow(as, n.key - 1)) {
    if (o.mayBeTrue(pointsInto(n.mo, p))) return n;
    if (o.mustBeTrue(builder.uge(p, constantFromBV(BigInt(n.mo.address), 64)))) break;
  }
  for (let n = liveAbove(as, example); n !== null; n = liveAbove(as, n.key)) {
    if (o.mustBeTrue(builder.ult(p, constantFromBV(BigInt(n.mo.address), 64)))) break;
    if (o.mayBeTrue(pointsInto(n.mo, p))) return n;
  }
  return null;
}

/**
 * Every live object the pointer may point into, in KLEE's order (KLEE's resolve). Stops
 * early when the first object is the only possibility.
 */
export function resolveAllSymbolic(as: AddressSpace, p: Expr, o: ResolveOracle, maxResolutions = 0, skip?: (n: PNode) => boolean): PNode[] {
  const out: PNode[] = [];
  const example = o.example(p);
  // 0 = keep searching, 1 = done; a skipped object costs no query (context resolution)
  const check = (n: PNode): number => {
    if (skip !== undefined && skip(n)) return 0;
    const inside = pointsInto(n.mo, p);
    if (!o.mayBeTrue(inside)) return 0;
    out.push(n);
    if (out.length === 1) return o.mustBeTrue(inside) ? 1 : 0;
    return maxResolutions > 0 && out.length >= maxResolutions ? 1 : 0;
  };
  for (let n = liveAtOrBelow(as, example); n !== null; n = liveAtOrBelow(as, n.key - 1)) {
    if (check(n) === 1) return out;
    if (skip?.(n) !== true && o.mustBeTrue(builder.uge(p, constantFromBV(BigInt(n.mo.address), 64)))) break;
  }
  for (let n = liveAbove(as, example); n !== null; n = liveAbove(as, n.key)) {
    if (skip?.(n) !== true && o.mustBeTrue(builder.ult(p, constantFromBV(BigInt(n.mo.address), 64)))) break;
    if (check(n) === 1) return out;
  }
  return out;
}
