/**
 * Incremental state merging in a quantified merge region (paper 000, §4;
 * --use-incremental-merging). Each region keeps its execution tree (exec-tree.ts): after a
 * step, a state of the region that recorded new branch conditions gets a new leaf holding a
 * snapshot of it; the leaf then merges with the highest node whose snapshot stands at the same
 * place with the same live store (live registers, every memory byte, the console). The merged
 * state is the arriving state itself with the path condition `root ∧ tpc(lca) ∧ (tpc̄(lca, n1) ∨
 * tpc̄(lca, n2))` (its values need no ite: the live ones are equal); the states in the removed
 * subtrees, running or paused at an exit, end quietly. So a loop whose body branches several
 * ways into the same state (`c == 'a' || c == 'b'`) keeps a tree linear in its iterations, and
 * the pattern merge at the region's release sees one core per iteration.
 *
 * A state also adds a snapshot to its node at each join point it reaches (a block with two
 * predecessors or more, the loop's header among them) and looks for a partner there: the
 * ways through a body that branch at different depths (`(c >= 'a' && c <= 'z') || c == '-'`
 * decided in a callee, the last way forking only at the caller's branch on the result) meet
 * only after their nodes were made, at the join block or the loop's header.
 */
import type { Executor } from '../../executor.js';
import type { ExecutionState } from '../../state.js';
import { StateStatus } from '../../state.js';
import { Termination } from '../../errors.js';
import type { MergeGroup } from '../manual.js';
import { liveRegisters, mergeBlocker, mergeInto, sameVal } from '../core.js';
import { ExecTree, type TreeNode } from './exec-tree.js';
import { functionCfg } from '../location.js';
import type { QuantifiedCounters } from './merge.js';

type Node = TreeNode<ExecutionState>;

/** The tree of each region with incremental merging (kept beside the region's MergeGroup). */
const trees = new WeakMap<MergeGroup, ExecTree<ExecutionState>>();
/** New leaves in a row that found no partner, per region (--incremental-merge-give-up). */
const misses = new WeakMap<MergeGroup, number>();
/** Tree nodes made per region (--incremental-merge-max-nodes). */
const made = new WeakMap<MergeGroup, number>();

/** Where a node's state stands: frame depth, function and pc. */
function keyOf(st: ExecutionState): string {
  return `${st.stack.length}:${st.top.kf.name}:${st.pc}`;
}

/** Whether st stands at the entry of a block with several predecessors in its function. */
function atJoinPoint(st: ExecutionState): boolean {
  const kf = st.top.kf;
  const ki = kf.insts[st.pc];
  if (ki === undefined) return false;
  const b = ki.inst.parent.index;
  return kf.blockPc[b] === st.pc && functionCfg(kf).pred[b]!.length >= 2;
}

/** Whether b's state equals a's on everything that may still be read (so no ite is needed). */
export function sameLiveStore(a: ExecutionState, b: ExecutionState): boolean {
  if (mergeBlocker(a, b) !== null || a.console !== b.console) return false;
  for (let i = 0; i < a.stack.length; i++) {
    const fa = a.stack[i]!;
    const fb = b.stack[i]!;
    if (fa === fb) continue;
    const live = liveRegisters(a, i);
    for (let r = 0; r < fa.regs.length; r++) {
      const x = fa.regs[r];
      const y = fb.regs[r];
      if (x === y || !live(r)) continue;
      if (x === undefined || y === undefined || !sameVal(x, y)) return false;
    }
  }
  const ma = a.memory.bindings();
  const mb = b.memory.bindings();
  for (let k = 0; k < ma.length; k++) {
    const x = ma[k]!.os;
    const y = mb[k]!.os;
    if (x === y) continue;
    if (x === null || y === null) return false;
    for (let i = 0; i < x.size; i++) {
      const same = x.sharedSpan(y, i); // pages both copies share
      if (same > 0) i += same - 1;
      else if (x.read8(i) !== y.read8(i)) return false;
    }
  }
  return true;
}

export class IncrementalMerging {
  constructor(
    private readonly ex: Executor,
    /** The region's counters: incrementalNodes, incrementalMerges, incrementalJoins, incrementalDiscarded. */
    private readonly counters: QuantifiedCounters,
  ) {}

  /** A region opens: its tree starts at the opening state. */
  open(g: MergeGroup, st: ExecutionState): void {
    const t = new ExecTree<ExecutionState>();
    trees.set(g, t);
    st.regionNode = t.root;
  }

  /**
   * After a step: the region's states that recorded conditions since their node get a leaf each;
   * then each new leaf merges with its partner when it has one.
   */
  arrive(g: MergeGroup, moved: readonly ExecutionState[]): void {
    const t = trees.get(g);
    if (t === undefined) return;
    const fresh: { n: Node; key: string; st: ExecutionState }[] = [];
    for (const st of moved) {
      const node = st.regionNode as Node | null;
      if (st.status !== StateStatus.Running || node === null || st.trace === null) continue;
      if (!ExecTree.isAncestor(t.root, node)) throw new Error(`incremental merge: state ${st.id} stands at a node outside its region's tree`);
      const have = ExecTree.letters(t.root, node).length;
      const key = keyOf(st);
      if (st.trace.length <= have) {
        // no new condition: at a join point, the node gets a snapshot there (and may merge)
        if (node === t.root || node.children.length > 0 || !atJoinPoint(st)) continue;
        t.addSnapshot(node, key, st.snapshot())?.dropSnapshot();
        this.counters.incrementalSnapshots++;
        fresh.push({ n: node, key, st });
        continue;
      }
      const leaf = t.addChild(node, st.trace.slice(have), st.snapshot(), key);
      st.regionNode = leaf;
      this.counters.incrementalNodes++;
      made.set(g, (made.get(g) ?? 0) + 1);
      fresh.push({ n: leaf, key, st });
    }
    let missed = misses.get(g) ?? 0;
    for (const { n: leaf, key, st } of fresh) {
      let n = leaf;
      // a merged node may merge again, higher up (st stands at the merged node)
      for (;;) {
        if (!this.standsAt(g, st, n)) break;
        const next = this.mergeOnce(g, t, n, st, key);
        if (next === null) break;
        n = next;
      }
      if (n !== leaf) missed = 0;
      else if (this.standsAt(g, st, n)) missed++;
    }
    misses.set(g, missed);
    const { incrementalGiveUp: giveUp, incrementalMaxNodes: maxNodes } = this.ex.opts;
    if ((giveUp > 0 && missed >= giveUp) || (maxNodes > 0 && (made.get(g) ?? 0) >= maxNodes)) this.giveUp(g);
  }

  /**
   * The region's leaves keep finding no partner (no two states agree on the live store), or its
   * tree grew past --incremental-merge-max-nodes (merges that do not keep it small): the tree goes, and with it the partner searches, the snapshots and the breadth-first order
   * (the searcher moves a state whose regionNode is null back to the base searcher). The
   * states keep their traces: the region's exits still merge by pattern.
   */
  private giveUp(g: MergeGroup): void {
    this.close(g);
    for (const s of g.open) s.regionNode = null;
    misses.delete(g);
    made.delete(g);
    this.counters.incrementalGaveUp++;
  }

  /**
   * st, a running state of the region, stands at leaf n (it did not end in an earlier merge of
   * this step). Was a scan of the region's states for one standing at n, per new leaf:
   * quadratic when incremental merging's breadth-first order holds 10 000 states in a region.
   */
  private standsAt(g: MergeGroup, st: ExecutionState, n: Node): boolean {
    return n.parent !== null && st.regionNode === n && st.status === StateStatus.Running && g.open.has(st);
  }

  /** Merge leaf n1 (st's node) with its partner; the new node, or null when it has none. */
  private mergeOnce(g: MergeGroup, t: ExecTree<ExecutionState>, n1: Node, st: ExecutionState, key: string): Node | null {
    let occupiedSet: Set<object | null> | null = null;
    const occupied = (n: Node): boolean => {
      occupiedSet ??= this.occupiedNodes(g);
      return occupiedSet.has(n);
    };
    const n2 = t.partner(n1, (snap) => sameLiveStore(st, snap), occupied, key);
    if (n2 === null) return null;
    const ex = this.ex;
    // st stands for both paths now; its values are n2's on everything live
    mergeInto(ex, st, n2.snaps.get(key)!, ex.mergeCounters, ex.opts.mergeWitnessTests ? ex.witnessEvents : undefined);
    const m = t.merge(n1, n2, null, occupied, key);
    const letters = ExecTree.letters(t.root, m.node);
    const pc = g.quantified!.root.fork();
    for (const e of letters) if (!pc.add(e)) throw new Error('incremental merge: the merged path condition is infeasible');
    st.constraints = pc;
    st.trace = letters;
    st.regionNode = m.node;
    t.addSnapshot(m.node, key, st.snapshot());
    // the states of the removed subtrees end: their paths are the merged state's now
    const gone = new Set<object>(m.removed);
    const victims: ExecutionState[] = [];
    for (const s of g.open) if (s !== st && s.regionNode !== null && gone.has(s.regionNode)) victims.push(s);
    for (const list of g.closed.values()) for (const s of list) if (s.status === StateStatus.Running && s.regionNode !== null && gone.has(s.regionNode)) victims.push(s);
    for (const s of victims) {
      s.regionNode = null;
      ex.terminateSilently(s, Termination.Merge);
    }
    for (const list of g.closed.values()) {
      const keep = list.filter((s) => s.status === StateStatus.Running);
      list.length = 0;
      list.push(...keep);
    }
    for (const n of m.removed) for (const sn of n.snaps.values()) sn.dropSnapshot();
    // a join made one letter of several: the traces below it follow the tree again
    if (m.joins > 0) this.retrace(g, t);
    this.counters.incrementalMerges++;
    this.counters.incrementalJoins += m.joins;
    this.counters.incrementalDiscarded += victims.length;
    return m.node;
  }

  /** Each state's trace from its node's path (all states of the region stand at their nodes after arrive's first pass). */
  private retrace(g: MergeGroup, t: ExecTree<ExecutionState>): void {
    const fix = (s: ExecutionState): void => {
      if (s.status === StateStatus.Running && s.regionNode !== null) s.trace = ExecTree.letters(t.root, s.regionNode as Node);
    };
    for (const s of g.open) fix(s);
    for (const list of g.closed.values()) list.forEach(fix);
  }

  /** Nodes where a state of the region stands (running, or paused at an exit). */
  private occupiedNodes(g: MergeGroup): Set<object | null> {
    const out = new Set<object | null>();
    for (const s of g.open) out.add(s.regionNode);
    for (const list of g.closed.values()) for (const s of list) out.add(s.regionNode);
    return out;
  }

  /** The leaves' traces are final: the tree and its snapshots go (the region releases). */
  close(g: MergeGroup): void {
    const t = trees.get(g);
    if (t === undefined) return;
    trees.delete(g);
    for (const n of t.nodes()) for (const sn of n.snaps.values()) sn.dropSnapshot();
    for (const list of g.closed.values()) for (const s of list) s.regionNode = null;
  }
}
