/**
 * The searcher interface (KLEE's meaning): the executor tells the searcher which states were
 * added and removed after each step, and asks it which state to run next.
 */

/** What a searcher may look at in a state. The executor's ExecutionState implements it. */
export interface SearchableState {
  /** Unique, increasing in creation order (ties are broken by it, for determinism). */
  readonly id: number;
  /** Number of branches (forks) on the path so far. */
  readonly depth: number;
  /** Solver time spent on this state's queries, in milliseconds (nurs:qc). */
  readonly queryCostMs: number;
  /** Instructions executed since this state last covered new code (nurs:covnew). */
  readonly instsSinceCovNew: number;
  /** Node of this state in the process tree (random-path). */
  ptreeNode: PTreeNode | null;
}

/** Engine-provided facts about code and coverage, for the nurs:* weights. */
export interface CoverageOracle<S extends SearchableState> {
  /** Static distance (in instructions) from the state's pc to the nearest uncovered instruction; Infinity when none. */
  minDistToUncovered(state: S): number;
  /** How many times the instruction at the state's pc has executed (nurs:icnt). */
  instructionCount(state: S): number;
  /** The same per call path (nurs:cpicnt). */
  callPathInstructionCount(state: S): number;
}

/**
 * Engine-provided facts about where states stand, for the merging searchers (paper 001): the
 * topological position (static merging runs the least; dynamic merging fast-forwards the least
 * of its candidates) and the recent history of each state.
 */
export interface LocationOracle<S extends SearchableState> {
  /**
   * The state's position in the program's topological order, compared lexicographically (a
   * prefix first; see comparePositions). Valid until the state runs again.
   */
  topologicalPosition(s: S): readonly number[];
  /**
   * Where the state stands and a hash of its hot variables (DSM's history entries, paper 001
   * §4.3: h(v) is one mark for every symbolic value): two states may merge only when their
   * entries are equal (a cheap filter; the full similarity check runs where they meet).
   */
  signature(s: S): MergeSignature;
  /** Whether the state just ended by merging into another (DSM's success statistics). */
  endedByMerge(s: S): boolean;
}

/** A state's location (equal strings: the same instruction of the same call stack) and the hash of its hot variables. */
export interface MergeSignature {
  readonly location: string;
  readonly hash: number;
}

/** Lexicographic order of topological positions; a prefix (a state not yet in a call) comes first. */
export function comparePositions(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export interface Searcher<S extends SearchableState> {
  /** The state to run next; only called when !empty(). */
  selectState(): S;
  /**
   * After a step: `current` (the state that ran, or null), states `added` by forking, and
   * states `removed` (terminated or merged away; may include current).
   */
  update(current: S | null, added: readonly S[], removed: readonly S[]): void;
  empty(): boolean;
  /** For messages: `dfs`, `nurs:covnew`, `interleaved(dfs, random-path)`, … */
  readonly name: string;
}

/** A binary process tree of states (KLEE's PTree): leaves are live states. */
export interface PTreeNode {
  parent: PTreeNode | null;
  left: PTreeNode | null;
  right: PTreeNode | null;
  /** The state at a leaf; null at inner nodes. */
  state: SearchableState | null;
}
