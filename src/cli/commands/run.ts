/**
 * `tsklee run [options] prog.bc|prog.c [program args]`: explore every path of a program
 * (KLEE's `klee` command). A `.c` file is compiled first with clang-19
 * (`-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone -I<tsklee>/runtime/include`).
 *
 * Writes klee-out-N/ beside the input (or --output-dir): a .ktest per path, .err reports,
 * info, messages.txt, warnings.txt, run.stats. Prints KLEE's summary as `tsklee: done: …`
 * lines on stderr (the info file keeps KLEE's `KLEE: done:` wording for scripts).
 * --max-time, --max-instructions and Ctrl-C stop the run cleanly: the tests found stay.
 * Program arguments that start with '-' go after `--` (tsklee run prog.bc -- -v).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Argv, CommandModule } from 'yargs';
import { loadModule } from '../../index.js';
import { createOutputDir, formatDoneSummary, formatInfoFooter, formatInfoHeader, writeFileAtomic, type RunDoneStats } from '../../output/index.js';
import { explore } from '../../engine/explore.js';
import { createSolver, type Solver } from '../../solver/index.js';
import { DEFAULT_OPTIONS, type EngineOptions } from '../../engine/options.js';
import { EXIT_ON_ERROR_NAMES } from '../../engine/errors.js';
import { EngineSetupError } from '../../engine/executor.js';
import { resolveSearchNames, SEARCH_NAMES, SearcherConfigError } from '../../engine/searchers/index.js';
import type { GlobalArgs } from '../context.js';
import { UsageError } from '../errors.js';

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
  checkDivZero?: boolean;
  checkOvershift?: boolean;
  dumpStatesOnHalt?: boolean;
  useMerge?: boolean;
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

function repoRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

/** Compile a C file to bitcode the way the tsklee docs say to. */
function compileC(input: string, outDir: string): string {
  const bc = join(outDir, `${basename(input, '.c')}.bc`);
  const include = join(repoRoot(), 'runtime', 'include');
  try {
    execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${include}`, input, '-o', bc], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { status?: number };
    if (err.code === 'ENOENT') throw new UsageError(`${input}: clang-19 is needed to compile C input (or give a .bc file)`);
    throw new UsageError(`${input}: clang-19 failed (exit status ${err.status ?? '?'})`);
  }
  return bc;
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
      .option('write-smt2s', { type: 'boolean', describe: "write each test's path condition as SMT-LIB2 (testN.smt2)" })
      .option('write-kqueries', { type: 'boolean', describe: "write each test's path condition as KQuery (testN.kquery)" })
      .option('entry-point', { type: 'string', describe: 'function to start in (default main)' })
      .option('libc', { type: 'string', describe: 'C library to link: none (the only one so far)' })
      .option('check-div-zero', { type: 'boolean', describe: 'report divisions by zero (default true)' })
      .option('check-overshift', { type: 'boolean', describe: 'report shifts by at least the bit width (default true)' })
      .option('use-merge', { type: 'boolean', describe: 'merge the states of a klee_open_merge/klee_close_merge region (KLEE\'s --use-merge)' })
      .option('dump-states-on-halt', { type: 'boolean', describe: 'write a test for each remaining state when stopped early (default true)' })
      .example('$0 run prog.bc', '')
      .example('$0 run --search=dfs --max-time=30s prog.c', '') as unknown as Argv<RunArgs>,
  handler: async (argv) => {
    const input = argv.input;
    if (argv.libc !== undefined && argv.libc !== 'none') throw new UsageError(`--libc=${argv.libc}: not implemented yet (only --libc=none)`);
    for (const n of list(argv.exitOnErrorType)) {
      if (EXIT_ON_ERROR_NAMES[n] === undefined) throw new UsageError(`--exit-on-error-type: unknown error type '${n}' (${Object.keys(EXIT_ON_ERROR_NAMES).join(', ')})`);
    }
    let tmp: string | undefined;
    let bcPath = input;
    if (input.endsWith('.c')) {
      tmp = mkdtempSync(join(tmpdir(), 'tsklee-cc-'));
      bcPath = compileC(input, tmp);
    }
    // Start loading the solver (WebAssembly compilation runs in the background) while the
    // module is read; the run waits for it only when it starts.
    const solverTimeout = argv.maxSolverTime !== undefined ? parseTimeSpan(argv.maxSolverTime, 'max-solver-time') : 0;
    const solverP = createSolver({ timeoutMs: solverTimeout > 0 ? solverTimeout * 1000 : undefined });
    solverP.catch(() => {}); // reported where it is awaited
    let solver: Solver | undefined;
    try {
      const module = loadModule([bcPath], { onWarning: (m) => process.stderr.write(`tsklee: warning: ${m}\n`) });
      const opts: Partial<EngineOptions> = {
        entryPoint: argv.entryPoint,
        programName: input,
        programArgs: (argv.args ?? []).map(String),
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
        libc: 'none',
      };
      // Everything that can be refused is checked before the output directory exists.
      resolveSearchNames(opts.search ?? []);
      const entry = module.getFunction(opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint);
      if (entry === undefined || entry.isDeclaration) throw new EngineSetupError(`entry point '${opts.entryPoint ?? DEFAULT_OPTIONS.entryPoint}' not found in the module`);
      const out = createOutputDir({ outputDir: argv.outputDir, base: dirname(resolve(input)) });
      const start = new Date();
      const commandLine = ['tsklee', ...process.argv.slice(2)];
      out.writeInfo(formatInfoHeader({ argv: commandLine, pid: process.pid, start }));
      const stats = await out.openRunStats();
      let interrupted: string | null = null;
      const onSigint = (): void => {
        if (interrupted !== null) process.exit(130);
        interrupted = 'ctrl-c detected, requesting interpreter to halt.';
        process.stderr.write(`tsklee: ${interrupted}\n`);
        out.appendMessage(interrupted);
      };
      process.on('SIGINT', onSigint);
      try {
        solver = await solverP;
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
          events: {
            onLog: (line, kind) => {
              if (kind === 'print') process.stderr.write(`${line}\n`);
              else process.stderr.write(`tsklee: ${line}\n`);
            },
          },
        });
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
            formatInfoFooter({ start, end, haltReason: r.haltReason ?? undefined, done }),
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
        });
        process.stderr.write(formatDoneSummary(done).replace(/^KLEE: /gm, 'tsklee: '));
        if (r.haltReason !== null) process.stderr.write(`tsklee: halted: ${r.haltReason}\n`);
      } finally {
        process.off('SIGINT', onSigint);
        out.close();
      }
    } catch (e) {
      if (e instanceof EngineSetupError || e instanceof SearcherConfigError) throw new UsageError(e.message);
      throw e;
    } finally {
      if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
      if (solver !== undefined) solver.dispose();
      else void solverP.then((s) => s.dispose(), () => {});
    }
  },
};
