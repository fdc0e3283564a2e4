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
}

export const MERGE_ALWAYS: Similarity = { similar: () => true };

export interface MergeAttemptCounters {
  /** Compatible states at the same location that the similarity relation kept apart. */
  refusedBySimilarity: number;
  /** States at the same location that could not merge (different objects, arrays, …). */
  incompatible: number;
  /** Merges refused because the result would stand for more than --max-state-multiplicity paths. */
  refusedByMultiplicity: number;
}

export class MergePoints {
  private readonly byLocation = new Map<string, Set<ExecutionState>>();
  private readonly locationOf = new Map<ExecutionState, string>();
  readonly counters: MergeAttemptCounters = { refusedBySimilarity: 0, incompatible: 0, refusedByMultiplicity: 0 };

  constructor(
    private readonly similarity: Similarity,
    /** Merge b into a and end b. */
    private readonly merge: (a: ExecutionState, b: ExecutionState) => void,
    private readonly maxMultiplicity: number,
    /** --debug-log-merge: each merge and each refusal, with the reason. */
    private readonly log: ((line: string) => void) | null = null,
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
    if (here !== undefined) {
      for (const other of here) {
        if (other.status !== StateStatus.Running) continue;
        if (this.maxMultiplicity > 0 && other.multiplicity + st.multiplicity > this.maxMultiplicity) {
          this.counters.refusedByMultiplicity++;
          this.log?.(`state ${st.id} not merged into ${other.id} at ${key}: multiplicity limit`);
          continue;
        }
        const blocker = mergeBlocker(other, st);
        if (blocker !== null) {
          this.counters.incompatible++;
          this.log?.(`state ${st.id} not merged into ${other.id} at ${key}: different ${blocker}`);
          continue;
        }
        if (!this.similarity.similar(other, st)) {
          this.counters.refusedBySimilarity++;
          this.log?.(`state ${st.id} not merged into ${other.id} at ${key}: a hot variable differs`);
          continue;
        }
        this.log?.(`state ${st.id} merged into ${other.id} at ${key}`);
        this.merge(other, st);
        return other;
      }
    } else {
      here = new Set();
      this.byLocation.set(key, here);
    }
    here.add(st);
    this.locationOf.set(st, key);
    return null;
  }

  /** The state ended or left the searcher. */
  leave(st: ExecutionState): void {
    const key = this.locationOf.get(st);
    if (key === undefined) return;
    this.locationOf.delete(st);
    const here = this.byLocation.get(key)!;
    here.delete(st);
    if (here.size === 0) this.byLocation.delete(key);
  }

  /** States standing at st's location besides st. */
  othersAt(st: ExecutionState): number {
    const key = this.locationOf.get(st);
    return key === undefined ? 0 : this.byLocation.get(key)!.size - 1;
  }
}
