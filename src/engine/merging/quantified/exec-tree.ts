/**
 * A merge region's execution tree for incremental state merging (paper 000, §4). Each node
 * keeps the branch conditions on its incoming edge (one letter per recorded condition, as the
 * paths' traces) and a snapshot of the state that created it; the states themselves live in
 * the executor. When a new leaf n1 appears, the highest node n2 whose snapshot agrees with it
 * (same location, same live store: the caller's `compatible`) replaces both under their lowest
 * common ancestor by one node whose letter is `tpc̄(lca, n1) ∨ tpc̄(lca, n2)`, provided
 *   - n2 is not an ancestor of n1 (no merge sequence without end), and
 *   - the path from the lca to n1 or to n2 is a single path (so the new node keeps the tree
 *     binary; the paper's "lca is the parent of n1 or n2" once single-child chains are joined).
 * The join step then removes each node left with one child, whose letter becomes the conjunction
 * of both (one letter, so that it hashes apart from its new siblings). Pure structure, generic over the snapshot type: unit-tested on its own.
 *
 * A node holds one snapshot per place (key) its state passed while standing at it: the one it
 * was made with, and later ones the caller adds (addSnapshot: at join points, where paths
 * that branched apart meet again; the artifact's nodes keep a list of snapshots too). A leaf
 * looks for a partner among the nodes with a snapshot at its state's current place.
 */
import { builder, TRUE, type Expr } from '../../../expr/index.js';

function conj(es: readonly Expr[]): Expr {
  return es.reduce((a, e) => builder.and(a, e), TRUE as Expr);
}

/** Whether a state stands at a node (such a node stays where it is). */
export type Occupied<S> = (n: TreeNode<S>) => boolean;

export class TreeNode<S> {
  readonly children: TreeNode<S>[] = [];
  /** Snapshots of the node's state by the place it stood (the latest at each place). */
  readonly snaps = new Map<string, S>();
  constructor(
    public parent: TreeNode<S> | null,
    /** Conditions on the edge from the parent (the root has none). */
    public conds: Expr[],
    /** Where the node was made (its first snapshot's place). */
    public key: string,
    /** Creation order: among equally high candidates the older one wins. */
    readonly seq: number,
  ) {}

  /** depth memoised while the tree's shape version stays `depthVersion` (ExecTree.depthOf). */
  depthMemo = 0;
  depthVersion = -1;

  /** The snapshot the node was made with (at `key`), or null. */
  get snapshot(): S | null {
    return this.snaps.get(this.key) ?? null;
  }

  get depth(): number {
    let d = 0;
    for (let n = this.parent; n !== null; n = n.parent) d++;
    return d;
  }
}

/** What a merge did: the new node, and every node it took out (their states end). */
export interface TreeMerge<S> {
  readonly node: TreeNode<S>;
  readonly lca: TreeNode<S>;
  readonly letter: Expr;
  readonly removed: readonly TreeNode<S>[];
  readonly joins: number;
}

export class ExecTree<S> {
  readonly root: TreeNode<S>;
  private seq = 0;
  /** Bumped by every merge (cuts and joins move nodes up): depths memoised before are stale. */
  private version = 0;
  /** Nodes with a snapshot, by key: the candidates for a partner. */
  private readonly byKey = new Map<string, Set<TreeNode<S>>>();

  constructor() {
    this.root = new TreeNode<S>(null, [], '', this.seq++);
  }

  /** A new leaf under parent. */
  addChild(parent: TreeNode<S>, conds: Expr[], snapshot: S | null, key: string): TreeNode<S> {
    const n = new TreeNode<S>(parent, conds, key, this.seq++);
    parent.children.push(n);
    if (snapshot !== null) this.addSnapshot(n, key, snapshot);
    return n;
  }

  /**
   * n's state stands at `key` (now a candidate partner there); returns the snapshot it had
   * there before, which the caller releases, or null.
   */
  addSnapshot(n: TreeNode<S>, key: string, snapshot: S): S | null {
    const old = n.snaps.get(key) ?? null;
    n.snaps.set(key, snapshot);
    let set = this.byKey.get(key);
    if (set === undefined) this.byKey.set(key, (set = new Set()));
    set.add(n);
    return old;
  }

  private unindex(n: TreeNode<S>): void {
    for (const k of n.snaps.keys()) this.byKey.get(k)?.delete(n);
  }

  /** Every node of the tree, parents before children. */
  nodes(): TreeNode<S>[] {
    const out: TreeNode<S>[] = [];
    const stack = [this.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
    return out;
  }

  /** n's depth, memoised per shape version (the partner search sorts every candidate by it). */
  private depthOf(n: TreeNode<S>): number {
    const chain: TreeNode<S>[] = [];
    let m: TreeNode<S> | null = n;
    while (m !== null && m.depthVersion !== this.version) {
      chain.push(m);
      m = m.parent;
    }
    let d = m === null ? -1 : m.depthMemo;
    for (let i = chain.length - 1; i >= 0; i--) {
      chain[i]!.depthMemo = ++d;
      chain[i]!.depthVersion = this.version;
    }
    return n.depthMemo;
  }

  /** Whether a is b or an ancestor of b. */
  static isAncestor<S>(a: TreeNode<S>, b: TreeNode<S>): boolean {
    for (let n: TreeNode<S> | null = b; n !== null; n = n.parent) if (n === a) return true;
    return false;
  }

  static lca<S>(a: TreeNode<S>, b: TreeNode<S>): TreeNode<S> {
    const seen = new Set<TreeNode<S>>();
    for (let n: TreeNode<S> | null = a; n !== null; n = n.parent) seen.add(n);
    for (let n: TreeNode<S> | null = b; n !== null; n = n.parent) if (seen.has(n)) return n;
    throw new Error('exec tree: nodes of different trees');
  }

  /** The letters from below `from` down to `to` (from an ancestor of to; the root: the whole path). */
  static letters<S>(from: TreeNode<S>, to: TreeNode<S>): Expr[] {
    const parts: Expr[][] = [];
    for (let n: TreeNode<S> | null = to; n !== null && n !== from; n = n.parent) parts.push(n.conds);
    const out: Expr[] = [];
    for (let i = parts.length - 1; i >= 0; i--) out.push(...parts[i]!);
    return out;
  }

  /** Every node strictly between lca and n has n's branch as its only child and no state of its own. */
  private static singlePath<S>(lca: TreeNode<S>, n: TreeNode<S>, occupied: Occupied<S>): boolean {
    for (let m = n.parent; m !== null && m !== lca; m = m.parent) if (m.children.length !== 1 || occupied(m)) return false;
    return true;
  }

  /** Whether n1 and n2 may merge by their places in the tree (not their states). */
  static mergeable<S>(n1: TreeNode<S>, n2: TreeNode<S>, occupied: Occupied<S> = () => false): boolean {
    if (ExecTree.isAncestor(n2, n1) || ExecTree.isAncestor(n1, n2)) return false;
    const lca = ExecTree.lca(n1, n2);
    return ExecTree.singlePath(lca, n1, occupied) || ExecTree.singlePath(lca, n2, occupied);
  }

  /**
   * The highest node (closest to the root, then the oldest) that may merge with the leaf n1,
   * whose state stands at `key`: a snapshot there, a mergeable place, and `compatible`
   * accepting that snapshot.
   */
  partner(n1: TreeNode<S>, compatible: (snapshot: S) => boolean, occupied: Occupied<S> = () => false, key = n1.key): TreeNode<S> | null {
    const set = this.byKey.get(key);
    if (set === undefined || set.size === 0 || (set.size === 1 && set.has(n1))) return null;
    const cands = [...set].filter((c) => c !== n1).map((c) => ({ c, d: this.depthOf(c) }));
    cands.sort((a, b) => a.d - b.d || a.c.seq - b.c.seq);
    // in that order, the first mergeable and compatible: n1's ancestors walked once, each
    // candidate's path only up to its lca with n1 (this scan was a third of PAT's CPU on
    // apr_strnatcmp: an lca, with its own set, per candidate)
    const up = new Map<TreeNode<S>, number>(); // n1's ancestors (n1 too), by distance from n1
    for (let m: TreeNode<S> | null = n1, i = 0; m !== null; m = m.parent, i++) up.set(m, i);
    // the distance to the highest ancestor of n1 a single path leads to (every node strictly
    // between single), found on first need (occupied() builds the region's state set)
    let topDist = -1;
    const n1Reach = (): number => {
      if (topDist >= 0) return topDist;
      let top: TreeNode<S> | null = n1.parent;
      while (top !== null && top.parent !== null && top.children.length === 1 && !occupied(top)) top = top.parent;
      return (topDist = top === null ? Infinity : up.get(top)!);
    };
    for (const { c } of cands) {
      if (up.has(c)) continue; // c is n1's ancestor
      let single = true;
      let lca: TreeNode<S> | null = c.parent;
      while (lca !== null && !up.has(lca)) {
        if (lca.children.length !== 1 || occupied(lca)) single = false;
        lca = lca.parent;
      }
      if (lca === null || lca === n1) continue; // another tree, or n1 is c's ancestor
      if ((single || up.get(lca)! <= n1Reach()) && compatible(c.snaps.get(key)!)) return c;
    }
    return null;
  }

  /**
   * Replace n1, n2 and their subtrees by one new node under their lca, whose letter is the
   * disjunction of their paths' conditions from the lca; then join the nodes left with one child.
   * `occupied(node)`: a state stands at the node (it stays, though it lost its children).
   */
  merge(n1: TreeNode<S>, n2: TreeNode<S>, snapshot: S | null, occupied: Occupied<S> = () => false, key = n1.key): TreeMerge<S> {
    if (!ExecTree.mergeable(n1, n2, occupied)) throw new Error('exec tree: the nodes may not merge');
    const lca = ExecTree.lca(n1, n2);
    this.version++;
    // the older node's path first, so that merges of every iteration build the same shape
    const [first, second] = n2.seq < n1.seq ? [n2, n1] : [n1, n2];
    const letter = builder.or(conj(ExecTree.letters(lca, first)), conj(ExecTree.letters(lca, second)));
    const removed: TreeNode<S>[] = [];
    const touched: TreeNode<S>[] = [];
    for (const n of [n1, n2]) {
      // cut n's branch off at the highest node whose only branch it is (below the lca)
      let top = n;
      while (top.parent !== lca && top.parent!.children.length === 1 && !occupied(top.parent!)) top = top.parent!;
      const parent = top.parent!;
      this.cut(top, removed);
      if (parent !== lca) touched.push(parent);
    }
    const node = this.addChild(lca, [letter], snapshot, key);
    let joins = 0;
    for (const p of touched) joins += this.join(p, lca, occupied, removed);
    // the lca itself may be left with the new node alone
    joins += this.join(lca, null, occupied, removed);
    return { node, lca, letter, removed, joins };
  }

  /** Take n and its subtree out of the tree (into `removed`). */
  private cut(n: TreeNode<S>, removed: TreeNode<S>[]): void {
    const p = n.parent!;
    p.children.splice(p.children.indexOf(n), 1);
    const stack = [n];
    while (stack.length > 0) {
      const m = stack.pop()!;
      removed.push(m);
      this.unindex(m);
      stack.push(...m.children);
    }
    n.parent = null;
  }

  /**
   * The join step at p, a node that lost children (below `stop`): left with none, it goes too
   * and its parent is looked at in turn; left with one, the child takes its letters and its place.
   */
  private join(p: TreeNode<S>, stop: TreeNode<S> | null, occupied: Occupied<S>, removed: TreeNode<S>[]): number {
    let n: TreeNode<S> = p;
    while (n !== stop && n.parent !== null && !occupied(n)) {
      const parent: TreeNode<S> = n.parent;
      if (n.children.length === 0) {
        this.cut(n, removed);
        n = parent;
        continue;
      }
      if (n.children.length !== 1) return 0;
      const c = n.children[0]!;
      // one letter: siblings' letters must hash apart, and `¬(c = 97)`, `¬(c = 98)` hash alike
      c.conds = [conj([...n.conds, ...c.conds])];
      c.parent = parent;
      parent.children.splice(parent.children.indexOf(n), 1, c);
      n.children.length = 0;
      this.unindex(n);
      n.parent = null;
      removed.push(n);
      return 1;
    }
    return 0;
  }
}
