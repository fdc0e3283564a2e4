/**
 * The values each constrained byte may take, kept along a path condition for as long as every
 * constraint in it is simple and about a single byte (fast-analysis.ts): the shape of
 * fork-heavy programs that branch on input characters (`if (x[i] > 100)`).
 *
 * ConstraintSet extends it at each added constraint and attaches it to the constraint list it
 * hands out (toArray); the fast layer looks it up for a question's constraints and so answers
 * a test's inputs, and a fork's question about one byte, without reading the whole path
 * condition again (on paths.c, 4096 paths, the model of each test was ~10 % of the run). The
 * answers are exactly those of reading the list: the same sets, intersected.
 */
import type { Expr, ExprArray } from '../../expr/index.js';
import { analyze } from './fast-analysis.js';
import type { IntervalSet } from './fast-intervals.js';

/** One constrained byte and the intersection of its constraints' sets (never empty). */
export interface ByteSlot {
  readonly array: ExprArray;
  readonly index: number;
  readonly set: IntervalSet;
}

/** Immutable: forks share it, each add makes a new one (a copy of a few slots). */
export class ByteSets {
  static readonly EMPTY = new ByteSets([], 0);

  private constructor(
    readonly slots: readonly ByteSlot[],
    /** The constraints folded in: the length of the list these sets describe. */
    readonly count: number,
  ) {}

  /**
   * These sets with constraint `e` added; null when e is not a simple constraint on one byte,
   * or leaves its byte no value (then the path condition is read as a whole again).
   */
  with(e: Expr): ByteSets | null {
    const a = analyze(e);
    if (a.kind !== 'simple' || a.v.length !== 1) return null;
    const { array, start: index } = a.v;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      if (s.array !== array || s.index !== index) continue;
      const set = s.set.intersect(a.set);
      if (set.isEmpty()) return null;
      const next = slots.slice();
      next[i] = { array, index, set };
      return new ByteSets(next, this.count + 1);
    }
    if (a.set.isEmpty()) return null;
    const next = slots.slice();
    next.push({ array, index, set: a.set });
    return new ByteSets(next, this.count + 1);
  }

  /** The values byte `index` of `array` may take; undefined when no constraint names it. */
  setOf(array: ExprArray, index: number): IntervalSet | undefined {
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) {
      const s = slots[i]!;
      if (s.array === array && s.index === index) return s.set;
    }
    return undefined;
  }
}

const attached = new WeakMap<readonly Expr[], ByteSets>();

/** Records that `sets` are the byte sets of `list` as it is now (ConstraintSet, after a push: sets.count === list.length). */
export function attachByteSets(list: readonly Expr[], sets: ByteSets): void {
  attached.set(list, sets);
}

/**
 * The byte sets of `list`, when they were attached to it at its present length (a list only
 * grows by pushes, each re-attaching; any other list, or one changed since, has none).
 */
export function byteSetsOf(list: readonly Expr[]): ByteSets | undefined {
  const sets = attached.get(list);
  return sets !== undefined && sets.count === list.length ? sets : undefined;
}
