/**
 * Incremental merging's execution tree (paper 000 §4; src/engine/merging/quantified/exec-tree.ts)
 * on small trees built by hand, with snapshots as strings "location:count" (two snapshots are
 * compatible when equal). The expected trees, letters and partitions are derived by hand from
 * the digest's Example 4 (T2: `while (count < n) { if (s[count] != 'a' && s[count] != 'b')
 * break; count++; }`).
 */
import { describe, expect, test } from '@jest/globals';
import { builder as b, ExprArray, freshBoundVar, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { ExecTree, type TreeNode } from '../../../../src/engine/merging/quantified/exec-tree.js';
import { partitionWords, shapeHash } from '../../../../src/engine/merging/quantified/patterns.js';
import { synthesize } from '../../../../src/engine/merging/quantified/synthesis.js';

const c8 = (v: number): Expr => b.constant(v, 8);
const nArr = new ExprArray('n', 1);
const sArr = new ExprArray('s', 2);
const n = b.read(new UpdateList(nArr), b.constant(0, 32));
const s = (i: number): Expr => b.read(new UpdateList(sArr), b.constant(i, 32));
/** The loop's letters at iteration i: G = i < n, R = ¬(i < n), A = s[i] = 'a', B = s[i] = 'b'. */
const G = (i: number): Expr => b.ult(c8(i), n);
const R = (i: number): Expr => b.not(G(i));
const A = (i: number): Expr => b.eq(c8(97), s(i));
const B = (i: number): Expr => b.eq(c8(98), s(i));

type Node = TreeNode<string>;
const words = (t: ExecTree<string>, leaves: Node[]): Expr[][] => leaves.map((l) => ExecTree.letters(t.root, l));

describe('ExecTree: Example 4 by hand', () => {
  test('the first iteration: s[0] = a and s[0] = b merge under n > 0; the ¬a node joins into its ¬b child', () => {
    const t = new ExecTree<string>();
    const r0 = t.addChild(t.root, [R(0)], 'exit:0', 'exit');
    const g0 = t.addChild(t.root, [G(0)], 'body:0', 'body');
    const a0 = t.addChild(g0, [A(0)], 'inc:1', 'inc');
    const na0 = t.addChild(g0, [b.not(A(0))], 'lhs:0', 'lhs');
    const b0 = t.addChild(na0, [B(0)], 'inc:1', 'inc');
    const nb0 = t.addChild(na0, [b.not(B(0))], 'brk:0', 'brk');
    // the highest compatible node of b0 is a0 (lca g0 is a0's parent)
    expect(t.partner(b0, (x) => x === 'inc:1')).toBe(a0);
    // nothing else agrees with the break leaf; r0 and g0 stand elsewhere
    expect(t.partner(nb0, (x) => x === 'brk:0')).toBeNull();
    const m = t.merge(b0, a0, 'inc:1');
    expect(m.lca).toBe(g0);
    // the older node's path first: s[0] = a ∨ (¬ s[0] = a ∧ s[0] = b)
    expect(m.letter).toBe(b.or(A(0), b.and(b.not(A(0)), B(0))));
    expect(m.joins).toBe(1);
    expect(new Set(m.removed)).toEqual(new Set([a0, b0, na0]));
    // g0 now has the ¬a ∧ ¬b leaf (one letter) and the merged node
    expect(g0.children).toEqual([nb0, m.node]);
    expect(nb0.parent).toBe(g0);
    expect(nb0.conds).toEqual([b.and(b.not(A(0)), b.not(B(0)))]);
    expect(m.node.conds).toEqual([m.letter]);
    expect(t.root.children).toEqual([r0, g0]);
    // the removed nodes are no candidates any more
    const again = t.addChild(m.node, [G(1)], 'inc:1', 'inc');
    expect(t.partner(again, (x) => x === 'inc:1')).toBeNull();
  });

  test('four iterations (n ≤ 3): 7 leaves in two regular partitions, the core one n > i ∧ (a ∨ b) step', () => {
    const t = new ExecTree<string>();
    const exits: Node[] = [];
    const breaks: Node[] = [];
    let head = t.root;
    for (let i = 0; ; i++) {
      exits.push(t.addChild(head, [R(i)], `exit:${i}`, 'exit'));
      if (i === 3) break; // n ≤ 3: the n > 3 side is infeasible (the one-sided ¬(3 < n) above)
      const g = t.addChild(head, [G(i)], `body:${i}`, 'body');
      const a = t.addChild(g, [A(i)], `inc:${i + 1}`, 'inc');
      const na = t.addChild(g, [b.not(A(i))], `lhs:${i}`, 'lhs');
      const bb = t.addChild(na, [B(i)], `inc:${i + 1}`, 'inc');
      const nb = t.addChild(na, [b.not(B(i))], `brk:${i}`, 'brk');
      breaks.push(nb);
      const p = t.partner(bb, (x) => x === `inc:${i + 1}`);
      expect(p).toBe(a);
      head = t.merge(bb, a, `inc:${i + 1}`).node;
    }
    // Fig. 2's shape: every leaf path is n > j ∧ M_j repeated, then an exit or a break
    const ex = words(t, exits);
    const br = words(t, breaks);
    const M = (i: number): Expr => b.or(A(i), b.and(b.not(A(i)), B(i)));
    expect(ex[2]).toEqual([G(0), M(0), G(1), M(1), R(2)]);
    expect(br[1]).toEqual([G(0), M(0), G(1), b.and(b.not(A(1)), b.not(B(1)))]);
    // the exits partition as (ε, G·M, R) with k = 0..3; the breaks as (ε, G·M, G·¬a∧¬b) with k = 0..2
    const pe = partitionWords(ex.map((w) => w.map(shapeHash)));
    expect(pe).toHaveLength(1);
    expect(pe[0]!.members.map((x) => x.k).sort()).toEqual([0, 1, 2, 3]);
    expect(pe[0]!.pattern.core).toHaveLength(2);
    const pb = partitionWords(br.map((w) => w.map(shapeHash)));
    expect(pb).toHaveLength(1);
    expect(pb[0]!.members.map((x) => x.k).sort()).toEqual([0, 1, 2]);
    expect(pb[0]!.pattern.suffix).toHaveLength(2);
    // φ2's second letter: M with s[x − 1] (one term at three places of the DAG)
    const x = freshBoundVar(32);
    const phi = synthesize([M(0), M(1)], [1n, 2n], x);
    expect(phi).not.toBeNull();
    const idx = b.add(b.constant(0xffffffff, 32), x);
    const sx = b.read(new UpdateList(sArr), idx);
    expect(phi).toBe(b.or(b.eq(c8(97), sx), b.and(b.not(b.eq(c8(97), sx)), b.eq(c8(98), sx))));
  });
});

describe('ExecTree: where merging is refused', () => {
  test('an ancestor never merges with its descendant (no endless merge sequence)', () => {
    const t = new ExecTree<string>();
    const top = t.addChild(t.root, [G(0)], 'head:0', 'head');
    const mid = t.addChild(top, [A(0)], 'x:0', 'x');
    const leaf = t.addChild(mid, [G(1)], 'head:0', 'head');
    expect(t.partner(leaf, () => true)).toBeNull();
    expect(() => t.merge(leaf, top, 'head:0')).toThrow(/may not merge/);
  });

  test('neither path from the lca is a single path: no merge (the tree would not stay binary)', () => {
    const t = new ExecTree<string>();
    const l = t.addChild(t.root, [G(0)], 'l', 'l');
    const r = t.addChild(t.root, [R(0)], 'r', 'r');
    t.addChild(l, [A(0)], 'p:1', 'p');
    t.addChild(l, [b.not(A(0))], 'q', 'q');
    t.addChild(r, [A(1)], 'q2', 'q2');
    const r2 = t.addChild(r, [b.not(A(1))], 'p:1', 'p');
    expect(ExecTree.mergeable(r2, l.children[0]!)).toBe(false);
    expect(t.partner(r2, () => true)).toBeNull();
  });

  test('the highest compatible node wins', () => {
    const t = new ExecTree<string>();
    const hi = t.addChild(t.root, [G(0)], 'p:1', 'p');
    const other = t.addChild(t.root, [R(0)], 'o', 'o');
    const deep1 = t.addChild(other, [A(0)], 'o2', 'o2');
    const lo = t.addChild(deep1, [B(1)], 'p:1', 'p');
    const leaf = t.addChild(deep1, [b.not(A(1))], 'p:1', 'p');
    // candidates hi (depth 1) and lo (depth 3), both mergeable and compatible: hi is higher
    expect(t.partner(leaf, (x) => x === 'p:1')).toBe(hi);
    // merging with lo instead (lca deep1, their parent): deep1 is left with the merged node
    // alone and joins into it, one letter
    const m = t.merge(leaf, lo, 'p:1');
    expect(m.lca).toBe(deep1);
    expect(m.joins).toBe(1);
    expect(other.children).toEqual([m.node]);
    expect(m.node.conds).toEqual([b.and(A(0), b.or(B(1), b.not(A(1))))]);
  });

  test('a node where a state still stands is not part of a single path', () => {
    const t = new ExecTree<string>();
    const p = t.addChild(t.root, [G(0)], 'p', 'p');
    const q = t.addChild(t.root, [R(0)], 'q', 'q');
    const leaf = t.addChild(p, [A(0)], 'x:1', 'x');
    const c = t.addChild(q, [A(1)], 'x:1', 'x');
    t.addChild(q, [b.not(A(1))], 'y', 'y');
    // root → c passes q (two children); root → leaf passes p (one child): single, unless occupied
    expect(t.partner(leaf, (x) => x === 'x:1')).toBe(c);
    expect(t.partner(leaf, (x) => x === 'x:1', (m) => m === p)).toBeNull();
  });

  test('join-point snapshots: ways whose nodes were made at different places meet where both pass later', () => {
    // the '-' way forks at the caller (node at 'body'), the letter ways at the callee's join
    // block ('join'); both pass the loop header ('head') later, without a new condition
    const t = new ExecTree<string>();
    const letter = t.addChild(t.root, [A(0)], 'join:1', 'join');
    const other = t.addChild(t.root, [b.not(A(0))], 'x', 'x');
    const dash = t.addChild(other, [B(0)], 'body:1', 'body');
    t.addChild(other, [b.not(B(0))], 'exit:0', 'exit');
    // made at different places: no partner at the dash node's own place
    expect(t.partner(dash, () => true)).toBeNull();
    expect(t.addSnapshot(letter, 'head', 'head:1')).toBeNull();
    expect(t.addSnapshot(dash, 'head', 'head:1')).toBeNull();
    // the later snapshot at a place replaces the earlier one (returned, to be released)
    expect(t.addSnapshot(dash, 'head', 'head:1')).toBe('head:1');
    expect(t.partner(dash, (x) => x === 'head:1', () => false, 'head')).toBe(letter);
    const m = t.merge(dash, letter, 'head:1', () => false, 'head');
    expect(m.lca).toBe(t.root);
    expect(m.node.key).toBe('head');
    expect(m.node.snapshot).toBe('head:1');
    // the ¬a node kept only its exit child, which took its letter
    expect(t.root.children.map((c) => c.conds)).toEqual([[b.and(b.not(A(0)), b.not(B(0)))], [b.or(A(0), b.and(b.not(A(0)), B(0)))]]);
    // removed nodes are no longer candidates at any of their places
    const late = t.addChild(m.node, [G(1)], 'join:1', 'join');
    expect(t.partner(late, () => true)).toBeNull();
  });
});

describe('ExecTree.partner against its definition', () => {
  test('random trees: the first candidate by (depth, age) that is mergeable, not an ancestor, and compatible', () => {
    let seed = 12345;
    const rnd = (m: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % m;
    };
    let checked = 0;
    for (let round = 0; round < 200; round++) {
      const t = new ExecTree<string>();
      const all: Node[] = [t.root];
      for (let i = 0; i < 2 + rnd(25); i++) {
        const p = all[rnd(all.length)]!;
        all.push(t.addChild(p, [G(i % 4)], `v${rnd(3)}`, `k${rnd(2)}`));
      }
      const busy = new Set(all.filter(() => rnd(5) === 0));
      const occupied = (x: Node): boolean => busy.has(x);
      // partners before and after merges (a merge moves nodes up: memoised depths go stale)
      for (let step = 0; step < 3; step++) {
        let pair: [Node, Node] | null = null;
        for (const n1 of all.slice(1)) {
          const ok = (x: string): boolean => x !== `v${n1.seq % 3}`;
          // the definition: every node with a snapshot at n1's key, ordered, filtered by mergeable
          const expected =
            all
              .filter((c) => c !== n1 && c.snaps.has(n1.key))
              .sort((x, y) => x.depth - y.depth || x.seq - y.seq)
              .find((c) => ExecTree.mergeable(n1, c, occupied) && ok(c.snaps.get(n1.key)!)) ?? null;
          expect(t.partner(n1, ok, occupied)).toBe(expected);
          if (expected !== null && pair === null && !busy.has(n1) && !busy.has(expected)) pair = [n1, expected];
          checked++;
        }
        if (pair === null) break;
        const m = t.merge(pair[0], pair[1], 'v0', occupied);
        const gone = new Set(m.removed);
        all.splice(0, all.length, ...all.filter((x) => !gone.has(x)), m.node);
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
