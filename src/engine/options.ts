/**
 * Every option of an exploration, in one typed object with KLEE's names and defaults
 * (DESIGN decision 10). The CLI (`tsklee run`) maps its flags onto this; library users pass
 * a Partial<EngineOptions>.
 */

export type LibcKind = 'none' | 'tsklee';

/** Automatic state merging (paper 001): none, static (SSM: topological order), dynamic (DSM: fast-forwarding). */
export type StateMergingKind = 'none' | 'static' | 'dynamic';

export interface EngineOptions {
  /** Function to start in (KLEE's --entry-point). Default 'main'. */
  entryPoint: string;
  /** Program arguments after the program name (argv[1..]); argv[0] is `programName`. */
  programArgs: string[];
  /** argv[0] and the first `args` entry of every .ktest (KLEE uses the bitcode path). */
  programName: string;
  /** Searcher names, KLEE's --search values (several: interleaved). Default ['random-path', 'nurs:covnew'] as KLEE. */
  search: string[];
  /** Seed of the run's one PRNG (--seed; KLEE's --rng-initial-seed). Default 5489. */
  seed: number;
  /** Stop after this many seconds (--max-time; 0 = no limit). */
  maxTime: number;
  /** Stop after this many instructions (--max-instructions; 0 = no limit). */
  maxInstructions: number;
  /** Stop forking after this many forks (--max-forks; -1 = no limit). */
  maxForks: number;
  /** Only allow this many symbolic branches per path (--max-depth; 0 = no limit). */
  maxDepth: number;
  /** Stop forking above this much heap used by tsklee, in MB (--max-memory; 0 = no limit). Default 2000. */
  maxMemory: number;
  /** Per-query solver timeout in seconds (--max-solver-time; 0 = none). */
  maxSolverTime: number;
  /** Only write tests for states that covered new code (--only-output-states-covering-new). */
  onlyOutputStatesCoveringNew: boolean;
  /** One test per error occurrence instead of one per (instruction, message) (--emit-all-errors). */
  emitAllErrors: boolean;
  /** Stop the run at the first error of these kinds (KLEE's --exit-on-error-type: Ptr, Abort, Assert, …). */
  exitOnErrorType: string[];
  /** Write each test's path condition as SMT-LIB2 (testNNNNNN.smt2). */
  writeSmt2s: boolean;
  /** Write a .kquery file per test. */
  writeKQueries: boolean;
  /** Check divisions for a zero divisor (KLEE's --check-div-zero). Default true. */
  checkDivZero: boolean;
  /** Check shifts for an amount ≥ the width (KLEE's --check-overshift). Default true. */
  checkOvershift: boolean;
  /** Turn remaining states into tests when stopping early (--dump-states-on-halt). Default true. */
  dumpStatesOnHalt: boolean;
  /** Which C library the program is linked with (--libc): 'tsklee' sets `environ` before main. The linking itself is prepare/runtime.ts's loadProgram. */
  libc: LibcKind;
  /** The program was linked with the POSIX model (--posix-runtime; start at __tsklee_posix_main). */
  posixRuntime: boolean;
  /** Largest number of instructions one state runs before the searcher is asked again. */
  quantum: number;
  /** Merge states at klee_close_merge (KLEE's --use-merge); without it the calls are ignored. */
  useMerge: boolean;
  // ---- automatic state merging (paper 001; src/engine/merging/)
  /** --state-merging: 'static' runs states in topological order and merges at joins, 'dynamic' fast-forwards states about to meet a similar one under the --search searcher. Default 'none'. */
  stateMerging: StateMergingKind;
  /** QCE threshold α (--qce-alpha): a variable is hot where its query count exceeds α·Qt. Infinity merges whatever is compatible. Default 1e-12 (the paper's). */
  qceAlpha: number;
  /** QCE branch feasibility probability β (--qce-beta). Default 0.8 (the paper's). */
  qceBeta: number;
  /** QCE trip count of loops whose count is not a small constant (--qce-kappa). Default 10 (the paper's). */
  qceKappa: number;
  /** DSM history length in basic blocks (--dsm-delta). Default 8 (the paper's). */
  dsmDelta: number;
  /** States standing for more paths than this do not merge further (--max-state-multiplicity; 0 = no limit). */
  maxStateMultiplicity: number;
  /** Log every merge and every refused merge with its reason to messages.txt (KLEE's --debug-log-merge). */
  debugLogMerge: boolean;
  // ---- quantified state merging (paper 000; src/engine/merging/quantified/)
  /**
   * --merge-mode: 'ite' merges with the merge core's ite encoding only (as before);
   * 'quantified' also makes merge regions (loops whose exits depend on input, and
   * klee_open_merge regions with --use-merge) merge their leaves by pattern, with one ∀ per
   * partition. Default 'ite'. The solver chain needs its quantified-query layer for it.
   */
  mergeMode: MergeMode;
  /** More regular patterns than this at one region exit: standard merging there (--max-patterns). Default 10. */
  maxPatterns: number;
  /** With --merge-mode=quantified: loops are merge regions (--quantified-loops; false: only klee_open_merge regions). Default true. */
  quantifiedLoops: boolean;
  /** Check Theorem 3.7 (pc_std ⇔ ∃k. pc_pat, and the merged values) on every quantified merge (with --debug-validate-solver). Default false. */
  validateQuantifiedMerges: boolean;
  /** Largest stack depth (frames) before a state ends with an error. Default 10000. */
  maxStackFrames: number;
  /**
   * Replay a test: klee_make_symbolic (and klee_int, klee_range) give the test's objects, in
   * order, instead of symbolic values, so the run follows the test's path concretely.
   */
  replay?: { objects: { name: string; bytes: Uint8Array }[] };
}

export const DEFAULT_OPTIONS: EngineOptions = {
  entryPoint: 'main',
  programArgs: [],
  programName: 'prog.bc',
  search: [],
  seed: 5489,
  maxTime: 0,
  maxInstructions: 0,
  maxForks: -1,
  maxDepth: 0,
  maxMemory: 2000,
  maxSolverTime: 0,
  onlyOutputStatesCoveringNew: false,
  emitAllErrors: false,
  exitOnErrorType: [],
  writeSmt2s: false,
  writeKQueries: false,
  checkDivZero: true,
  checkOvershift: true,
  dumpStatesOnHalt: true,
  libc: 'none',
  posixRuntime: false,
  quantum: 10000,
  maxStackFrames: 10000,
  useMerge: false,
  stateMerging: 'none',
  qceAlpha: 1e-12,
  qceBeta: 0.8,
  qceKappa: 10,
  dsmDelta: 8,
  maxStateMultiplicity: 0,
  debugLogMerge: false,
  mergeMode: 'ite',
  maxPatterns: 10,
  quantifiedLoops: true,
  validateQuantifiedMerges: false,
};

export type MergeMode = 'ite' | 'quantified';

export function resolveOptions(o: Partial<EngineOptions> = {}): EngineOptions {
  const r: EngineOptions = { ...DEFAULT_OPTIONS };
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (r as unknown as Record<string, unknown>)[k] = v;
  return r;
}
