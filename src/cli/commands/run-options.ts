/**
 * The options of `tsklee run`, as one table: each option's value type and help text. The
 * command's yargs builder is generated from it, and so is the pre-parser that accepts KLEE's
 * spellings (klee-args.ts: `-name=value`, `-name value`, `--name=value`, `-name` for booleans)
 * and names the nearest option when one is unknown. Adding an option = adding a row here (and
 * mapping it onto EngineOptions in run.ts).
 *
 * Rows are grouped by concern; each group is its own block so that work on different groups
 * merges cleanly.
 */
import { DEFAULT_OPTIONS } from '../../engine/options.js';
import { EXIT_ON_ERROR_NAMES } from '../../engine/errors.js';
import { SEARCH_NAMES } from '../../engine/searchers/index.js';
import { LIBC_CHOICES } from '../../engine/prepare/runtime.js';
import { SOLVER_BACKENDS } from '../../solver/index.js';
import { KLEE_BEHAVIOUR_OPTIONS } from './run-klee-options.js';
import { KLEE_NOTED_OPTIONS, KLEE_OUTPUT_OPTIONS } from './run-klee-output.js';
import { STATS_RUN_OPTIONS } from '../run-statistics.js';
import { ADDRESSING_OPTIONS } from './run-addressing.js';
import { SEED_OPTIONS } from './run-seed-options.js';

export type RunOptionType = 'boolean' | 'string' | 'number';

export interface RunOptionSpec {
  type: RunOptionType;
  describe: string;
  /** Other names for the same option (older KLEE spellings); the pre-parser maps them to the row's name. */
  aliases?: readonly string[];
  /**
   * May be given more than once (KLEE's cl::list: each occurrence adds values). Every other
   * option is KLEE's cl::opt, which LLVM refuses twice ("may only occur zero or one times").
   */
  repeatable?: boolean;
}

type Table = Record<string, RunOptionSpec>;

// ---------------------------------------------------------------- output and start-up
const OUTPUT_OPTIONS: Table = {
  'output-dir': { type: 'string', describe: 'directory for the results (default: klee-out-N beside the input)' },
  'entry-point': { type: 'string', describe: 'function to start in (default main)' },
  libc: { type: 'string', describe: `C library to link: ${LIBC_CHOICES.join(', ')} (tsklee's own, runtime/libc; default none)` },
  'posix-runtime': { type: 'boolean', describe: 'link the POSIX environment model (--sym-args, --sym-files, --sym-stdin … after the input)' },
};

// ---------------------------------------------------------------- search and limits
const SEARCH_OPTIONS: Table = {
  search: { type: 'string', describe: `searcher, repeatable (interleaved): ${SEARCH_NAMES.join(', ')} (default: random-path + nurs:covnew)`, repeatable: true },
  seed: { type: 'number', describe: `seed of the random choices (default ${DEFAULT_OPTIONS.seed})`, aliases: ['rng-initial-seed'] },
  'max-time': { type: 'string', describe: 'stop after this time (e.g. 30s, 5min); remaining states become tests' },
  'max-cpu-time': { type: 'string', describe: "stop after this much of the process's CPU time (user + system; e.g. 60s): a budget a loaded machine does not shrink" },
  'max-instructions': { type: 'number', describe: 'stop after this many instructions; KLEE 2: --stop-after-n-instructions', aliases: ['stop-after-n-instructions'] },
  'max-forks': { type: 'number', describe: 'stop forking after this many forks' },
  'max-depth': { type: 'number', describe: 'only allow this many symbolic branches per path' },
  'max-memory': {
    type: 'number',
    describe: `memory cap in MB (default ${DEFAULT_OPTIONS.maxMemory}; 0 = none): near it forking stops for a moment, over it states end (tests as KLEE writes them) so that exploration goes on`,
  },
  'max-memory-inhibit': { type: 'boolean', describe: 'inhibit forking near --max-memory, for 250 ms at most (default true; false: only end states over it)' },
  'max-solver-time': { type: 'string', describe: 'time limit per solver query (e.g. 10s)' },
  'dump-states-on-halt': { type: 'boolean', describe: 'write a test for each remaining state when stopped early (default true)' },
  'use-merge': { type: 'boolean', describe: "merge the states of a klee_open_merge/klee_close_merge region (KLEE's --use-merge)" },
  'use-incomplete-merge': { type: 'boolean', describe: 'with --use-merge: states at klee_close_merge do not wait for the whole region (prefer its states near the mean distance, else release the waiting ones)' },
  'debug-log-incomplete-merge': { type: 'boolean', describe: "log --use-incomplete-merge's decisions to messages.txt" },
  jobs: { type: 'number', describe: 'explore with up to N workers (default 1): path prefixes handed to idle workers, tests numbered once in one output directory; worker 0 runs in the main thread, the others start as --jobs-start-after says, at most one per core' },
  'jobs-start-after': { type: 'string', describe: 'with --jobs: one more worker starts each time the run has used this much CPU per worker running (default 1s) and has a state to hand over; 0 starts all N at once, beyond the cores too' },
};

// ---------------------------------------------------------------- checks and errors
const CHECK_OPTIONS: Table = {
  'check-div-zero': { type: 'boolean', describe: 'report divisions by zero (default true)' },
  'check-overshift': { type: 'boolean', describe: 'report shifts by at least the bit width (default true)' },
  'emit-all-errors': { type: 'boolean', describe: 'a test for every error, not one per (instruction, message)' },
  'exit-on-error-type': { type: 'string', describe: `stop at the first error of these kinds: ${Object.keys(EXIT_ON_ERROR_NAMES).join(', ')} (repeatable)`, repeatable: true },
  'exit-on-error': { type: 'boolean', describe: 'stop at the first error, without tests for the other states, and exit with status 1' },
  'overshift-at': {
    type: 'string',
    describe: 'where an over-wide shift is an error: shift (at the shift, as KLEE), use (where its poison is used: a branch, store, address, call, return), or auto: at the shift in optnone (clang -O0) functions (default auto)',
  },
};

// ---------------------------------------------------------------- test files
const TEST_FILE_OPTIONS: Table = {
  'only-output-states-covering-new': { type: 'boolean', describe: 'only write tests for paths that covered new code' },
  'write-smt2s': { type: 'boolean', describe: "write each test's path condition as SMT-LIB2 (testN.smt2), and every query the solver backend gets (solver-queries/)" },
  'write-kqueries': { type: 'boolean', describe: "write each test's path condition as KQuery (testN.kquery)" },
};

// ---------------------------------------------------------------- solver
const SOLVER_OPTIONS: Table = {
  'solver-backend': { type: 'string', describe: `solver: z3 (embedded wasm, default), or a process on PATH: ${SOLVER_BACKENDS.slice(1).join(', ')}` },
  'use-independent-solver': { type: 'boolean', describe: 'split queries into independent constraint sets (default true)' },
  'use-cex-cache': { type: 'boolean', describe: 'counterexample cache (default true)' },
  'use-branch-cache': { type: 'boolean', describe: 'cache of query results (default true)' },
  'use-fast-solver': { type: 'boolean', describe: "tsklee's exact solver for simple queries, before the backend (default true)" },
  'fast-solver-sampling': { type: 'boolean', describe: "when the fast solver's search gives up, try seeded random inputs for a model before the backend: branches on hashes and checksums (default true)" },
  'query-cache-size': { type: 'number', describe: 'entries per generation of the query cache; the least recently used beyond 2× are evicted (default 50000; 0 = unbounded, as KLEE)' },
  'cex-cache-size': { type: 'number', describe: 'keys per generation of the counterexample cache, evicted as above (default 20000; 0 = unbounded, as KLEE)' },
  'debug-validate-solver': { type: 'boolean', describe: "cross-check every solver answer against an oracle (default: the chain's own backend)" },
  'debug-validate-solver-backend': { type: 'string', describe: 'the oracle of --debug-validate-solver (a --solver-backend value)' },
};

// ---------------------------------------------------------------- array constraints (paper 002)
const ARRAY_OPTIONS: Table = {
  'array-encoding': { type: 'string', describe: "arrays: 'backend' (the solver's own arrays, default) or 'axioms' (tsklee's encoding: reads as bit-vectors plus generated array axioms)" },
  'array-axioms': { type: 'string', describe: 'with --array-encoding=axioms: plain, typed (pruned by access type) or typed-interval (and by index interval; default)' },
  'array-axiom-generation': { type: 'string', describe: 'with --array-encoding=axioms: lazy (CEGAR, default) or eager' },
  'ilp-precheck': { type: 'boolean', describe: 'answer array queries UNSAT by an ILP over linearised constraints before the solver (HiGHS; proofs checked exactly); over either --array-encoding' },
  'ilp-precheck-max-size': { type: 'number', describe: 'with --ilp-precheck: largest linearised system (variables + non-zeros) given to the ILP; bigger ones get exact propagation only (default 5000)' },
  'ilp-precheck-time': { type: 'number', describe: 'with --ilp-precheck: time limit of one ILP run in milliseconds (default 50)' },
  'ilp-precheck-min-hit-rate': { type: 'number', describe: 'with --ilp-precheck: switch the pre-check off for the rest of the run when fewer than this fraction of the last 100 pre-checked queries were answered (default 0.01; 0 = never)' },
  'debug-ilp-precheck-profile': { type: 'boolean', describe: 'with --ilp-precheck: one line per pre-checked query (linearised size, analysis and ILP time, verdict, time below) in ilp-precheck.txt' },
  'z3-constant-arrays': { type: 'string', describe: "constant arrays for the embedded z3: 'lambda' (default) or 'store-chain' (stores over a fresh array, as KLEE hands them to STP: paper 002's baseline)" },
};

// ---------------------------------------------------------------- state merging (paper 001)
const MERGING_OPTIONS: Table = {
  'state-merging': { type: 'string', describe: 'merge states automatically: none (default), static (topological order, merge at joins), dynamic (fast-forward states about to meet a similar one)' },
  'qce-alpha': { type: 'string', describe: 'query count estimation threshold α: variables whose estimated queries exceed α·Qt keep states apart (default 1e-12; inf merges all)' },
  'qce-scope': { type: 'string', describe: "QCE: the queries α is a fraction of: frame (each frame's own, default) or stack (the paper's global count)" },
  'qce-ite-term': { type: 'boolean', describe: "QCE's ite term: a hot variable that feeds memory addresses must not become an ite (default true; false: the paper's prototype)" },
  'merge-pointer-rule': { type: 'boolean', describe: 'automatic merging: states whose live pointers differ (registers, pointers stored in memory) stay apart instead of making symbolic addresses (default true)' },
  'qce-beta': { type: 'number', describe: 'QCE: probability that a branch side is feasible (default 0.8)' },
  'qce-kappa': { type: 'number', describe: 'QCE: trip count assumed for loops (default 10)' },
  'dsm-delta': { type: 'number', describe: 'dynamic merging: history length in basic blocks (default 8)' },
  'merge-witness-tests': { type: 'boolean', describe: 'automatic merging: a test for each merged-in path that covered new code (default true)' },
  'debug-log-merge': { type: 'boolean', describe: 'log every merge and refused merge (with the reason) to messages.txt: automatic merging, and klee_open_merge/klee_close_merge under --use-merge' },
  'max-state-multiplicity': { type: 'number', describe: 'do not merge into states standing for more paths than this (default: no limit)' },
};

// ---------------------------------------------------------------- quantified state merging (paper 000)
const QUANTIFIED_OPTIONS: Table = {
  'merge-mode': { type: 'string', describe: 'ite (default): merge with ite only; quantified: merge regions (input-dependent loops, klee_open_merge with --use-merge) by pattern, with one forall per partition (paper 000)' },
  'max-patterns': { type: 'number', describe: 'more regular patterns than this at a region exit: standard (ite) merging there (default 10)' },
  'max-states-to-merge': { type: 'number', describe: 'a quantified region exit with this many leaves or more is not merged: they go on unmerged (default 10000; 0: no limit)' },
  'quantified-ite-fallback': { type: 'boolean', describe: 'with --merge-mode=quantified: leaves of a region exit that give no quantified merge are merged with ite (the paper\'s standard-merging fallback); default false: they go on unmerged' },
  'use-incremental-merging': { type: 'boolean', describe: 'with --merge-mode=quantified: incremental merging (paper 000 §4): a new tree leaf merges with the highest node whose state agrees on the live store; region states run breadth-first (default true, as in the paper; --use-incremental-merging=false: PAT without it)' },
  'incremental-merge-give-up': { type: 'number', describe: 'with --use-incremental-merging: a region whose last N new leaves in a row found no merge partner stops incremental merging (its tree goes, its states run depth-first again; its exits still merge by pattern) (default 128; 0: never)' },
  'incremental-merge-max-nodes': { type: 'number', describe: 'with --use-incremental-merging: a region whose tree has made this many nodes stops incremental merging, as --incremental-merge-give-up (default 4096; 0: no bound)' },
  'release-unmerged-early': { type: 'boolean', describe: 'with --merge-mode=quantified: an exit that reaches --max-states-to-merge leaves lets them go on at once, and later arrivals pass it unpaused (default true; false: they wait for the region\'s release)' },
  'quantified-loops': { type: 'boolean', describe: 'with --merge-mode=quantified: loops whose exits depend on input are merge regions (default true)' },
  'quantifier-stripping': { type: 'boolean', describe: 'quantified queries: stage 1, strip the quantifiers (default true; false: straight to the fallback)' },
  'quantifier-ematching': { type: 'boolean', describe: 'quantified queries: E-matching lemmas when stripping (default true)' },
  'quantifier-duplication': { type: 'boolean', describe: 'quantified queries: stage 2, duplicate array values along the quantifier (default true)' },
  'quantifier-repair': { type: 'boolean', describe: 'quantified queries: stage 3, repair conflicting cells (default true)' },
  'quantifier-fallback': { type: 'string', describe: "quantified queries: stage 4, 'backend' (z3's quantifier engine, default) or 'expand' (the quantifier-free expansion over k's range)" },
  'quantifier-fallback-time': { type: 'string', describe: "time limit of the backend in stage 4 (KLEE's time spans; default 10s)" },
};

/** Every option of `tsklee run`, by name. */
export const RUN_OPTIONS: Readonly<Table> = {
  ...OUTPUT_OPTIONS,
  ...SEARCH_OPTIONS,
  ...CHECK_OPTIONS,
  ...TEST_FILE_OPTIONS,
  ...SOLVER_OPTIONS,
  ...ARRAY_OPTIONS,
  ...MERGING_OPTIONS,
  ...QUANTIFIED_OPTIONS,
  // memory model, paper 003 (run-addressing.ts)
  ...ADDRESSING_OPTIONS,
  // statistics files (run-statistics.ts)
  ...(STATS_RUN_OPTIONS as Table),
  // KLEE's options of issue 21 (run-klee-options.ts)
  ...KLEE_BEHAVIOUR_OPTIONS,
  ...KLEE_OUTPUT_OPTIONS,
  ...KLEE_NOTED_OPTIONS,
  // seeding (run-seed-options.ts)
  ...SEED_OPTIONS,
};
