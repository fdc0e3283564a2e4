/**
 * A memory object: one allocation at a fixed virtual address (KLEE's MemoryObject). Objects
 * are immutable descriptions shared by every state that knows them; what a state stores in
 * an object lives in its ObjectState. Whether an object is live or freed is per state (the
 * address space's binding), never here.
 */
import { AccessTypes } from '../expr/access-types.js';

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

export class MemoryObject {
  readonly id = nextObjectId++;
  /** Name given by klee_make_symbolic (the .ktest object name), else a description. */
  name: string;
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
    return this.kind === ObjectKind.Global;
  }

  get isHeap(): boolean {
    return this.kind === ObjectKind.Heap;
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
