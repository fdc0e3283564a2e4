/**
 * KLEE's options that change what `tsklee run` does (issue 21), apart from the core ones in
 * run-options.ts: their rows of the option table, and how they map onto EngineOptions.
 * Validation happens here, before the output directory exists (a bad value is one line).
 */
import { readFileSync } from 'node:fs';
import type { EngineOptions } from '../../engine/options.js';
import { FunctionAliasError, parseFunctionAlias } from '../../engine/prepare/function-alias.js';
import { BATCH_DEFAULTS } from '../../engine/searchers/index.js';
import { UsageError } from '../errors.js';
import type { RunOptionSpec } from './run-options.js';
import { parseTimeSpan } from './time-span.js';

export const SWITCH_TYPES = ['internal', 'simple'] as const;
export const EXTERNAL_CALLS = ['none', 'concrete', 'all'] as const;

/** Rows of the option table. */
export const KLEE_BEHAVIOUR_OPTIONS: Record<string, RunOptionSpec> = {
  optimize: { type: 'boolean', describe: "run LLVM's -O2 pipeline (installed opt) on the program before executing it" },
  'function-alias': { type: 'string', describe: 'REGEX:NAME: calls to functions whose name matches REGEX call NAME instead (repeatable)', repeatable: true },
  'switch-type': { type: 'string', describe: 'symbolic switch: internal (one fork per target block, default) or simple (one fork per case, as a chain of branches)' },
  'rewrite-equalities': { type: 'boolean', describe: 'substitute a constant into the path condition when an equality with it is added (default true)' },
  'external-calls': { type: 'string', describe: "none | concrete | all: tsklee runs no code natively, so concrete and all (default concrete) mean the functions tsklee models (its libc, libm); none refuses those too" },
  'allow-external-sym-calls': { type: 'boolean', describe: "KLEE 2's spelling of --external-calls=all (an explicit --external-calls wins)" },
  'max-stack-frames': { type: 'number', describe: 'end a state early when a call would exceed this many stack frames (default 8192)' },
  'max-sym-array-size': { type: 'number', describe: 'fix a symbolic offset into an object of at least this many bytes to one value (default 0 = off)' },
  kdalloc: { type: 'boolean', describe: "KLEE's deterministic allocator's reports: double free and use after free (default false: invalid pointer: free, out of bound pointer; tsklee never reuses an address either way)" },
  'silent-klee-assume': { type: 'boolean', describe: 'klee_assume(false) ends the path silently instead of with a user error' },
  'readable-posix-inputs': { type: 'boolean', describe: "prefer printable characters in the POSIX model's symbolic inputs (its klee_posix_prefer_cex calls)" },
  'make-concrete-symbolic': { type: 'number', describe: 'make about 1 in N concrete loads symbolic, constrained to their value (testing; default 0 = off)' },
  'single-object-resolution': { type: 'boolean', describe: 'resolve a symbolic pointer to the object of the current counterexample only (no fork into other objects)' },
  'use-batching-search': { type: 'boolean', describe: 'keep running the selected state for --batch-instructions / --batch-time' },
  'batch-instructions': { type: 'number', describe: `instructions per batch (default ${BATCH_DEFAULTS.instructions}; 0 = no limit)` },
  'batch-time': { type: 'string', describe: `time per batch (default ${BATCH_DEFAULTS.timeSeconds}s; 0 = no limit)` },
  'max-static-fork-pct': { type: 'number', describe: 'a branch whose instruction did more than this fraction of all forks takes one value instead of forking (default 1 = off)' },
  'max-static-solve-pct': { type: 'number', describe: 'the same for the fraction of all solver time spent at the instruction (default 1 = off)' },
  'max-static-cpfork-pct': { type: 'number', describe: 'the same for the forks of the calling context (call path; default 1 = off)' },
  'max-static-cpsolve-pct': { type: 'number', describe: 'the same for the solver time of the calling context (default 1 = off)' },
  'max-static-pct-check-delay': { type: 'string', describe: 'the --max-static-*-pct limits apply after this time (default 1000s)' },
  'optimize-array': { type: 'string', describe: "none | index | value | all: reads of constant tables at symbolic indices: index turns conditions on them into comparisons of the index, value into choices among the table's values, all tries index then value" },
  'debug-assignment-validating-solver': { type: 'boolean', describe: 'check every model the solver gives against the query (tsklee: the --debug-validate-solver layer, which checks the other answers too)' },
  environ: { type: 'string', describe: "the program's environment: a file of NAME=VALUE lines, as `env` prints them (default: a fixed one, see README)", aliases: ['env-file'] },
  'use-iterative-deepening-time-search': { type: 'boolean', describe: 'pause states that ran longer than a time slice that doubles each round (experimental, as in KLEE)' },
};

/** The parsed values of these options (yargs' camel-case names). */
export interface KleeBehaviourArgs {
  optimize?: boolean;
  functionAlias?: string | string[];
  switchType?: string;
  rewriteEqualities?: boolean;
  externalCalls?: string;
  allowExternalSymCalls?: boolean;
  maxStackFrames?: number;
  maxSymArraySize?: number;
  silentKleeAssume?: boolean;
  kdalloc?: boolean;
  readablePosixInputs?: boolean;
  makeConcreteSymbolic?: number;
  singleObjectResolution?: boolean;
  useBatchingSearch?: boolean;
  batchInstructions?: number;
  batchTime?: string;
  useIterativeDeepeningTimeSearch?: boolean;
  environ?: string;
  maxStaticForkPct?: number;
  maxStaticSolvePct?: number;
  maxStaticCpforkPct?: number;
  maxStaticCpsolvePct?: number;
  maxStaticPctCheckDelay?: string;
  optimizeArray?: string;
  debugAssignmentValidatingSolver?: boolean;
}

export const OPTIMIZE_ARRAY = ['none', 'index', 'value', 'all'] as const;

function fraction(option: string, v: number | undefined): number {
  if (v === undefined) return 1;
  if (!(v >= 0 && v <= 1)) throw new UsageError(`--${option}=${v}: expected a fraction between 0 and 1`);
  return v;
}

/** KLEE's --max-static-*-pct options; undefined when none is below 1. */
function staticLimits(a: KleeBehaviourArgs): EngineOptions['staticLimits'] {
  const l = {
    forkPct: fraction('max-static-fork-pct', a.maxStaticForkPct),
    solvePct: fraction('max-static-solve-pct', a.maxStaticSolvePct),
    cpForkPct: fraction('max-static-cpfork-pct', a.maxStaticCpforkPct),
    cpSolvePct: fraction('max-static-cpsolve-pct', a.maxStaticCpsolvePct),
    checkDelay: a.maxStaticPctCheckDelay !== undefined ? parseTimeSpan(a.maxStaticPctCheckDelay, 'max-static-pct-check-delay') : 1000,
  };
  return l.forkPct < 1 || l.solvePct < 1 || l.cpForkPct < 1 || l.cpSolvePct < 1 ? l : undefined;
}

/** KLEE's --environ file: one NAME=VALUE a line (blank lines skipped, surrounding blanks trimmed). */
export function readEnvironFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--environ=${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const out: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.indexOf('=') <= 0) throw new UsageError(`--environ=${path}:${i + 1}: expected NAME=VALUE`);
    out.push(line);
  }
  return out;
}

function oneOf<T extends string>(option: string, v: string | undefined, choices: readonly T[]): T | undefined {
  if (v === undefined) return undefined;
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(`--${option}=${v}: expected one of ${choices.join(', ')}`);
  return v as T;
}

function nonNegativeInt(option: string, v: number | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!Number.isInteger(v) || v < 0) throw new UsageError(`--${option}=${v}: expected a whole number >= 0`);
  return v;
}

function all(v: string | string[] | undefined): string[] {
  return v === undefined ? [] : ([] as string[]).concat(v);
}

/** EngineOptions for these options; throws UsageError for a bad value. */
export function kleeBehaviourOptions(a: KleeBehaviourArgs): Partial<EngineOptions> {
  let functionAliases;
  try {
    functionAliases = all(a.functionAlias).map(parseFunctionAlias);
  } catch (e) {
    if (e instanceof FunctionAliasError) throw new UsageError(e.message);
    throw e;
  }
  const stackFrames = nonNegativeInt('max-stack-frames', a.maxStackFrames);
  return {
    functionAliases,
    switchType: oneOf('switch-type', a.switchType, SWITCH_TYPES),
    rewriteEqualities: a.rewriteEqualities,
    externalCalls: oneOf('external-calls', a.externalCalls ?? (a.allowExternalSymCalls === true ? 'all' : undefined), EXTERNAL_CALLS),
    // KLEE: 0 = no limit
    maxStackFrames: stackFrames === 0 ? Number.MAX_SAFE_INTEGER : stackFrames,
    maxSymArraySize: nonNegativeInt('max-sym-array-size', a.maxSymArraySize),
    silentKleeAssume: a.silentKleeAssume,
    kdalloc: a.kdalloc,
    readablePosixInputs: a.readablePosixInputs,
    makeConcreteSymbolic: nonNegativeInt('make-concrete-symbolic', a.makeConcreteSymbolic),
    singleObjectResolution: a.singleObjectResolution,
    batching:
      a.useBatchingSearch === true
        ? {
            instructions: nonNegativeInt('batch-instructions', a.batchInstructions) ?? BATCH_DEFAULTS.instructions,
            timeSeconds: a.batchTime !== undefined ? parseTimeSpan(a.batchTime, 'batch-time') : BATCH_DEFAULTS.timeSeconds,
          }
        : undefined,
    iterativeDeepeningTime: a.useIterativeDeepeningTimeSearch,
    environment: a.environ !== undefined ? readEnvironFile(a.environ) : undefined,
    staticLimits: staticLimits(a),
    optimizeArray: oneOf('optimize-array', a.optimizeArray, OPTIMIZE_ARRAY),
  };
}
