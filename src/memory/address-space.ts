/**
 * A state's view of memory (KLEE's AddressSpace): which objects exist and what they hold.
 *
 * Bindings live in a persistent AVL tree keyed by base address, so a fork shares everything
 * (O(1)); object states are copy-on-write: an ObjectState may be written only by the address
 * space whose `cowKey` it carries, others clone it first (`writeable`). A fork gives both
 * sides fresh keys, so neither writes the objects they now share.
 *
 * Freed heap objects stay in the tree with a null state: their addresses are never reused
 * (the allocator is monotonic), so a later access is recognisably a use after free.
 *
 * Stack objects are bound on a persistent stack instead (stack-bindings.ts): at -O0 every
 * call allocates its locals and frees them at return, always above every other stack object,
 * so a push and a pop cost one node where the tree copied and rebalanced a path each time
 * (27 % of tsklee's time on csmith's loops). A stack object bound out of that order (a split
 * object's chunks) goes to the tree; every lookup asks both.
 *
 * Keys form a tree (each fork gives its key two children). An object state is reachable only
 * from address spaces whose key descends from its owner key. Once every other such address
 * space has been released (its state ended), the one left adopts the object and writes it in
 * place instead of copying it: with a depth-first search, the second side of every fork
 * copies nothing its sibling already ended with (KLEE gets the same from reference counts).
 */
import { ObjectKind, type MemoryObject } from './memory-object.js';
import { ObjectState } from './object-state.js';
import { pmFloor, pmHigher, pmInsert, pmLower, pmRemove, pmToArray, type PNode } from './pmap.js';
import { SNode, sFloor, sPush, sReplace, sToAscending } from './stack-bindings.js';

let nextCowKey = 1;

/** bindings() per tree (trees are immutable: merging compares one state's objects many times). */
const bindingLists = new WeakMap<PNode, PNode[]>();
/** bindings() per stack top, with the tree they were merged with. */
const combinedLists = new WeakMap<SNode, { root: PNode | null; list: PNode[] }>();

/** How far up the fork tree a write looks for the owner of an object before copying it. */
const MAX_OWNER_WALK = 64;

/** A copy-on-write key in the fork tree. */
class KeyNode {
  /** Children with a live (unreleased) address space below them; 0 for a leaf. */
  liveChildren = 0;
  released = false;
  constructor(
    readonly key: number,
    readonly parent: KeyNode | null,
  ) {}
}

export class AddressSpace {
  private root: PNode | null = null;
  /** Stack objects bound in allocation order, newest on top (stack-bindings.ts). */
  private top: SNode | null = null;
  cowKey = nextCowKey++;
  private node = new KeyNode(this.cowKey, null);
  /** The node found by the last lookup (nodes are immutable, so it stays right until the tree changes). */
  private last: PNode | null = null;
  /** Live objects (freed ones excluded). */
  private live = 0;

  /** A copy sharing every binding; both this and the copy get fresh copy-on-write keys. */
  fork(): AddressSpace {
    const c = new AddressSpace();
    c.root = this.root;
    c.top = this.top;
    c.live = this.live;
    c.last = this.last;
    const parent = this.node;
    parent.liveChildren = 2;
    c.node = new KeyNode(c.cowKey, parent);
    this.cowKey = nextCowKey++;
    this.node = new KeyNode(this.cowKey, parent);
    return c;
  }

  /**
   * This address space will not be used again (its state ended): the others sharing its
   * objects may adopt them. Reading or writing it afterwards is a bug: its objects may change.
   */
  release(): void {
    const n = this.node;
    if (n.released) return;
    n.released = true;
    // a node whose last live child ended is itself no longer live
    let p = n.parent;
    while (p !== null && --p.liveChildren === 0) p = p.parent;
  }

  /**
   * No other live address space can reach the objects owned by `owner`, an ancestor key of
   * ours. The walk up is bounded: an owner further up is treated as shared (a copy is made).
   */
  private soleHolder(owner: number): boolean {
    if (this.node.released) return false;
    let steps = 0;
    for (let n = this.node.parent; n !== null && n.liveChildren === 1 && steps < MAX_OWNER_WALK; n = n.parent, steps++) {
      if (n.key === owner) return true;
    }
    return false;
  }

  get size(): number {
    return this.live;
  }

  /** Bind a new object (its state becomes owned by this address space). */
  bind(mo: MemoryObject, os: ObjectState): void {
    os.owner = this.cowKey;
    os.mo = mo;
    const top = this.top;
    if (mo.kind === ObjectKind.Stack && (top === null || mo.address > top.key)) this.top = sPush(top, mo, os);
    else this.root = pmInsert(this.root, mo, os);
    this.last = null;
    this.live++;
  }

  /** A fresh object state of mo's size, bound and owned here. */
  bindNew(mo: MemoryObject): ObjectState {
    const os = new ObjectState(mo.size, this.cowKey);
    this.bind(mo, os);
    return os;
  }

  /** The binding of mo (live or freed), or null. */
  private nodeOf(mo: MemoryObject): PNode | null {
    const top = this.top;
    if (top !== null && mo.address >= top.bottom.key) {
      const s = sFloor(top, mo.address).floor;
      if (s !== null && s.mo === mo) return s;
    }
    const n = pmFloor(this.root, mo.address);
    return n !== null && n.mo === mo ? n : null;
  }

  /** Rebind n's object to `os` (null: freed; undefined: unbound), on the stack or in the tree. */
  private rebind(n: PNode, os: ObjectState | null | undefined): void {
    if (n instanceof SNode) this.top = sReplace(this.top!, n, os);
    else this.root = os === undefined ? pmRemove(this.root, n.key) : pmInsert(this.root, n.mo, os);
    this.last = null;
  }

  /** Forget an object entirely (stack objects at return, the old block of a realloc). */
  unbind(mo: MemoryObject): void {
    const top = this.top;
    // a frame's objects go from the newest down: each is the top then
    if (top !== null && top.mo === mo) {
      if (top.os !== null) this.live--;
      this.top = top.below;
      this.last = null;
      return;
    }
    const n = this.nodeOf(mo);
    if (n === null) return;
    if (n.os !== null) this.live--;
    this.rebind(n, undefined);
  }

  /** Mark a heap object freed: accesses to its addresses are now uses after free. */
  markFreed(mo: MemoryObject): void {
    const n = this.nodeOf(mo);
    if (n === null || n.os === null) return;
    this.rebind(n, null);
    this.live--;
  }

  /** The live object state of mo, or null (unbound or freed). */
  stateOf(mo: MemoryObject): ObjectState | null {
    const n = this.nodeOf(mo);
    return n === null ? null : n.os;
  }

  /**
   * The binding of the object containing `address` (live or freed), or null. Objects never
   * overlap, so the candidate is the one with the greatest base ≤ address.
   */
  find(address: number): PNode | null {
    const l = this.last;
    if (l !== null && l.mo.contains(address)) return l;
    let n = pmFloor(this.root, address);
    const top = this.top;
    if (top !== null && address >= top.bottom.key) {
      const s = sFloor(top, address).floor;
      if (s !== null && (n === null || s.key > n.key)) n = s;
    }
    if (n === null || !n.mo.contains(address)) return null;
    this.last = n;
    return n;
  }

  /** The live object containing `address` (KLEE's resolveOne for a constant address). */
  resolveOne(address: number): PNode | null {
    const n = this.find(address);
    return n !== null && n.os !== null ? n : null;
  }

  /** An object state of `n` that this address space may write (cloning a shared one). */
  writeable(n: PNode): ObjectState {
    const os = n.os!;
    if (os.owner === this.cowKey) return os;
    if (this.soleHolder(os.owner)) {
      os.owner = this.cowKey;
      return os;
    }
    const c = os.clone(this.cowKey);
    this.rebind(n, c);
    return c;
  }

  /** Writeable state of a live object (null if not bound). */
  writeableOf(mo: MemoryObject): ObjectState | null {
    const n = this.nodeOf(mo);
    if (n === null || n.os === null) return null;
    return this.writeable(n);
  }

  /** The nearest binding above / below an address (resolution walks, error reports). */
  next(address: number): PNode | null {
    const t = pmHigher(this.root, address);
    const top = this.top;
    if (top === null || top.key <= address) return t;
    // the stack's least key above address: the node above its floor (its bottom when none)
    const s = address < top.bottom.key ? top.bottom : sFloor(top, address).above!;
    return t === null || s.key < t.key ? s : t;
  }

  prev(address: number): PNode | null {
    const t = pmLower(this.root, address);
    const top = this.top;
    if (top === null || address <= top.bottom.key) return t;
    const s = sFloor(top, address - 1).floor!;
    return t === null || s.key > t.key ? s : t;
  }

  /** All bindings in address order (live and freed); do not modify (shared by address spaces with the same tree). */
  bindings(): readonly PNode[] {
    const root = this.root;
    let a: PNode[] = [];
    if (root !== null) {
      const cached = bindingLists.get(root);
      if (cached === undefined) bindingLists.set(root, (a = pmToArray(root)));
      else a = cached;
    }
    const top = this.top;
    if (top === null) return a;
    const c = combinedLists.get(top);
    if (c !== undefined && c.root === root) return c.list;
    const list = mergeByKey(a, sToAscending(top));
    combinedLists.set(top, { root, list });
    return list;
  }
}

/** Two address-ordered binding lists as one. */
function mergeByKey(a: readonly PNode[], b: readonly PNode[]): PNode[] {
  if (a.length === 0) return b as PNode[];
  const out: PNode[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i]!.key < b[j]!.key ? a[i++]! : b[j++]!);
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

/** Restart copy-on-write keys (tests). */
export function resetCowKeys(): void {
  nextCowKey = 1;
}
