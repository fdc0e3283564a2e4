/**
 * The deterministic virtual allocator (DESIGN decision 7). Each kind of memory has its own
 * region at a fixed address; allocation bumps a per-region cursor and never reuses an
 * address, so a pointer into a freed or dead object never finds another object there.
 *
 * The cursors belong to the state (copied on fork, a few numbers), so one path always gets
 * the same addresses whatever else the search did — as KLEE's per-state kdalloc does.
 *
 * Between two objects lies a gap (a red zone) so that running off the end of one object does
 * not land in the next one. All addresses stay below 2^47: pointers are plain numbers.
 *
 *   [0, 4096)                      the null page: never allocated
 *   FUNCTIONS  0x0000_0040_0000    functions (addresses only, no memory)
 *   GLOBALS    0x0000_1000_0000    globals and constants
 *   FIXED      user-given          klee_define_fixed_object
 *   HEAP       0x0100_0000_0000    malloc and friends
 *   ARGS       0x7e00_0000_0000    argv/envp strings, varargs areas
 *   STACK      0x7f00_0000_0000    allocas
 */
import { MemoryObject, ObjectKind } from './memory-object.js';

export const NULL_PAGE_SIZE = 4096;
export const FUNCTIONS_BASE = 0x40_0000;
export const GLOBALS_BASE = 0x1000_0000;
export const HEAP_BASE = 0x0100_0000_0000;
export const ARGS_BASE = 0x7e00_0000_0000;
export const STACK_BASE = 0x7f00_0000_0000;
/** Largest single allocation tsklee makes (larger requests fail like an exhausted malloc). */
export const MAX_ALLOCATION = 2 ** 32;
/** Bytes left free after every object. */
export const RED_ZONE = 16;

function alignUp(x: number, a: number): number {
  return Math.ceil(x / a) * a;
}

export class Allocator {
  heap = HEAP_BASE;
  stack = STACK_BASE;
  args = ARGS_BASE;
  /** Bytes allocated on this path (for --max-memory accounting). */
  allocatedBytes = 0;

  clone(): Allocator {
    const c = new Allocator();
    c.heap = this.heap;
    c.stack = this.stack;
    c.args = this.args;
    c.allocatedBytes = this.allocatedBytes;
    return c;
  }

  /**
   * A new object of `size` bytes aligned to `align` (a power of two), or null when the size
   * is beyond MAX_ALLOCATION (malloc then returns NULL, as KLEE's does for huge sizes).
   */
  allocate(size: number, kind: ObjectKind, align: number, site: string | (() => string)): MemoryObject | null {
    if (!(size >= 0) || size > MAX_ALLOCATION) return null;
    const a = Math.max(align, 8);
    let addr: number;
    switch (kind) {
      case ObjectKind.Heap:
        addr = alignUp(this.heap, Math.max(a, 16));
        this.heap = addr + Math.max(size, 1) + RED_ZONE;
        break;
      case ObjectKind.Stack:
        addr = alignUp(this.stack, a);
        this.stack = addr + Math.max(size, 1) + RED_ZONE;
        break;
      default:
        addr = alignUp(this.args, a);
        this.args = addr + Math.max(size, 1) + RED_ZONE;
        break;
    }
    this.allocatedBytes += size;
    return new MemoryObject(addr, size, kind, a, site);
  }
}

/** Lays out the globals once per run (they are the same in every state). */
export class GlobalLayout {
  private cursor = GLOBALS_BASE;
  private fnCursor = FUNCTIONS_BASE;

  allocateGlobal(size: number, align: number, site: string): MemoryObject {
    const a = Math.max(align, 1);
    const addr = alignUp(this.cursor, Math.max(a, 8));
    this.cursor = addr + Math.max(size, 1) + RED_ZONE;
    return new MemoryObject(addr, size, ObjectKind.Global, a, site);
  }

  /** A distinct, 16-aligned address for a function (function pointers compare and call). */
  allocateFunction(): number {
    const addr = this.fnCursor;
    this.fnCursor += 16;
    return addr;
  }
}
