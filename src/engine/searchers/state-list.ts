/**
 * An ordered list of states with O(1) append, removal of any member and move-to-back: the
 * storage of the DFS and BFS searchers (KLEE uses a vector and a deque and removes by linear
 * search; the order of the states is the same, only removal is cheaper here).
 */
import type { SearchableState } from './searcher.js';

interface Link<S> {
  state: S;
  prev: Link<S> | null;
  next: Link<S> | null;
}

export class StateList<S extends SearchableState> {
  private head: Link<S> | null = null;
  private tail: Link<S> | null = null;
  private readonly links = new Map<S, Link<S>>();

  /** `owner` names the searcher in error messages. */
  constructor(private readonly owner: string) {}

  get size(): number {
    return this.links.size;
  }

  has(state: S): boolean {
    return this.links.has(state);
  }

  front(): S {
    if (this.head === null) throw new Error(`${this.owner}: selectState() on an empty searcher`);
    return this.head.state;
  }

  back(): S {
    if (this.tail === null) throw new Error(`${this.owner}: selectState() on an empty searcher`);
    return this.tail.state;
  }

  pushBack(state: S): void {
    if (this.links.has(state)) throw new Error(`${this.owner}: state ${state.id} added twice`);
    const link: Link<S> = { state, prev: this.tail, next: null };
    if (this.tail === null) this.head = link;
    else this.tail.next = link;
    this.tail = link;
    this.links.set(state, link);
  }

  /** Remove a member; a state that is not one is a caller bug (KLEE: "invalid state removed"). */
  remove(state: S): void {
    const link = this.links.get(state);
    if (link === undefined) throw new Error(`${this.owner}: invalid state removed (state ${state.id} is not in the searcher)`);
    this.unlink(link);
    this.links.delete(state);
  }

  moveToBack(state: S): void {
    const link = this.links.get(state);
    if (link === undefined) throw new Error(`${this.owner}: state ${state.id} is not in the searcher`);
    if (link === this.tail) return;
    this.unlink(link);
    link.prev = this.tail;
    link.next = null;
    this.tail!.next = link;
    this.tail = link;
  }

  /** Front to back. */
  *[Symbol.iterator](): IterableIterator<S> {
    for (let l = this.head; l !== null; l = l.next) yield l.state;
  }

  private unlink(link: Link<S>): void {
    if (link.prev === null) this.head = link.next;
    else link.prev.next = link.next;
    if (link.next === null) this.tail = link.prev;
    else link.next.prev = link.prev;
    link.prev = null;
    link.next = null;
  }
}
