/**
 * Arrays and update lists (KLEE's `Array`, `UpdateNode`, `UpdateList`).
 *
 * An array maps 32-bit indices to bytes. Arrays are identity objects (two arrays with the same
 * name are different arrays; printers disambiguate names). Update nodes are hash-consed like
 * expressions, so an update list is identified by (root, head) and a Read node can be interned
 * without walking its list. Update lists are persistent: `extend` returns a new list.
 */
import { hasAddressSymbol, type Expr } from './expr.js';
import type { AccessTypes } from './access-types.js';
import { finishHash, hashString, mixHash, WeakInternTable, type Probe } from './intern.js';

/** Index width of every array. */
export const DOMAIN_WIDTH = 32;
/** Element width of every array. */
export const RANGE_WIDTH = 8;

let nextArrayId = 1;

/** Named so as not to shadow the global `Array`. */
export class ExprArray {
  /** Unique per array object; a cache key. */
  readonly id = nextArrayId++;
  readonly hash: number;
  readonly domain = DOMAIN_WIDTH;
  readonly range = RANGE_WIDTH;
  /** For a constant array, its bytes (a private copy); null for a symbolic array. */
  readonly constantValues: Uint8Array | null;
  /**
   * The typed access sizes of the memory object this array was made from (paper 002's M(a));
   * null for arrays not made from memory. Set by the memory layer; read by the array encoding.
   */
  access: AccessTypes | null = null;
  /**
   * For the count k of a quantified merge (engine/merging/quantified/): an auxiliary
   * variable, not an input (no .ktest object), and the largest value its path condition
   * allows; null for every other array. The quantified-query layer expands ∀ up to it.
   */
  auxMax: bigint | null = null;
  /**
   * For the symbolic base address of a relocatable memory object (memory/relocatable.ts):
   * its 8 bytes are the address, never an input; the solver never sees it (the memory model
   * substitutes the object's concrete address first). Set before any read of the array is made.
   */
  addressSymbol = false;

  /**
   * @param name a name for printing and for `.ktest` objects
   * @param size number of bytes (reads beyond it are left to the engine's bounds checks)
   * @param constantValues the contents of a constant array (length `size`)
   */
  constructor(
    readonly name: string,
    readonly size: number,
    constantValues?: Uint8Array,
  ) {
    if (!Number.isInteger(size) || size < 0 || size > 2 ** DOMAIN_WIDTH) {
      throw new RangeError(`array ${name}: bad size ${size}`);
    }
    if (constantValues !== undefined && constantValues.length !== size) {
      throw new RangeError(`array ${name}: ${constantValues.length} constant values for size ${size}`);
    }
    this.constantValues = constantValues === undefined ? null : constantValues.slice();
    this.hash = finishHash(mixHash(hashString(name), size));
  }

  isConstant(): boolean {
    return this.constantValues !== null;
  }

  isSymbolic(): boolean {
    return this.constantValues === null;
  }

  toString(): string {
    return this.name;
  }
}

let nextUpdateId = 1;

/**
 * One write `root[index] = value` on top of `next` (older writes of the same array).
 * Hash-consed: build with `UpdateNode.create` or `UpdateList.extend`.
 */
export class UpdateNode {
  readonly id = nextUpdateId++;
  /** Number of writes from this node to the end of the list. */
  readonly length: number;
  /** This write or an older one stores or indexes with an address symbol (memory/relocatable.ts). */
  readonly mentionsAddress: boolean;

  private constructor(
    readonly root: ExprArray,
    readonly index: Expr,
    readonly value: Expr,
    readonly next: UpdateNode | null,
    readonly hash: number,
  ) {
    this.length = next === null ? 1 : next.length + 1;
    this.mentionsAddress = hasAddressSymbol(value) || hasAddressSymbol(index) || (next !== null && next.mentionsAddress);
  }

  static create(root: ExprArray, index: Expr, value: Expr, next: UpdateNode | null): UpdateNode {
    if (next !== null && next.root !== root) throw new Error(`update of ${root.name} on top of ${next.root.name}`);
    if (index.width !== DOMAIN_WIDTH) throw new RangeError(`update index has width ${index.width}, not ${DOMAIN_WIDTH}`);
    if (value.width !== RANGE_WIDTH) throw new RangeError(`update value has width ${value.width}, not ${RANGE_WIDTH}`);
    let h = mixHash(mixHash(0x2545f491, root.hash), index.hash);
    h = finishHash(mixHash(mixHash(h, value.hash), next === null ? 0 : next.hash));
    probe.root = root;
    probe.index = index;
    probe.value = value;
    probe.next = next;
    const found = updateTable.find(h, probe);
    probe.root = null;
    probe.index = probe.value = null;
    probe.next = null;
    if (found !== undefined) return found;
    const n = new UpdateNode(root, index, value, next, h);
    updateTable.add(h, n);
    return n;
  }
}

class UpdateProbe implements Probe<UpdateNode> {
  root: ExprArray | null = null;
  index: Expr | null = null;
  value: Expr | null = null;
  next: UpdateNode | null = null;
  matches(u: UpdateNode): boolean {
    return u.index === this.index && u.value === this.value && u.next === this.next && u.root === this.root;
  }
}

const probe = new UpdateProbe();

const updateTable = new WeakInternTable<UpdateNode>();

/** An array with a (possibly empty) sequence of writes, newest first. Immutable. */
export class UpdateList {
  readonly hash: number;

  constructor(
    readonly root: ExprArray,
    readonly head: UpdateNode | null = null,
  ) {
    if (head !== null && head.root !== root) throw new Error(`update list of ${root.name} with writes to ${head.root.name}`);
    this.hash = finishHash(mixHash(root.hash, head === null ? 0 : head.hash));
  }

  /** A read of this list may depend on an address symbol (its array is one, or a write mentions one). */
  get mentionsAddress(): boolean {
    return this.root.addressSymbol || (this.head !== null && this.head.mentionsAddress);
  }

  /** Number of writes. */
  get length(): number {
    return this.head === null ? 0 : this.head.length;
  }

  /** This list with one more write on top. */
  extend(index: Expr, value: Expr): UpdateList {
    return new UpdateList(this.root, UpdateNode.create(this.root, index, value, this.head));
  }

  /** Same array and same writes (update nodes are hash-consed, so this is O(1)). */
  equals(other: UpdateList): boolean {
    return this.root === other.root && this.head === other.head;
  }

  /** Writes, newest first. */
  *nodes(): IterableIterator<UpdateNode> {
    for (let n = this.head; n !== null; n = n.next) yield n;
  }
}
