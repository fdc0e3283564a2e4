/**
 * The contents of one memory object in one state (KLEE's ObjectState), copy-on-write.
 *
 * Every byte is in one of three forms:
 *   0  concrete: its value is bytes[i]                      (the common case: nonConcrete = 0)
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
 *
 * Two layouts. A small object (under PAGED_MIN bytes) is flat: `bytes`/`view` hold it and
 * `kinds`, `sym`, `unflushed` cover it whole; `clone` copies all of it. A large object is
 * paged (pages.ts): `bytes` and `view` are null, `pages` holds 4 KiB pages, each with its own
 * forms, symbolic bytes and unflushed marks; `clone` copies the page array and a page is
 * copied when first written (`ownPage`), so forked states share what neither wrote.
 */
import { ExprArray, UpdateList } from '../expr/array.js';
import { read as readExpr } from '../expr/builder-bits.js';
import { constantFromBV, type Expr } from '../expr/expr.js';
import { ExprKind } from '../expr/kinds.js';
import type { MemoryObject } from './memory-object.js';
import {
  BYTE_CONCRETE,
  BYTE_IN_UL,
  BYTE_SYMBOLIC,
  filledPage,
  freshEpoch,
  inUpdateListPage,
  PAGE_MASK,
  PAGE_SHIFT,
  PAGE_SIZE,
  PAGED_MIN,
  pageCount,
  type Page,
} from './pages.js';


let constArrayCounter = 0;

/** Objects this large or larger are paged (PAGED_MIN; tests lower it to compare both layouts). */
let pagedMin = PAGED_MIN;

/** Set the paging threshold (tests); returns the previous one. */
export function setPagedThreshold(bytes: number): number {
  const old = pagedMin;
  pagedMin = bytes;
  return old;
}

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
  /** The bytes of a flat object; null when paged. */
  bytes: Uint8Array | null;
  /** A view on `bytes` for multi-byte concrete accesses; null when paged. */
  view: DataView | null;
  /** The pages of a paged object (pages.ts); null when flat. */
  pages: Page[] | null = null;
  /** Pages whose epoch is this may be written in place (paged objects). */
  epoch = 0;
  /** Per-byte form of a flat object (see the module comment); null when every byte is concrete. */
  private kinds: Uint8Array | null = null;
  /**
   * Known symbolic bytes (form 1) of a flat object, by offset. A map, not an array of the
   * object's size: a few symbolic bytes in a large buffer cost 8 bytes a slot of it as an array.
   */
  private sym: Map<number, Expr> | null = null;
  /** The object as an array with writes, once an access needed it. */
  ul: UpdateList | null = null;
  /** Flat object with ul set: 1 for bytes whose current value is not in ul yet. */
  private unflushed: Uint8Array | null = null;
  readOnly = false;
  /** The object these are the contents of (set when bound; links arrays to its access types). */
  mo: MemoryObject | null = null;
  /** Number of bytes not in form 0; 0 means every byte is concrete (the fast paths). Read-only outside. */
  nonConcrete = 0;

  /**
   * `bytes` (optional) are copied. `pages` (for copies): the page array of a paged copy, null
   * for a flat one; undefined: paged when at least the paging threshold.
   */
  constructor(size: number, owner: number, bytes?: Uint8Array, pages?: Page[] | null) {
    this.size = size;
    this.owner = owner;
    if (pages === undefined ? size >= pagedMin : pages !== null) {
      this.bytes = null;
      this.view = null;
      this.epoch = freshEpoch();
      this.pages = pages ?? new Array<Page>(pageCount(size)).fill(filledPage(0));
      if (bytes !== undefined) this.setConcrete(0, bytes);
      return;
    }
    const b = storage(size);
    this.bytes = b;
    this.view = new DataView(b.buffer, b.byteOffset, size);
    if (bytes !== undefined) b.set(bytes);
  }

  /** A copy owned by `owner` (the copy-on-write step). */
  clone(owner: number): ObjectState {
    let c: ObjectState;
    if (this.pages !== null) {
      c = new ObjectState(this.size, owner, undefined, this.pages.slice());
      // neither side may now write the pages they share
      this.epoch = freshEpoch();
    } else {
      c = new ObjectState(this.size, owner, this.bytes!, null);
      if (this.kinds !== null) c.kinds = this.kinds.slice();
      if (this.sym !== null) c.sym = new Map(this.sym);
      if (this.unflushed !== null) c.unflushed = this.unflushed.slice();
    }
    c.ul = this.ul;
    c.readOnly = this.readOnly;
    c.mo = this.mo;
    c.nonConcrete = this.nonConcrete;
    return c;
  }

  /** Page p, copied first unless this object owns it (paged objects, before a write). */
  ownPage(p: number): Page {
    const pages = this.pages!;
    let pg = pages[p]!;
    if (pg.epoch !== this.epoch) pages[p] = pg = pg.copy(this.epoch);
    return pg;
  }

  /** True when every byte is concrete (reads need no expressions). */
  get isConcrete(): boolean {
    return this.nonConcrete === 0;
  }

  /** True when bytes [off, off+n) are all concrete. */
  rangeConcrete(off: number, n: number): boolean {
    if (this.nonConcrete === 0) return true;
    const k = this.kinds;
    if (k !== null) {
      for (let i = off; i < off + n; i++) if (k[i] !== BYTE_CONCRETE) return false;
      return true;
    }
    const pages = this.pages;
    if (pages === null) return true;
    for (let i = off; i < off + n; i++) {
      const pk = pages[i >>> PAGE_SHIFT]!.kinds;
      if (pk !== null && pk[i & PAGE_MASK] !== BYTE_CONCRETE) return false;
    }
    return true;
  }

  fill(value: number): void {
    if (this.pages !== null) this.pages.fill(filledPage(value & 0xff));
    else this.bytes!.fill(value);
    this.kinds = null;
    this.sym = null;
    this.ul = null;
    this.unflushed = null;
    this.nonConcrete = 0;
  }

  /** Make every byte the corresponding byte of `array` (klee_make_symbolic). */
  makeSymbolic(array: ExprArray): void {
    if (this.pages !== null) this.pages.fill(inUpdateListPage());
    else {
      this.kinds = new Uint8Array(this.size).fill(BYTE_IN_UL);
      this.unflushed = new Uint8Array(this.size);
    }
    this.sym = null;
    this.ul = new UpdateList(array, null);
    this.nonConcrete = this.size;
  }

  /** Make the contents those of the constant array `array` with `array` as the update list (segments reused from another state). */
  initFromArray(array: ExprArray): void {
    this.fill(0);
    this.setConcrete(0, array.constantValues!);
    this.ul = new UpdateList(array, null);
    if (this.pages === null) this.unflushed = new Uint8Array(this.size);
  }

  /**
   * The byte at a constant offset: a number when concrete, else an 8-bit expression.
   * (Direct writes to `bytes` are allowed only when nonConcrete = 0 and ul = null, since the
   * list must learn of them.)
   */
  read8(i: number): number | Expr {
    const k = this.kinds;
    if (k === null) {
      const b = this.bytes;
      return b !== null ? b[i]! : this.pagedRead8(i);
    }
    switch (k[i]) {
      case BYTE_CONCRETE:
        return this.bytes![i]!;
      case BYTE_SYMBOLIC:
        return this.sym!.get(i)!;
      default:
        return readExpr(this.ul!, constantFromBV(i, 32));
    }
  }

  private pagedRead8(i: number): number | Expr {
    const pg = this.pages![i >>> PAGE_SHIFT]!;
    const o = i & PAGE_MASK;
    const k = pg.kinds;
    if (k === null) return pg.bytes[o]!;
    switch (k[o]) {
      case BYTE_CONCRETE:
        return pg.bytes[o]!;
      case BYTE_SYMBOLIC:
        return pg.sym!.get(o)!;
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
    if (typeof v !== 'number' && v.kind === ExprKind.Constant) v = v.bv as number;
    if (this.pages !== null) {
      this.pagedWrite8(i, v);
      return;
    }
    if (typeof v !== 'number') {
      if (this.kinds === null) this.kinds = new Uint8Array(this.size);
      if (this.sym === null) this.sym = new Map();
      if (this.kinds[i] === BYTE_CONCRETE) this.nonConcrete++;
      this.kinds[i] = BYTE_SYMBOLIC;
      this.sym.set(i, v);
      if (this.unflushed !== null) this.unflushed[i] = 1;
      return;
    }
    this.bytes![i] = v;
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

  private pagedWrite8(i: number, v: number | Expr): void {
    const p = i >>> PAGE_SHIFT;
    const o = i & PAGE_MASK;
    const pg = this.ownPage(p);
    if (this.ul !== null) (pg.unflushed ??= new Uint8Array(PAGE_SIZE))[o] = 1;
    if (typeof v !== 'number') {
      const k = (pg.kinds ??= new Uint8Array(PAGE_SIZE));
      if (k[o] === BYTE_CONCRETE) {
        pg.nonConcrete++;
        this.nonConcrete++;
      }
      k[o] = BYTE_SYMBOLIC;
      (pg.sym ??= new Map()).set(o, v);
      return;
    }
    pg.bytes[o] = v;
    const k = pg.kinds;
    if (k !== null && k[o] !== BYTE_CONCRETE) {
      k[o] = BYTE_CONCRETE;
      pg.sym?.delete(o);
      this.nonConcrete--;
      if (--pg.nonConcrete === 0) {
        pg.kinds = null;
        pg.sym = null;
      }
    }
  }

  /**
   * The concrete bytes [off, off+n) (the caller checked rangeConcrete). For a flat object a
   * view of its storage: read it before the next write.
   */
  concreteBytes(off: number, n: number): Uint8Array {
    const b = this.bytes;
    if (b !== null) return b.subarray(off, off + n);
    const out = new Uint8Array(n);
    const pages = this.pages!;
    for (let done = 0; done < n; ) {
      const i = off + done;
      const o = i & PAGE_MASK;
      const m = Math.min(n - done, PAGE_SIZE - o);
      out.set(pages[i >>> PAGE_SHIFT]!.bytes.subarray(o, o + m), done);
      done += m;
    }
    return out;
  }

  /** Write concrete bytes at [off, off+src.length). */
  setConcrete(off: number, src: Uint8Array): void {
    const n = src.length;
    if (this.nonConcrete !== 0 || this.ul !== null) {
      for (let i = 0; i < n; i++) this.write8(off + i, src[i]!);
      return;
    }
    const b = this.bytes;
    if (b !== null) {
      b.set(src, off);
      return;
    }
    for (let done = 0; done < n; ) {
      const i = off + done;
      const o = i & PAGE_MASK;
      const m = Math.min(n - done, PAGE_SIZE - o);
      this.ownPage(i >>> PAGE_SHIFT).bytes.set(src.subarray(done, done + m), o);
      done += m;
    }
  }

  /** Set bytes [off, off+n) to the concrete `value` (memset); whole pages become a shared filled page. */
  fillConcrete(off: number, n: number, value: number): void {
    if (this.nonConcrete !== 0 || this.ul !== null) {
      for (let i = 0; i < n; i++) this.write8(off + i, value);
      return;
    }
    const b = this.bytes;
    if (b !== null) {
      b.fill(value, off, off + n);
      return;
    }
    const pages = this.pages!;
    for (let done = 0; done < n; ) {
      const i = off + done;
      const o = i & PAGE_MASK;
      const m = Math.min(n - done, PAGE_SIZE - o);
      if (m === PAGE_SIZE) pages[i >>> PAGE_SHIFT] = filledPage(value & 0xff);
      else this.ownPage(i >>> PAGE_SHIFT).bytes.fill(value, o, o + m);
      done += m;
    }
  }

  /**
   * How many bytes from i on are the same in `other`, known without reading them: the rest
   * of the page when both hold the same page (merging skips them), else 0.
   */
  sharedSpan(other: ObjectState, i: number): number {
    const a = this.pages;
    const b = other.pages;
    if (a === null || b === null || a[i >>> PAGE_SHIFT] !== b[i >>> PAGE_SHIFT]) return 0;
    return Math.min(PAGE_SIZE - (i & PAGE_MASK), this.size - i);
  }

  /** Build or bring up to date the update list holding every byte's current value. */
  flush(): UpdateList {
    if (this.pages !== null) return this.pagedFlush();
    let ul = this.ul;
    const k = this.kinds;
    if (ul === null) {
      ul = new UpdateList(this.constArray(this.bytes!), null);
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
        const v = k !== null && k[i] === BYTE_SYMBOLIC ? this.sym!.get(i)! : constantFromBV(this.bytes![i]!, 8);
        ul = ul.extend(constantFromBV(i, 32), v);
      }
    }
    this.ul = ul;
    return ul;
  }

  private constArray(bytes: Uint8Array): ExprArray {
    const arr = new ExprArray(`const_arr${++constArrayCounter}`, this.size, bytes);
    if (this.mo !== null) arr.access = this.mo.accessTypes();
    return arr;
  }

  /** flush for a paged object: the same list as flat (writes in ascending offset order). */
  private pagedFlush(): UpdateList {
    const pages = this.pages!;
    let ul = this.ul;
    if (ul === null) {
      ul = new UpdateList(this.constArray(this.concreteBytes(0, this.size)), null);
      for (let p = 0; p < pages.length; p++) {
        const pg = pages[p]!;
        const k = pg.kinds;
        if (k === null) continue;
        for (let o = 0; o < PAGE_SIZE; o++) {
          if (k[o] === BYTE_SYMBOLIC) ul = ul.extend(constantFromBV(p * PAGE_SIZE + o, 32), pg.sym!.get(o)!);
        }
      }
    } else {
      for (let p = 0; p < pages.length; p++) {
        const pg = pages[p]!;
        const u = pg.unflushed;
        if (u === null) continue;
        const k = pg.kinds;
        for (let o = 0; o < PAGE_SIZE; o++) {
          if (u[o] === 0) continue;
          const v = k !== null && k[o] === BYTE_SYMBOLIC ? pg.sym!.get(o)! : constantFromBV(pg.bytes[o]!, 8);
          ul = ul.extend(constantFromBV(p * PAGE_SIZE + o, 32), v);
        }
        // a shared page keeps its marks for the objects sharing it (their lists differ from ours)
        if (pg.epoch === this.epoch) pg.unflushed = null;
        else pages[p] = pg.flushed();
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
    if (this.pages !== null) this.pages.fill(inUpdateListPage());
    else {
      if (this.kinds === null) this.kinds = new Uint8Array(this.size);
      this.kinds.fill(BYTE_IN_UL);
    }
    this.sym = null;
    this.nonConcrete = this.size;
  }
}

/** Restart const_arr numbering (per run, for deterministic names). */
export function resetConstArrayCounter(): void {
  constArrayCounter = 0;
}
