/**
 * The contents of one memory object in one state (KLEE's ObjectState), copy-on-write.
 *
 * Every byte is in one of three forms:
 *   0  concrete: its value is bytes[i]                      (the common case: `kinds` is null)
 *   1  known symbolic: its value is the expression sym[i]   (written at a constant offset)
 *   2  in the update list only: its value is Read(ul, i)     (after make_symbolic, or after a
 *                                                            write at a symbolic offset, which
 *                                                            may have changed any byte)
 * Accesses at symbolic offsets need the whole object as one array: `flush` builds the update
 * list (a constant array of the concrete bytes, then one write per byte that is newer than the
 * list, as KLEE does) and records which bytes are in it (`unflushed`).
 *
 * An ObjectState belongs to the address space whose copy-on-write key equals `owner`; a
 * state that does not own it copies it (`clone`) before writing.
 */
import { ExprArray, UpdateList } from '../expr/array.js';
import { read as readExpr } from '../expr/builder-bits.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import type { MemoryObject } from './memory-object.js';

const BYTE_CONCRETE = 0;
const BYTE_SYMBOLIC = 1;
const BYTE_IN_UL = 2;

let constArrayCounter = 0;

/**
 * Small objects (scalars, small structs: most allocas, and most copies made at a write after
 * a fork) take their bytes from a shared slab: a typed array or DataView of its own
 * ArrayBuffer costs ~1 µs to create and more to collect, a view into a slab ~0.25 µs. A slab
 * lives while any of its objects does, so it is kept small (at worst a few times what an
 * object with its own buffer costs).
 */
const SLAB_BYTES = 512;
const SLAB_MAX_OBJECT = 64;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/** Zeroed storage for `size` bytes (a view into a slab, or its own buffer: never an on-heap array, whose buffer a DataView would have to move). */
function storage(size: number): Uint8Array {
  if (size > SLAB_MAX_OBJECT) return new Uint8Array(size);
  const n = (size + 7) & ~7;
  if (slabUsed + n > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const off = slabUsed;
  slabUsed += n;
  return new Uint8Array(slab, off, size);
}

export class ObjectState {
  owner: number;
  readonly size: number;
  bytes: Uint8Array;
  /** A view on `bytes` for multi-byte concrete accesses. */
  view: DataView;
  /** Per-byte form (see the module comment); null when every byte is concrete. */
  kinds: Uint8Array | null = null;
  /**
   * Known symbolic bytes (form 1), by offset. A map, not an array of the object's size: a
   * state that writes a few symbolic bytes into a large buffer (a coreutils `cat` writing its
   * 640 KiB output buffer) cost 5 MB per copy as an array (8 bytes a slot), and every fork
   * that wrote into it made another copy.
   */
  sym: Map<number, Expr> | null = null;
  /** The object as an array with writes, once an access needed it. */
  ul: UpdateList | null = null;
  /** When ul is set: 1 for bytes whose current value is not in ul yet. */
  unflushed: Uint8Array | null = null;
  readOnly = false;
  /** The object these are the contents of (set when bound; links arrays to its access types). */
  mo: MemoryObject | null = null;
  /** Number of bytes not in form 0. */
  private nonConcrete = 0;

  /** `bytes` (optional) are copied. */
  constructor(size: number, owner: number, bytes?: Uint8Array) {
    this.size = size;
    this.owner = owner;
    this.bytes = storage(size);
    this.view = new DataView(this.bytes.buffer, this.bytes.byteOffset, size);
    if (bytes !== undefined) this.bytes.set(bytes);
  }

  /** A copy owned by `owner` (the copy-on-write step). */
  clone(owner: number): ObjectState {
    const c = new ObjectState(this.size, owner, this.bytes);
    if (this.kinds !== null) c.kinds = this.kinds.slice();
    if (this.sym !== null) c.sym = new Map(this.sym);
    c.ul = this.ul;
    if (this.unflushed !== null) c.unflushed = this.unflushed.slice();
    c.readOnly = this.readOnly;
    c.mo = this.mo;
    c.nonConcrete = this.nonConcrete;
    return c;
  }

  /** True when every byte is concrete (reads need no expressions). */
  get isConcrete(): boolean {
    return this.kinds === null;
  }

  /** True when bytes [off, off+n) are all concrete. */
  rangeConcrete(off: number, n: number): boolean {
    const k = this.kinds;
    if (k === null) return true;
    for (let i = off; i < off + n; i++) if (k[i] !== BYTE_CONCRETE) return false;
    return true;
  }

  fill(value: number): void {
    this.bytes.fill(value);
    this.kinds = null;
    this.sym = null;
    this.ul = null;
    this.unflushed = null;
    this.nonConcrete = 0;
  }

  /** Make every byte the corresponding byte of `array` (klee_make_symbolic). */
  makeSymbolic(array: ExprArray): void {
    this.kinds = new Uint8Array(this.size).fill(BYTE_IN_UL);
    this.sym = null;
    this.ul = new UpdateList(array, null);
    this.unflushed = new Uint8Array(this.size);
    this.nonConcrete = this.size;
  }

  /**
   * The byte at a constant offset: a number when concrete, else an 8-bit expression.
   * (`kinds === null` means all bytes concrete, with or without an update list; direct writes
   * to `bytes` are allowed only when also `ul === null`, since the list must learn of them.)
   */
  read8(i: number): number | Expr {
    const k = this.kinds;
    if (k === null) return this.bytes[i]!;
    switch (k[i]) {
      case BYTE_CONCRETE:
        return this.bytes[i]!;
      case BYTE_SYMBOLIC:
        return this.sym!.get(i)!;
      default:
        return readExpr(this.ul!, constantFromBV(i, 32));
    }
  }

  /** The byte at a constant offset as an expression. */
  read8Expr(i: number): Expr {
    const v = this.read8(i);
    return typeof v === 'number' ? constantFromBV(v, 8) : v;
  }

  /** Write a byte at a constant offset (a number 0..255 or an 8-bit expression). */
  write8(i: number, v: number | Expr): void {
    if (typeof v !== 'number') {
      if (v.kind === ExprKind.Constant) v = v.bv as number;
      else {
        if (this.kinds === null) this.kinds = new Uint8Array(this.size);
        if (this.sym === null) this.sym = new Map();
        if (this.kinds[i] === BYTE_CONCRETE) this.nonConcrete++;
        this.kinds[i] = BYTE_SYMBOLIC;
        this.sym.set(i, v);
        if (this.unflushed !== null) this.unflushed[i] = 1;
        return;
      }
    }
    this.bytes[i] = v;
    if (this.unflushed !== null) this.unflushed[i] = 1;
    const k = this.kinds;
    if (k !== null && k[i] !== BYTE_CONCRETE) {
      k[i] = BYTE_CONCRETE;
      this.sym?.delete(i);
      // Back to all-concrete: drop the bookkeeping so reads take the fast path again.
      if (--this.nonConcrete === 0) {
        this.kinds = null;
        this.sym = null;
      }
    }
  }

  /** Build or bring up to date the update list holding every byte's current value. */
  flush(): UpdateList {
    let ul = this.ul;
    const k = this.kinds;
    if (ul === null) {
      const arr = new ExprArray(`const_arr${++constArrayCounter}`, this.size, this.bytes);
      if (this.mo !== null) arr.access = this.mo.accessTypes();
      ul = new UpdateList(arr, null);
      if (k !== null) {
        for (let i = 0; i < this.size; i++) {
          if (k[i] === BYTE_SYMBOLIC) ul = ul.extend(constantFromBV(i, 32), this.sym!.get(i)!);
        }
      }
      this.unflushed = new Uint8Array(this.size);
    } else {
      const u = this.unflushed!;
      for (let i = 0; i < this.size; i++) {
        if (u[i] === 0) continue;
        u[i] = 0;
        const v = k !== null && k[i] === BYTE_SYMBOLIC ? this.sym!.get(i)! : constantFromBV(this.bytes[i]!, 8);
        ul = ul.extend(constantFromBV(i, 32), v);
      }
    }
    this.ul = ul;
    return ul;
  }

  /** Records an access of `bytes` bytes at a symbolic offset (paper 002's access types). */
  recordSymbolicAccess(bytes: number): void {
    if (this.mo !== null) this.mo.accessTypes().record(bytes);
  }

  /** The byte at a symbolic 32-bit offset. */
  read8Sym(index: Expr): Expr {
    return readExpr(this.flush(), index);
  }

  /** Write a byte at a symbolic 32-bit offset: afterwards only the update list is exact. */
  write8Sym(index: Expr, v: Expr): void {
    const ul = this.flush();
    this.ul = ul.extend(index, v);
    if (this.kinds === null) this.kinds = new Uint8Array(this.size);
    this.kinds.fill(BYTE_IN_UL);
    this.sym = null;
    this.nonConcrete = this.size;
  }
}

/** Restart const_arr numbering (per run, for deterministic names). */
export function resetConstArrayCounter(): void {
  constArrayCounter = 0;
}
