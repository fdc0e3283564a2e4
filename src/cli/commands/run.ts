/**
 * `tsklee run [options] prog.bc|prog.ll|prog.c [program args]`: explore every path of a
 * program (KLEE's `klee` command). A `.c` file is compiled first, a `.ll` assembled
 * (../input-file.ts).
 *
 * Writes klee-out-N/ beside the input (or --output-dir): a .ktest per path, .err reports,
 * info, messages.txt, warnings.txt, run.stats. Prints KLEE's summary as `KLEE: done: …`
 * lines on stderr (the info file keeps KLEE's `KLEE: done:` wording for scripts).
 * --max-time, --max-instructions and Ctrl-C stop the run cleanly: the tests found stay.
 * As in KLEE, tsklee's options go before the input and everything after it is the program's,
 * untouched (`tsklee run --libc=tsklee --posix-runtime prog.bc --sym-args 0 2 4 -n`): the CLI
 * rewrites the options into one form and inserts a `--` after the input (separateProgramArgs,
 * ../klee-args.ts); a `--` given right after it is dropped.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { createOutputDir, formatDoneSummary, formatInfoFooter, formatInfoHeader, writeFileAtomic, type RunDoneStats } from '../../output/index.js';
import { explore } from '../../engine/explore.js';
import { buildChain, createBackend, HighsIlp, isExternalBackend, resolveBackend, SOLVER_BACKENDS, SolverSetupError, Z3Solver, z3HeapBounds, type Solver, type SolverBackendName, type SolverOptions } from '../../solver/index.js';
import { countingBackend } from '../../solver/solver.js';
import { tskleeColumns } from '../../engine/stats-columns.js';
import { formatCoveredInstructions, statsEngineOptions, statsFilesWanted, statsSinks, writeCoverage, type StatsRunArgs } from '../run-statistics.js';
import { DEFAULT_OPTIONS, resolveOptions, type EngineOptions } from '../../engine/options.js';
import { EXIT_ON_ERROR_NAMES } from '../../engine/errors.js';
import { EngineSetupError } from '../../engine/executor.js';
import { EXIT_ON_ERROR_PREFIX } from '../../engine/test-output.js';
import { resolveSearchNames, SearcherConfigError } from '../../engine/searchers/index.js';
import { LIBC_CHOICES, loadProgram, RuntimeSetupError, type LibcChoice } from '../../engine/prepare/runtime.js';
import type { GlobalArgs } from '../context.js';
import { KleeError, ReportedError, UsageError } from '../errors.js';
import { addressingOptions, type AddressingArgs } from './run-addressing.js';
import { ProgressLine } from '../progress.js';
import { formatMergingSummary } from '../../engine/merging/summary.js';

import { normalizeKleeArgs, tableLookup } from '../klee-args.js';
import { RUN_OPTIONS } from './run-options.js';
import { parseTimeSpan } from './time-span.js';
import { kleeBehaviourOptions, type KleeBehaviourArgs } from './run-klee-options.js';
import { instructionTrace, kleeOutputOptions, notedOptionWarnings, queryLogs, type KleeOutputArgs } from './run-klee-output.js';
import { LineSink } from '../line-sink.js';
import { seedingOptions, type SeedArgs } from './run-seed-options.js';
import { seedingConflict } from '../../engine/seeding/seeding.js';
import { formatXmlMetadata } from '../../output/test-xml.js';
import { LoggingSolver } from '../../solver/logging-solver.js';
import { printModule } from '../../ir/printer/index.js';
import { warnLine } from '../context.js';
import { CONSOLE_PREFIXES, DEFAULT_CONSOLE_PREFIX, consoleText, consoleWrite, setConsolePrefix } from '../console.js';
import { inputBitcode, needsTranslation, optimizeBitcode } from '../input-file.js';
import { parallelRefusals, runParallel } from '../run-parallel.js';

interface RunArgs extends GlobalArgs, KleeBehaviourArgs, KleeOutputArgs, StatsRunArgs, SeedArgs, AddressingArgs {
  input: string;
  args: string[];
  outputDir?: string;
  search?: string | string[];
  seed?: number;
  maxTime?: string;
  maxCpuTime?: string;
  maxInstructions?: number;
  maxForks?: number;
  maxDepth?: number;
  maxMemory?: number;
  maxMemoryInhibit?: boolean;
  maxSolverTime?: string;
  onlyOutputStatesCoveringNew?: boolean;
  emitAllErrors?: boolean;
  exitOnErrorType?: string | string[];
  exitOnError?: boolean;
  writeSmt2s?: boolean;
  writeKqueries?: boolean;
  entryPoint?: string;
  libc?: string;
  posixRuntime?: boolean;
  '--'?: string[];
  checkDivZero?: boolean;
  checkOvershift?: boolean;
  overshiftAt?: string;
  dumpStatesOnHalt?: boolean;
  useMerge?: boolean;
  useIncompleteMerge?: boolean;
  debugLogIncompleteMerge?: boolean;
  solverBackend?: string;
  useIndependentSolver?: boolean;
  useCexCache?: boolean;
  useBranchCache?: boolean;
  useFastSolver?: boolean;
  fastSolverSampling?: boolean;
  queryCacheSize?: number;
  cexCacheSize?: number;
  debugValidateSolver?: boolean;
  debugValidateSolverBackend?: string;
  arrayEncoding?: string;
  arrayAxioms?: string;
  arrayAxiomGeneration?: string;
  ilpPrecheck?: boolean;
  ilpPrecheckMaxSize?: number;
  ilpPrecheckTime?: number;
  ilpPrecheckMinHitRate?: number;
  debugIlpPrecheckProfile?: boolean;
  z3ConstantArrays?: string;
  // state merging (paper 001)
  stateMerging?: string;
  qceAlpha?: string;
  qceScope?: string;
  qceIteTerm?: boolean;
  mergePointerRule?: boolean;
  qceBeta?: number;
  qceKappa?: number;
  dsmDelta?: number;
  maxStateMultiplicity?: number;
  debugLogMerge?: boolean;
  mergeWitnessTests?: boolean;
  // quantified state merging (paper 000)
  mergeMode?: string;
  maxPatterns?: number;
  maxStatesToMerge?: number;
  quantifiedIteFallback?: boolean;
  quantifiedLoops?: boolean;
  useIncrementalMerging?: boolean;
  incrementalMergeGiveUp?: number;
  releaseUnmergedEarly?: boolean;
  incrementalMergeMaxNodes?: number;
  quantifierStripping?: boolean;
  quantifierEmatching?: boolean;
  quantifierDuplication?: boolean;
  quantifierRepair?: boolean;
  quantifierFallback?: string;
  quantifierFallbackTime?: string;
  jobs?: number;
  jobsStartAfter?: string;
}

const ARRAY_ENCODINGS = ['backend', 'axioms'] as const;
const MERGE_MODES = ['ite', 'quantified'] as const;
const QUANTIFIER_FALLBACKS = ['backend', 'expand'] as const;
const ARRAY_AXIOMS = ['plain', 'typed', 'typed-interval'] as const;
const AXIOM_GENERATIONS = ['lazy', 'eager'] as const;
const CONSTANT_ARRAYS = ['lambda', 'store-chain'] as const;

/** --ilp-precheck's budget options, checked. */
function precheckBudget(argv: RunArgs): SolverOptions['ilpPrecheckBudget'] {
  const num = (v: number | undefined, option: string, ok: (n: number) => boolean, what: string): number | undefined => {
    if (v === undefined) return undefined;
    if (!ok(v)) throw new UsageError(`--${option}=${v}: expected ${what}`);
    return v;
  };
  return {
    maxSize: num(argv.ilpPrecheckMaxSize, 'ilp-precheck-max-size', (n) => Number.isInteger(n) && n >= 0, 'an integer ≥ 0'),
    ilpTimeMs: num(argv.ilpPrecheckTime, 'ilp-precheck-time', (n) => n > 0, 'milliseconds > 0'),
    minHitRate: num(argv.ilpPrecheckMinHitRate, 'ilp-precheck-min-hit-rate', (n) => n >= 0 && n <= 1, 'a fraction in [0, 1]'),
  };
}

/** A value of one of the array options, checked. */
function choice<T extends string>(v: string | undefined, choices: readonly T[], option: string): T | undefined {
  if (v === undefined) return undefined;
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(`--${option}=${v}: expected one of ${choices.join(', ')}`);
  return v as T;
}

/** --state-merging and the QCE/DSM parameters, checked. */
function mergingOptions(argv: RunArgs): Partial<EngineOptions> {
  const kind = argv.stateMerging ?? 'none';
  if (kind !== 'none' && kind !== 'static' && kind !== 'dynamic') throw new UsageError(`--state-merging=${kind}: expected none, static or dynamic`);
  let alpha: number | undefined;
  if (argv.qceAlpha !== undefined) {
    alpha = /^(inf|infinity)$/i.test(argv.qceAlpha) ? Infinity : Number(argv.qceAlpha);
    if (!(alpha >= 0)) throw new UsageError(`--qce-alpha=${argv.qceAlpha}: expected a number ≥ 0 or inf`);
  }
  if (argv.qceBeta !== undefined && !(argv.qceBeta > 0 && argv.qceBeta <= 1)) throw new UsageError(`--qce-beta=${argv.qceBeta}: expected a number in (0, 1]`);
  if (argv.qceKappa !== undefined && !(Number.isInteger(argv.qceKappa) && argv.qceKappa >= 1)) throw new UsageError(`--qce-kappa=${argv.qceKappa}: expected an integer ≥ 1`);
  if (argv.useIncrementalMerging === true && argv.mergeMode !== 'quantified') throw new UsageError('--use-incremental-merging needs --merge-mode=quantified');
  if (argv.maxPatterns !== undefined && !(Number.isInteger(argv.maxPatterns) && argv.maxPatterns >= 1)) throw new UsageError(`--max-patterns=${argv.maxPatterns}: expected an integer ≥ 1`);
  if (argv.incrementalMergeGiveUp !== undefined && !(Number.isInteger(argv.incrementalMergeGiveUp) && argv.incrementalMergeGiveUp >= 0)) throw new UsageError(`--incremental-merge-give-up=${argv.incrementalMergeGiveUp}: expected an integer ≥ 0`);
  if (argv.incrementalMergeMaxNodes !== undefined && !(Number.isInteger(argv.incrementalMergeMaxNodes) && argv.incrementalMergeMaxNodes >= 0)) throw new UsageError(`--incremental-merge-max-nodes=${argv.incrementalMergeMaxNodes}: expected an integer ≥ 0`);
  if (argv.maxStatesToMerge !== undefined && !(Number.isInteger(argv.maxStatesToMerge) && argv.maxStatesToMerge >= 0)) throw new UsageError(`--max-states-to-merge=${argv.maxStatesToMerge}: expected an integer ≥ 0`);
  if (argv.dsmDelta !== undefined && !(Number.isInteger(argv.dsmDelta) && argv.dsmDelta >= 1)) throw new UsageError(`--dsm-delta=${argv.dsmDelta}: expected an integer ≥ 1`);
  return {
    stateMerging: kind,
    mergeMode: choice(argv.mergeMode, MERGE_MODES, 'merge-mode'),
    maxPatterns: argv.maxPatterns,
    maxStatesToMerge: argv.maxStatesToMerge,
    quantifiedIteFallback: argv.quantifiedIteFallback,
    quantifiedLoops: argv.quantifiedLoops,
    useIncrementalMerging: argv.useIncrementalMerging,
    incrementalGiveUp: argv.incrementalMergeGiveUp,
    releaseUnmergedEarly: argv.releaseUnmergedEarly,
    incrementalMaxNodes: argv.incrementalMergeMaxNodes,
    validateQuantifiedMerges: argv.debugValidateSolver,
    qceAlpha: alpha,
    qceScope: choice(argv.qceScope, ['stack', 'frame'] as const, 'qce-scope'),
    qceIteTerm: argv.qceIteTerm,
    mergePointerRule: argv.mergePointerRule,
    qceBeta: argv.qceBeta,
    qceKappa: argv.qceKappa,
    dsmDelta: argv.dsmDelta,
    maxStateMultiplicity: argv.maxStateMultiplicity,
    debugLogMerge: argv.debugLogMerge,
    mergeWitnessTests: argv.mergeWitnessTests,
  };
}

/**
 * --libc: tsklee's own C library stands in for KLEE's two: `klee` (KLEE's minimal libc)
 * silently, `uclibc` with a one-line note (its behaviour is glibc's, not uClibc's).
 */
function libcChoice(v: string | undefined): LibcChoice {
  if (v === 'klee') return 'tsklee';
  if (v === 'uclibc') {
    warnLine("--libc=uclibc: tsklee links its own C library (as --libc=tsklee); it follows glibc's behaviour, not klee-uclibc's");
    return 'tsklee';
  }
  const libc = (v ?? 'none') as LibcChoice;
  if (!LIBC_CHOICES.includes(libc)) throw new UsageError(`--libc=${v}: unknown C library (choices: ${[...LIBC_CHOICES, 'klee', 'uclibc'].join(', ')})`);
  return libc;
}

/** KLEE's solver backends that tsklee does not have. */
const KLEE_ONLY_BACKENDS = ['stp', 'metasmt', 'dummy'];

/** A --solver-backend style value, checked (and an external solver's binary located) before anything is written. */
function solverBackendArg(v: string | undefined, option: string): SolverBackendName {
  const given = v ?? 'z3';
  if (KLEE_ONLY_BACKENDS.includes(given)) {
    const what = given === 'metasmt' ? 'metaSMT' : given === 'stp' ? 'STP' : 'dummy solver';
    throw new UsageError(`--${option}=${given}: tsklee has no ${what} backend; use one of ${SOLVER_BACKENDS.join(', ')}`);
  }
  const name = given as SolverBackendName;
  if (!SOLVER_BACKENDS.includes(name)) throw new UsageError(`--${option}=${v}: unknown solver backend (${SOLVER_BACKENDS.join(', ')})`);
  if (isExternalBackend(name)) resolveBackend(name);
  return name;
}

export { parseTimeSpan } from './time-span.js';

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return ([] as string[]).concat(v).flatMap((x) => x.split(',')).filter((x) => x !== '');
}

/**
 * `tsklee … run [options] INPUT ARGS…` in yargs' form: KLEE's option spellings accepted
 * (klee-args.ts), then INPUT, `--`, and the program's arguments untouched. An unknown option
 * is a UsageError naming the nearest one. Other commands are returned unchanged.
 */
export function separateProgramArgs(args: readonly string[]): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('--log-level')) i += args[i]!.includes('=') ? 1 : 2;
  if (args[i] !== 'run') return [...args];
  return normalizeKleeArgs(args, i + 1, tableLookup(RUN_OPTIONS));
}

/** The table's options on a yargs builder. */
function withRunOptions(y: Argv<GlobalArgs>): Argv<GlobalArgs> {
  for (const [name, spec] of Object.entries(RUN_OPTIONS)) y = y.option(name, { type: spec.type, describe: spec.describe });
  return y;
}

/** How long a solver query may run on past --max-time (or --max-cpu-time) before it is stopped. */
const MAX_TIME_GRACE_MS = 5000;
/**
 * --jobs: CPU seconds of the run per worker running before one more starts (one more costs
 * ~1–2.5 s of CPU: its isolate's start-up, JIT and replays; a run that has lasted this long is
 * taken to last about as long again).
 */
const DEFAULT_JOBS_START_AFTER_S = 1;

export const runCommand: CommandModule<GlobalArgs, RunArgs> = {
  command: 'run <input> [args..]',
  describe: 'Symbolically execute a program: every feasible path, a test per path, a report per bug (like klee)',
  builder: (y: Argv<GlobalArgs>) =>
    withRunOptions(y)
      .positional('input', { type: 'string', demandOption: true, describe: 'bitcode (.bc), textual IR (.ll, assembled with llvm-as) or C (.c, compiled with clang-19)' })
      .positional('args', { type: 'string', array: true, default: [], describe: "the program's arguments (argv[1..])" })
      .parserConfiguration({ 'populate--': true, 'parse-positional-numbers': false })
      .example('$0 run prog.bc', '')
      .example('$0 run --libc=tsklee --posix-runtime prog.bc --sym-args 0 2 4 --sym-files 1 8', '')
      .example('$0 run --search=dfs --max-time=30s prog.c', '') as unknown as Argv<RunArgs>,
  handler: async (argv) => {
    const input = argv.input;
    setConsolePrefix(choice(argv.consolePrefix, CONSOLE_PREFIXES, 'console-prefix') ?? DEFAULT_CONSOLE_PREFIX);
    const libc = libcChoice(argv.libc);
    const posixRuntime = argv.posixRuntime === true;
    // KLEE's options (run-klee-options.ts), checked before anything is read or written
    const klee = { ...kleeBehaviourOptions(argv), ...kleeOutputOptions(argv) };
    const seeding = seedingOptions(argv);
    const conflict = seeding !== undefined ? seedingConflict(argv) : null;
    if (conflict !== null) throw new UsageError(conflict);
    const logs = queryLogs(argv.useQueryLog);
    for (const note of notedOptionWarnings(argv as unknown as Record<string, unknown>)) warnLine(note);
    if ((argv.useIncompleteMerge === true || argv.debugLogIncompleteMerge === true) && argv.useMerge !== true) warnLine('--use-incomplete-merge: has no effect without --use-merge');
    for (const n of list(argv.exitOnErrorType)) {
      if (EXIT_ON_ERROR_NAMES[n] === undefined) throw new UsageError(`--exit-on-error-type: unknown error type '${n}' (${Object.keys(EXIT_ON_ERROR_NAMES).join(', ')})`);
    }
    let tmp: string | undefined;
    let bcPath = input;
    if (needsTranslation(input) || argv.optimize === true) {
      tmp = mkdtempSync(join(tmpdir(), 'tsklee-cc-'));
      bcPath = inputBitcode(input, tmp);
      if (argv.optimize === true) bcPath = optimizeBitcode(bcPath, tmp);
    }
    // Start the solver backend (WebAssembly compilation runs in the background) while the
    // module is read; the chain goes on top once the output directory (--write-smt2s) exists.
    const solverTimeout = argv.maxSolverTime !== undefined ? parseTimeSpan(argv.maxSolverTime, 'max-solver-time') : 0;
    const solverOpts: SolverOptions = {
      timeoutMs: solverTimeout > 0 ? solverTimeout * 1000 : undefined,
      useIndependentSolver: argv.useIndependentSolver,
      useCexCache: argv.useCexCache,
      useBranchCache: argv.useBranchCache,
      useFastSolver: argv.useFastSolver,
      fastSolverSampling: argv.fastSolverSampling,
      queryCacheCapacity: argv.queryCacheSize,
      cexCacheCapacity: argv.cexCacheSize,
      // KLEE's assignment-validating solver is part of tsklee's validating layer
      debugValidateSolver: argv.debugValidateSolver === true || argv.debugAssignmentValidatingSolver === true ? true : argv.debugValidateSolver,
      arrayEncoding: choice(argv.arrayEncoding, ARRAY_ENCODINGS, 'array-encoding'),
      arrayAxioms: choice(argv.arrayAxioms, ARRAY_AXIOMS, 'array-axioms'),
      arrayAxiomGeneration: choice(argv.arrayAxiomGeneration, AXIOM_GENERATIONS, 'array-axiom-generation'),
      ilpPrecheck: argv.ilpPrecheck,
      ilpPrecheckBudget: precheckBudget(argv),
      z3ConstantArrays: choice(argv.z3ConstantArrays, CONSTANT_ARRAYS, 'z3-constant-arrays'),
      // index and all are rewrites in the chain; value is done when memory is read
      arrayOptimization: klee.optimizeArray === 'index' || klee.optimizeArray === 'all' ? klee.optimizeArray : undefined,
      quantifiers: choice(argv.mergeMode, MERGE_MODES, 'merge-mode') === 'quantified',
      quantifierOptions: {
        strip: argv.quantifierStripping,
        ematching: argv.quantifierEmatching,
        duplicate: argv.quantifierDuplication,
        repair: argv.quantifierRepair,
        fallback: choice(argv.quantifierFallback, QUANTIFIER_FALLBACKS, 'quantifier-fallback'),
      },
    };
    const jobs = argv.jobs ?? 1;
    if (!(Number.isInteger(jobs) && jobs >= 1)) throw new UsageError(`--jobs=${argv.jobs}: expected an integer ≥ 1`);
    if (jobs > 1) {
      // seeding runs seeded states first, in one searcher: not split by path prefixes (yet)
      if (seeding !== undefined) throw new UsageError('--jobs: seeding (--seed-file/--seed-dir) is not supported in a parallel exploration');
      const refused = parallelRefusals(argv as unknown as Record<string, unknown>);
      if (refused !== null) throw new UsageError(refused);
    }
    const startAfterCpuMs = Math.round(1000 * (argv.jobsStartAfter !== undefined ? parseTimeSpan(argv.jobsStartAfter, 'jobs-start-after') : DEFAULT_JOBS_START_AFTER_S));
    const fallbackTime = argv.quantifierFallbackTime !== undefined ? parseTimeSpan(argv.quantifierFallbackTime, 'quantifier-fallback-time') : 10;
    let solver: Solver | undefined;
    let coreP: Promise<Solver> | undefined;
    let oracleP: Promise<Solver> | undefined;
    let outPath: string | undefined;
    try {
      const maxMemoryMB = argv.maxMemory ?? DEFAULT_OPTIONS.maxMemory;
      // --max-time bounds a solver query too (KLEE's would run on past it): one still running
      // MAX_TIME_GRACE_MS after the run's end is stopped, those after it are short
      const maxTimeS = argv.maxTime !== undefined ? parseTimeSpan(argv.maxTime, 'max-time') : 0;
      const stopAt = maxTimeS > 0 ? Date.now() + maxTimeS * 1000 + MAX_TIME_GRACE_MS : undefined;
      // --max-cpu-time the same way, in the process's CPU time (the embedded z3 only)
      const maxCpuS = argv.maxCpuTime !== undefined ? parseTimeSpan(argv.maxCpuTime, 'max-cpu-time') : 0;
      const cpuNow = process.cpuUsage();
      const cpuStopAtUs = maxCpuS > 0 ? cpuNow.user + cpuNow.system + (maxCpuS * 1000 + MAX_TIME_GRACE_MS) * 1000 : undefined;
      const backendName = solverBackendArg(argv.solverBackend, 'solver-backend');
      // a parallel exploration's workers start their own solvers
      if (argv.debugIlpPrecheckProfile === true && solverOpts.ilpPrecheck !== true) throw new UsageError('--debug-ilp-precheck-profile: needs --ilp-precheck');
      if (solverOpts.z3ConstantArrays !== undefined && backendName !== 'z3') throw new UsageError(`--z3-constant-arrays: the backend is ${backendName}, not the embedded z3`);
      coreP = jobs > 1 ? undefined : createBackend(backendName, solverOpts.timeoutMs, maxMemoryMB, stopAt, { constantArrays: solverOpts.z3ConstantArrays, cpuStopAtUs });
      coreP?.catch(() => {}); // reported where it is awaited
      if (argv.debugValidateSolver === true && argv.debugValidateSolverBackend !== undefined) {
        oracleP = createBackend(solverBackendArg(argv.debugValidateSolverBackend, 'debug-validate-solver-backend'), solverOpts.timeoutMs, maxMemoryMB);
        oracleP.catch(() => {});
      }
      const runtimeChoice = { libc, posixRuntime, libcOnDemand: klee.externalCalls !== 'none', userMain: posixRuntime ? argv.entryPoint : undefined };
      const loaded = await loadProgram([bcPath], runtimeChoice, { onWarning: (m) => process.stderr.write(`tsklee: warning: ${m}\n`) });
      const { module, entryPoint } = loaded;
      const opts: Partial<EngineOptions> = {
        // an earlier run of the same files with the same choices printed the same assembly.ll
        assemblyCacheKey: { files: loaded.files, options: JSON.stringify(runtimeChoice) },
        // under --posix-runtime, --entry-point names the function the wrapper calls (as KLEE)
        entryPoint: posixRuntime ? entryPoint : (argv.entryPoint ?? (entryPoint !== 'main' ? entryPoint : undefined)),
        programName: input,
        programArgs: [...(argv.args ?? []), ...(argv['--'] ?? [])].map(String),
        search: list(argv.search),
        seed: argv.seed,
        maxTime: argv.maxTime !== undefined ? parseTimeSpan(argv.maxTime, 'max-time') : undefined,
        maxCpuTime: argv.maxCpuTime !== undefined ? parseTimeSpan(argv.maxCpuTime, 'max-cpu-time') : undefined,
        maxInstructions: argv.maxInstructions,
        maxForks: argv.maxForks,
        maxDepth: argv.maxDepth,
        maxMemory: argv.maxMemory,
        maxMemoryInhibit: argv.maxMemoryInhibit,
        maxSolverTime: argv.maxSolverTime !== undefined ? parseTimeSpan(argv.maxSolverTime, 'max-solver-time') : undefined,
        onlyOutputStatesCoveringNew: argv.onlyOutputStatesCoveringNew,
        emitAllErrors: argv.emitAllErrors,
        exitOnErrorType: list(argv.exitOnErrorType),
        exitOnError: argv.exitOnError,
        writeSmt2s: argv.writeSmt2s,
        writeKQueries: argv.writeKqueries,
        checkDivZero: argv.checkDivZero,
        checkOvershift: argv.checkOvershift,
        overshiftAt: choice(argv.overshiftAt, ['auto', 'shift', 'use'] as const, 'overshift-at'),
        dumpStatesOnHalt: argv.dumpStatesOnHalt,
        useMerge: argv.useMerge,
        useIncompleteMerge: argv.useIncompleteMerge,
        debugLogIncompleteMerge: argv.debugLogIncompleteMerge,
        ...mergingOptions(argv),
        ...addressingOptions(argv),
        libc: loaded.libc,
        posixRuntime,
        ...klee,
        ...statsEngineOptions(argv),
        seeding,
      };
      // Everything that can be refused is checked before the output directory exists.
      resolveSearchNames(opts.search ?? []);
      for (const a of klee.functionAliases ?? []) {
        if (module.getFunction(a.target) === undefined) throw new UsageError(`--function-alias=${a.pattern}:${a.target}: no function named '${a.target}' in the program`);
      }
      const entry = module.getFunction(opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint);
      if (entry === undefined || entry.isDeclaration) throw new EngineSetupError(`Entry function '${opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint}' not found in module.`);
      if (jobs > 1) {
        const load = { libc, posixRuntime, libcOnDemand: klee.externalCalls !== 'none', userMain: posixRuntime ? argv.entryPoint : undefined };
        const statsFiles = { cmd: input, lcovName: basename(input).replace(/\.[^.]*$/, ''), commitEvery: argv.statsCommitAfter, relocationColumns: argv.addressing === 'relocatable' };
        await runParallel({ jobs, input, bitcode: resolve(bcPath), outputDir: argv.outputDir, load, engine: opts, backend: backendName, solver: solverOpts, statsFiles, loaded, startAfterCpuMs, ...(stopAt !== undefined ? { solverStopAt: stopAt } : {}), onOutputDir: (p) => (outPath = p) });
        return;
      }
      const core = (await coreP)!;
      const oracle = await oracleP;
      // stage 4's own z3, under the fallback's time limit (the core keeps --max-solver-time)
      if (solverOpts.quantifiers === true) solverOpts.quantifierBackend = new Z3Solver({ timeoutMs: Math.max(1, Math.round(fallbackTime * 1000)), ...z3HeapBounds(maxMemoryMB) });
      if (solverOpts.ilpPrecheck === true) solverOpts.ilp = await HighsIlp.create();
      const out = createOutputDir({ outputDir: argv.outputDir, base: dirname(resolve(input)) });
      outPath = out.path;
      consoleWrite(`output directory is "${out.path}"`);
      // --write-smt2s: besides each test's path condition, every query the backend gets
      const precheckProfile = argv.debugIlpPrecheckProfile === true && solverOpts.ilpPrecheck === true ? new LineSink(null, out.file('ilp-precheck.txt')) : undefined;
      if (precheckProfile !== undefined) solverOpts.ilpPrecheckProfile = (line) => precheckProfile.write(line);
      solver = buildChain(core, { ...solverOpts, validationOracle: oracle, smt2Dir: argv.writeSmt2s === true || logs.solver ? out.file('solver-queries') : undefined });
      // --use-query-log=all:…: every query the engine asks, above the whole chain
      if (logs.all) solver = new LoggingSolver(solver, { dir: out.file('all-queries'), layer: 'all-queries-log' });
      if (argv.writeXmlTests === true) {
        writeFileAtomic(
          out.file('metadata.xml'),
          formatXmlMetadata({
            programFile: argv.xmlMetadataProgramfile ?? input,
            programHash: argv.xmlMetadataProgramhash ?? '',
            entryFunction: opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint,
            bugFinding: argv.exitOnError === true,
            producer: 'tsklee',
            creationTime: new Date(),
          }),
        );
      }
      // --output-module: the module as it is executed (tsklee writes LLVM text, not bitcode)
      if (argv.outputModule === true) writeFileAtomic(out.file('final.ll'), printModule(module));
      const start = new Date();
      const commandLine = ['tsklee', ...process.argv.slice(2)];
      out.writeInfo(formatInfoHeader({ argv: commandLine, pid: process.pid, start }));
      const wanted = statsFilesWanted(resolveOptions(opts));
      const stats = wanted.stats ? await out.openRunStats({ extraColumns: tskleeColumns(solver.stats(), argv.addressing === 'relocatable'), commitEvery: argv.statsCommitAfter }) : null;
      let interrupted: string | null = null;
      const progress = ProgressLine.forStream(process.stderr);
      const onSigint = (): void => {
        if (interrupted !== null) process.exit(130);
        interrupted = 'ctrl-c detected, requesting interpreter to halt.';
        progress?.clear();
        consoleWrite(interrupted);
        out.appendMessage(interrupted);
      };
      process.on('SIGINT', onSigint);
      const traceTo = instructionTrace(argv.debugPrintInstructions);
      const trace = traceTo !== undefined ? new LineSink(traceTo.stderr ? 2 : null, traceTo.file ? out.file('instructions.txt') : null) : undefined;
      try {
        // the output directory, plus the files the engine may add (assembly.ll)
        const output = {
          writeTest: out.writeTest.bind(out),
          appendMessage: out.appendMessage.bind(out),
          appendWarning: out.appendWarning.bind(out),
          writeFile: (name: string, text: string) => writeFileAtomic(out.file(name), text),
        };
        const r = await explore(module, opts, {
          solver,
          output,
          shouldStop: () => interrupted,
          onStart: (ex) => progress?.start(ex),
          statistics: { ...statsSinks(out, stats, wanted.istats, input), backend: countingBackend(core) },
          events: {
            onInstruction: trace === undefined ? undefined : (line) => trace.write(line),
            onProgramOutput:
              argv.echoProgramOutput !== false
                ? (fd, bytes) => {
                    progress?.clear();
                    (fd === 1 ? process.stdout : process.stderr).write(bytes);
                  }
                : undefined,
            onLog: (line, kind) => {
              if (kind === 'warning' && argv.warningsOnlyToFile === true) return; // warnings.txt has it
              progress?.clear();
              if (kind === 'print') process.stderr.write(`${line}\n`);
              else consoleWrite(line);
            },
          },
        });
        progress?.stop();
        const q = r.statistics!.queryTotals();
        const done: RunDoneStats = {
          forks: r.forks,
          queries: q.queries,
          queriesValid: q.valid,
          queriesInvalid: q.invalid,
          queryCex: q.cex,
          queryConstructs: q.constructs,
          instructions: r.instructions,
          completedPaths: r.completedPaths,
          partiallyCompletedPaths: r.exploredPaths - r.completedPaths,
          generatedTests: r.generatedTests,
        };
        const end = new Date();
        out.writeInfo(
          formatInfoHeader({ argv: commandLine, pid: process.pid, start, searcher: r.searcher }) +
            formatInfoFooter({ start, end, haltReason: r.haltReason ?? undefined, done }) +
            (r.merging !== null ? formatMergingSummary(r.merging) : '') +
            formatCoveredInstructions(r.statistics!) +
            writeCoverage(out, r.statistics!, basename(input).replace(/\.[^.]*$/, '')),
        );
        process.stderr.write(consoleText(formatDoneSummary(done)));
        if (r.merging !== null) process.stderr.write(consoleText(formatMergingSummary(r.merging)));
        // KLEE's wording: EXITING ON ERROR: and the error's report on the lines after
        if (r.haltReason !== null && r.haltReason.startsWith(EXIT_ON_ERROR_PREFIX)) {
          throw r.exitErrorReport !== null ? new ReportedError(EXIT_ON_ERROR_PREFIX.trimEnd(), r.exitErrorReport) : new UsageError(r.haltReason);
        }
        if (r.haltReason !== null) consoleWrite(`halted: ${r.haltReason}`);
      } finally {
        trace?.close();
        precheckProfile?.close();
        progress?.stop();
        process.off('SIGINT', onSigint);
        out.close();
      }
    } catch (e) {
      // whatever write failed first (a test, run.stats, info), the cause is the missing directory
      if (outPath !== undefined && !existsSync(outPath)) throw new UsageError(`${outPath}: the output directory was removed during the run`);
      // KLEE's klee_error cases: KLEE: ERROR: … (a missing entry function, with the POSIX runtime too)
      if (e instanceof EngineSetupError || (e instanceof RuntimeSetupError && /Entry function '.*' not found in module\.$/.test(e.message))) throw new KleeError(e.message);
      if (e instanceof SearcherConfigError || e instanceof RuntimeSetupError || e instanceof SolverSetupError) throw new UsageError(e.message);
      throw e;
    } finally {
      if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
      if (solver !== undefined) solver.dispose();
      else for (const p of [coreP, oracleP]) void p?.then((s) => s.dispose(), () => {});
    }
  },
};
