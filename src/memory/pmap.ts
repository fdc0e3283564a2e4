/**
 * A persistent (immutable, path-copying) AVL tree from object base addresses to bindings.
 * Forking an address space shares the root: O(1). An update copies the O(log n) nodes on one
 * path. KLEE's AddressSpace uses an immutable map for the same reason.
 */
import type { MemoryObject } from './memory-object.js';
import type { ObjectState } from './object-state.js';

export class PNode {
  constructor(
    readonly key: number,
    readonly mo: MemoryObject,
    /** null: the object was freed in this state (kept so that later accesses say "use after free"). */
    readonly os: ObjectState | null,
    readonly left: PNode | null,
    readonly right: PNode | null,
    readonly height: number,
  ) {}
}

function h(n: PNode | null): number {
  return n === null ? 0 : n.height;
}

function make(key: number, mo: MemoryObject, os: ObjectState | null, l: PNode | null, r: PNode | null): PNode {
  const hl = h(l);
  const hr = h(r);
  return new PNode(key, mo, os, l, r, (hl > hr ? hl : hr) + 1);
}

function balance(key: number, mo: MemoryObject, os: ObjectState | null, l: PNode | null, r: PNode | null): PNode {
  const hl = h(l);
  const hr = h(r);
  if (hl > hr + 1) {
    const ll = l!.left;
    const lr = l!.right;
    if (h(ll) >= h(lr)) return make(l!.key, l!.mo, l!.os, ll, make(key, mo, os, lr, r));
    return make(lr!.key, lr!.mo, lr!.os, make(l!.key, l!.mo, l!.os, ll, lr!.left), make(key, mo, os, lr!.right, r));
  }
  if (hr > hl + 1) {
    const rl = r!.left;
    const rr = r!.right;
    if (h(rr) >= h(rl)) return make(r!.key, r!.mo, r!.os, make(key, mo, os, l, rl), rr);
    return make(rl!.key, rl!.mo, rl!.os, make(key, mo, os, l, rl!.left), make(r!.key, r!.mo, r!.os, rl!.right, rr));
  }
  return make(key, mo, os, l, r);
}

/** The tree with `mo` bound to `os` (inserted, or replacing the binding at mo.address). */
export function pmInsert(n: PNode | null, mo: MemoryObject, os: ObjectState | null): PNode {
  const key = mo.address;
  if (n === null) return new PNode(key, mo, os, null, null, 1);
  if (key < n.key) return balance(n.key, n.mo, n.os, pmInsert(n.left, mo, os), n.right);
  if (key > n.key) return balance(n.key, n.mo, n.os, n.left, pmInsert(n.right, mo, os));
  return new PNode(key, mo, os, n.left, n.right, n.height);
}

function removeMin(n: PNode): { rest: PNode | null; min: PNode } {
  if (n.left === null) return { rest: n.right, min: n };
  const r = removeMin(n.left);
  return { rest: balance(n.key, n.mo, n.os, r.rest, n.right), min: r.min };
}

/** The tree without the binding at `key` (unchanged if absent). */
export function pmRemove(n: PNode | null, key: number): PNode | null {
  if (n === null) return null;
  if (key < n.key) return balance(n.key, n.mo, n.os, pmRemove(n.left, key), n.right);
  if (key > n.key) return balance(n.key, n.mo, n.os, n.left, pmRemove(n.right, key));
  if (n.left === null) return n.right;
  if (n.right === null) return n.left;
  const { rest, min } = removeMin(n.right);
  return balance(min.key, min.mo, min.os, n.left, rest);
}

/** The node with the greatest key ≤ key. */
export function pmFloor(n: PNode | null, key: number): PNode | null {
  let best: PNode | null = null;
  while (n !== null) {
    if (key < n.key) n = n.left;
    else {
      best = n;
      if (key === n.key) return n;
      n = n.right;
    }
  }
  return best;
}

/** The node with the least key > key. */
export function pmHigher(n: PNode | null, key: number): PNode | null {
  let best: PNode | null = null;
  while (n !== null) {
    if (key < n.key) {
      best = n;
      n = n.left;
    } else n = n.right;
  }
  return best;
}

/** The node with the greatest key < key. */
export function pmLower(n: PNode | null, key: number): PNode | null {
  let best: PNode | null = null;
  while (n !== null) {
    if (key > n.key) {
      best = n;
      n = n.right;
    } else n = n.left;
  }
  return best;
}

/** Every node in address order. */
export function pmToArray(n: PNode | null, out: PNode[] = []): PNode[] {
  const stack: PNode[] = [];
  let cur = n;
  while (cur !== null || stack.length > 0) {
    while (cur !== null) {
      stack.push(cur);
      cur = cur.left;
    }
    cur = stack.pop()!;
    out.push(cur);
    cur = cur.right;
  }
  return out;
}

export function pmSize(n: PNode | null): number {
  return n === null ? 0 : 1 + pmSize(n.left) + pmSize(n.right);
}
