/**
 * Static state merging's searcher (paper 001 §5, SSM): always runs the state that comes first
 * in the program's topological order (merging/location.ts), so every state that may still
 * reach a join point gets there before any state goes past it, and all of them merge there.
 * Ties go to the oldest state. A binary heap keyed by position, re-keyed when a state runs.
 */
import { comparePositions, type LocationOracle, type Searcher, type SearchableState } from './searcher.js';

export class TopologicalSearcher<S extends SearchableState> implements Searcher<S> {
  readonly name = 'topological';
  private readonly heap: S[] = [];
  private readonly index = new Map<S, number>();
  private readonly position = new Map<S, readonly number[]>();

  constructor(private readonly order: LocationOracle<S>) {}

  private less(a: S, b: S): boolean {
    const c = comparePositions(this.position.get(a)!, this.position.get(b)!);
    return c < 0 || (c === 0 && a.id < b.id);
  }

  selectState(): S {
    return this.heap[0]!;
  }

  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    for (const s of removed) this.remove(s);
    // the state that ran moved: re-key it
    if (current !== null && this.index.has(current)) {
      this.remove(current);
      this.push(current);
    }
    for (const s of added) this.push(s);
  }

  empty(): boolean {
    return this.heap.length === 0;
  }

  private push(s: S): void {
    if (this.index.has(s)) return;
    this.position.set(s, this.order.topologicalPosition(s));
    this.heap.push(s);
    this.index.set(s, this.heap.length - 1);
    this.up(this.heap.length - 1);
  }

  private remove(s: S): void {
    const i = this.index.get(s);
    if (i === undefined) return;
    this.index.delete(s);
    this.position.delete(s);
    const last = this.heap.pop()!;
    if (i === this.heap.length) return;
    this.heap[i] = last;
    this.index.set(last, i);
    this.down(i);
    this.up(i);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i]!, h[p]!)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(i: number, j: number): void {
    const h = this.heap;
    const t = h[i]!;
    h[i] = h[j]!;
    h[j] = t;
    this.index.set(h[i]!, i);
    this.index.set(h[j]!, j);
  }
}
