/**
 * The memory-model interface (DESIGN.md, "Interfaces the techniques need"): everything the
 * engine asks of memory goes through a state's `StateMemory`. KLEE's forking model
 * (forking.ts) is one implementation; the relocatable addressing model of paper 003
 * (relocatable.ts) is the other.
 *
 * A StateMemory is one state's memory: its objects, its allocator cursors and whatever the
 * model keeps per state (the relocatable model's address constraints). It forks with the
 * state. Objects are indexed by a concrete address (`space`, an address space keyed by base
 * address) in both models: the interpreter's fast path reads and writes objects through a
 * concrete pointer there directly, and nothing else writes the index but the model.
 *
 * Pointer values the program sees come from `pointerOf`: a number in the forking model, an
 * expression over a symbolic base in the relocatable one. Bounds facts (`inBounds`,
 * `pointsInto`, `pointsAt`) and offsets are stated against that program-visible base; before an
 * expression reaches the solver, `solverView` rewrites what the solver must not see (the
 * relocatable model's address symbols) and `solverConstraints` gives the path condition's
 * solver copy.
 */
import type { Expr } from '../expr/expr.js';
import type { AddressSpace } from './address-space.js';
import type { Allocator } from './allocator.js';
import type { MemoryObject, ObjectKind } from './memory-object.js';
import type { ObjectState } from './object-state.js';
import type { PNode } from './pmap.js';

/** The solver questions resolution asks, about one state's path condition. */
export interface ResolveOracle {
  /** A value the pointer can take (an address below 2^53). */
  example(p: Expr): number;
  mayBeTrue(e: Expr): boolean;
  mustBeTrue(e: Expr): boolean;
}

/** A pointer value as registers hold it: a number, a bigint above 2^53, or a 64-bit expression. */
export type PointerValue = number | bigint | Expr;

export interface StateMemory {
  /** Which model this is (options, statistics, error messages). */
  readonly model: 'concrete' | 'relocatable';
  /**
   * The objects by concrete base address. Read it freely; write object contents only
   * through `writeableOf` or `space.writeable` (copy-on-write), never bind or unbind here.
   */
  readonly space: AddressSpace;
  /** Live objects (freed ones excluded). */
  readonly liveObjects: number;
  /** Bytes allocated on this path (--max-memory accounting). */
  readonly allocatedBytes: number;

  /** The other side of a fork: shares everything copy-on-write. */
  fork(): StateMemory;
  /** The state ended: the states sharing its objects may adopt them. */
  release(): void;

  // ---- allocation
  /**
   * A new object of `size` bytes, bound and owned here; its state's `mo` is the object. Null
   * when the size is beyond what the allocator gives (malloc then returns NULL).
   */
  allocate(size: number, kind: ObjectKind, align: number, site: string | (() => string), context?: readonly number[]): ObjectState | null;
  /** Whether allocate wants the allocation context (instruction ids: the allocating one, then call sites up the stack). */
  readonly wantsAllocationContext: boolean;
  /** Bind an object made elsewhere (globals, klee_define_fixed_object): fresh zeroed contents. */
  bindObject(mo: MemoryObject): ObjectState;
  /** A heap object freed through pointer p (at its start): later accesses to it are uses after free. */
  free(mo: MemoryObject, p?: Expr): void;
  /** Forget an object (stack objects when their frame returns, temporaries). */
  unbind(mo: MemoryObject): void;
  /** After a state merge: allocation continues past everything either state allocated. */
  joinAllocation(other: StateMemory): void;
  /** What the program sees as the object's address. */
  pointerOf(mo: MemoryObject): PointerValue;

  // ---- contents (reads and writes of typed values go through these object states)
  /** The live contents of mo, or null (unbound or freed). */
  stateOf(mo: MemoryObject): ObjectState | null;
  /** Contents of a live object this state may write (copied first when shared), or null. */
  writeableOf(mo: MemoryObject): ObjectState | null;

  /** What realloc copies when p (pointing at mo's start) is reallocated: the allocation's size and bytes. */
  allocationOf(mo: MemoryObject, p: Expr): { size: number; read8(i: number): number | Expr } | null;

  // ---- resolution
  /** The live object containing a concrete address, or null. */
  objectAt(address: number): PNode | null;
  /** The binding (live or freed) containing a concrete address, or null (error reports). */
  bindingAt(address: number): PNode | null;
  /** The nearest bindings above / below a concrete address (error reports). */
  bindingAbove(address: number): PNode | null;
  bindingBelow(address: number): PNode | null;
  /** All bindings in base-address order (do not modify). */
  bindings(): readonly PNode[];
  /** A concrete address for a pointer expression when it has exactly one without asking the solver, else null. */
  constantAddress(p: Expr): number | null;
  /** One live object the pointer may point into, or null (KLEE's resolveOne). */
  resolveOne(p: Expr, o: ResolveOracle): PNode | null;
  /** Every live object the pointer may point into, in KLEE's order (KLEE's resolve); `site` is the resolving instruction's id. */
  resolveAll(p: Expr, o: ResolveOracle, maxResolutions?: number, site?: number): PNode[];
  /**
   * A pointer may hit several objects (resolveAll's `nodes`): the model may relocate them so
   * that it hits one (segment merging); true when it did, and the access must be resolved again.
   */
  onMultipleResolution(nodes: readonly PNode[], p: Expr, o: ResolveOracle, site: number): boolean;
  /** A read of `bytes` bytes at p, inside mo: true when the model relocated mo (splitting, for a symbolic offset) and the read must be resolved again. */
  onSymbolicRead(mo: MemoryObject, p: Expr, bytes: number, o: ResolveOracle): boolean;

  // ---- bounds facts (width-1 expressions over the program-visible pointer)
  /** p points into mo. */
  pointsInto(mo: MemoryObject, p: Expr): Expr;
  /** An access of `bytes` bytes at p stays inside mo. */
  inBounds(mo: MemoryObject, p: Expr, bytes: number): Expr;
  /** p is mo's base address (free, realloc, klee_get_obj_size). */
  pointsAt(mo: MemoryObject, p: Expr): Expr;
  /** p's byte offset in mo: a number when it is one, else a 64-bit expression. */
  offsetOf(mo: MemoryObject, p: Expr): number | Expr;

  // ---- queries
  /** e as the solver may see it. */
  solverView(e: Expr): Expr;
  /** The path condition as the solver may see it. */
  solverConstraints(pc: readonly Expr[]): readonly Expr[];

  /** Why two states' memories cannot be merged beyond their contents, or null. */
  mergeBlocker(other: StateMemory): string | null;
}

/** Makes each run's first state memory (one factory per run: run-wide model data lives in it). */
export interface MemoryModelFactory {
  readonly model: StateMemory['model'];
  initial(): StateMemory;
  /** The model's own run.stats columns and their values now (none for the forking model). */
  statistics(): Readonly<Record<string, number>>;
}

export type { Allocator };
