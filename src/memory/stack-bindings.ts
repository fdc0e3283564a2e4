/**
 * The stack objects of an address space as a persistent stack: one immutable node per
 * binding, newest (highest address) on top, shared by every state forked from it. Binding a
 * local at a call is one node, freeing it at the return drops the top; the tree
 * (pmap.ts) copies and rebalances a path for each.
 *
 * Lookups by address go down from the top in O(log n) through jump pointers (Myers' random
 * access stack, "An applicative random-access stack", 1983): each node also points to a node
 * further down, chosen so that the jumps form a skew-binary hierarchy. Keys decrease
 * strictly going down.
 */
import type { MemoryObject } from './memory-object.js';
import type { ObjectState } from './object-state.js';
import { PNode } from './pmap.js';

export class SNode extends PNode {
  /** Nodes from the bottom, this one included. */
  readonly depth: number;
  /** The lowest node (the least key). */
  readonly bottom: SNode;

  constructor(
    mo: MemoryObject,
    os: ObjectState | null,
    readonly below: SNode | null,
    readonly jump: SNode | null,
  ) {
    super(mo.address, mo, os, null, null, 1);
    this.depth = below === null ? 1 : below.depth + 1;
    this.bottom = below === null ? this : below.bottom;
  }
}

/** The stack with mo bound to os pushed on top (mo.address must exceed below's key). */
export function sPush(below: SNode | null, mo: MemoryObject, os: ObjectState | null): SNode {
  // Myers' rule: jump over two equal-length jumps at once, else to the node below
  const j = below === null ? null : below.jump;
  const jj = j === null ? null : j.jump;
  return new SNode(mo, os, below, depth(below) - depth(j) === depth(j) - depth(jj) ? jj : below);
}

function depth(n: SNode | null): number {
  return n === null ? 0 : n.depth;
}

/**
 * The node with the greatest key ≤ address (null: none), and the node right above it in the
 * stack (null when the floor is the top).
 */
export function sFloor(top: SNode, address: number): { floor: SNode | null; above: SNode | null } {
  let n: SNode | null = top;
  let above: SNode | null = null;
  while (n !== null && n.key > address) {
    const j: SNode | null = n.jump;
    // every node between n and j has a key above j's, so above address too
    if (j !== null && j.key > address) n = j;
    else {
      above = n;
      n = n.below;
    }
  }
  return { floor: n, above };
}

/**
 * The stack with `target` (one of its nodes) rebound to `os` (null: freed) or removed
 * (undefined). The nodes above it are pushed again: O(their number).
 */
export function sReplace(top: SNode, target: SNode, os: ObjectState | null | undefined): SNode | null {
  const above: SNode[] = [];
  for (let n: SNode | null = top; n !== target; n = n.below) {
    if (n === null) throw new Error('stack bindings: the node is not in this stack');
    above.push(n);
  }
  let s = os === undefined ? target.below : sPush(target.below, target.mo, os);
  for (let i = above.length - 1; i >= 0; i--) s = sPush(s, above[i]!.mo, above[i]!.os);
  return s;
}

/** Every node, least key first. */
export function sToAscending(top: SNode): SNode[] {
  const out: SNode[] = [];
  for (let n: SNode | null = top; n !== null; n = n.below) out.push(n);
  return out.reverse();
}
