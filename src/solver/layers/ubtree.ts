/**
 * A map from sets of numbers to values with subset and superset search (KLEE's MapOfSets,
 * an unlimited-branching tree after Hoffmann & Koehler's UBTree). Each set is stored as its
 * sorted elements along a path of a trie, so
 *  - a subset of K is found by walking only edges labelled with elements of K;
 *  - a superset of K by walking all edges below the next needed element of K and taking
 *    the edge equal to it (sorted order prunes edges above it).
 */
class Node<V> {
  readonly children = new Map<number, Node<V>>();
  value: V | undefined = undefined;
  has = false;
}

/** Sorted, duplicate-free copy. */
export function sortedSet(xs: Iterable<number>): number[] {
  const a = [...new Set(xs)].sort((x, y) => x - y);
  return a;
}

export class SetMap<V> {
  private readonly root = new Node<V>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** `key` must be sorted and duplicate-free (see sortedSet). */
  set(key: readonly number[], value: V): void {
    let n = this.root;
    for (const k of key) {
      let c = n.children.get(k);
      if (c === undefined) n.children.set(k, (c = new Node<V>()));
      n = c;
    }
    if (!n.has) this.count++;
    n.has = true;
    n.value = value;
  }

  get(key: readonly number[]): V | undefined {
    let n: Node<V> | undefined = this.root;
    for (const k of key) {
      n = n.children.get(k);
      if (n === undefined) return undefined;
    }
    return n.has ? n.value : undefined;
  }

  /** Some value stored under a subset of `key` (itself included) satisfying `pred`. */
  findSubset(key: readonly number[], pred: (v: V) => boolean): V | undefined {
    const stack: [Node<V>, number][] = [[this.root, 0]];
    while (stack.length > 0) {
      const [n, i] = stack.pop()!;
      if (n.has && pred(n.value as V)) return n.value;
      if (n.children.size === 0) continue;
      // children along any later element of key
      if (n.children.size < key.length - i) {
        for (const [k, c] of n.children) {
          const j = indexOfSorted(key, k, i);
          if (j >= 0) stack.push([c, j + 1]);
        }
      } else {
        for (let j = i; j < key.length; j++) {
          const c = n.children.get(key[j]!);
          if (c !== undefined) stack.push([c, j + 1]);
        }
      }
    }
    return undefined;
  }

  /** Some value stored under a superset of `key` (itself included) satisfying `pred`. */
  findSuperset(key: readonly number[], pred: (v: V) => boolean): V | undefined {
    const stack: [Node<V>, number][] = [[this.root, 0]];
    while (stack.length > 0) {
      const [n, i] = stack.pop()!;
      if (i === key.length && n.has && pred(n.value as V)) return n.value;
      const need = i < key.length ? key[i]! : Infinity;
      for (const [k, c] of n.children) {
        if (k < need) stack.push([c, i]);
        else if (k === need) stack.push([c, i + 1]);
      }
    }
    return undefined;
  }

  *values(): IterableIterator<V> {
    const stack = [this.root];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (n.has) yield n.value as V;
      for (const c of n.children.values()) stack.push(c);
    }
  }
}

/** Position of x in the sorted array a at or after `from`, or -1. */
function indexOfSorted(a: readonly number[], x: number, from: number): number {
  let lo = from;
  let hi = a.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = a[mid]!;
    if (v === x) return mid;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
