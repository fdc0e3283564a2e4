/**
 * `tsklee run [options] prog.bc|prog.c [program args]`: explore every path of a program
 * (KLEE's `klee` command). A `.c` file is compiled first (src/cc/compile-input.ts: clang-19,
 * else another clang; `-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone -I<tsklee>/runtime/include`).
 *
 * Writes klee-out-N/ beside the input (or --output-dir): a .ktest per path, .err reports,
 * info, messages.txt, warnings.txt, run.stats. Prints KLEE's summary as `tsklee: done: …`
 * lines on stderr (the info file keeps KLEE's `KLEE: done:` wording for scripts).
 * --max-time, --max-instructions and Ctrl-C stop the run cleanly: the tests found stay.
 * As in KLEE, tsklee's options go before the input and everything after it is the program's,
 * untouched (`tsklee run --libc=tsklee --posix-runtime prog.bc --sym-args 0 2 4 -n`): the CLI
 * inserts a `--` after the input (separateProgramArgs); a `--` given right after it is dropped.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { compileC } from '../../cc/compile-input.js';
import type { Argv, CommandModule } from 'yargs';
import { createOutputDir, formatDoneSummary, formatInfoFooter, formatInfoHeader, writeFileAtomic, type RunDoneStats } from '../../output/index.js';
import { explore } from '../../engine/explore.js';
import { buildChain, createBackend, HighsIlp, isExternalBackend, resolveBackend, SOLVER_BACKENDS, SolverSetupError, Z3Solver, type Solver, type SolverBackendName, type SolverOptions } from '../../solver/index.js';
import { solverStatsColumns, solverStatsRow } from '../../output/run-stats.js';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../engine/options.js';
import { EXIT_ON_ERROR_NAMES } from '../../engine/errors.js';
import { EngineSetupError } from '../../engine/executor.js';
import { resolveSearchNames, SEARCH_NAMES, SearcherConfigError } from '../../engine/searchers/index.js';
import { LIBC_CHOICES, loadProgram, RuntimeSetupError, type LibcChoice } from '../../engine/prepare/runtime.js';
import type { GlobalArgs } from '../context.js';
import { UsageError } from '../errors.js';
import { ProgressLine } from '../progress.js';
import { formatMergingSummary } from '../../engine/merging/summary.js';

interface RunArgs extends GlobalArgs {
  input: string;
  args: string[];
  outputDir?: string;
  search?: string | string[];
  seed?: number;
  maxTime?: string;
  maxInstructions?: number;
  maxForks?: number;
  maxDepth?: number;
  maxMemory?: number;
  maxSolverTime?: string;
  onlyOutputStatesCoveringNew?: boolean;
  emitAllErrors?: boolean;
  exitOnErrorType?: string | string[];
  writeSmt2s?: boolean;
  writeKqueries?: boolean;
  entryPoint?: string;
  libc?: string;
  posixRuntime?: boolean;
  '--'?: string[];
  checkDivZero?: boolean;
  checkOvershift?: boolean;
  dumpStatesOnHalt?: boolean;
  useMerge?: boolean;
  solverBackend?: string;
  useIndependentSolver?: boolean;
  useCexCache?: boolean;
  useBranchCache?: boolean;
  useFastSolver?: boolean;
  debugValidateSolver?: boolean;
  debugValidateSolverBackend?: string;
  arrayEncoding?: string;
  arrayAxioms?: string;
  arrayAxiomGeneration?: string;
  ilpPrecheck?: boolean;
  // state merging (paper 001)
  stateMerging?: string;
  qceAlpha?: string;
  qceBeta?: number;
  qceKappa?: number;
  dsmDelta?: number;
  maxStateMultiplicity?: number;
  debugLogMerge?: boolean;
  // quantified state merging (paper 000)
  mergeMode?: string;
  maxPatterns?: number;
  quantifiedLoops?: boolean;
  quantifierStripping?: boolean;
  quantifierEmatching?: boolean;
  quantifierDuplication?: boolean;
  quantifierRepair?: boolean;
  quantifierFallback?: string;
  quantifierFallbackTime?: string;
}

const ARRAY_ENCODINGS = ['backend', 'axioms'] as const;
const MERGE_MODES = ['ite', 'quantified'] as const;
const QUANTIFIER_FALLBACKS = ['backend', 'expand'] as const;
const ARRAY_AXIOMS = ['plain', 'typed', 'typed-interval'] as const;
const AXIOM_GENERATIONS = ['lazy', 'eager'] as const;

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
  if (argv.maxPatterns !== undefined && !(Number.isInteger(argv.maxPatterns) && argv.maxPatterns >= 1)) throw new UsageError(`--max-patterns=${argv.maxPatterns}: expected an integer ≥ 1`);
  if (argv.dsmDelta !== undefined && !(Number.isInteger(argv.dsmDelta) && argv.dsmDelta >= 1)) throw new UsageError(`--dsm-delta=${argv.dsmDelta}: expected an integer ≥ 1`);
  return {
    stateMerging: kind,
    mergeMode: choice(argv.mergeMode, MERGE_MODES, 'merge-mode'),
    maxPatterns: argv.maxPatterns,
    quantifiedLoops: argv.quantifiedLoops,
    validateQuantifiedMerges: argv.debugValidateSolver,
    qceAlpha: alpha,
    qceBeta: argv.qceBeta,
    qceKappa: argv.qceKappa,
    dsmDelta: argv.dsmDelta,
    maxStateMultiplicity: argv.maxStateMultiplicity,
    debugLogMerge: argv.debugLogMerge,
  };
}

/** A --solver-backend style value, checked (and an external solver's binary located) before anything is written. */
function solverBackendArg(v: string | undefined, option: string): SolverBackendName {
  const name = (v ?? 'z3') as SolverBackendName;
  if (!SOLVER_BACKENDS.includes(name)) throw new UsageError(`--${option}=${v}: unknown solver backend (${SOLVER_BACKENDS.join(', ')})`);
  if (isExternalBackend(name)) resolveBackend(name);
  return name;
}

/** KLEE's time spans: "90", "90s", "1.5min", "2h", "500ms", "1h30min". Seconds. */
export function parseTimeSpan(s: string, option: string): number {
  const t = s.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(h|min|s|ms|us|ns)/gy;
  let total = 0;
  let m: RegExpExecArray | null;
  let pos = 0;
  const unit: Record<string, number> = { h: 3600, min: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * unit[m[2]!]!;
    pos = re.lastIndex;
  }
  if (pos !== t.length || t.length === 0) throw new UsageError(`--${option}: invalid time span '${s}' (e.g. 30, 30s, 5min, 1h)`);
  return total;
}

function list(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return ([] as string[]).concat(v).flatMap((x) => x.split(',')).filter((x) => x !== '');
}

/**
 * `tsklee run`'s options that take no value (to find the input file among the arguments):
 * read off the command's own builder, so a new boolean option is never forgotten here.
 */
let runFlags: Set<string> | null = null;
function runFlagNames(): Set<string> {
  if (runFlags !== null) return runFlags;
  const names = new Set(['help', 'version']);
  const recorder: unknown = new Proxy(
    {},
    {
      get: (_t, method) => (name: unknown, o?: { type?: string }) => {
        if (method === 'option' && typeof name === 'string' && o?.type === 'boolean') names.add(name);
        return recorder;
      },
    },
  );
  (runCommand.builder as (y: unknown) => unknown)(recorder);
  return (runFlags = names);
}

/**
 * `tsklee … run [options] INPUT ARGS…` → `tsklee … run [options] INPUT -- ARGS…`, so that yargs
 * leaves the program's arguments alone (KLEE: options after the input belong to the program).
 * Other commands are returned unchanged.
 */
export function separateProgramArgs(args: readonly string[]): string[] {
  let seenRun = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      // --opt VALUE skips its value; --opt=VALUE, flags and --no-flag do not
      const name = a.slice(2);
      const flags = runFlagNames();
      const flag = name.includes('=') || flags.has(name) || (name.startsWith('no-') && flags.has(name.slice(3)));
      if (!flag) i++;
      continue;
    }
    if (a.startsWith('-') && a !== '-') continue; // -h, -V
    if (!seenRun) {
      if (a !== 'run') break;
      seenRun = true;
      continue;
    }
    if (args[i + 1] === '--') return [...args];
    return [...args.slice(0, i + 1), '--', ...args.slice(i + 1)];
  }
  return [...args];
}

export const runCommand: CommandModule<GlobalArgs, RunArgs> = {
  command: 'run <input> [args..]',
  describe: 'Symbolically execute a program: every feasible path, a test per path, a report per bug (like klee)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('input', { type: 'string', demandOption: true, describe: 'bitcode (.bc) or a C file (.c, compiled with clang-19)' })
      .positional('args', { type: 'string', array: true, default: [], describe: "the program's arguments (argv[1..])" })
      .option('output-dir', { type: 'string', describe: 'directory for the results (default: klee-out-N beside the input)' })
      .option('search', { type: 'string', describe: `searcher, repeatable (interleaved): ${SEARCH_NAMES.join(', ')} (default: random-path + nurs:covnew)` })
      .option('seed', { type: 'number', describe: `seed of the random choices (default ${DEFAULT_OPTIONS.seed})` })
      .option('max-time', { type: 'string', describe: 'stop after this time (e.g. 30s, 5min); remaining states become tests' })
      .option('max-instructions', { type: 'number', describe: 'stop after this many instructions' })
      .option('max-forks', { type: 'number', describe: 'stop forking after this many forks' })
      .option('max-depth', { type: 'number', describe: 'only allow this many symbolic branches per path' })
      .option('max-memory', { type: 'number', describe: `stop forking above this heap use in MB (default ${DEFAULT_OPTIONS.maxMemory}; 0 = none)` })
      .option('max-solver-time', { type: 'string', describe: 'time limit per solver query (e.g. 10s)' })
      .option('only-output-states-covering-new', { type: 'boolean', describe: 'only write tests for paths that covered new code' })
      .option('emit-all-errors', { type: 'boolean', describe: 'a test for every error, not one per (instruction, message)' })
      .option('exit-on-error-type', { type: 'string', describe: `stop at the first error of these kinds: ${Object.keys(EXIT_ON_ERROR_NAMES).join(', ')}` })
      .option('write-smt2s', { type: 'boolean', describe: "write each test's path condition as SMT-LIB2 (testN.smt2), and every query the solver backend gets (solver-queries/)" })
      .option('write-kqueries', { type: 'boolean', describe: "write each test's path condition as KQuery (testN.kquery)" })
      .option('entry-point', { type: 'string', describe: 'function to start in (default main)' })
      .option('libc', { type: 'string', describe: `C library to link: ${LIBC_CHOICES.join(', ')} (tsklee's own, runtime/libc; default none)` })
      .option('posix-runtime', { type: 'boolean', describe: 'link the POSIX environment model (--sym-args, --sym-files, --sym-stdin … after the input)' })
      .option('check-div-zero', { type: 'boolean', describe: 'report divisions by zero (default true)' })
      .option('check-overshift', { type: 'boolean', describe: 'report shifts by at least the bit width (default true)' })
      .option('use-merge', { type: 'boolean', describe: 'merge the states of a klee_open_merge/klee_close_merge region (KLEE\'s --use-merge)' })
      .option('dump-states-on-halt', { type: 'boolean', describe: 'write a test for each remaining state when stopped early (default true)' })
      .option('solver-backend', { type: 'string', describe: `solver: z3 (embedded wasm, default), or a process on PATH: ${SOLVER_BACKENDS.slice(1).join(', ')}` })
      .option('use-independent-solver', { type: 'boolean', describe: 'split queries into independent constraint sets (default true)' })
      .option('use-cex-cache', { type: 'boolean', describe: 'counterexample cache (default true)' })
      .option('use-branch-cache', { type: 'boolean', describe: 'cache of query results (default true)' })
      .option('use-fast-solver', { type: 'boolean', describe: "tsklee's exact solver for simple queries, before the backend (default true)" })
      .option('debug-validate-solver', { type: 'boolean', describe: "cross-check every solver answer against an oracle (default: the chain's own backend)" })
      .option('array-encoding', { type: 'string', describe: "arrays: 'backend' (the solver's own arrays, default) or 'axioms' (tsklee's encoding: reads as bit-vectors plus generated array axioms)" })
      .option('array-axioms', { type: 'string', describe: "with --array-encoding=axioms: plain, typed (pruned by access type) or typed-interval (and by index interval; default)" })
      .option('array-axiom-generation', { type: 'string', describe: "with --array-encoding=axioms: lazy (CEGAR, default) or eager" })
      .option('ilp-precheck', { type: 'boolean', describe: 'answer array queries UNSAT by an ILP over linearised constraints before the solver (HiGHS; proofs checked exactly)' })
      .option('debug-validate-solver-backend', { type: 'string', describe: 'the oracle of --debug-validate-solver (a --solver-backend value)' })
      // state merging (paper 001)
      .option('state-merging', { type: 'string', describe: 'merge states automatically: none (default), static (topological order, merge at joins), dynamic (fast-forward states about to meet a similar one)' })
      .option('qce-alpha', { type: 'string', describe: 'query count estimation threshold α: variables whose estimated queries exceed α·Qt keep states apart (default 1e-12; inf merges all)' })
      .option('qce-beta', { type: 'number', describe: 'QCE: probability that a branch side is feasible (default 0.8)' })
      .option('qce-kappa', { type: 'number', describe: 'QCE: trip count assumed for loops (default 10)' })
      .option('dsm-delta', { type: 'number', describe: 'dynamic merging: history length in basic blocks (default 8)' })
      .option('debug-log-merge', { type: 'boolean', describe: 'log every merge and refused merge (with the reason) to messages.txt' })
      .option('merge-mode', { type: 'string', describe: 'ite (default): merge with ite only; quantified: merge regions (input-dependent loops, klee_open_merge with --use-merge) by pattern, with one forall per partition (paper 000)' })
      .option('max-patterns', { type: 'number', describe: 'more regular patterns than this at a region exit: standard (ite) merging there (default 10)' })
      .option('quantified-loops', { type: 'boolean', describe: 'with --merge-mode=quantified: loops whose exits depend on input are merge regions (default true)' })
      .option('quantifier-stripping', { type: 'boolean', describe: 'quantified queries: stage 1, strip the quantifiers (default true; false: straight to the fallback)' })
      .option('quantifier-ematching', { type: 'boolean', describe: 'quantified queries: E-matching lemmas when stripping (default true)' })
      .option('quantifier-duplication', { type: 'boolean', describe: 'quantified queries: stage 2, duplicate array values along the quantifier (default true)' })
      .option('quantifier-repair', { type: 'boolean', describe: 'quantified queries: stage 3, repair conflicting cells (default true)' })
      .option('quantifier-fallback', { type: 'string', describe: "quantified queries: stage 4, 'backend' (z3's quantifier engine, default) or 'expand' (the quantifier-free expansion over k's range)" })
      .option('quantifier-fallback-time', { type: 'string', describe: "time limit of the backend in stage 4 (KLEE's time spans; default 10s)" })
      .option('max-state-multiplicity', { type: 'number', describe: 'do not merge into states standing for more paths than this (default: no limit)' })
      .parserConfiguration({ 'populate--': true, 'parse-positional-numbers': false })
      .example('$0 run prog.bc', '')
      .example('$0 run --libc=tsklee --posix-runtime prog.bc --sym-args 0 2 4 --sym-files 1 8', '')
      .example('$0 run --search=dfs --max-time=30s prog.c', '') as unknown as Argv<RunArgs>,
  handler: async (argv) => {
    const input = argv.input;
    const libc = (argv.libc ?? 'none') as LibcChoice;
    if (!LIBC_CHOICES.includes(libc)) throw new UsageError(`--libc=${argv.libc}: unknown C library (choices: ${LIBC_CHOICES.join(', ')})`);
    const posixRuntime = argv.posixRuntime === true;
    for (const n of list(argv.exitOnErrorType)) {
      if (EXIT_ON_ERROR_NAMES[n] === undefined) throw new UsageError(`--exit-on-error-type: unknown error type '${n}' (${Object.keys(EXIT_ON_ERROR_NAMES).join(', ')})`);
    }
    let tmp: string | undefined;
    let bcPath = input;
    if (input.endsWith('.c')) {
      tmp = mkdtempSync(join(tmpdir(), 'tsklee-cc-'));
      bcPath = compileC(input, tmp);
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
      debugValidateSolver: argv.debugValidateSolver,
      arrayEncoding: choice(argv.arrayEncoding, ARRAY_ENCODINGS, 'array-encoding'),
      arrayAxioms: choice(argv.arrayAxioms, ARRAY_AXIOMS, 'array-axioms'),
      arrayAxiomGeneration: choice(argv.arrayAxiomGeneration, AXIOM_GENERATIONS, 'array-axiom-generation'),
      ilpPrecheck: argv.ilpPrecheck,
      quantifiers: choice(argv.mergeMode, MERGE_MODES, 'merge-mode') === 'quantified',
      quantifierOptions: {
        strip: argv.quantifierStripping,
        ematching: argv.quantifierEmatching,
        duplicate: argv.quantifierDuplication,
        repair: argv.quantifierRepair,
        fallback: choice(argv.quantifierFallback, QUANTIFIER_FALLBACKS, 'quantifier-fallback'),
      },
    };
    const fallbackTime = argv.quantifierFallbackTime !== undefined ? parseTimeSpan(argv.quantifierFallbackTime, 'quantifier-fallback-time') : 10;
    let solver: Solver | undefined;
    let coreP: Promise<Solver> | undefined;
    let oracleP: Promise<Solver> | undefined;
    try {
      coreP = createBackend(solverBackendArg(argv.solverBackend, 'solver-backend'), solverOpts.timeoutMs);
      coreP.catch(() => {}); // reported where it is awaited
      if (argv.debugValidateSolver === true && argv.debugValidateSolverBackend !== undefined) {
        oracleP = createBackend(solverBackendArg(argv.debugValidateSolverBackend, 'debug-validate-solver-backend'), solverOpts.timeoutMs);
        oracleP.catch(() => {});
      }
      const { module, entryPoint } = await loadProgram([bcPath], { libc, posixRuntime }, { onWarning: (m) => process.stderr.write(`tsklee: warning: ${m}\n`) });
      const opts: Partial<EngineOptions> = {
        entryPoint: argv.entryPoint ?? (entryPoint !== 'main' ? entryPoint : undefined),
        programName: input,
        programArgs: [...(argv.args ?? []), ...(argv['--'] ?? [])].map(String),
        search: list(argv.search),
        seed: argv.seed,
        maxTime: argv.maxTime !== undefined ? parseTimeSpan(argv.maxTime, 'max-time') : undefined,
        maxInstructions: argv.maxInstructions,
        maxForks: argv.maxForks,
        maxDepth: argv.maxDepth,
        maxMemory: argv.maxMemory,
        maxSolverTime: argv.maxSolverTime !== undefined ? parseTimeSpan(argv.maxSolverTime, 'max-solver-time') : undefined,
        onlyOutputStatesCoveringNew: argv.onlyOutputStatesCoveringNew,
        emitAllErrors: argv.emitAllErrors,
        exitOnErrorType: list(argv.exitOnErrorType),
        writeSmt2s: argv.writeSmt2s,
        writeKQueries: argv.writeKqueries,
        checkDivZero: argv.checkDivZero,
        checkOvershift: argv.checkOvershift,
        dumpStatesOnHalt: argv.dumpStatesOnHalt,
        useMerge: argv.useMerge,
        ...mergingOptions(argv),
        libc,
        posixRuntime,
      };
      // Everything that can be refused is checked before the output directory exists.
      resolveSearchNames(opts.search ?? []);
      const entry = module.getFunction(opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint);
      if (entry === undefined || entry.isDeclaration) throw new EngineSetupError(`entry point '${opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint}' not found in the module`);
      const core = await coreP;
      const oracle = await oracleP;
      // stage 4's own z3, under the fallback's time limit (the core keeps --max-solver-time)
      if (solverOpts.quantifiers === true) solverOpts.quantifierBackend = new Z3Solver({ timeoutMs: Math.max(1, Math.round(fallbackTime * 1000)) });
      if (solverOpts.ilpPrecheck === true) solverOpts.ilp = await HighsIlp.create();
      const out = createOutputDir({ outputDir: argv.outputDir, base: dirname(resolve(input)) });
      // --write-smt2s: besides each test's path condition, every query the backend gets
      solver = buildChain(core, { ...solverOpts, validationOracle: oracle, smt2Dir: argv.writeSmt2s === true ? out.file('solver-queries') : undefined });
      const start = new Date();
      const commandLine = ['tsklee', ...process.argv.slice(2)];
      out.writeInfo(formatInfoHeader({ argv: commandLine, pid: process.pid, start }));
      const stats = await out.openRunStats({ extraColumns: solverStatsColumns(solver.stats()) });
      let interrupted: string | null = null;
      const progress = ProgressLine.forStream(process.stderr);
      const onSigint = (): void => {
        if (interrupted !== null) process.exit(130);
        interrupted = 'ctrl-c detected, requesting interpreter to halt.';
        progress?.clear();
        process.stderr.write(`tsklee: ${interrupted}\n`);
        out.appendMessage(interrupted);
      };
      process.on('SIGINT', onSigint);
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
          events: {
            onLog: (line, kind) => {
              progress?.clear();
              if (kind === 'print') process.stderr.write(`${line}\n`);
              else process.stderr.write(`tsklee: ${line}\n`);
            },
          },
        });
        progress?.stop();
        const done: RunDoneStats = {
          forks: r.forks,
          queries: r.queries,
          queriesValid: 0,
          queriesInvalid: 0,
          queryCex: 0,
          queryConstructs: 0,
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
            `KLEE: done: covered instructions = ${r.coveredInstructions} of ${r.totalInstructions}\n`,
        );
        stats.write({
          Instructions: r.instructions,
          NumStates: 0,
          NumQueries: r.queries,
          WallTime: (end.getTime() - start.getTime()) * 1000,
          UserTime: Math.round(process.cpuUsage().user),
          CoveredInstructions: 0,
          States: r.exploredPaths,
          TerminationExit: r.completedPaths,
          ...solverStatsRow(solver.stats()),
        });
        process.stderr.write(formatDoneSummary(done).replace(/^KLEE: /gm, 'tsklee: '));
        if (r.merging !== null) process.stderr.write(formatMergingSummary(r.merging).replace(/^KLEE: /gm, 'tsklee: '));
        if (r.haltReason !== null) process.stderr.write(`tsklee: halted: ${r.haltReason}\n`);
      } finally {
        progress?.stop();
        process.off('SIGINT', onSigint);
        out.close();
      }
    } catch (e) {
      if (e instanceof EngineSetupError || e instanceof SearcherConfigError || e instanceof RuntimeSetupError || e instanceof SolverSetupError) throw new UsageError(e.message);
      throw e;
    } finally {
      if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
      if (solver !== undefined) solver.dispose();
      else for (const p of [coreP, oracleP]) void p?.then((s) => s.dispose(), () => {});
    }
  },
};
