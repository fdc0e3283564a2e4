import type { Searcher, SearchableState } from '../../../../src/engine/searchers/searcher.js';

/** A searcher that records its calls and selects states from a fixed rotation. */
export class StubSearcher<S extends SearchableState> implements Searcher<S> {
  readonly calls: string[] = [];
  readonly members: S[] = [];
  selects = 0;
  constructor(readonly name: string) {}
  selectState(): S {
    this.calls.push('select');
    const s = this.members[this.selects % this.members.length]!;
    this.selects++;
    return s;
  }
  update(current: S | null, added: readonly S[], removed: readonly S[]): void {
    this.calls.push(`update(${current?.id ?? '-'};+${added.map((s) => s.id).join(',')};-${removed.map((s) => s.id).join(',')})`);
    this.members.push(...added);
    for (const r of removed) {
      const i = this.members.indexOf(r);
      if (i < 0) throw new Error('stub: invalid state removed');
      this.members.splice(i, 1);
    }
  }
  empty(): boolean {
    return this.members.length === 0;
  }
}
