/**
 * The z3 backend: answers queries synchronously through the wasm C API (DESIGN decision 2).
 *
 * How queries reach z3 (`solverMode`). Where a wasm query's time goes (strparse.c's 41
 * backend queries without the fast layer; CPU ms): translating Exprs to ASTs 2–4, asserting
 * 0–10, model extraction 4–30, the check itself 95 %+. So the solver z3 runs is what
 * matters, and no single one wins everywhere:
 *  - z3's QF_AUFBV tactic (`Z3_mk_solver_from_tactic`: bit-blasting + SAT, re-run from
 *    scratch on every check) is best on multiplication-heavy bit-vector queries but pays
 *    ~4 ms of set-up on every check and is 10x slower on 32-bit division;
 *  - the solver for logic QF_AUFBV (`Z3_mk_solver_for_logic`; under push/pop it is z3's
 *    incremental SMT core configured for that logic) is ~2x cheaper on typical queries;
 *    z3's plain incremental core (`Z3_mk_simple_solver`, no logic) is slower than both.
 * The default ('hybrid') asks the logic solver first under a deterministic resource budget
 * (z3's `rlimit`, no timer thread; the same query always takes the same route), and gives
 * queries that exhaust it to the tactic solver. Measured (CPU ms per workload, median of 3
 * interleaved rounds, 2-core machine at load ~10, one translation cache throughout):
 *
 *   workload (queries)                         tactic  logic  hybrid
 *   trivial x < k ⊢ x < k+1 (100)               492     205    246
 *   34 constraints + 100-byte model (20)        184      98    101
 *   symbolic-index reads through 10 writes (20) 200      77     93
 *   256-byte constant table lookup (20)         306     827    688
 *   8-digit number parse (5)                   2154    4703   1531
 *   32-bit div/rem identities (10)             2929     299    303
 *   strparse.c, no fast layer (41)             1017    1108    808
 *   strparse.c, no fast layer/cex cache (201)  2003    1244   1981
 *   strparse.c, also no independence (96)     2273    1875   1572
 *   12 engine fixtures, no fast layer (112)    4026    1684   2610
 *   all                                       15583   12118   9932
 *
 * (Budgets of 300 000 and 1 000 000 gave 10209 and 12795 in all. Measured before the wasm
 * exception trampolines and V8 flags of z3-trampolines.ts and z3-v8-flags.ts, which cut the
 * time of every mode.)
 *
 * The C API calls themselves are cheap: strparse.c's 41 queries make 1325 calls (32 per
 * query), and translating plus reading models is ~1 % of the backend's time. So sending
 * each query as SMT-LIB2 text in one call would save nothing there; z3's own SMT-LIB2 front
 * end (Z3_eval_smtlib2_string, push/pop, as z3-native is fed) was measured as a whole
 * other route: on those queries (CPU ms, cold / warm instance) 1001 / 813–834 against
 * hybrid's 1300–1500 / 850–920; with no cex cache (201) 2303 / 1877 against 2857 / 1457;
 * also without independence (96) 1524 / 1395 against 2910 / 1560. Per query it is faster
 * on some and up to 3x slower on others (these small multiplication-heavy queries are
 * decided by the SAT search's luck); it runs the same kind of solver as 'logic' (z3's
 * incremental core for the logic), the route that loses on the number-parse and table
 * workloads above (the text route was not measured there), and it would pin constant
 * arrays byte by byte; so it is not used.
 *
 * Keeping the path condition asserted across consecutive queries (one scope per
 * constraint, popped back to the shared prefix) was measured too: within noise overall
 * (5358 vs 5820 ms on the recorded workloads) and 3x slower on the number parse, so every
 * query gets its own scope. `check_assumptions` with the query as an assumption was slower
 * still. KLEE's fresh solver per query ('fresh') pays z3's solver set-up on every check.
 *
 * Translations are cached in one context across queries (Z3Builder).
 *
 * Isolation (DESIGN decision 3): a trap or abort inside z3 (an out-of-memory on the 2 GB
 * wasm heap, an assertion, a stack overflow) leaves that wasm instance unusable. The query
 * then throws SolverFailure(OutOfMemory or Crash), the instance is dropped, and the next
 * query makes a new one synchronously (see z3-module.ts). z3's own out-of-memory (its
 * `memory_max_size`, `memoryLimitMB` here) is sticky inside an instance, so it is handled
 * the same way. A timeout (z3-watchdog.ts: z3 never starts a thread) costs only its query
 * and keeps the instance.
 *
 * Start-up is lazy: without a handle, the first query that reaches this backend compiles
 * the module (loadZ3Sync) and makes the instance; a run answered entirely by the layers
 * above never loads z3.
 */
import { ExprKind, TRUE, FALSE, hasQuantifier, type Expr, type ExprArray } from '../../expr/index.js';
import { SolverFailure, SolverFailureKind, Validity, type BackendCounters, type InitialValues, type Query, type SolverStats } from '../solver.js';
import { Z3Builder, type ConstantArrayEncoding } from './z3-builder.js';
import { loadZ3, loadZ3Sync, type Z3Handle, type Z3Instance } from './z3-module.js';
import { findCancelFlags, Z3Watchdog } from './z3-watchdog.js';
import { LayerCounters } from '../layers/layer-stats.js';
import type { IncrementalSession, IncrementalSolver } from '../incremental.js';
import { wasmFailureKind } from './wasm-failure.js';
export { wasmFailureKind } from './wasm-failure.js';
import { registerNativeHeap } from '../../util/memory-use.js';

export interface Z3SolverOptions {
  /** Per-query time limit of each check in milliseconds (see z3-watchdog.ts); none if 0 or absent. */
  timeoutMs?: number;
  /**
   * The run's end (Date.now() milliseconds, from --max-time): a check still running then is
   * stopped (a Timeout failure), and checks after it get at most AFTER_STOP_MS each (the tests
   * of the states left at the end still need their models). None if absent.
   */
  stopAt?: number;
  /**
   * The process CPU time (process.cpuUsage(), user + system µs, from --max-cpu-time) at which
   * checks stop the same way. A check may use at most the CPU left, so the CPU left as wall
   * time bounds it (a loaded machine stops it early, never late). None if absent.
   */
  cpuStopAtUs?: number;
  /** z3's own allocation limit (`memory_max_size`), below the wasm heap's 2 GB. */
  memoryLimitMB?: number;
  /** Bound on cached translations (see Z3Builder). */
  cacheLimit?: number;
  /** How constant arrays are encoded (Z3Builder; --z3-constant-arrays). Default 'lambda'. */
  constantArrays?: ConstantArrayEncoding;
  /** Read array models byte by byte with model_eval instead of from the interpretation (slower; for testing). */
  evalArrayBytes?: boolean;
  /**
   * How queries reach z3 (measurements above):
   *  - 'hybrid' (default): the logic solver within `budget`, then the tactic solver;
   *  - 'logic': one solver for logic QF_AUFBV (z3's incremental SMT core), a push/pop scope per query;
   *  - 'tactic': one solver made from z3's QF_AUFBV tactic, a push/pop scope per query;
   *  - 'fresh': a new default solver per query, as KLEE does.
   */
  solverMode?: SolverMode;
  /** 'hybrid': z3 resource units (`rlimit`) the logic solver may spend on a check before the tactic solver takes it. Default 100 000 (~30–100 ms). */
  budget?: number;
  /** Queries before a shared solver object is replaced (bounds state z3 keeps across scopes). Default 2000. */
  recycleAfter?: number;
  /**
   * The instance's heap bound in MB: after a query that took z3's allocations past it, the
   * instance is replaced (a wasm memory never shrinks; a new instance starts small and the old
   * one's pages are freed). Default 1024.
   */
  heapBudgetMB?: number;
}

export type SolverMode = 'hybrid' | 'logic' | 'tactic' | 'fresh';

/**
 * z3's share of a --max-memory cap (MB; 0 = none): one query may take z3 to half the cap (its
 * `memory_max_size`, then the query fails with an out-of-memory and the state ends with a
 * solver error, as on a timeout), and an instance that grew past an eighth of it is replaced
 * after its query, so that z3 keeps little of the cap between hard queries.
 */
export function z3HeapBounds(capMB: number): Pick<Z3SolverOptions, 'memoryLimitMB' | 'heapBudgetMB'> {
  if (capMB <= 0) return {};
  const clamp = (v: number, lo: number, hi: number): number => Math.round(Math.min(hi, Math.max(lo, v)));
  return { memoryLimitMB: clamp(capMB / 2, 256, 1536), heapBudgetMB: clamp(capMB / 8, 64, DEFAULT_HEAP_BUDGET_MB) };
}

/** The solvers a session may hold: 'budgeted' is the logic solver under the hybrid budget. */
type SolverKind = 'budgeted' | 'logic' | 'tactic' | 'fresh';

const DEFAULT_BUDGET = 100_000;
/** Per check after the run's --max-time (Z3SolverOptions.stopAt): the halted states' tests. */
const AFTER_STOP_MS = 2000;

const MB = 1024 * 1024;
const DEFAULT_HEAP_BUDGET_MB = 1024;
/** Pages an instance commits besides what z3 counts (data, stack): measured ~14 MB resident for 8.3 MB counted. */
const INSTANCE_BASE_BYTES = 6 * MB;

/** The shared solvers each mode uses. */
const SHARED_SOLVERS: Record<SolverMode, readonly Exclude<SolverKind, 'fresh'>[]> = {
  hybrid: ['budgeted', 'tactic'],
  logic: ['logic'],
  tactic: ['tactic'],
  fresh: [],
};

/** The backend counters, and z3-specific ones. */
export interface Z3Counters extends BackendCounters {
  /** wasm instances made (1 + one per crash or z3 out-of-memory). */
  instances: number;
  /** Arrays whose model had an unexpected shape and was read byte by byte. */
  slowArrayReads: number;
  /** 'hybrid': checks the logic solver left to the tactic solver (budget exhausted, or unknown). */
  fallbacks: number;
  /** Instances replaced because their heap passed heapBudgetMB. */
  heapRecycles: number;
}

/** Everything tied to one wasm instance. */
interface Session {
  inst: Z3Instance;
  ctx: number;
  builder: Z3Builder;
  /** Cancels a check that overruns the time limit; null without a limit. */
  watchdog: Z3Watchdog | null;
  /** The QF_AUFBV tactic, made on first use (0 before). */
  tactic: number;
  /** The shared solvers made so far, with the queries each has seen. */
  solvers: Map<SolverKind, { solver: number; uses: number }>;
  /** The most z3 has had allocated in this instance, plus its start-up size: its committed pages, about. */
  peakBytes: number;
  /** Stops counting the instance in memoryInUse(). */
  unregister: () => void;
}

/** A check's outcome: 1 sat, -1 unsat, 0 unknown (with z3's reason, read before its scope is popped). */
interface CheckResult {
  r: number;
  reason: string;
}

/** Z3_error_code of an allocation failure. */
const Z3_MEMOUT_FAIL = 7;

// z3's Z3_decl_kind values used to walk array models
const OP_STORE = 768;
const OP_CONST_ARRAY = 770;

export class Z3Solver implements IncrementalSolver {
  private current: Session | null = null;
  private disposed = false;
  private readonly c = new LayerCounters('z3');
  /** Whether the watchdog canceled the last check (its unknown is then a timeout, whatever z3 calls it). */
  private lastCheckCanceled = false;
  /** The time limit of the last check (for the failure's message). */
  private lastLimitMs = 0;
  readonly counters: Z3Counters = { checks: 0, sat: 0, unsat: 0, timeouts: 0, unknowns: 0, crashes: 0, cex: 0, constructs: 0, instances: 0, slowArrayReads: 0, fallbacks: 0, heapRecycles: 0 };

  /** A solver over the process's z3 module, compiled now off the main thread. */
  static async create(opts: Z3SolverOptions = {}): Promise<Z3Solver> {
    return new Z3Solver(opts, await loadZ3());
  }

  private readonly mode: SolverMode;

  /** Without `handle`, z3 is compiled and instantiated when the first query reaches it (loadZ3Sync). */
  constructor(
    private readonly opts: Z3SolverOptions = {},
    private handle?: Z3Handle,
  ) {
    this.mode = opts.solverMode ?? 'hybrid';
  }

  computeTruth(q: Query): boolean {
    if (q.expr === TRUE) return this.c.answered(true);
    if (q.expr === FALSE) return this.c.answered(false); // constraints are satisfiable by contract
    return this.run((s) => !this.sat(s, q.constraints, q.expr, true, null));
  }

  computeValidity(q: Query): Validity {
    if (q.expr === TRUE) return this.c.answered(Validity.True);
    if (q.expr === FALSE) return this.c.answered(Validity.False);
    return this.run((s) => {
      if (!this.sat(s, q.constraints, q.expr, true, null)) return Validity.True;
      return this.sat(s, q.constraints, q.expr, false, null) ? Validity.Unknown : Validity.False;
    });
  }

  computeValue(q: Query): bigint {
    if (q.expr.kind === ExprKind.Constant) return this.c.answered(q.expr.value);
    return this.run((s) => {
      let value = 0n;
      const sat = this.sat(s, q.constraints, null, false, (m) => (value = this.evalInModel(s, m, q.expr)));
      if (!sat) throw new Error('computeValue: the constraints are unsatisfiable');
      return value;
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (q.expr === FALSE) return this.c.answered(null);
    return this.run((s) => {
      let values: Uint8Array[] = [];
      const goal = q.expr === TRUE ? null : q.expr;
      const read = (m: number): void => void (values = arrays.map((a) => this.readArray(s, m, a)));
      return this.sat(s, q.constraints, goal, false, read) ? values : null;
    });
  }

  stats(): SolverStats[] {
    const b = this.current?.builder;
    return [
      {
        ...this.c.snapshot(),
        entries: b?.cacheSize ?? 0,
        evicted: this.droppedTranslations.evicted + (b?.evicted ?? 0),
        cacheHits: this.droppedTranslations.hits + (b?.cacheHits ?? 0),
      },
    ];
  }

  /** Translation-cache counters of instances discarded so far (a discarded instance's cache is evicted whole). */
  private readonly droppedTranslations = { evicted: 0, hits: 0 };

  backendTimeMs(): number {
    return this.c.timeMs;
  }

  /** Each builder's translations counted so far into counters.constructs. */
  private readonly constructsCounted = new WeakMap<Z3Builder, number>();

  /** Adds the translations `b` made since it was last counted (KLEE's query constructs, counted per check). */
  private countConstructs(b: Z3Builder): void {
    this.counters.constructs += b.constructs - (this.constructsCounted.get(b) ?? 0);
    this.constructsCounted.set(b, b.constructs);
  }

  /**
   * An incremental session (the array encoding's CEGAR loop): one scope on the mode's first
   * solver, kept across checks. In 'hybrid' mode a check that exhausts the budget is
   * re-run, with everything asserted so far, in a scope of the tactic solver, which then
   * answers the session's value() calls. Each check counts as one query of this layer.
   */
  openSession(): IncrementalSession {
    const first: SolverKind = this.mode === 'hybrid' ? 'budgeted' : this.mode;
    const asserted: Expr[] = [];
    let s: Session | null = null;
    let solver = 0;
    let fallback = 0;
    let model = 0;
    const dropModel = (): void => {
      if (model !== 0 && s !== null && !s.inst.dead) s.inst.z.Z3_model_dec_ref(s.ctx, model);
      model = 0;
      if (fallback !== 0 && s !== null && !s.inst.dead) this.release(s, 'tactic', fallback);
      fallback = 0;
    };
    const open = (): Session => {
      if (s !== null && !s.inst.dead && this.current === s) return s;
      s = this.session();
      s.builder.trim();
      solver = this.acquire(s, first);
      for (const e of asserted) s.inst.z.Z3_solver_assert(s.ctx, solver, s.builder.bool(e));
      return s;
    };
    const checkOn = (ss: Session, on: number, deadline: number): number => {
      this.counters.checks++;
      this.countConstructs(ss.builder);
      const r = this.check(ss, on, deadline);
      if (r === 1) this.counters.sat++;
      else if (r === -1) this.counters.unsat++;
      return r;
    };
    return {
      add: (formula: Expr): void => {
        asserted.push(formula);
        if (s === null) return;
        dropModel();
        const ss = s as Session;
        this.run(() => ss.inst.z.Z3_solver_assert(ss.ctx, solver, ss.builder.bool(formula)));
      },
      check: (): boolean =>
        this.run(() => {
          dropModel();
          const ss = open();
          const z = ss.inst.z;
          const deadline = this.deadline();
          let on = solver;
          let r = checkOn(ss, solver, deadline);
          if (r === 0 && first === 'budgeted') {
            const reason = ss.inst.string(z.Z3_solver_get_reason_unknown(ss.ctx, solver));
            if (this.unknownKind(reason, first) !== SolverFailureKind.Unknown) throw this.unknown(ss, reason);
            this.counters.fallbacks++;
            fallback = this.acquire(ss, 'tactic');
            for (const e of asserted) z.Z3_solver_assert(ss.ctx, fallback, ss.builder.bool(e));
            on = fallback;
            r = checkOn(ss, fallback, deadline);
          }
          if (r === 0) throw this.unknown(ss, ss.inst.string(z.Z3_solver_get_reason_unknown(ss.ctx, on)));
          if (r === 1) {
            model = z.Z3_solver_get_model(ss.ctx, on);
            z.Z3_model_inc_ref(ss.ctx, model);
          }
          return r === 1;
        }),
      value: (e: Expr): bigint => {
        if (model === 0 || s === null) throw new Error('z3 session: value() without a satisfiable check');
        const ss = s as Session;
        return this.evalInModel(ss, model, e);
      },
      close: (): void => {
        if (s === null) return;
        const ss = s as Session;
        try {
          dropModel();
          if (!ss.inst.dead && this.current === ss) this.release(ss, first, solver);
        } finally {
          s = null;
        }
      },
    };
  }

  dispose(): void {
    if (this.current !== null) this.discard(this.current);
    this.disposed = true;
  }

  /** The live wasm instance (tests use it to provoke failures), made if needed. */
  instance(): Z3Instance {
    return this.session().inst;
  }

  // ---- sessions and failures ----

  private session(): Session {
    if (this.disposed) throw new Error('Z3Solver used after dispose()');
    if (this.current !== null) return this.current;
    this.handle ??= loadZ3Sync();
    const inst = this.handle.newInstance();
    let watchdog: Z3Watchdog | null = null;
    try {
      const z = inst.z;
      if (this.opts.memoryLimitMB !== undefined) inst.setGlobalParam('memory_max_size', String(this.opts.memoryLimitMB));
      const cfg = z.Z3_mk_config();
      const ctx = z.Z3_mk_context_rc(cfg);
      z.Z3_del_config(cfg);
      z.set_noop_error_handler(ctx);
      if ((this.opts.timeoutMs ?? 0) > 0 || this.opts.stopAt !== undefined) {
        const flags = findCancelFlags(inst.heap32, ctx, () => z.Z3_interrupt(ctx));
        if (flags === null) throw new Error('z3: cannot locate the context cancel flags (unexpected z3-solver build): solver time limits are unavailable');
        watchdog = new Z3Watchdog(inst.heap32, flags);
      }
      const builder = new Z3Builder(inst, ctx, { cacheLimit: this.opts.cacheLimit, constantArrays: this.opts.constantArrays });
      const session: Session = { inst, ctx, builder, watchdog, tactic: 0, solvers: new Map(), peakBytes: 0, unregister: () => {} };
      session.unregister = registerNativeHeap({ bytes: () => session.peakBytes });
      // made now, while z3 is sure to have memory: a fallback made after the first solver
      // ran z3 out of memory could not be made at all
      for (const kind of SHARED_SOLVERS[this.mode]) session.solvers.set(kind, { solver: this.makeShared(session, kind), uses: 0 });
      this.notePeak(session);
      this.counters.instances++;
      return (this.current = session);
    } catch (e) {
      watchdog?.stop();
      inst.kill();
      throw e;
    }
  }

  /** Runs one query on the live session, turning wasm failures into a SolverFailure for it. */
  private run<T>(f: (s: Session) => T): T {
    return this.c.time(() => {
      let s: Session | null = null;
      try {
        s = this.session();
        s.builder.trim();
        const r = f(s);
        if (this.notePeak(s) > (this.opts.heapBudgetMB ?? DEFAULT_HEAP_BUDGET_MB) * MB) {
          this.discard(s);
          this.counters.heapRecycles++;
        }
        return r;
      } catch (e) {
        if (e instanceof SolverFailure) throw e;
        const kind = wasmFailureKind(e);
        if (kind === null) throw e; // a bug on our side, not z3's: let it surface
        if (s !== null) this.discard(s);
        this.counters.crashes++;
        const log = s !== null && s.inst.log.length > 0 ? ` (${s.inst.log[s.inst.log.length - 1]})` : '';
        throw new SolverFailure(kind, `z3 ${kind}: ${(e as Error).message}${log}`.slice(0, 2000));
      }
    });
  }

  /**
   * Updates the instance's peak (z3's own count of its allocations, which its memory manager
   * keeps within ~100 KB, plus the instance's size before z3 allocated anything); returns it.
   */
  private notePeak(s: Session): number {
    const allocated: unknown = s.inst.z.Z3_get_estimated_alloc_size(); // a uint64_t: a BigInt from wasm
    const now = INSTANCE_BASE_BYTES + Number(allocated);
    if (now > s.peakBytes) s.peakBytes = now;
    return s.peakBytes;
  }

  private discard(s: Session): void {
    this.droppedTranslations.evicted += s.builder.evicted + s.builder.cacheSize;
    this.droppedTranslations.hits += s.builder.cacheHits;
    s.unregister();
    s.watchdog?.stop();
    s.inst.kill();
    if (this.current === s) this.current = null;
  }

  // ---- checks and models ----

  /**
   * Is constraints ∧ goal (¬goal if `negate`) satisfiable? On sat, `onModel` sees the model.
   * Throws SolverFailure on unknown. The time limit covers the whole question (both
   * solvers in 'hybrid' mode).
   */
  private sat(
    s: Session,
    constraints: readonly Expr[],
    goal: Expr | null,
    negate: boolean,
    onModel: ((model: number) => void) | null,
  ): boolean {
    const deadline = this.deadline();
    // a quantified query needs z3's general solver (the QF_AUFBV ones reject quantifiers)
    const quantified = (goal !== null && hasQuantifier(goal)) || constraints.some(hasQuantifier);
    const first: SolverKind = quantified ? 'fresh' : this.mode === 'hybrid' ? 'budgeted' : this.mode;
    let res = this.attempt(s, first, constraints, goal, negate, onModel, deadline);
    if (res.r === 0 && first === 'budgeted' && this.unknownKind(res.reason, first) === SolverFailureKind.Unknown) {
      // z3 says 'canceled' both for a spent budget and for its own memory limit; in the
      // latter case the tactic solver fails too (its reason is then just 'unknown')
      const memorySuspect = res.reason === 'canceled' && this.opts.memoryLimitMB !== undefined;
      this.counters.fallbacks++;
      res = this.attempt(s, 'tactic', constraints, goal, negate, onModel, deadline);
      if (res.r === 0 && memorySuspect && this.unknownKind(res.reason, 'tactic') === SolverFailureKind.Unknown) res.reason = `memory limit (${res.reason})`;
    }
    if (res.r === 0) throw this.unknown(s, res.reason);
    return res.r === 1;
  }

  /** One check on one of the session's solvers, in a scope of its own. */
  private attempt(
    s: Session,
    kind: SolverKind,
    constraints: readonly Expr[],
    goal: Expr | null,
    negate: boolean,
    onModel: ((model: number) => void) | null,
    deadline: number,
  ): CheckResult {
    const { inst, ctx, builder } = s;
    const z = inst.z;
    const solver = this.acquire(s, kind);
    try {
      for (const c of constraints) z.Z3_solver_assert(ctx, solver, builder.bool(c));
      if (goal !== null) {
        const g = builder.bool(goal);
        z.Z3_solver_assert(ctx, solver, negate ? z.Z3_mk_not(ctx, g) : g);
      }
      this.counters.checks++;
      this.countConstructs(builder);
      if (onModel !== null) this.counters.cex++;
      const r = this.check(s, solver, deadline);
      if (r === -1) {
        this.counters.unsat++;
        return { r, reason: '' };
      }
      if (r !== 1) return { r: 0, reason: inst.string(z.Z3_solver_get_reason_unknown(ctx, solver)) };
      this.counters.sat++;
      if (onModel !== null) {
        const model = z.Z3_solver_get_model(ctx, solver);
        z.Z3_model_inc_ref(ctx, model);
        try {
          onModel(model);
        } finally {
          if (!inst.dead) z.Z3_model_dec_ref(ctx, model);
        }
      }
      return { r, reason: '' };
    } catch (e) {
      if (wasmFailureKind(e) !== null) inst.dead = true; // never call into it again
      throw e;
    } finally {
      if (!inst.dead) this.release(s, kind, solver);
    }
  }

  /** When a check starting now must stop (performance.now() milliseconds; Infinity: never). */
  private deadline(): number {
    const t = this.opts.timeoutMs ?? 0;
    let limit = t > 0 ? t : Infinity;
    if (this.opts.stopAt !== undefined) {
      const left = this.opts.stopAt - Date.now();
      limit = Math.min(limit, left > 0 ? left : AFTER_STOP_MS);
    }
    if (this.opts.cpuStopAtUs !== undefined) {
      const u = process.cpuUsage();
      const left = (this.opts.cpuStopAtUs - (u.user + u.system)) / 1000;
      limit = Math.min(limit, left > 0 ? left : AFTER_STOP_MS);
    }
    this.lastLimitMs = limit;
    return performance.now() + limit;
  }

  /** Z3_solver_check under the time limit: 1 sat, -1 unsat, 0 unknown (a timeout among others). */
  private check(s: Session, solver: number, deadline: number): number {
    const dog = s.watchdog;
    this.lastCheckCanceled = false;
    if (dog === null || deadline === Infinity) return s.inst.z.Z3_solver_check(s.ctx, solver);
    dog.arm(Math.max(1, deadline - performance.now()));
    try {
      return s.inst.z.Z3_solver_check(s.ctx, solver);
    } finally {
      this.lastCheckCanceled = dog.disarm();
    }
  }

  /** A solver for one check: a fresh one, or a shared one inside a new scope. */
  private acquire(s: Session, kind: SolverKind): number {
    const z = s.inst.z;
    if (kind === 'fresh') {
      const solver = z.Z3_mk_solver(s.ctx);
      z.Z3_solver_inc_ref(s.ctx, solver);
      return solver;
    }
    let slot = s.solvers.get(kind);
    if (slot === undefined) {
      slot = { solver: this.makeShared(s, kind), uses: 0 };
      s.solvers.set(kind, slot);
    }
    z.Z3_solver_push(s.ctx, slot.solver);
    return slot.solver;
  }

  private makeShared(s: Session, kind: Exclude<SolverKind, 'fresh'>): number {
    const { inst, ctx } = s;
    const z = inst.z;
    let solver: number;
    if (kind === 'tactic') {
      if (s.tactic === 0) {
        const name = inst.allocString('qfaufbv');
        s.tactic = z.Z3_mk_tactic(ctx, name);
        inst.free(name);
        if (s.tactic === 0) throw this.creationFailure(s, 'the qfaufbv tactic');
        z.Z3_tactic_inc_ref(ctx, s.tactic);
      }
      solver = z.Z3_mk_solver_from_tactic(ctx, s.tactic);
    } else {
      const logic = inst.allocString('QF_AUFBV');
      solver = z.Z3_mk_solver_for_logic(ctx, z.Z3_mk_string_symbol(ctx, logic));
      inst.free(logic);
    }
    if (solver === 0) throw this.creationFailure(s, `a ${kind} solver`);
    z.Z3_solver_inc_ref(ctx, solver);
    if (kind === 'budgeted') {
      // z3 counts rlimit from where each check starts, on the calling thread
      const params = z.Z3_mk_params(ctx);
      z.Z3_params_inc_ref(ctx, params);
      const key = inst.allocString('rlimit');
      z.Z3_params_set_uint(ctx, params, z.Z3_mk_string_symbol(ctx, key), this.opts.budget ?? DEFAULT_BUDGET);
      inst.free(key);
      z.Z3_solver_set_params(ctx, solver, params);
      z.Z3_params_dec_ref(ctx, params);
    }
    return solver;
  }

  /** z3 refused to make something: out of memory (the instance is then dropped), or a bug. */
  private creationFailure(s: Session, what: string): Error {
    const z = s.inst.z;
    const code = z.Z3_get_error_code(s.ctx);
    const message = s.inst.string(z.Z3_get_error_msg(s.ctx, code));
    if (code !== Z3_MEMOUT_FAIL && !/memory/i.test(message)) return new Error(`z3: cannot make ${what}: ${message}`);
    s.inst.dead = true;
    this.discard(s);
    this.counters.crashes++;
    return new SolverFailure(SolverFailureKind.OutOfMemory, `z3: ${message} (making ${what})`);
  }

  private release(s: Session, kind: SolverKind, solver: number): void {
    const z = s.inst.z;
    if (kind === 'fresh') {
      z.Z3_solver_dec_ref(s.ctx, solver);
      return;
    }
    z.Z3_solver_pop(s.ctx, solver, 1);
    const slot = s.solvers.get(kind)!;
    if (++slot.uses >= (this.opts.recycleAfter ?? 2000)) {
      z.Z3_solver_dec_ref(s.ctx, solver);
      s.solvers.delete(kind);
    }
  }

  /**
   * What an unknown answer of a `kind` solver means. A check the watchdog did not cancel is
   * 'canceled' by z3's own memory limit, or by the budget of the 'budgeted' solver.
   */
  private unknownKind(reason: string, kind: SolverKind): SolverFailureKind {
    if (this.lastCheckCanceled || reason === 'timeout') return SolverFailureKind.Timeout;
    if (/memory/i.test(reason) || (reason === 'canceled' && kind !== 'budgeted')) return SolverFailureKind.OutOfMemory;
    return SolverFailureKind.Unknown;
  }

  private unknown(s: Session, reason: string): SolverFailure {
    switch (this.unknownKind(reason, 'tactic')) {
      case SolverFailureKind.Timeout:
        this.counters.timeouts++;
        return new SolverFailure(SolverFailureKind.Timeout, `z3 timeout after ${Math.round(this.lastLimitMs)} ms`);
      case SolverFailureKind.OutOfMemory:
        // z3's out-of-memory state is global to the instance: start afresh
        s.inst.dead = true;
        this.discard(s);
        this.counters.crashes++;
        return new SolverFailure(SolverFailureKind.OutOfMemory, `z3: out of memory (${reason})`);
      default:
        this.counters.unknowns++;
        return new SolverFailure(SolverFailureKind.Unknown, `z3 unknown: ${reason}`);
    }
  }

  /** The value of e in the model, completed where the model is silent. */
  private evalInModel(s: Session, model: number, e: Expr): bigint {
    const { inst, ctx } = s;
    const z = inst.z;
    const t = s.builder.natural(e);
    if (!z.Z3_model_eval(ctx, model, t, 1, inst.scratch)) throw new Error('z3: model_eval failed');
    const r = inst.readU32(inst.scratch);
    if (e.width === 1) return z.Z3_get_bool_value(ctx, r) === 1 ? 1n : 0n;
    const v = this.numeral(s, r);
    if (v === null) throw new Error('z3: model value is not a numeral');
    return v;
  }

  /** A bit-vector numeral's value, or null if the AST is not a numeral. */
  private numeral(s: Session, ast: number): bigint | null {
    const { inst, ctx } = s;
    if (inst.z.Z3_get_ast_kind(ctx, ast) !== 0) return null; // Z3_NUMERAL_AST
    if (inst.z.Z3_get_numeral_uint(ctx, ast, inst.scratch)) return BigInt(inst.readU32(inst.scratch));
    return BigInt(inst.string(inst.z.Z3_get_numeral_string(ctx, ast)));
  }

  private byteOf(s: Session, ast: number): number | null {
    const { inst, ctx } = s;
    if (ast === 0 || inst.z.Z3_get_ast_kind(ctx, ast) !== 0) return null;
    return inst.z.Z3_get_numeral_uint(ctx, ast, inst.scratch) ? inst.readU32(inst.scratch) : null;
  }

  /** Bytes [0, size) of an array in the model (absent from the model: zeros). */
  private readArray(s: Session, model: number, a: ExprArray): Uint8Array {
    const out = new Uint8Array(a.size);
    if (a.constantValues !== null) {
      out.set(a.constantValues);
      return out;
    }
    if (a.size === 0) return out;
    const { inst, ctx } = s;
    const z = inst.z;
    const arr = s.builder.arrayConstant(a);
    if (!this.opts.evalArrayBytes) {
      const decl = z.Z3_get_app_decl(ctx, z.Z3_to_app(ctx, arr));
      const interp = z.Z3_model_get_const_interp(ctx, model, decl);
      if (interp === 0) return out; // the model does not constrain it
      if (this.readInterp(s, model, interp, out)) return out;
    }
    // fallback: one model_eval per byte
    this.counters.slowArrayReads++;
    const idxSort = s.builder.sort(32);
    for (let i = 0; i < a.size; i++) {
      const sel = z.Z3_mk_select(ctx, arr, z.Z3_mk_unsigned_int(ctx, i, idxSort));
      if (!z.Z3_model_eval(ctx, model, sel, 1, inst.scratch)) throw new Error('z3: model_eval failed');
      const v = this.byteOf(s, inst.readU32(inst.scratch));
      if (v === null) throw new Error(`z3: no value for ${a.name}[${i}]`);
      out[i] = v;
    }
    return out;
  }

  /**
   * Fills `out` from an array interpretation: `as-array` of a function interpretation, or
   * stores over a constant array (or over an as-array). False if the shape is unexpected.
   */
  private readInterp(s: Session, model: number, interp: number, out: Uint8Array): boolean {
    const { inst, ctx } = s;
    const z = inst.z;
    const writes: number[] = []; // (index, value) pairs, outermost store first
    let t = interp;
    for (;;) {
      if (z.Z3_is_as_array(ctx, t)) {
        if (!this.readFuncInterp(s, model, z.Z3_get_as_array_func_decl(ctx, t), out)) return false;
        break;
      }
      if (z.Z3_get_ast_kind(ctx, t) !== 1) return false; // not an application
      const app = z.Z3_to_app(ctx, t);
      const kind = z.Z3_get_decl_kind(ctx, z.Z3_get_app_decl(ctx, app));
      if (kind === OP_CONST_ARRAY) {
        const d = this.byteOf(s, z.Z3_get_app_arg(ctx, app, 0));
        if (d === null) return false;
        out.fill(d);
        break;
      }
      if (kind !== OP_STORE) return false;
      const idx = this.numeral(s, z.Z3_get_app_arg(ctx, app, 1));
      const val = this.byteOf(s, z.Z3_get_app_arg(ctx, app, 2));
      if (idx === null || val === null) return false;
      writes.push(Number(idx), val);
      t = z.Z3_get_app_arg(ctx, app, 0);
    }
    for (let i = writes.length - 2; i >= 0; i -= 2) {
      const idx = writes[i]!;
      if (idx < out.length) out[idx] = writes[i + 1]!;
    }
    return true;
  }

  private readFuncInterp(s: Session, model: number, decl: number, out: Uint8Array): boolean {
    const { inst, ctx } = s;
    const z = inst.z;
    const fi = z.Z3_model_get_func_interp(ctx, model, decl);
    if (fi === 0) return false;
    z.Z3_func_interp_inc_ref(ctx, fi);
    try {
      const dflt = z.Z3_func_interp_get_else(ctx, fi);
      const d = dflt === 0 ? 0 : this.byteOf(s, dflt);
      if (d === null) return false;
      out.fill(d);
      const n = z.Z3_func_interp_get_num_entries(ctx, fi);
      for (let j = 0; j < n; j++) {
        const entry = z.Z3_func_interp_get_entry(ctx, fi, j);
        z.Z3_func_entry_inc_ref(ctx, entry);
        const idx = this.numeral(s, z.Z3_func_entry_get_arg(ctx, entry, 0));
        const val = this.byteOf(s, z.Z3_func_entry_get_value(ctx, entry));
        z.Z3_func_entry_dec_ref(ctx, entry);
        if (idx === null || val === null) return false;
        if (idx < BigInt(out.length)) out[Number(idx)] = val;
      }
      return true;
    } finally {
      z.Z3_func_interp_dec_ref(ctx, fi);
    }
  }
}
