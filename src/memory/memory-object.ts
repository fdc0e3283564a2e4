/**
 * A memory object: one allocation at a fixed virtual address (KLEE's MemoryObject). Objects
 * are immutable descriptions shared by every state that knows them; what a state stores in
 * an object lives in its ObjectState. Whether an object is live or freed is per state (the
 * address space's binding), never here.
 */
import { AccessTypes } from '../expr/access-types.js';
import type { Expr } from '../expr/expr.js';

export enum ObjectKind {
  Global,
  Stack,
  Heap,
  /** klee_define_fixed_object, argv/envp, varargs areas. */
  Fixed,
}

let nextObjectId = 1;

/** Restart object numbering (tests and new runs, so MO ids are deterministic per run). */
export function resetObjectIds(): void {
  nextObjectId = 1;
}

/** Memory objects made since the last reset (KLEE's Allocations statistic). */
export function objectsCreated(): number {
  return nextObjectId - 1;
}

/** One object merged into a segment (memory/segments.ts): its address symbol and where it is now. */
export interface SegmentPart {
  readonly symbol: number;
  readonly base: Expr;
  /** Offset in the segment. */
  readonly offset: number;
  readonly size: number;
}

/**
 * What the relocatable model (memory/relocatable.ts) knows of an object; immutable, like the
 * object. Null on every object of the forking model and on fixed-address objects.
 */
export interface Relocation {
  /** The address symbol α (its number) and α itself, the object's symbolic base; -1 / null for a chunk of a split object. */
  readonly symbol: number;
  readonly base: Expr | null;
  /** A segment: the objects merged into it (flattened: a merged segment's parts, not the segment). */
  readonly parts: readonly SegmentPart[] | null;
  /** A chunk of a split object: every chunk in address order, and the split object's base and size. */
  readonly chunks: readonly MemoryObject[] | null;
  readonly splitBase: Expr | null;
  /** Where it was allocated: the allocating instruction, then the call sites up the stack (ids), for context resolution. */
  readonly context: readonly number[] | null;
  /** A segment: the k-contexts of its parts (context resolution's k), else null. */
  readonly partContexts: readonly string[] | null;
}

export class MemoryObject {
  readonly id = nextObjectId++;
  /** Relocatable addressing's data (null: the object is where `address` says, for good). */
  reloc: Relocation | null = null;
  /** Name given by klee_make_symbolic (the .ktest object name), else a description. */
  name: string;
  /**
   * klee_mark_global made this heap object global (KLEE sets MemoryObject::isGlobal, shared by
   * every state): freeing it is "free of global". The POSIX model marks argv and its strings.
   */
  markedGlobal = false;
  /** Typed access sizes at symbolic offsets (made on the first such access). */
  private access: AccessTypes | null = null;

  constructor(
    readonly address: number,
    readonly size: number,
    readonly kind: ObjectKind,
    readonly align: number,
    /** What allocated it, for error reports ("global:g", "main():  %1 = alloca i32"). */
    private readonly site: string | (() => string),
    name = 'unnamed',
  ) {
    this.name = name;
  }

  /** The object's access-size record, shared by every state and every array made from it. */
  accessTypes(): AccessTypes {
    return (this.access ??= new AccessTypes());
  }

  get isLocal(): boolean {
    return this.kind === ObjectKind.Stack;
  }

  get isGlobal(): boolean {
    return this.kind === ObjectKind.Global || this.markedGlobal;
  }

  get isHeap(): boolean {
    return this.kind === ObjectKind.Heap && !this.markedGlobal;
  }

  /** One past the last byte. */
  get end(): number {
    return this.address + this.size;
  }

  /** Whether `address` points into the object (a size-0 object contains its own address, as in KLEE). */
  contains(address: number): boolean {
    return address >= this.address && (address - this.address < this.size || (this.size === 0 && address === this.address));
  }

  /** KLEE's getAllocInfo: "MO7[16] allocated at main():  %3 = alloca …" or "MO1[4] allocated at global:g". */
  allocInfo(): string {
    const site = typeof this.site === 'string' ? this.site : this.site();
    return `MO${this.id}[${this.size}] allocated at ${site}`;
  }
}
