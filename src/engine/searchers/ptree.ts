/**
 * The process tree (KLEE's PTree): a binary tree whose leaves are the live states and whose
 * inner nodes are the forks that produced them. The executor owns it and keeps it current;
 * the random-path searcher reads it.
 *
 * Executor protocol (KLEE's order, Executor::fork / Executor::updateStates):
 * 1. `new PTree(initialState)` before the searcher is created;
 * 2. during a step, on every fork: `fork(current, other, current)` — KLEE attaches the new
 *    state on the left and the current state (which continues) on the right;
 * 3. after the step: `searcher.update(current, added, removed)`;
 * 4. then `remove(state)` for each terminated state.
 * (Steps 3 and 4 may also come in the other order: the searchers here accept both.)
 *
 * A node has at most two children; an inner node whose other child was pruned keeps its one
 * child (KLEE does not compress the tree, and random-path walks through such nodes without
 * drawing a random bit, so a state whose siblings ended becomes more likely).
 *
 * Membership of searchers: every random-path searcher sharing the tree gets one bit
 * (KLEE's PTreeNodePtr tag bits). A leaf has a searcher's bit when its state is in that
 * searcher; an inner node has the OR of its children's bits. So a searcher walks only into
 * subtrees holding its states, even when a decorator (iterative deepening, merging) has taken
 * some states out of it while they stay alive in the tree.
 */
import type { Rng } from '../../util/rng.js';
import type { PTreeNode, SearchableState } from './searcher.js';

/** The most random-path searchers one tree can serve (bits of a 32-bit mask). */
export const MAX_PTREE_SEARCHERS = 31;

class Node implements PTreeNode {
  parent: Node | null;
  left: Node | null = null;
  right: Node | null = null;
  state: SearchableState | null;
  /** Searcher bits: at a leaf, the searchers holding its state; inside, the OR of the children. */
  mask = 0;

  constructor(
    readonly owner: object,
    parent: Node | null,
    state: SearchableState,
  ) {
    this.parent = parent;
    this.state = state;
  }
}

function childMask(n: Node): number {
  return (n.left === null ? 0 : n.left.mask) | (n.right === null ? 0 : n.right.mask);
}

export class PTree<S extends SearchableState> {
  private rootNode: Node | null;
  private leaves = 0;
  private bitsUsed = 0;

  constructor(root: S) {
    this.rootNode = this.leaf(null, root);
    this.leaves = 1;
  }

  /** The root; null once every state was removed. */
  get root(): PTreeNode | null {
    return this.rootNode;
  }

  /** The number of leaves (live states). */
  get size(): number {
    return this.leaves;
  }

  /** Whether `state` is a leaf of this tree. */
  contains(state: S): boolean {
    return this.liveNode(state) !== null;
  }

  /**
   * `parent`'s leaf becomes an inner node with `left` and `right` as its two leaves. `parent`
   * may be one of them (the state continuing after the fork; its searcher bits stay with it),
   * or neither (then it leaves the tree: `parent.ptreeNode` becomes null). A child other than
   * `parent` must not already be in the tree.
   */
  fork(parent: S, left: S, right: S): void {
    const node = this.liveNode(parent);
    if (node === null) throw new Error(`PTree.fork: state ${parent.id} is not a leaf of this process tree`);
    if (left === right) throw new Error(`PTree.fork: both children are state ${left.id}`);
    for (const child of [left, right]) {
      if (child !== parent && this.liveNode(child) !== null) {
        throw new Error(`PTree.fork: state ${child.id} is already in the process tree`);
      }
    }
    const inherited = node.mask;
    node.state = null;
    node.left = this.leaf(node, left);
    node.right = this.leaf(node, right);
    if (left === parent) node.left.mask = inherited;
    else if (right === parent) node.right.mask = inherited;
    else {
      parent.ptreeNode = null;
      this.recomputeFrom(node);
    }
    this.leaves += 1;
  }

  /**
   * Adds `state` as a new tree of its own beside the existing one (parallel exploration: a job
   * taken over from another worker has no fork in this tree): it becomes the root when the
   * tree is empty, else the root's sibling under a new root.
   */
  plant(state: S): void {
    if (this.liveNode(state) !== null) throw new Error(`PTree.plant: state ${state.id} is already in the process tree`);
    const old = this.rootNode;
    if (old === null) {
      this.rootNode = this.leaf(null, state);
    } else {
      const root = new Node(this, null, state);
      root.state = null;
      old.parent = root;
      root.left = old;
      root.right = this.leaf(root, state);
      root.mask = old.mask;
      this.rootNode = root;
    }
    this.leaves += 1;
  }

  /** Remove `state`'s leaf, then every inner node left without children (KLEE's PTree::remove). */
  remove(state: S): void {
    let n = this.liveNode(state);
    if (n === null) throw new Error(`PTree.remove: state ${state.id} is not a leaf of this process tree`);
    state.ptreeNode = null;
    n.state = null;
    this.leaves -= 1;
    for (;;) {
      const p: Node | null = n.parent;
      n.parent = null;
      if (p === null) {
        this.rootNode = null;
        return;
      }
      if (p.left === n) p.left = null;
      else p.right = null;
      if (p.left !== null || p.right !== null) {
        this.recomputeFrom(p);
        return;
      }
      n = p;
    }
  }

  // ---- for searchers ----

  /** A fresh membership bit for one random-path searcher. */
  allocateSearcherBit(): number {
    if (this.bitsUsed >= MAX_PTREE_SEARCHERS) {
      throw new Error(`PTree: at most ${MAX_PTREE_SEARCHERS} random-path searchers can share a process tree`);
    }
    return 1 << this.bitsUsed++;
  }

  /** Record that `state` is in the searcher owning `bit`. */
  mark(state: S, bit: number): void {
    let n = this.liveNode(state);
    if (n === null) {
      throw new Error(`random-path: state ${state.id} is not in the process tree (PTree.fork must come before Searcher.update)`);
    }
    while (n !== null && (n.mask & bit) === 0) {
      n.mask |= bit;
      n = n.parent;
    }
  }

  /** Record that `state` left the searcher owning `bit` (a no-op if it already left the tree). */
  unmark(state: S, bit: number): void {
    const n = this.liveNode(state);
    if (n === null || (n.mask & bit) === 0) return;
    n.mask &= ~bit;
    if (n.parent !== null) this.recomputeFrom(n.parent);
  }

  /** Whether some leaf holds `bit`. */
  hasMarked(bit: number): boolean {
    return this.rootNode !== null && (this.rootNode.mask & bit) !== 0;
  }

  /**
   * KLEE's RandomPathSearcher::selectState: from the root, at each node with both children
   * holding `bit` go left or right with probability 1/2 (one bit of a 32-bit draw per choice,
   * most significant first; a set bit goes left), else into the one child holding `bit`.
   */
  randomLeaf(bit: number, rng: Rng): S {
    let n = this.rootNode;
    if (n === null || (n.mask & bit) === 0) throw new Error('random-path: selectState() on an empty searcher');
    let flips = 0;
    let bits = 0;
    while (n.state === null) {
      const l: Node | null = n.left !== null && (n.left.mask & bit) !== 0 ? n.left : null;
      const r: Node | null = n.right !== null && (n.right.mask & bit) !== 0 ? n.right : null;
      if (l === null) {
        if (r === null) throw new Error('PTree: an inner node holds a searcher bit that none of its children holds');
        n = r;
      } else if (r === null) {
        n = l;
      } else {
        if (bits === 0) {
          flips = rng.nextU32();
          bits = 32;
        }
        bits -= 1;
        n = ((flips >>> bits) & 1) !== 0 ? l : r;
      }
    }
    return n.state as S;
  }

  /**
   * Check the tree's invariants (tests, debugging); throws on the first violation. Leaves hold
   * a state pointing back at them, inner nodes hold no state and one or two children, parent
   * links agree, inner masks are the OR of the children's, the leaf count is right.
   */
  validate(): void {
    if (this.rootNode === null) {
      if (this.leaves !== 0) throw new Error(`PTree: empty but ${this.leaves} leaves counted`);
      return;
    }
    if (this.rootNode.parent !== null) throw new Error('PTree: the root has a parent');
    let leaves = 0;
    const stack: Node[] = [this.rootNode];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.owner !== this) throw new Error('PTree: a node of another tree');
      if (n.left === null && n.right === null) {
        if (n.state === null) throw new Error('PTree: a leaf without a state');
        if (n.state.ptreeNode !== n) throw new Error(`PTree: state ${n.state.id}.ptreeNode does not point at its leaf`);
        leaves += 1;
        continue;
      }
      if (n.state !== null) throw new Error(`PTree: inner node holds state ${n.state.id}`);
      if (n.mask !== childMask(n)) throw new Error('PTree: an inner mask is not the OR of its children');
      for (const c of [n.left, n.right]) {
        if (c === null) continue;
        if (c.parent !== n) throw new Error('PTree: a child whose parent link is wrong');
        stack.push(c);
      }
    }
    if (leaves !== this.leaves) throw new Error(`PTree: ${leaves} leaves but ${this.leaves} counted`);
  }

  /** The live states, left to right. */
  states(): S[] {
    const out: S[] = [];
    const stack: Node[] = this.rootNode === null ? [] : [this.rootNode];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.state !== null) out.push(n.state as S);
      if (n.right !== null) stack.push(n.right);
      if (n.left !== null) stack.push(n.left);
    }
    return out;
  }

  private leaf(parent: Node | null, state: S): Node {
    const n = new Node(this, parent, state);
    state.ptreeNode = n;
    return n;
  }

  /** `state`'s leaf in this tree, or null. */
  private liveNode(state: S): Node | null {
    const n = state.ptreeNode;
    return n instanceof Node && n.owner === this && n.state === state ? n : null;
  }

  /** Re-establish "inner mask = OR of children" from inner node `n` up to the root. */
  private recomputeFrom(n: Node | null): void {
    while (n !== null) {
      const m = childMask(n);
      if (m === n.mask) return;
      n.mask = m;
      n = n.parent;
    }
  }
}
