/**
 * Models of path conditions that came from elsewhere (`tsklee run --jobs N`: the worker that
 * handed states over sends, with each state's path prefix, a model of its path condition).
 * The counterexample cache tries them on a key it cannot answer before it asks the layers
 * below: the receiver replays the prefix and explores the subtree under it, whose path
 * conditions are mostly satisfied by the giver's model, while its own cache knows nothing
 * about that subtree yet. A hint is only a candidate: it is used when the key evaluates to
 * true under it, so a stale or unrelated hint costs an evaluation, never an answer.
 *
 * Arrays are matched by name and size: the receiver's replay makes the same arrays, in its
 * own isolate (an array the hint does not bind reads as zeros, as in the cache).
 */
import { Evaluator, collectArraysOf, type Assignment, type Expr, type ExprArray } from '../../expr/index.js';

/**
 * Hints kept (the newest): one per adopted state, plus every model another worker's backend
 * found (cut.c at 4 workers: ~150 over the run; a hint costs an evaluation on a cache miss only).
 */
const MAX_HINTS = 256;

/** A model by array name, as it crosses between workers. */
export type NamedModel = [name: string, bytes: Uint8Array][];

export class ModelHints {
  private readonly recent: Map<string, Uint8Array>[] = [];
  /** Keys a hint answered. */
  hits = 0;
  /**
   * Called with each model the layers below the counterexample cache found for it (--jobs: the
   * worker passes the backend's to the other workers, whose caches are cold where its is warm).
   */
  onSolved: ((model: NamedModel) => void) | null = null;

  add(model: NamedModel): void {
    this.recent.push(new Map(model));
    if (this.recent.length > MAX_HINTS) this.recent.shift();
  }

  /** A hint that satisfies every expression of `exprs`, as an assignment of their arrays; undefined when none does. */
  find(exprs: readonly Expr[]): Assignment | undefined {
    if (this.recent.length === 0) return undefined;
    const arrays = [...collectArraysOf(exprs)];
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const hint = this.recent[i]!;
      const m = new Map<ExprArray, Uint8Array>();
      for (const a of arrays) {
        const bytes = hint.get(a.name);
        if (bytes !== undefined && bytes.length === a.size) m.set(a, bytes);
      }
      if (m.size === 0) continue;
      const ev = new Evaluator(m);
      if (exprs.every((e) => ev.isTrue(e))) {
        this.hits++;
        return m;
      }
    }
    return undefined;
  }
}

/** A model of `arrays` (from a solver's computeInitialValues) by name. */
export function namedModel(arrays: readonly ExprArray[], values: readonly Uint8Array[]): NamedModel {
  return arrays.map((a, i) => [a.name, values[i]!]);
}
