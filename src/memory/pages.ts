/**
 * Pages of a large object's contents, shared between the copies forks make of it.
 *
 * A large object (PAGED_MIN bytes or more) keeps its contents in 4 KiB pages. Copying the
 * object after a fork copies only its array of pages; a page is copied when one side first
 * writes into it. Without this every state that wrote one byte into coreutils `cat`'s 640 KiB
 * output buffer had its own 640 KiB copy, so only ~3 000 states fit in 2 GB.
 *
 * Ownership is by epoch: an ObjectState may write a page in place only when the page's epoch
 * is its own. Copying an object gives both the original and the copy fresh epochs, so every
 * page they share is then owned by neither and never changes again (a page of a live
 * ObjectState's epoch is in no other ObjectState's pages). Shared constant pages (all zeros,
 * a fill byte, all symbolic) carry NOT_OWNED and are likewise never written.
 */

export const PAGE_SHIFT = 12;
export const PAGE_SIZE = 1 << PAGE_SHIFT;
export const PAGE_MASK = PAGE_SIZE - 1;
/**
 * Objects this large or larger are paged; smaller ones keep one flat buffer. A paged access
 * costs a page lookup: a tight concrete loop over a 16 KiB array (bench/concrete.c) ran
 * ~10 % slower paged at 8 KiB, so mid-size arrays stay flat; the buffers that made states
 * large (`cat`'s 128 KiB input and 640 KiB output buffers) are paged.
 */
export const PAGED_MIN = 8 * PAGE_SIZE;
/** The epoch of pages no ObjectState owns. */
export const NOT_OWNED = -1;

/** Per-byte forms (object-state.ts). */
export const BYTE_CONCRETE = 0;
export const BYTE_SYMBOLIC = 1;
export const BYTE_IN_UL = 2;

let nextEpoch = 1;

export function freshEpoch(): number {
  return nextEpoch++;
}

/** One page: bytes, and which of them are not plain concrete values. */
export class Page {
  readonly view: DataView;
  /** Per-byte form; null when every byte of the page is concrete. */
  kinds: Uint8Array | null = null;
  /** Known symbolic bytes (form 1) by offset in the page. */
  sym: Map<number, import('../expr/expr.js').Expr> | null = null;
  /** Bytes of the page not in form 0 (for a last page partly past the object's end, it may count bytes past it: it only decides when `kinds` can go). */
  nonConcrete = 0;
  /** When the object has an update list: 1 for bytes whose value is not in it yet; null when none. */
  unflushed: Uint8Array | null = null;

  constructor(
    readonly bytes: Uint8Array,
    public epoch: number,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** A private copy owned by `epoch`. */
  copy(epoch: number): Page {
    const p = new Page(this.bytes.slice(), epoch);
    if (this.kinds !== null) p.kinds = this.kinds.slice();
    if (this.sym !== null) p.sym = new Map(this.sym);
    p.nonConcrete = this.nonConcrete;
    if (this.unflushed !== null) p.unflushed = this.unflushed.slice();
    return p;
  }

  /** The same contents with nothing unflushed, sharing this page's arrays (so owned by no one). */
  flushed(): Page {
    const p = new Page(this.bytes, NOT_OWNED);
    p.kinds = this.kinds;
    p.sym = this.sym;
    p.nonConcrete = this.nonConcrete;
    return p;
  }
}

/** Shared pages whose every byte is `value` (concrete), by value. */
const fillPages: (Page | undefined)[] = [];

export function filledPage(value: number): Page {
  let p = fillPages[value];
  if (p === undefined) fillPages[value] = p = new Page(new Uint8Array(PAGE_SIZE).fill(value), NOT_OWNED);
  return p;
}

let allInUl: Page | null = null;

/** The shared page whose every byte is in the update list only (after make_symbolic). */
export function inUpdateListPage(): Page {
  if (allInUl === null) {
    allInUl = new Page(new Uint8Array(PAGE_SIZE), NOT_OWNED);
    allInUl.kinds = new Uint8Array(PAGE_SIZE).fill(BYTE_IN_UL);
    allInUl.nonConcrete = PAGE_SIZE;
  }
  return allInUl;
}

/** Number of pages of an object of `size` bytes (the last one may be partly past the end). */
export function pageCount(size: number): number {
  return Math.ceil(size / PAGE_SIZE);
}
