/**
 * Every option of an exploration, in one typed object with KLEE's names and defaults
 * (DESIGN decision 10). The CLI (`tsklee run`) maps its flags onto this; library users pass
 * a Partial<EngineOptions>.
 */

import type { AssemblyCacheKey } from './assembly-cache.js';
import type { OvershiftAt } from './prepare/poison.js';
import type { StaticLimits } from './static-limits.js';
import type { SeedingOptions } from './seeding/seeding.js';

export type LibcKind = 'none' | 'tsklee';

/** Automatic state merging (paper 001): none, static (SSM: topological order), dynamic (DSM: fast-forwarding). */
export type StateMergingKind = 'none' | 'static' | 'dynamic';

/** The memory model (memory/model.ts): KLEE's concrete addresses, or paper 003's relocatable ones. */
export type AddressingKind = 'concrete' | 'relocatable';

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
  /**
   * Stop after this many seconds of the process's CPU time, user + system (--max-cpu-time;
   * 0 = no limit; tsklee's: a budget a loaded machine does not shrink, for experiments).
   */
  maxCpuTime: number;
  /** Stop after this many instructions (--max-instructions; 0 = no limit). */
  maxInstructions: number;
  /** Stop forking after this many forks (--max-forks; -1 = no limit). */
  maxForks: number;
  /** Only allow this many symbolic branches per path (--max-depth; 0 = no limit). */
  maxDepth: number;
  /**
   * Memory cap in MB (--max-memory; 0 = none; default 2000): near it forking is inhibited
   * briefly, over it states are ended so that exploration goes on (engine/memory-cap.ts).
   * Counts V8's heap, buffers and the embedded z3's heap (util/memory-use.ts), and the
   * resident size beyond them, up to a margin.
   */
  maxMemory: number;
  /** Inhibit forking near --max-memory (KLEE's --max-memory-inhibit). Default true. */
  maxMemoryInhibit: boolean;
  /** Per-query solver timeout in seconds (--max-solver-time; 0 = none). */
  maxSolverTime: number;
  /** Only write tests for states that covered new code (--only-output-states-covering-new). */
  onlyOutputStatesCoveringNew: boolean;
  /** One test per error occurrence instead of one per (instruction, message) (--emit-all-errors). */
  emitAllErrors: boolean;
  /** Stop the run at the first error of these kinds (KLEE's --exit-on-error-type: Ptr, Abort, Assert, …). */
  exitOnErrorType: string[];
  /** Stop at the first error of any kind, without dumping the other states (KLEE's --exit-on-error; the CLI then exits with 1). */
  exitOnError: boolean;
  /** Write each test's path condition as SMT-LIB2 (testNNNNNN.smt2). */
  writeSmt2s: boolean;
  /** Write a .kquery file per test. */
  writeKQueries: boolean;
  /** Check divisions for a zero divisor (KLEE's --check-div-zero). Default true. */
  checkDivZero: boolean;
  /** Check shifts for an amount ≥ the width (KLEE's --check-overshift). Default true. */
  checkOvershift: boolean;
  /**
   * Where an over-wide shift is reported (--overshift-at; prepare/poison.ts): 'shift' at the
   * shift (KLEE); 'use' where its poison is observed (a branch, store, address, call argument,
   * return, divisor), so speculated shifts of optimised code are no errors; 'auto' (default):
   * 'shift' in functions marked optnone (clang -O0), 'use' in the others.
   */
  overshiftAt: OvershiftAt;
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
  /** With useMerge: states at a close do not wait for the whole region (KLEE's --use-incomplete-merge, merging/incomplete.ts). */
  useIncompleteMerge: boolean;
  /** Log its decisions to messages.txt (KLEE's --debug-log-incomplete-merge). */
  debugLogIncompleteMerge: boolean;
  /** Largest stack depth (frames); a call beyond it ends the state early (KLEE's --max-stack-frames). Default 8192, as KLEE. */
  maxStackFrames: number;
  // ---------------------------------------------------------------- KLEE options (issue 21)
  /** How a symbolic switch forks (KLEE's --switch-type): 'internal' once per feasible target block, 'simple' once per case, in case order. Default 'internal'. */
  switchType: 'internal' | 'simple';
  /** klee_assume(false) on a path ends it silently instead of with a user error (KLEE's --silent-klee-assume). */
  silentKleeAssume: boolean;
  /**
   * KLEE's --kdalloc: a second free of a heap object says "memory error: double free" and an
   * access to a freed one "memory error: use after free". Default false, as KLEE: its default
   * allocator reports them as "invalid pointer: free" and "out of bound pointer". (tsklee's
   * allocator never reuses an address either way: only the wording differs.)
   */
  kdalloc: boolean;
  /** The POSIX model's klee_posix_prefer_cex calls count, as klee_prefer_cex (KLEE's --readable-posix-inputs). Default false. */
  readablePosixInputs: boolean;
  /** Substitute constants into the path condition when an equality with a constant is added (KLEE's --rewrite-equalities). Default true. */
  rewriteEqualities: boolean;
  /**
   * Calls to functions whose whole name matches `pattern` (a regular expression) call
   * `target` instead (KLEE's --function-alias / klee_alias_function).
   */
  functionAliases: { pattern: string; target: string }[];
  /**
   * KLEE's --external-calls. tsklee never runs code natively: 'concrete' and 'all' both mean
   * "functions tsklee models" (its libc, libm); 'none' refuses those too (the path ends with
   * KLEE's "external calls disallowed" error). Default 'concrete'.
   */
  externalCalls: 'none' | 'concrete' | 'all';
  /**
   * A symbolic offset into an object larger than this many bytes is fixed to one value it may
   * take (KLEE's --max-sym-array-size; 0 = no limit).
   */
  maxSymArraySize: number;
  /** About 1 in N concrete loads gives a fresh symbolic value constrained to the loaded one (KLEE's --make-concrete-symbolic; 0 = off). */
  makeConcreteSymbolic: number;
  /**
   * A symbolic pointer that may point into several objects is resolved to the one object of
   * the current counterexample only, with a bounds check there (KLEE's --single-object-resolution).
   */
  singleObjectResolution: boolean;
  /** Memory model (--addressing): 'concrete' (KLEE's forking model) or 'relocatable' (paper 003). Default 'concrete'. */
  addressing: AddressingKind;
  /** Relocatable addressing: stack objects get symbolic bases too (--use-local-sym-addr). Default false. */
  useLocalSymAddr: boolean;
  /** Relocatable addressing: merge the objects a pointer may hit into one segment instead of forking (--segment-merging). Default false. */
  segmentMerging: boolean;
  /** Relocatable addressing: k of context-based resolution (--context-resolve=k; -1 = off). Needs segmentMerging. Default -1. */
  contextResolve: number;
  /** Relocatable addressing: reuse a segment's address and array across states (--reuse-segments). Default false. */
  reuseSegments: boolean;
  /** Relocatable addressing: split large objects read at symbolic offsets (--split-objects). Default false. */
  splitObjects: boolean;
  /** Relocatable addressing: objects above this many bytes are split (--split-threshold). Default 300 (the paper's evaluation). */
  splitThreshold: number;
  /** Relocatable addressing: chunk size of a split, a multiple of 8 (--partition-size). Default 128. */
  partitionSize: number;
  /** Relocatable addressing: check the model's invariants at every relocation and solver query (--check-address-invariants; slow). */
  checkAddressInvariants: boolean;
  /** KLEE's --use-batching-search with --batch-instructions and --batch-time (seconds); undefined = off. */
  batching?: { instructions: number; timeSeconds: number };
  /** KLEE's --use-iterative-deepening-time-search. */
  iterativeDeepeningTime: boolean;
  /** Write testN.path: the decision (1 = true side) at every conditional branch (KLEE's --write-paths). */
  writePaths: boolean;
  /** Write testN.sym.path: the decisions at branches that forked (KLEE's --write-sym-paths). */
  writeSymPaths: boolean;
  /** Follow these decisions at the conditional branches instead of forking (KLEE's --replay-path; the contents of a .path file). */
  replayPath?: (0 | 1)[];
  /** Write no test files at all (KLEE's --write-no-tests). */
  writeNoTests: boolean;
  /** Write testN.info with the time the test took to generate (KLEE's --write-test-info). */
  writeTestInfo: boolean;
  /** Write testN.cvc: the path condition (SMT-LIB2, as KLEE does with a non-STP solver; --write-cvcs). */
  writeCvcs: boolean;
  /** Write testN.xml in Test-Comp's format (KLEE's --write-xml-tests); KLEE then writes no testN.info. */
  writeXmlTests: boolean;
  /** Write assembly.ll, the module error reports point into (KLEE's --output-source). Default true. */
  outputSource: boolean;
  /**
   * What the module was made from, to reuse an earlier run's assembly.ll (assembly-cache.ts):
   * the bitcode files read and the loading choices. The engine adds its own changes (function
   * aliases). Undefined (the default): the module is printed.
   */
  assemblyCacheKey?: AssemblyCacheKey;
  /**
   * The environment main's envp (and, with the libc, `environ`) holds: `NAME=VALUE` strings
   * (KLEE's --environ / --env-file). Default DEFAULT_ENVIRONMENT: a fixed one, never the host's.
   */
  environment: string[];
  /**
   * KLEE's --optimize-array. 'value': symbolic-index reads of all-concrete objects become value
   * choices when memory is read (array-values.ts); 'index' and 'all' are the solver chain's
   * array-opt layer (ChainOptions.arrayOptimization: the solver must be made with it). Default 'none'.
   */
  optimizeArray: 'none' | 'index' | 'value' | 'all';
  /** Announce every instruction before it runs (KLEE's --debug-print-instructions), through ExploreEvents.onInstruction. */
  debugPrintInstructions?: 'all' | 'src' | 'compact';
  /** KLEE's --max-static-*-pct limits (fractions, 1 = off) and their check delay; undefined = off. */
  staticLimits?: StaticLimits;
  // ---------------------------------------------------------------- end KLEE options (issue 21)
  // ---- automatic state merging (paper 001; src/engine/merging/)
  /** --state-merging: 'static' runs states in topological order and merges at joins, 'dynamic' fast-forwards states about to meet a similar one under the --search searcher. Default 'none'. */
  stateMerging: StateMergingKind;
  /** QCE threshold α (--qce-alpha): a variable is hot where its query count exceeds α·Qt. Infinity merges whatever is compatible. Default 1e-12 (the paper's). */
  qceAlpha: number;
  /** QCE's Qt for the hot test (--qce-scope): 'stack', the paper's global count, or 'frame', each frame's own. Default 'frame'. */
  qceScope: 'stack' | 'frame';
  /** QCE's ite term (--qce-ite-term): a hot variable that feeds memory addresses must not become an ite. Default true. */
  qceIteTerm: boolean;
  /** The address rule at run time (--merge-pointer-rule, merging/pointers.ts): states whose live pointer values (registers, aligned memory cells) differ do not merge. Default true. */
  mergePointerRule: boolean;
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
  /**
   * Automatic merging: a merged state also writes a test for each merged-in path that covered
   * new code (--merge-witness-tests, default true), so the tests keep the exploration's
   * coverage. KLEE's manual merging (--use-merge) never does.
   */
  mergeWitnessTests: boolean;
  /** Seconds between two rows of run.stats (KLEE's --stats-write-interval; 0: none by time). Default 1. */
  statsWriteInterval: number;
  /** Also a run.stats row every this many instructions (--stats-write-after-instructions; 0: off). */
  statsWriteAfterInstructions: number;
  /** Seconds between two writes of run.istats (--istats-write-interval; 0: none by time). Default 10. */
  istatsWriteInterval: number;
  /** Also write run.istats every this many instructions (--istats-write-after-instructions; 0: off). */
  istatsWriteAfterInstructions: number;
  /** Write testNNNNNN.cov: the source lines the test's path covered before any other (--write-cov). */
  writeCov: boolean;
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
  /**
   * An exit of a quantified region with this many leaves or more is not merged: its states go
   * on unmerged (--max-states-to-merge, the artifact's option; 0: no limit). Default 10 000.
   */
  maxStatesToMerge: number;
  /**
   * A region exit's leaves that give no quantified merge (an invalid hash, more than
   * --max-patterns patterns, no formula pattern) are merged with ite (the paper's fallback to
   * standard merging: true) or go on unmerged (false) (--quantified-ite-fallback). Default
   * false: the ite-merged state's path condition is a disjunction of every leaf's path, which
   * made each later query cost more than the leaves' own paths (apr_collapse_spaces at N = 8:
   * 4.6 s against 2.2; README, "Quantified state merging").
   */
  quantifiedIteFallback: boolean;
  /** With --merge-mode=quantified: loops are merge regions (--quantified-loops; false: only klee_open_merge regions). Default true. */
  quantifiedLoops: boolean;
  /**
   * With --merge-mode=quantified: incremental merging (paper 000 §4; --use-incremental-merging):
   * a region's new tree leaf merges with the highest node whose state agrees on the live store,
   * and the region's states run breadth-first. Default true: the paper's PAT; bounded by the
   * give-ups below where it finds no partners (README, "Quantified state merging": header
   * ≥ 9× faster with it, url 1.2–1.4× slower, single loops the same).
   */
  useIncrementalMerging: boolean;
  /**
   * With --use-incremental-merging: a region whose last this-many new leaves in a row found no
   * merge partner gives incremental merging up (--incremental-merge-give-up; 0: never): its
   * tree and snapshots go, its states run in the base searcher's order again, and its exits
   * still merge by pattern. The partner search walks the region's tree per leaf and the
   * breadth-first order keeps every state alive, which is PAT's whole loss where no two
   * states agree (apr_collapse_spaces: 17 of 29 s in the search at N = 16). Default 128.
   */
  incrementalGiveUp: number;
  /**
   * An exit of a quantified region that reaches --max-states-to-merge leaves while the region
   * still runs lets them go on at once, and later arrivals there pass without pausing
   * (--release-unmerged-early; false: they wait for the region's release, as before). They
   * would not be merged either way; waiting keeps them all alive. Default true.
   */
  releaseUnmergedEarly: boolean;
  /**
   * With --use-incremental-merging: a region whose tree has made this many nodes gives
   * incremental merging up as --incremental-merge-give-up does (--incremental-merge-max-nodes;
   * 0: no bound). Its merges did not keep the tree small: apr_strnatcmp at N = 16
   * made 14 000 nodes (1 400 merges) breadth-first in 20 s where DFS takes 1.3 s. Default 4096.
   */
  incrementalMaxNodes: number;
  /** Check Theorem 3.7 (pc_std ⇔ ∃k. pc_pat, and the merged values) on every quantified merge (with --debug-validate-solver). Default false. */
  validateQuantifiedMerges: boolean;
  /**
   * Replay a test: klee_make_symbolic (and klee_int, klee_range) give the test's objects, in
   * order, instead of symbolic values, so the run follows the test's path concretely.
   */
  replay?: { objects: { name: string; bytes: Uint8Array }[] };
  /** Seeds the states follow first (KLEE's --seed-file, --seed-dir and their options; seeding/seeding.ts). Default: none. */
  seeding?: SeedingOptions;
}

/**
 * The environment a program sees without --environ: the same on every run and machine, and
 * consistent with the POSIX model (user `user`, uid 1000, home /home/user, working directory
 * /tmp). KLEE passes its own process's environment instead; tsklee never shows the host's.
 */
export const DEFAULT_ENVIRONMENT: readonly string[] = [
  'HOME=/home/user',
  'LANG=C',
  'LOGNAME=user',
  'PATH=/usr/local/bin:/usr/bin:/bin',
  'PWD=/tmp',
  'SHELL=/bin/sh',
  'TERM=dumb',
  'USER=user',
];

export const DEFAULT_OPTIONS: EngineOptions = {
  entryPoint: 'main',
  programArgs: [],
  programName: 'prog.bc',
  search: [],
  seed: 5489,
  maxTime: 0,
  maxCpuTime: 0,
  maxInstructions: 0,
  maxForks: -1,
  maxDepth: 0,
  maxMemory: 2000,
  maxMemoryInhibit: true,
  maxSolverTime: 0,
  onlyOutputStatesCoveringNew: false,
  emitAllErrors: false,
  exitOnErrorType: [],
  exitOnError: false,
  writeSmt2s: false,
  writeKQueries: false,
  checkDivZero: true,
  checkOvershift: true,
  overshiftAt: 'auto',
  dumpStatesOnHalt: true,
  libc: 'none',
  posixRuntime: false,
  quantum: 10000,
  maxStackFrames: 8192,
  useMerge: false,
  useIncompleteMerge: false,
  debugLogIncompleteMerge: false,
  statsWriteInterval: 1,
  statsWriteAfterInstructions: 0,
  istatsWriteInterval: 10,
  istatsWriteAfterInstructions: 0,
  writeCov: false,
  stateMerging: 'none',
  qceAlpha: 1e-12,
  qceScope: 'frame',
  qceIteTerm: true,
  mergePointerRule: true,
  qceBeta: 0.8,
  qceKappa: 10,
  dsmDelta: 8,
  maxStateMultiplicity: 0,
  debugLogMerge: false,
  mergeWitnessTests: true,
  // KLEE options (issue 21)
  switchType: 'internal',
  silentKleeAssume: false,
  kdalloc: false,
  readablePosixInputs: false,
  rewriteEqualities: true,
  functionAliases: [],
  externalCalls: 'concrete',
  maxSymArraySize: 0,
  makeConcreteSymbolic: 0,
  singleObjectResolution: false,
  addressing: 'concrete',
  useLocalSymAddr: false,
  segmentMerging: false,
  contextResolve: -1,
  reuseSegments: false,
  splitObjects: false,
  splitThreshold: 300,
  partitionSize: 128,
  checkAddressInvariants: false,
  iterativeDeepeningTime: false,
  writePaths: false,
  writeSymPaths: false,
  writeNoTests: false,
  writeTestInfo: false,
  writeCvcs: false,
  writeXmlTests: false,
  outputSource: true,
  environment: [...DEFAULT_ENVIRONMENT],
  optimizeArray: 'none',
  mergeMode: 'ite',
  maxPatterns: 10,
  maxStatesToMerge: 10_000,
  quantifiedIteFallback: false,
  quantifiedLoops: true,
  useIncrementalMerging: true,
  incrementalGiveUp: 128,
  releaseUnmergedEarly: true,
  incrementalMaxNodes: 4096,
  validateQuantifiedMerges: false,
};

export type MergeMode = 'ite' | 'quantified';

export function resolveOptions(o: Partial<EngineOptions> = {}): EngineOptions {
  const r: EngineOptions = { ...DEFAULT_OPTIONS };
  for (const [k, v] of Object.entries(o)) if (v !== undefined) (r as unknown as Record<string, unknown>)[k] = v;
  return r;
}
