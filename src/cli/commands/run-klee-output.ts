/**
 * KLEE's options about what a run writes (issue 21), and the KLEE options tsklee accepts
 * with a note because it has no such machinery (each given one prints one warning saying
 * what tsklee does instead). Rows of the option table and their mapping onto EngineOptions.
 */
import { readFileSync } from 'node:fs';
import type { EngineOptions } from '../../engine/options.js';
import { UsageError } from '../errors.js';
import type { RunOptionSpec } from './run-options.js';

export const KLEE_OUTPUT_OPTIONS: Record<string, RunOptionSpec> = {
  'write-no-tests': { type: 'boolean', describe: 'write no test files (no .ktest, .err, …); KLEE 2: --no-output', aliases: ['no-output'] },
  'write-paths': { type: 'boolean', describe: 'write testN.path: the decision at every conditional branch, one a line' },
  'write-sym-paths': { type: 'boolean', describe: 'write testN.sym.path: the decisions at the branches that forked' },
  'replay-path': { type: 'string', describe: 'follow the branch decisions of a .path file instead of forking' },
  'write-test-info': { type: 'boolean', describe: 'write testN.info (time to generate the test)' },
  'write-xml-tests': { type: 'boolean', describe: "write testN.xml in Test-Comp's format, and metadata.xml" },
  'xml-metadata-programfile': { type: 'string', describe: 'the original program file named in metadata.xml' },
  'xml-metadata-programhash': { type: 'string', describe: "the program's hash written in metadata.xml" },
  'write-cvcs': { type: 'boolean', describe: "write testN.cvc: the path condition (as SMT-LIB2, as KLEE does with a solver other than STP)" },
  'output-module': { type: 'boolean', describe: 'write the module as executed (final.ll: LLVM text, tsklee writes no bitcode)' },
  'output-source': { type: 'boolean', describe: 'write assembly.ll, the module the error reports point into (default true)' },
  'warnings-only-to-file': { type: 'boolean', describe: 'warnings go to warnings.txt only, not to the terminal' },
  'echo-program-output': {
    type: 'boolean',
    describe: "show the program's stdout and stderr writes on tsklee's, every path's as it runs, as KLEE does (default true; false: --no-echo-program-output); testN.stdout/.stderr are written either way",
  },
  'console-prefix': { type: 'string', describe: "the console lines' prefix: KLEE (KLEE's `KLEE: done: …`, default) or tsklee (`tsklee: done: …`)" },
  'debug-print-instructions': {
    type: 'string',
    describe: 'print every instruction before it runs: all|src|compact, to stderr or file (instructions.txt), e.g. all:stderr,src:file (repeatable)',
    repeatable: true,
  },
  'use-query-log': {
    type: 'string',
    describe: 'all:kquery, all:smt2, solver:kquery, solver:smt2 (comma-separated): log every query (all) or those reaching the solver backend (solver), as SMT-LIB2 files (repeatable)',
    repeatable: true,
  },
};

/**
 * Accepted KLEE options whose machinery tsklee does not have or does not need: the one-line
 * note each prints when given. (Their values are not checked further.)
 */
export const KLEE_NOTED_OPTIONS: Record<string, RunOptionSpec & { note: string }> = {
  'kdalloc-quarantine': { type: 'number', describe: 'accepted: tsklee places its objects itself', note: "tsklee's allocator never reuses an address: there is no quarantine to size" },
  'kdalloc-heap-start-address': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: "tsklee places objects in its own deterministic address space; the start is fixed" },
  'kdalloc-heap-size': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: "tsklee's heap has no fixed size (--max-memory bounds the process)" },
  'kdalloc-globals-start-address': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee places globals in its own deterministic address space; the start is fixed' },
  'kdalloc-globals-size': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee sizes the globals region itself' },
  'kdalloc-constants-start-address': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee places constants in its own deterministic address space; the start is fixed' },
  'kdalloc-constants-size': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee sizes the constants region itself' },
  'kdalloc-stack-start-address': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee places stack objects in its own deterministic address space; the start is fixed' },
  'kdalloc-stack-size': { type: 'string', describe: 'accepted: tsklee places its objects itself', note: 'tsklee sizes the stack region itself (--max-stack-frames bounds the depth)' },
  'ubsan-runtime': { type: 'boolean', describe: "accepted: a -fsanitize= build's __ubsan_handle_* calls are always handled", note: 'tsklee handles the __ubsan_handle_* calls of a -fsanitize= build itself, with or without this option (errors at the program line, not in a runtime file)' },
  watchdog: { type: 'boolean', describe: 'accepted: tsklee enforces --max-time itself', note: 'tsklee checks --max-time itself, between instructions and after every solver query; there is no watchdog process' },
  'max-instruction-time': { type: 'string', describe: 'accepted: --max-solver-time bounds the slow part of an instruction', note: 'not enforced per instruction: --max-solver-time bounds each solver query (what makes an instruction slow) and --max-time the run' },
  'use-forked-solver': { type: 'boolean', describe: 'accepted: the solver runs in-process', note: 'the solver runs in-process (WebAssembly or a native addon); --max-solver-time bounds each query' },
  'simplify-sym-indices': { type: 'boolean', describe: 'accepted: indices are simplified by the path condition already', note: 'symbolic indices are simplified with the path condition\'s equalities whenever a read reaches the solver (--rewrite-equalities); nothing to switch' },
  'equality-substitution': { type: 'boolean', describe: 'accepted: see --rewrite-equalities', note: 'constants known from equalities are substituted into every query already (--rewrite-equalities controls it)' },
  'use-call-paths': { type: 'boolean', describe: 'accepted: run.istats has no call-path tree', note: "tsklee's run.istats has per-instruction costs only (no calls= call-path records); nothing to switch" },
  'suppress-external-warnings': { type: 'boolean', describe: 'accepted: tsklee makes no external calls', note: 'tsklee makes no external calls, so there are no external-call warnings to suppress (an undefined function ends its path with an error)' },
  'run-in-dir': { type: 'string', describe: "accepted: the program sees tsklee's fixed working directory", note: "the program runs in tsklee's file-system model with PWD=/tmp (see --environ); the directory is not used" },
  'write-exec-tree': { type: 'boolean', describe: 'accepted: no execution tree file', note: 'tsklee writes no exec_tree.db (the states and their forks are in run.stats and the tests)' },
  'debug-crosscheck-core-solver': { type: 'string', describe: 'accepted: see --debug-validate-solver', note: 'not a second backend: --debug-validate-solver cross-checks every answer against the backend alone' },
  'solver-optimize-divides': { type: 'boolean', describe: 'accepted: divisions reach the solver as they are', note: 'divisions by constants reach the solver as bvudiv/bvsdiv (z3 rewrites them itself); no rewriting into shifts' },
  'const-array-opt': { type: 'boolean', describe: 'accepted: constant arrays are encoded as tsklee always does', note: 'constant arrays reach the solver the way tsklee always encodes them (store chains over a constant); no STP-specific optimisation' },
  'use-timestamps': { type: 'boolean', describe: "accepted: a KLEE fork's lazy-initialisation option", note: "tsklee has no lazily initialised symbolic pointers (a KLEE fork's feature): a symbolic pointer resolves to any object it may point to" },
  'use-guided-search': { type: 'string', describe: "accepted: a KLEE fork's targeted search (none is tsklee's)", note: "tsklee has no guided (targeted) search, a KLEE fork's: it searches as --search says (what =none asks)" },
  'external-call-warnings': { type: 'string', describe: 'accepted: tsklee runs no external call (none, once-per-function, all)', note: 'tsklee makes no external calls (functions it does not model end the path with an error, which is always reported)' },
};

export interface KleeOutputArgs {
  writeNoTests?: boolean;
  writePaths?: boolean;
  writeSymPaths?: boolean;
  replayPath?: string;
  writeTestInfo?: boolean;
  writeXmlTests?: boolean;
  xmlMetadataProgramfile?: string;
  xmlMetadataProgramhash?: string;
  writeCvcs?: boolean;
  outputModule?: boolean;
  outputSource?: boolean;
  warningsOnlyToFile?: boolean;
  echoProgramOutput?: boolean;
  consolePrefix?: string;
  useQueryLog?: string | string[];
  debugPrintInstructions?: string | string[];
}

const TRACE_FORMATS = ['all', 'src', 'compact'] as const;

/** --debug-print-instructions=FORMAT:WHERE[,…]: one format, to stderr and/or instructions.txt. */
export function instructionTrace(v: string | string[] | undefined): { format: (typeof TRACE_FORMATS)[number]; stderr: boolean; file: boolean } | undefined {
  const items = ([] as string[]).concat(v ?? []).flatMap((x) => x.split(',')).filter((x) => x !== '');
  if (items.length === 0) return undefined;
  let format: (typeof TRACE_FORMATS)[number] | undefined;
  let stderr = false;
  let file = false;
  for (const it of items) {
    const [f, where] = it.split(':');
    if (!(TRACE_FORMATS as readonly string[]).includes(f!) || (where !== 'stderr' && where !== 'file')) {
      throw new UsageError(`--debug-print-instructions=${it}: expected FORMAT:stderr or FORMAT:file, FORMAT one of ${TRACE_FORMATS.join(', ')}`);
    }
    if (format !== undefined && format !== f) throw new UsageError(`--debug-print-instructions: one format at a time (${format} and ${f} given)`);
    format = f as (typeof TRACE_FORMATS)[number];
    if (where === 'stderr') stderr = true;
    else file = true;
  }
  return { format: format!, stderr, file };
}

export const QUERY_LOG_TYPES = ['all:kquery', 'all:smt2', 'solver:kquery', 'solver:smt2'] as const;

/** Which query logs --use-query-log asks for. */
export function queryLogs(v: string | string[] | undefined): { all: boolean; solver: boolean } {
  const kinds = ([] as string[]).concat(v ?? []).flatMap((x) => x.split(',')).filter((x) => x !== '');
  for (const k of kinds) if (!(QUERY_LOG_TYPES as readonly string[]).includes(k)) throw new UsageError(`--use-query-log=${k}: expected ${QUERY_LOG_TYPES.join(', ')}`);
  return { all: kinds.some((k) => k.startsWith('all:')), solver: kinds.some((k) => k.startsWith('solver:')) };
}

/** A .path file's decisions (KLEE's loadPathFile: numbers separated by white space, non-zero = 1). */
export function readPathFile(path: string): (0 | 1)[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--replay-path=${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const words = text.split(/\s+/).filter((w) => w !== '');
  return words.map((w) => {
    if (!/^\d+$/.test(w)) throw new UsageError(`--replay-path=${path}: '${w}' is not a branch decision (0 or 1)`);
    return Number(w) !== 0 ? 1 : 0;
  });
}

export function kleeOutputOptions(a: KleeOutputArgs): Partial<EngineOptions> {
  return {
    writeNoTests: a.writeNoTests,
    writePaths: a.writePaths,
    writeSymPaths: a.writeSymPaths,
    replayPath: a.replayPath !== undefined ? readPathFile(a.replayPath) : undefined,
    writeTestInfo: a.writeTestInfo,
    writeXmlTests: a.writeXmlTests,
    writeCvcs: a.writeCvcs,
    outputSource: a.outputSource,
    debugPrintInstructions: instructionTrace(a.debugPrintInstructions)?.format,
  };
}

/** The notes for the noted options present in `argv` (yargs' camel-case keys). */
export function notedOptionWarnings(argv: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, spec] of Object.entries(KLEE_NOTED_OPTIONS)) {
    const key = name.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
    if (argv[key] !== undefined) out.push(`--${name}: ${spec.note}`);
  }
  return out;
}
