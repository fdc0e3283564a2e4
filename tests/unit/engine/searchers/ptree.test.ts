import { PTree } from '../../../../src/engine/searchers/ptree.js';
import type { PTreeNode } from '../../../../src/engine/searchers/searcher.js';
import { FakeState, states } from './fake-state.js';

function depthOf(n: PTreeNode | null): number {
  let d = 0;
  for (let p = n?.parent ?? null; p !== null; p = p.parent) d++;
  return d;
}

describe('PTree', () => {
  test('the root is a leaf holding the initial state', () => {
    const [s0] = states(1);
    const t = new PTree(s0!);
    expect(t.root).not.toBeNull();
    expect(t.root!.state).toBe(s0);
    expect(s0!.ptreeNode).toBe(t.root);
    expect(t.size).toBe(1);
    expect(t.contains(s0!)).toBe(true);
    t.validate();
  });

  test('fork: the leaf becomes an inner node with two leaves; the parent continues as one child', () => {
    const [s0, s1, s2] = states(3);
    const t = new PTree(s0!);
    const root = t.root!;
    t.fork(s0!, s1!, s0!);
    t.validate();
    expect(root.state).toBeNull();
    expect(root.left!.state).toBe(s1);
    expect(root.right!.state).toBe(s0);
    expect(s0!.ptreeNode).toBe(root.right);
    expect(s1!.ptreeNode).toBe(root.left);
    expect(t.size).toBe(2);
    t.fork(s1!, s1!, s2!); // parent as the left child
    t.validate();
    expect(depthOf(s1!.ptreeNode)).toBe(2);
    expect(depthOf(s2!.ptreeNode)).toBe(2);
    expect(t.states()).toEqual([s1, s2, s0]);
  });

  test('plant adds a tree of its own: the root of an empty tree, else a sibling of the old root (parallel jobs)', () => {
    const [s0, s1, s2, s3] = states(4);
    const t = new PTree(s0!);
    const bit = t.allocateSearcherBit();
    t.mark(s0!, bit);
    t.remove(s0!);
    expect(t.root).toBeNull();
    t.plant(s1!);
    t.validate();
    expect(t.root!.state).toBe(s1);
    t.fork(s1!, s2!, s1!);
    t.mark(s1!, bit);
    t.plant(s3!);
    t.validate();
    expect(t.size).toBe(3);
    expect(t.root!.right!.state).toBe(s3);
    expect(depthOf(s3!.ptreeNode)).toBe(1);
    expect(depthOf(s1!.ptreeNode)).toBe(2);
    // the old tree's searcher bits stay visible from the new root
    expect(t.hasMarked(bit)).toBe(true);
    t.mark(s3!, bit);
    t.remove(s1!);
    t.remove(s2!);
    t.validate();
    expect(t.states()).toEqual([s3]);
    expect(() => t.plant(s3!)).toThrow(/already in the process tree/);
  });

  test('fork into two new states takes the parent out of the tree', () => {
    const [s0, s1, s2] = states(3);
    const t = new PTree(s0!);
    t.fork(s0!, s1!, s2!);
    t.validate();
    expect(s0!.ptreeNode).toBeNull();
    expect(t.contains(s0!)).toBe(false);
    expect(t.states()).toEqual([s1, s2]);
  });

  test('remove prunes inner nodes left without children; removing the last leaf empties the tree', () => {
    const [s0, s1, s2, s3] = states(4);
    const t = new PTree(s0!);
    t.fork(s0!, s1!, s0!);
    t.fork(s1!, s2!, s1!);
    t.fork(s2!, s3!, s2!);
    t.validate();
    const root = t.root!;
    // Remove s3 and s2: their inner node loses both children and is pruned.
    t.remove(s3!);
    t.validate();
    t.remove(s2!);
    t.validate();
    expect(s2!.ptreeNode).toBeNull();
    // The inner node above s1 has one child left (s1 itself): it stays (KLEE does not compress).
    expect(depthOf(s1!.ptreeNode)).toBe(2);
    expect(root.left!.left).toBeNull();
    expect(root.left!.right!.state).toBe(s1);
    t.remove(s1!);
    t.validate();
    expect(root.left).toBeNull();
    expect(root.right!.state).toBe(s0);
    t.remove(s0!);
    t.validate();
    expect(t.root).toBeNull();
    expect(t.size).toBe(0);
    expect(t.states()).toEqual([]);
  });

  test('a random sequence of forks and removals keeps every invariant', () => {
    let next = 1;
    const s0 = new FakeState(0);
    const t = new PTree(s0);
    const live: FakeState[] = [s0];
    let seed = 12345;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2000 && live.length > 0; i++) {
      const s = live[rand(live.length)]!;
      if (rand(3) < 2 && live.length < 200) {
        const o = new FakeState(next++);
        if (rand(2) === 0) t.fork(s, o, s);
        else t.fork(s, s, o);
        live.push(o);
      } else {
        t.remove(s);
        live.splice(live.indexOf(s), 1);
      }
      t.validate();
      expect(t.size).toBe(live.length);
    }
    expect(new Set(t.states())).toEqual(new Set(live));
  });

  test('misuse throws', () => {
    const [s0, s1, s2, x] = states(4);
    const t = new PTree(s0!);
    t.fork(s0!, s1!, s0!);
    expect(() => t.fork(x!, s2!, x!)).toThrow(/not a leaf/);
    expect(() => t.fork(s0!, s1!, s0!)).toThrow(/already in the process tree/);
    expect(() => t.fork(s0!, s0!, s0!)).toThrow(/both children/);
    expect(() => t.remove(x!)).toThrow(/not a leaf/);
    t.remove(s1!);
    expect(() => t.remove(s1!)).toThrow(/not a leaf/);
    // A state of another tree is not a leaf of this one.
    const y = new FakeState(9);
    new PTree(y);
    expect(t.contains(y)).toBe(false);
    expect(() => t.remove(y)).toThrow(/not a leaf/);
  });

  test('a forked state may carry a copy of its parent\'s node pointer (as KLEE\'s branch() copies it)', () => {
    const [s0, s1] = states(2);
    const t = new PTree(s0!);
    s1!.ptreeNode = s0!.ptreeNode;
    t.fork(s0!, s1!, s0!);
    t.validate();
    expect(t.contains(s1!)).toBe(true);
  });
});
