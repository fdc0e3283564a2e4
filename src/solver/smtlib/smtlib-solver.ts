/**
 * A backend that answers queries with an external SMT-LIB2 solver process (--solver-backend
 * z3-native, cvc5, …), kept open for the whole run and spoken to synchronously (SyncProcess).
 *
 * Mode 'push-pop' (default): each satisfiability check is one round trip. The arrays it
 * mentions that the process has not seen are declared at the outer level (once per process;
 * a constant array's bytes are pinned there too), then `(push 1)`, the assertions,
 * `(check-sat)` and an `(echo …)` that marks the end of the reply; the scope is popped at the
 * start of the next check. A model is one `(get-value …)` round trip per array (or
 * expression) after a `sat`. Validity is two checks (as KLEE does), not one scope with
 * check-sat-assuming: assumptions move z3 to its incremental core, which is several times
 * slower on bit-vector-heavy queries (see z3/z3-solver.ts). Every `recycleAfter` checks the
 * process is sent `(reset)`, so neither side keeps every array of the run.
 *
 * Mode 'reset' instead sends `(reset)` and the declarations with every check (each check
 * solved from scratch, as KLEE's fresh solver per query); it loses. Backend time on
 * ../shared/bench/strparse.c (tsklee's chain without the fast layer, --search=dfs, 41-52
 * queries reach the backend; two runs each, busy 2-core machine):
 *   z3 4.8.12:  push-pop 1158, 625 ms   reset 2950, 3194 ms
 *   cvc5 1.0.3: push-pop 1421, 954 ms   reset 1775, 1801 ms
 *
 * Arrays stay SMT arrays (select over store chains). The alternative, one 8-bit variable per
 * byte for arrays read only at constant indices (no store over them), was tried and did not
 * pay: backend ms, median of 3 (min), strparse.c: z3 arrays 647 (533) vs bytes 741 (555);
 * cvc5 arrays 537 (376) vs bytes 671 (605); paths.c (24 queries) within noise.
 *
 * Failures: a per-query timeout is passed to the solver (it then answers `unknown`) and also
 * enforced from outside (timeout + grace, then the process is killed) → SolverFailure(Timeout);
 * a dead process → SolverFailure(Crash); any `unknown` → Timeout (with a limit) or Unknown.
 * After each of these the next query starts a new process.
 */
import { ArrayNamer, ARRAY_SORT, bvLiteral, collectArraysOf, DOMAIN_WIDTH, ExprKind, FALSE, RANGE_WIDTH, smtLibTerm, TRUE, builder, walkDag, type Expr, type ExprArray } from '../../expr/index.js';
import { SolverFailure, SolverFailureKind, Validity, type BackendCounters, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { resolveBackend, type BackendSpec, type ExternalBackendName } from './backends.js';
import { errorMessage, literalValue, parseSExprs, show, type SExpr } from './sexpr.js';
import { ProcessDied, ProcessTimeout, SyncProcess } from './sync-process.js';
import { LayerCounters } from '../layers/layer-stats.js';

export type SmtLibMode = 'push-pop' | 'reset';

export interface SmtLibSolverOptions {
  backend: ExternalBackendName;
  /** Per-query time limit in milliseconds; none if 0 or absent. */
  timeoutMs?: number;
  /** Default 'push-pop'. */
  mode?: SmtLibMode;
  /** Checks before the process forgets its declarations with (reset) (bounds memory on both sides). Default 1000. */
  recycleAfter?: number;
}

/** The backend counters, and processes started. */
export interface SmtLibCounters extends BackendCounters {
  /** Processes started. */
  processes: number;
}

/** Grace beyond the solver's own time limit before the process is killed from outside. */
function hardLimitMs(timeoutMs: number): number {
  return timeoutMs > 0 ? timeoutMs + Math.max(500, timeoutMs / 2) : 0;
}

export class SmtLibSolver implements Solver {
  readonly counters: SmtLibCounters = { checks: 0, sat: 0, unsat: 0, timeouts: 0, unknowns: 0, crashes: 0, cex: 0, constructs: 0, processes: 0 };
  private proc: SyncProcess | null = null;
  private namer = new ArrayNamer();
  private declared = new Set<ExprArray>();
  private checksInProcess = 0;
  /** A (push 1) scope is open (popped at the start of the next check). */
  private scopeOpen = false;
  private readonly c: LayerCounters;
  private readonly spec: BackendSpec;
  private readonly path: string;
  private readonly timeoutMs: number;
  private readonly mode: SmtLibMode;
  private readonly recycleAfter: number;

  /**
   * Locates the binary now (SolverSetupError if missing or unusable); the process starts with
   * the first query that reaches it, so a run whose queries the layers above answer never
   * pays for it.
   */
  constructor(opts: SmtLibSolverOptions) {
    const { spec, path } = resolveBackend(opts.backend);
    this.spec = spec;
    this.c = new LayerCounters(spec.name);
    this.path = path;
    this.timeoutMs = opts.timeoutMs ?? 0;
    this.mode = opts.mode ?? 'push-pop';
    this.recycleAfter = opts.recycleAfter ?? 1000;
  }

  get name(): string {
    return this.spec.name;
  }

  computeTruth(q: Query): boolean {
    if (q.expr === TRUE) return this.c.answered(true);
    if (q.expr === FALSE) return this.c.answered(false); // constraints are satisfiable by contract
    return this.c.time(() => this.check([...q.constraints, builder.not(q.expr)], [], []) === null);
  }

  computeValidity(q: Query): Validity {
    if (q.expr === TRUE) return this.c.answered(Validity.True);
    if (q.expr === FALSE) return this.c.answered(Validity.False);
    return this.c.time(() => {
      if (this.check([...q.constraints, builder.not(q.expr)], [], []) === null) return Validity.True;
      return this.check([...q.constraints, q.expr], [], []) === null ? Validity.False : Validity.Unknown;
    });
  }

  computeValue(q: Query): bigint {
    if (q.expr.kind === ExprKind.Constant) return this.c.answered(q.expr.value);
    return this.c.time(() => {
      const r = this.check(q.constraints, [], [q.expr]);
      if (r === null) throw new Error('computeValue: the constraints are unsatisfiable');
      return valueAt(r[0]!, 0, this.name);
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (q.expr === FALSE) return this.c.answered(null);
    return this.c.time(() => {
      const r = this.check([...q.constraints, q.expr], arrays, []);
      if (r === null) return null;
      let k = 0;
      return arrays.map((a) => {
        const bytes = new Uint8Array(a.size);
        if (a.size === 0) return bytes;
        const reply = r[k++]!;
        for (let i = 0; i < a.size; i++) bytes[i] = Number(valueAt(reply, i, this.name));
        return bytes;
      });
    });
  }

  stats(): SolverStats[] {
    return [this.c.snapshot()];
  }

  backendTimeMs(): number {
    return this.c.timeMs;
  }

  dispose(): void {
    this.proc?.kill();
    this.proc = null;
  }


  /** The live process, (re)started if needed. */
  private process(): SyncProcess {
    if (this.proc !== null && this.proc.alive) return this.proc;
    this.proc?.kill();
    this.proc = null;
    this.forget();
    try {
      this.proc = new SyncProcess(this.path, this.spec.args(this.timeoutMs));
    } catch (e) {
      throw new SolverFailure(SolverFailureKind.Crash, `${this.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.counters.processes++;
    this.checksInProcess = 0;
    this.scopeOpen = false;
    return this.proc;
  }

  private forget(): void {
    this.namer = new ArrayNamer();
    this.declared = new Set();
  }

  /**
   * Is the conjunction satisfiable? null if not; otherwise the replies to get-value for every
   * byte of each non-empty array in `modelArrays`, then for each of `values`, in order.
   * Each get-value is its own round trip, so a large reply never backs up while a request
   * is still being written (see SyncProcess).
   */
  private check(assertions: readonly Expr[], modelArrays: readonly ExprArray[], values: readonly Expr[]): SExpr[] | null {
    const proc = this.process();
    const lines: string[] = [];
    if (this.scopeOpen) lines.push('(pop 1)');
    this.scopeOpen = false;
    if (this.mode === 'reset' || this.checksInProcess >= this.recycleAfter) {
      // forget every declaration: a fresh solver without a new process
      if (this.checksInProcess > 0) lines.push('(reset)');
      this.forget();
      this.checksInProcess = 0;
    }
    if (this.checksInProcess === 0) lines.push(this.spec.prelude(this.timeoutMs));
    this.checksInProcess++;
    this.declare(collectArraysOf([...assertions, ...values]), lines);
    this.declare(modelArrays, lines);
    if (this.mode === 'push-pop') {
      lines.push('(push 1)');
      this.scopeOpen = true;
    }
    for (const a of assertions) if (a !== TRUE) lines.push(`(assert ${smtLibTerm(a, this.namer)})`);
    lines.push('(check-sat)');
    this.counters.checks++;
    this.counters.constructs += dagSize([...assertions, ...values]);
    if (modelArrays.length > 0 || values.length > 0) this.counters.cex++;
    if (!this.status(this.ask(proc, lines.join('\n') + '\n'))) return null;
    const replies: SExpr[] = [];
    for (const a of modelArrays) {
      if (a.size === 0) continue;
      const n = this.namer.name(a);
      const sel: string[] = [];
      for (let i = 0; i < a.size; i++) sel.push(`(select ${n} ${bvLiteral(BigInt(i), DOMAIN_WIDTH)})`);
      replies.push(this.getValue(proc, `(get-value (${sel.join(' ')}))\n`));
    }
    for (const v of values) replies.push(this.getValue(proc, `(get-value (${smtLibTerm(v, this.namer)}))\n`));
    return replies;
  }

  private ask(proc: SyncProcess, text: string): SExpr[] {
    let reply: string;
    try {
      reply = proc.request(text, (m) => `(echo "${m}")`, hardLimitMs(this.timeoutMs));
    } catch (e) {
      this.forgetProcess();
      if (e instanceof ProcessTimeout) {
        this.counters.timeouts++;
        throw new SolverFailure(SolverFailureKind.Timeout, `${this.name}: query timed out (process killed)`);
      }
      if (e instanceof ProcessDied) {
        this.counters.crashes++;
        throw new SolverFailure(SolverFailureKind.Crash, `${this.name}: process died: ${e.message}`);
      }
      throw e;
    }
    let items: SExpr[];
    try {
      items = parseSExprs(reply);
    } catch (e) {
      this.forgetProcess();
      throw new SolverFailure(SolverFailureKind.Unknown, `${this.name}: unreadable reply: ${(e as Error).message}`);
    }
    const err = items.map(errorMessage).find((m) => m !== null);
    if (err !== undefined && err !== null) {
      // the process's declarations may be half-made: start over with a new one
      this.forgetProcess();
      throw new SolverFailure(SolverFailureKind.Unknown, `${this.name}: ${err}`);
    }
    return items;
  }

  /** true for sat, false for unsat; unknown is a failure. */
  private status(items: SExpr[]): boolean {
    const s = items.length === 1 ? items[0] : undefined;
    if (s === 'sat') {
      this.counters.sat++;
      return true;
    }
    if (s === 'unsat') {
      this.counters.unsat++;
      return false;
    }
    if (s === 'unknown') {
      this.counters.unknowns++;
      // cvc5 1.0 answers unknown to every later check once one hit its time limit: start over
      this.forgetProcess();
      if (this.timeoutMs > 0) {
        this.counters.timeouts++;
        throw new SolverFailure(SolverFailureKind.Timeout, `${this.name}: query timed out`);
      }
      throw new SolverFailure(SolverFailureKind.Unknown, `${this.name}: the solver answered unknown`);
    }
    this.forgetProcess();
    throw new SolverFailure(SolverFailureKind.Unknown, `${this.name}: unexpected check-sat reply ${items.map(show).join(' ').slice(0, 200)}`);
  }

  private getValue(proc: SyncProcess, command: string): SExpr {
    const items = this.ask(proc, command);
    if (items.length !== 1) {
      this.forgetProcess();
      throw new SolverFailure(SolverFailureKind.Unknown, `${this.name}: unexpected get-value reply ${items.map(show).join(' ').slice(0, 200)}`);
    }
    return items[0]!;
  }

  private declare(arrays: Iterable<ExprArray>, lines: string[]): void {
    for (const a of arrays) {
      if (this.declared.has(a)) continue;
      this.declared.add(a);
      const n = this.namer.name(a);
      lines.push(`(declare-fun ${n} () ${ARRAY_SORT})`);
      const cv = a.constantValues;
      if (cv === null) continue;
      for (let i = 0; i < cv.length; i++) {
        lines.push(`(assert (= (select ${n} ${bvLiteral(BigInt(i), DOMAIN_WIDTH)}) ${bvLiteral(BigInt(cv[i]!), RANGE_WIDTH)}))`);
      }
    }
  }

  /** Drops the process; the next check starts a new one. */
  private forgetProcess(): void {
    this.proc?.kill();
    this.proc = null;
  }
}

/** The value in entry `i` of a get-value reply `((term value) …)`. */
function valueAt(reply: SExpr, i: number, who: string): bigint {
  const pair = Array.isArray(reply) ? reply[i] : undefined;
  const bad = (): SolverFailure => new SolverFailure(SolverFailureKind.Unknown, `${who}: bad get-value reply ${show(reply).slice(0, 200)}`);
  if (!Array.isArray(pair) || pair.length !== 2) throw bad();
  try {
    return literalValue(pair[1]!);
  } catch {
    throw bad();
  }
}

/** Distinct expression nodes (and array writes) of a check: what the backend gets translated. */
function dagSize(roots: readonly Expr[]): number {
  let n = 0;
  walkDag(roots, { post: () => n++ });
  return n;
}
