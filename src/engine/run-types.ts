// The shapes a run reports through (events, summaries) and the run-level errors: kept apart
// from the executor so callers and modules that only need the types do not pull it in.
import type { Termination } from './errors.js';
import type { Val } from './values.js';
import type { QuantifiedCounters } from './merging/quantified/merge.js';
import type { PTree } from './searchers/ptree.js';
import type { ExecutionState } from './state.js';
import type { Searcher } from './searchers/searcher.js';
import type { Rng } from '../util/rng.js';

/** Callbacks for a caller that wants to see what happens (the CLI prints these). */
export interface ExploreEvents {
  /** An instruction about to run, as --debug-print-instructions prints it (only when that option is set). */
  onInstruction?: (line: string) => void;
  /** A line KLEE would print on stderr ("ERROR: prog.c:3: …", warnings). */
  onLog?: (line: string, kind: 'message' | 'warning' | 'error' | 'print') => void;
  /**
   * The program wrote to its stdout (fd 1) or stderr (fd 2), as it runs (KLEE shows these on
   * its own console); symbolic bytes as a value the path allows. Only when set.
   */
  onProgramOutput?: (fd: 1 | 2, bytes: Uint8Array) => void;
  /** A state ended: its test number (0 when no test was written), how, and for exits the exit value. */
  onStateEnd?: (info: StateEndInfo) => void;
}

export interface StateEndInfo {
  stateId: number;
  testId: number;
  kind: Termination;
  message?: string;
  exitValue?: Val;
  /** A further test of a merged state, following one of the paths merged into it (state.witnesses). */
  witness?: boolean;
}

export interface RunSummary {
  instructions: number;
  forks: number;
  completedPaths: number;
  exploredPaths: number;
  generatedTests: number;
  testsNumbered: number;
  errors: number;
  queries: number;
  /** Why the run stopped early, or null when every path was explored. */
  haltReason: string | null;
  /** Under --exit-on-error, the error report (the .err text) of the error that stopped the run. */
  exitErrorReport: string | null;
  elapsedMs: number;
  /** Automatic and manual merging's statistics (null when nothing merged and merging was off). */
  merging: MergingSummary | null;
  /** Instructions executed at least once, and all the program's instructions (runtime included). */
  coveredInstructions: number;
  totalInstructions: number;
}

export interface MergingSummary {
  merges: number;
  /** Registers and memory bytes that became an ite in merges. */
  itesCreated: number;
  /** Merges the similarity relation (QCE) refused. */
  refusedBySimilarity: number;
  /** Of those, refused by QCE's ite term. */
  refusedByIte: number;
  /** Similar pairs kept apart because their live pointers differ (--merge-pointer-rule). */
  refusedByPointer: number;
  /** States at the same location that could not merge (other objects, arrays, …). */
  incompatible: number;
  refusedByMultiplicity: number;
  /** Sum of the multiplicities of the states that ended (the paths they stand for, over-estimated after splits). */
  pathMultiplicity: number;
  /** Dynamic merging: steps run by fast-forwarding, states fast-forwarded, of which merged. */
  forwardSteps: number;
  forwardedStates: number;
  forwardedMerged: number;
  /** Queries of merged states (multiplicity > 1): the ones that carry disjunctions and ites. */
  mergedStateQueries: number;
  /** Quantified merging (--merge-mode=quantified), or null. */
  quantified: QuantifiedCounters | null;
}

/** `ptree`: the process tree, when the run keeps one (Executor.keepProcessTree). */
export type SearcherFactory = (ptree: PTree<ExecutionState> | undefined, rng: Rng) => Searcher<ExecutionState>;

/** After a user interrupt (shouldStop), remaining states are dumped for at most this long. */
export const INTERRUPT_DUMP_BUDGET_MS = 2000;

/** Starts the message of a state ended because a replayed test's objects do not fit the program. */
export const REPLAY_MISMATCH_PREFIX = 'replay: object mismatch: ';

/** The module cannot be run as asked (no entry point, …): a user error, reported in one line. */
export class EngineSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EngineSetupError';
  }
}
