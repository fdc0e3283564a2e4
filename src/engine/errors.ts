/**
 * How states end (KLEE's StateTerminationType) and what each kind writes.
 */

export enum Termination {
  Exit,
  MaxDepth,
  OutOfMemory,
  OutOfStackMemory,
  /** Stopped by a limit (--max-time, --max-instructions, SIGINT) with states left. */
  Interrupted,
  Solver,
  Abort,
  Assert,
  BadVectorAccess,
  Free,
  Model,
  Overflow,
  Ptr,
  ReadOnly,
  ReportError,
  User,
  Execution,
  External,
  SilentExit,
  /** Merged into another state (klee_close_merge with --use-merge). */
  Merge,
  /** A path no seed follows, under --only-replay-seeds (KLEE's "Unseeded path during replay"). */
  Replay,
}

/** The .err suffix of a termination kind (KLEE's terminationTypeFileExtension). */
export const ERR_SUFFIX: Partial<Record<Termination, string>> = {
  [Termination.Solver]: 'solver',
  [Termination.Abort]: 'abort',
  [Termination.Assert]: 'assert',
  [Termination.BadVectorAccess]: 'bad_vector_access',
  [Termination.Free]: 'free',
  [Termination.Model]: 'model',
  [Termination.Overflow]: 'overflow',
  [Termination.Ptr]: 'ptr',
  [Termination.ReadOnly]: 'read_only',
  [Termination.ReportError]: 'report_error',
  [Termination.User]: 'user',
  [Termination.Execution]: 'exec',
  [Termination.External]: 'external',
};

/** Names accepted by --exit-on-error-type (KLEE's). */
export const EXIT_ON_ERROR_NAMES: Record<string, Termination> = {
  Abort: Termination.Abort,
  Assert: Termination.Assert,
  BadVectorAccess: Termination.BadVectorAccess,
  Exec: Termination.Execution,
  External: Termination.External,
  Free: Termination.Free,
  Model: Termination.Model,
  Overflow: Termination.Overflow,
  Ptr: Termination.Ptr,
  ReadOnly: Termination.ReadOnly,
  ReportError: Termination.ReportError,
  User: Termination.User,
  Solver: Termination.Solver,
};

/** KLEE's error messages, in one place. */
export const Msg = {
  outOfBound: 'memory error: out of bound pointer',
  nullPage: 'memory error: null page access',
  useAfterFree: 'memory error: use after free',
  doubleFree: 'memory error: double free',
  invalidPointer: (what: string): string => `memory error: invalid pointer: ${what}`,
  readOnly: 'memory error: object read only',
  freeOfAlloca: 'free of alloca',
  freeOfGlobal: 'free of global',
  divByZero: 'divide by zero',
  infeasibleConstraint: (c: string): string => `the path condition became infeasible adding a constraint the solver found feasible: ${c}`,
  overshift: 'overshift error',
  abort: 'abort failure',
  assertFail: (expr: string): string => `ASSERTION FAIL: ${expr}`,
  unreachable: 'reached "unreachable" instruction',
  invalidFunctionPointer: 'invalid function pointer',
  externalCall: (name: string): string => `failed external call: ${name}`,
  assumeFalse: 'invalid klee_assume call (provably false)',
  inlineAsm: 'inline assembly is unsupported',
  divOverflow: 'divide overflow (the quotient does not fit: x86 #DE)',
  concretizedSize: 'concretized symbolic size',
  halting: 'Execution halting.',
  maxDepth: 'max-depth exceeded.',
  memoryLimit: 'Memory limit exceeded.',
  stackOverflow: 'stack overflow',
} as const;

/** A solver failure while executing an instruction: the state ends with a solver error. */
export class StateAbort extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateAbort';
  }
}
