/**
 * The words of an execution tree's leaves and their regular partition (paper 000, §3.1).
 *
 * A branch condition hashes by its shape with every constant alike (KLEE's expression hash
 * with one hash for all constants), so `n > 0` and `n > 1` hash the same while a condition
 * and its negation differ (the builder keeps a negated comparison a different kind). A leaf's
 * word is the hashes of the conditions on its path. A regular pattern (ω1, ω2, ω3) matches
 * the leaves whose words are ω1·ω2^k·ω3.
 */
import { ExprKind, UpdateNode, walkDag, type Expr } from '../../../expr/index.js';
import { finishHash, mixHash } from '../../../expr/intern.js';

const shapes = new WeakMap<object, number>();

/** The constant-insensitive hash of an expression's shape. */
export function shapeHash(e: Expr): number {
  const known = shapes.get(e);
  if (known !== undefined) return known;
  walkDag([e], {
    prune: (v) => shapes.has(v),
    post: (v) => {
      let h: number;
      if (v instanceof UpdateNode) {
        h = mixHash(mixHash(0x51ed27, shapes.get(v.index)!), shapes.get(v.value)!);
        if (v.next !== null) h = mixHash(h, shapes.get(v.next)!);
      } else if (v.kind === ExprKind.Constant) {
        h = mixHash(0x7f4a7c15, v.width);
      } else {
        h = mixHash(mixHash(v.kind + 0x9e3779b9, v.width), v.kind === ExprKind.Extract ? v.offset : 0);
        if (v.kind === ExprKind.Read) {
          h = mixHash(h, v.updates.root.id);
          if (v.updates.head !== null) h = mixHash(h, shapes.get(v.updates.head)!);
        }
        for (let i = 0; i < v.numKids; i++) h = mixHash(h, shapes.get(v.kid(i))!);
      }
      shapes.set(v, finishHash(h));
    },
  });
  return shapes.get(e)!;
}

export interface RegularPattern {
  readonly prefix: readonly number[];
  readonly core: readonly number[];
  readonly suffix: readonly number[];
}

/** A leaf in a partition: its index among the leaves and its k (repetitions of the core). */
export interface PatternMember {
  readonly leaf: number;
  readonly k: number;
}

export interface Partition {
  readonly pattern: RegularPattern;
  readonly members: PatternMember[];
}

function same(a: readonly number[], i: number, b: readonly number[], j: number, n: number): boolean {
  for (let x = 0; x < n; x++) if (a[i + x] !== b[j + x]) return false;
  return true;
}

/**
 * The word's own pattern: the first square ww (earliest start, then shortest w whose length
 * is a multiple of `coreUnit`) sets the core w, repeated as often as it goes on; null when
 * the word has no such square.
 */
export function ownPattern(word: readonly number[], coreUnit = 1): { pattern: RegularPattern; k: number } | null {
  const n = word.length;
  for (let s = 0; s < n; s++) {
    for (let c = coreUnit; s + 2 * c <= n; c += coreUnit) {
      if (!same(word, s, word, s + c, c)) continue;
      let k = 2;
      while (s + (k + 1) * c <= n && same(word, s, word, s + k * c, c)) k++;
      const pattern = { prefix: word.slice(0, s), core: word.slice(s, s + c), suffix: word.slice(s + k * c) };
      return { pattern, k };
    }
  }
  return null;
}

/** k when word = prefix·core^k·suffix, else -1. */
export function matchPattern(word: readonly number[], p: RegularPattern): number {
  const rest = word.length - p.prefix.length - p.suffix.length;
  if (rest < 0 || (p.core.length === 0 ? rest !== 0 : rest % p.core.length !== 0)) return -1;
  if (!same(word, 0, p.prefix, 0, p.prefix.length)) return -1;
  if (!same(word, word.length - p.suffix.length, p.suffix, 0, p.suffix.length)) return -1;
  const k = p.core.length === 0 ? 0 : rest / p.core.length;
  for (let j = 0; j < k; j++) if (!same(word, p.prefix.length + j * p.core.length, p.core, 0, p.core.length)) return -1;
  return k;
}

function key(p: RegularPattern): string {
  return `${p.prefix.join(',')}|${p.core.join(',')}|${p.suffix.join(',')}`;
}

/**
 * A regular partitioning of the words: each word with a square gives a pattern (cores a
 * multiple of `coreUnit` letters long: a loop body with several branches whose conditions
 * hash alike, e.g. `c != 0 && c != '/'`, has a core of several letters); words without one join the first pattern they match (with k 0 or 1), or stand alone
 * (pattern (word, ε, ε), k = 0).
 */
export function partitionWords(words: readonly (readonly number[])[], coreUnit = 1): Partition[] {
  const byKey = new Map<string, Partition>();
  const loose: number[] = [];
  words.forEach((w, leaf) => {
    const own = ownPattern(w, coreUnit);
    if (own === null) {
      loose.push(leaf);
      return;
    }
    const k = key(own.pattern);
    let part = byKey.get(k);
    if (part === undefined) byKey.set(k, (part = { pattern: own.pattern, members: [] }));
    part.members.push({ leaf, k: own.k });
  });
  const parts = [...byKey.values()];
  for (const leaf of loose) {
    const w = words[leaf]!;
    let placed = false;
    for (const part of parts) {
      const k = matchPattern(w, part.pattern);
      if (k >= 0 && !part.members.some((m) => m.k === k)) {
        part.members.push({ leaf, k });
        placed = true;
        break;
      }
    }
    if (!placed) parts.push({ pattern: { prefix: w, core: [], suffix: [] }, members: [{ leaf, k: 0 }] });
  }
  return parts;
}

/**
 * Def 3.1's validity for the leaves' paths: along equal hash prefixes the conditions are the
 * very same expressions, and no two leaves share a word (so a word names one tree path).
 */
export function hashValid(traces: readonly (readonly Expr[])[], words: readonly (readonly number[])[]): boolean {
  interface Node {
    cond: Expr | null;
    kids: Map<number, Node>;
    leaf: boolean;
  }
  const root: Node = { cond: null, kids: new Map(), leaf: false };
  for (let j = 0; j < traces.length; j++) {
    let n = root;
    const t = traces[j]!;
    const w = words[j]!;
    for (let p = 0; p < t.length; p++) {
      let c = n.kids.get(w[p]!);
      if (c === undefined) n.kids.set(w[p]!, (c = { cond: t[p]!, kids: new Map(), leaf: false }));
      else if (c.cond !== t[p]) return false;
      n = c;
    }
    if (n.leaf) return false;
    n.leaf = true;
  }
  return true;
}
