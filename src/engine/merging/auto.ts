/**
 * Automatic merging (static and dynamic state merging, paper 001): after every step, a state
 * that arrives where another live state stands (the same instruction of the same call stack)
 * merges into it when the two are similar (the similarity relation: QCE's ~qce, or "always")
 * and structurally compatible (core.ts). The waiting state absorbs the newcomer, which ends
 * quietly. The searcher decides who arrives when: static merging runs states in topological
 * order so all paths into a join meet there; dynamic merging fast-forwards states that are
 * about to meet a similar one.
 */
import type { ExecutionState } from '../state.js';
import { StateStatus } from '../state.js';
import { locationKey } from './location.js';
import { mergeBlocker } from './core.js';

/** Which states are worth merging (beyond being compatible). */
export interface Similarity {
  similar(a: ExecutionState, b: ExecutionState): boolean;
  /** After a refusal: 'ite' when the refused merge would have made an ite of an ite-hot variable (QCE's ite term). */
  readonly lastRefusal?: 'concrete' | 'ite';
  /**
   * Equal for similar states whose relevant values are all concrete (a cheap first filter);
   * the lowest bit set when a relevant value is symbolic (states of different hashes can be
   * similar only if one of them has it set).
   */
  hash?(st: ExecutionState, key?: string): number;
}

/** The top frame's function and source line (merge logs). */
function where(st: ExecutionState): string {
  const f = st.stack[st.stack.length - 1]!;
  const ki = f.kf.insts[st.pc];
  return `${f.kf.name}${ki !== undefined && ki.line > 0 ? `:${ki.line}` : ''}`;
}

export const MERGE_ALWAYS: Similarity = { similar: () => true };

/**
 * At a location, a newcomer is checked against the states of its own hash first, then against
 * at most this many others (a symbolic hot value hashes differently from a concrete one yet is
 * similar to it): thousands of states refused at one join must not cost a check per pair.
 */
const OTHER_CANDIDATES = 8;

export interface MergeAttemptCounters {
  /** Compatible states at the same location that the similarity relation kept apart. */
  refusedBySimilarity: number;
  /** Of those, checked pairs refused by QCE's ite term (an ite-hot variable would become an ite). */
  refusedByIte: number;
  /** States at the same location that could not merge (different objects, arrays, …). */
  incompatible: number;
  /** Merges refused because the result would stand for more than --max-state-multiplicity paths. */
  refusedByMultiplicity: number;
  /** Similar pairs kept apart by the veto (--merge-pointer-rule: their live pointers differ). */
  refusedByPointer: number;
}

/** The states standing at one location. */
interface Standing {
  /** By similarity hash. */
  readonly buckets: Map<number, Set<ExecutionState>>;
  /** Hashes with a symbolic hot value (lowest bit set): only those can be similar to a state of another hash. */
  readonly starred: Set<number>;
  size: number;
  starredSize: number;
}

/** A newcomer is checked against at most this many states of its own hash (a pointer may differ in all of them). */
const SAME_CANDIDATES = 32;

export class MergePoints {
  private readonly byLocation = new Map<string, Standing>();
  private readonly placeOf = new Map<ExecutionState, { key: string; hash: number }>();
  /** Told of every checked pair that did not merge (dynamic merging stops fast-forwarding one towards the other). */
  onApart: ((a: ExecutionState, b: ExecutionState) => void) | null = null;
  readonly counters: MergeAttemptCounters = { refusedBySimilarity: 0, refusedByIte: 0, incompatible: 0, refusedByMultiplicity: 0, refusedByPointer: 0 };

  constructor(
    private readonly similarity: Similarity,
    /** Merge b into a and end b. */
    private readonly merge: (a: ExecutionState, b: ExecutionState) => void,
    private readonly maxMultiplicity: number,
    /** --debug-log-merge: each merge and each refusal, with the reason. */
    private readonly log: ((line: string) => void) | null = null,
    /** A last check on similar, compatible pairs: why they must stay apart, or null (merging/pointers.ts). */
    private readonly veto: ((a: ExecutionState, b: ExecutionState) => string | null) | null = null,
  ) {}

  /**
   * A state moved (or was created): merge it into a state waiting at its new location, or
   * record it there. Returns the state it merged into, or null.
   */
  arrive(st: ExecutionState): ExecutionState | null {
    this.leave(st);
    if (st.status !== StateStatus.Running) return null;
    const key = locationKey(st);
    let here = this.byLocation.get(key);
    if (here === undefined) {
      here = { buckets: new Map(), starred: new Set(), size: 0, starredSize: 0 };
      this.byLocation.set(key, here);
    }
    const h = this.similarity.hash?.(st, key) ?? 0;
    const same = here.buckets.get(h);
    let tried = 0;
    if (same !== undefined) {
      for (const other of same) {
        if (tried++ >= SAME_CANDIDATES) break;
        if (this.tryMerge(other, st, key)) return other;
      }
    }
    const starred = (h & 1) === 1;
    // other concrete values of a hot variable: not similar, no check needed
    if (!starred) this.counters.refusedBySimilarity += here.size - (same?.size ?? 0) - here.starredSize;
    let others = 0;
    for (const oh of starred ? here.buckets.keys() : here.starred) {
      if (oh === h) continue;
      for (const other of here.buckets.get(oh)!) {
        if (others++ >= OTHER_CANDIDATES) break;
        if (this.tryMerge(other, st, key)) return other;
      }
      if (others >= OTHER_CANDIDATES) break;
    }
    let bucket = here.buckets.get(h);
    if (bucket === undefined) here.buckets.set(h, (bucket = new Set()));
    bucket.add(st);
    here.size++;
    if (starred) {
      here.starred.add(h);
      here.starredSize++;
    }
    this.placeOf.set(st, { key, hash: h });
    return null;
  }

  private tryMerge(other: ExecutionState, st: ExecutionState, key: string): boolean {
    if (other.status !== StateStatus.Running) return false;
    const why = this.refusal(other, st);
    if (why === null) {
      this.log?.(`state ${st.id} merged into ${other.id} at ${key} (${where(st)})`);
      this.merge(other, st);
      return true;
    }
    this.log?.(`state ${st.id} not merged into ${other.id} at ${key}: ${why}`);
    this.onApart?.(other, st);
    return false;
  }

  /** Why st must not merge into other (counted), or null. */
  private refusal(other: ExecutionState, st: ExecutionState): string | null {
    if (this.maxMultiplicity > 0 && other.multiplicity + st.multiplicity > this.maxMultiplicity) {
      this.counters.refusedByMultiplicity++;
      return 'multiplicity limit';
    }
    const blocker = mergeBlocker(other, st);
    if (blocker !== null) {
      this.counters.incompatible++;
      return `different ${blocker}`;
    }
    if (!this.similarity.similar(other, st)) {
      this.counters.refusedBySimilarity++;
      const ite = this.similarity.lastRefusal === 'ite';
      if (ite) this.counters.refusedByIte++;
      return ite ? 'an ite-hot variable would become an ite' : 'a hot variable differs';
    }
    const vetoed = this.veto?.(other, st) ?? null;
    if (vetoed !== null) {
      this.counters.refusedByPointer++;
      return `different pointers (${vetoed})`;
    }
    return null;
  }

  /** Where st stands since its last arrival (its location key and similarity hash), if it waits at a merge point. */
  standing(st: ExecutionState): { readonly key: string; readonly hash: number } | undefined {
    return this.placeOf.get(st);
  }

  /** The state ended or left the searcher. */
  leave(st: ExecutionState): void {
    const p = this.placeOf.get(st);
    if (p === undefined) return;
    this.placeOf.delete(st);
    const here = this.byLocation.get(p.key)!;
    const bucket = here.buckets.get(p.hash)!;
    bucket.delete(st);
    here.size--;
    if ((p.hash & 1) === 1) here.starredSize--;
    if (bucket.size === 0) {
      here.buckets.delete(p.hash);
      here.starred.delete(p.hash);
    }
    if (here.size === 0) this.byLocation.delete(p.key);
  }
}
