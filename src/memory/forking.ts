/**
 * KLEE's memory model behind the StateMemory interface: every object sits at the concrete
 * address the deterministic allocator gives it, pointers are those numbers, and a symbolic
 * pointer is resolved to each object it may hit (the engine forks per object).
 */
import { builder } from '../expr/builder.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import { AddressSpace } from './address-space.js';
import { Allocator } from './allocator.js';
import type { MemoryObject, ObjectKind } from './memory-object.js';
import type { MemoryModelFactory, ResolveOracle, StateMemory } from './model.js';
import type { ObjectState } from './object-state.js';
import type { PNode } from './pmap.js';
import { accessInBounds, pointsInto, resolveAllSymbolic, resolveOneSymbolic } from './resolve.js';

export class ForkingMemory implements StateMemory {
  readonly model = 'concrete' as const;

  constructor(
    readonly space: AddressSpace = new AddressSpace(),
    readonly allocator: Allocator = new Allocator(),
  ) {}

  get liveObjects(): number {
    return this.space.size;
  }

  get allocatedBytes(): number {
    return this.allocator.allocatedBytes;
  }

  readonly wantsAllocationContext = false;

  fork(): ForkingMemory {
    return new ForkingMemory(this.space.fork(), this.allocator.clone());
  }

  release(): void {
    this.space.release();
  }

  allocate(size: number, kind: ObjectKind, align: number, site: string | (() => string)): ObjectState | null {
    const mo = this.allocator.allocate(size, kind, align, site);
    return mo === null ? null : this.space.bindNew(mo);
  }

  bindObject(mo: MemoryObject): ObjectState {
    return this.space.bindNew(mo);
  }

  free(mo: MemoryObject): void {
    this.space.markFreed(mo);
  }

  unbind(mo: MemoryObject): void {
    this.space.unbind(mo);
  }

  joinAllocation(other: StateMemory): void {
    joinAllocators(this.allocator, (other as ForkingMemory).allocator);
  }

  allocationOf(mo: MemoryObject): ObjectState | null {
    return this.space.stateOf(mo);
  }

  onMultipleResolution(): boolean {
    return false;
  }

  onSymbolicRead(): boolean {
    return false;
  }

  pointerOf(mo: MemoryObject): number {
    return mo.address;
  }

  stateOf(mo: MemoryObject): ObjectState | null {
    return this.space.stateOf(mo);
  }

  writeableOf(mo: MemoryObject): ObjectState | null {
    return this.space.writeableOf(mo);
  }

  objectAt(address: number): PNode | null {
    return this.space.resolveOne(address);
  }

  bindingAt(address: number): PNode | null {
    return this.space.find(address);
  }

  bindingAbove(address: number): PNode | null {
    return this.space.next(address);
  }

  bindingBelow(address: number): PNode | null {
    return this.space.prev(address);
  }

  bindings(): readonly PNode[] {
    return this.space.bindings();
  }

  constantAddress(p: Expr): number | null {
    return p.kind === ExprKind.Constant ? Number(p.value) : null;
  }

  resolveOne(p: Expr, o: ResolveOracle): PNode | null {
    return resolveOneSymbolic(this.space, p, o);
  }

  resolveAll(p: Expr, o: ResolveOracle, maxResolutions = 0): PNode[] {
    return resolveAllSymbolic(this.space, p, o, maxResolutions);
  }

  pointsInto(mo: MemoryObject, p: Expr): Expr {
    return pointsInto(mo, p);
  }

  inBounds(mo: MemoryObject, p: Expr, bytes: number): Expr {
    return accessInBounds(mo, p, bytes);
  }

  pointsAt(mo: MemoryObject, p: Expr): Expr {
    return builder.eq(p, constantFromBV(BigInt(mo.address), 64));
  }

  offsetOf(mo: MemoryObject, p: Expr): number | Expr {
    const off = builder.sub(p, constantFromBV(BigInt(mo.address), 64));
    return off.kind === ExprKind.Constant ? Number(off.value) : off;
  }

  solverView(e: Expr): Expr {
    return e;
  }

  solverConstraints(pc: readonly Expr[]): readonly Expr[] {
    return pc;
  }

  mergeBlocker(other: StateMemory): string | null {
    return other.model === this.model ? null : 'memory model';
  }
}

/** a's allocation cursors move past everything b allocated (state merging). */
export function joinAllocators(a: Allocator, b: Allocator): void {
  a.heap = Math.max(a.heap, b.heap);
  a.stack = Math.max(a.stack, b.stack);
  a.args = Math.max(a.args, b.args);
  a.allocatedBytes = Math.max(a.allocatedBytes, b.allocatedBytes);
}

export const forkingModel: MemoryModelFactory = {
  model: 'concrete',
  initial: () => new ForkingMemory(),
  statistics: () => ({}),
};
