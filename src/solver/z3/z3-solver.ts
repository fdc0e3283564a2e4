/**
 * The z3 backend: answers queries synchronously through the wasm C API (DESIGN decision 2).
 *
 * How queries reach z3 (`solverMode`). KLEE makes a fresh solver per query, because z3's
 * default solver switches to its slower incremental core under push/pop. Here a fresh
 * solver also rebuilds z3's QF_AUFBV tactic on every check, which dominates small queries.
 * The default keeps one solver made from that tactic (`Z3_mk_solver_from_tactic`, so it
 * never switches cores) and runs each query in a push/pop scope: every check still solves
 * from scratch with the full preprocessing. Measured (CPU ms per query, best of 3 rounds,
 * busy 2-core machine; one translation cache throughout):
 *
 *   workload                                  tactic  incremental  fresh
 *   trivial (x < 10 ⊢ x < 11)                  1.9      1.2         6.0
 *   34 constraints + 100-byte model            6.4      9.9        10.6
 *   symbolic-index reads through 10 writes    36       59          89
 *   256-byte constant table lookup             8.5      9.8        15
 *   8-digit number parse (bit-vector heavy)  138      602         162
 *   32-bit div/rem                            75       51          82
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
import { ExprKind, TRUE, FALSE, type Expr, type ExprArray } from '../../expr/index.js';
import { SolverFailure, SolverFailureKind, Validity, type BackendCounters, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { Z3Builder } from './z3-builder.js';
import { loadZ3, loadZ3Sync, type Z3Handle, type Z3Instance } from './z3-module.js';
import { findCancelFlags, Z3Watchdog } from './z3-watchdog.js';

export interface Z3SolverOptions {
  /** Per-query time limit of each check in milliseconds (see z3-watchdog.ts); none if 0 or absent. */
  timeoutMs?: number;
  /** z3's own allocation limit (`memory_max_size`), below the wasm heap's 2 GB. */
  memoryLimitMB?: number;
  /** Bound on cached translations (see Z3Builder). */
  cacheLimit?: number;
  /** Read array models byte by byte with model_eval instead of from the interpretation (slower; for testing). */
  evalArrayBytes?: boolean;
  /**
   * How queries reach z3 (measurements above):
   *  - 'tactic' (default): one solver made from z3's QF_AUFBV tactic, a push/pop scope per query;
   *  - 'incremental': one simple solver (z3's incremental SMT core), a push/pop scope per query;
   *  - 'fresh': a new default solver per query, as KLEE does.
   */
  solverMode?: SolverMode;
  /** Queries before the shared solver object is replaced (bounds state z3 keeps across scopes). Default 2000. */
  recycleAfter?: number;
}

export type SolverMode = 'tactic' | 'incremental' | 'fresh';

/** The backend counters, and z3-specific ones. */
export interface Z3Counters extends BackendCounters {
  /** wasm instances made (1 + one per crash or z3 out-of-memory). */
  instances: number;
  /** Arrays whose model had an unexpected shape and was read byte by byte. */
  slowArrayReads: number;
}

/** Everything tied to one wasm instance. */
interface Session {
  inst: Z3Instance;
  ctx: number;
  builder: Z3Builder;
  /** Cancels a check that overruns the time limit; null without a limit. */
  watchdog: Z3Watchdog | null;
  /** The QF_AUFBV tactic ('tactic' mode), or 0. */
  tactic: number;
  /** The shared solver (0 in 'fresh' mode or before first use) and the queries it has seen. */
  solver: number;
  solverUses: number;
}

// z3's Z3_decl_kind values used to walk array models
const OP_STORE = 768;
const OP_CONST_ARRAY = 770;

export class Z3Solver implements Solver {
  private current: Session | null = null;
  private disposed = false;
  private queries = 0;
  private hits = 0;
  private timeMs = 0;
  /** Whether the watchdog canceled the last check (its unknown is then a timeout, whatever z3 calls it). */
  private lastCheckCanceled = false;
  readonly counters: Z3Counters = { checks: 0, sat: 0, unsat: 0, timeouts: 0, unknowns: 0, crashes: 0, instances: 0, slowArrayReads: 0 };

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
    this.mode = opts.solverMode ?? 'tactic';
  }

  computeTruth(q: Query): boolean {
    if (q.expr === TRUE) return this.hit(true);
    if (q.expr === FALSE) return this.hit(false); // constraints are satisfiable by contract
    return this.run((s) => !this.sat(s, q.constraints, q.expr, true, null));
  }

  computeValidity(q: Query): Validity {
    if (q.expr === TRUE) return this.hit(Validity.True);
    if (q.expr === FALSE) return this.hit(Validity.False);
    return this.run((s) => {
      if (!this.sat(s, q.constraints, q.expr, true, null)) return Validity.True;
      return this.sat(s, q.constraints, q.expr, false, null) ? Validity.Unknown : Validity.False;
    });
  }

  computeValue(q: Query): bigint {
    if (q.expr.kind === ExprKind.Constant) return this.hit(q.expr.value);
    return this.run((s) => {
      let value = 0n;
      const sat = this.sat(s, q.constraints, null, false, (m) => (value = this.evalInModel(s, m, q.expr)));
      if (!sat) throw new Error('computeValue: the constraints are unsatisfiable');
      return value;
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    if (q.expr === FALSE) return this.hit(null);
    return this.run((s) => {
      let values: Uint8Array[] = [];
      const goal = q.expr === TRUE ? null : q.expr;
      const read = (m: number): void => void (values = arrays.map((a) => this.readArray(s, m, a)));
      return this.sat(s, q.constraints, goal, false, read) ? values : null;
    });
  }

  stats(): SolverStats[] {
    return [{ layer: 'z3', queries: this.queries, hits: this.hits, timeMs: this.timeMs }];
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

  private hit<T>(v: T): T {
    this.queries++;
    this.hits++;
    return v;
  }

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
      if ((this.opts.timeoutMs ?? 0) > 0) {
        const flags = findCancelFlags(inst.heap32, ctx, () => z.Z3_interrupt(ctx));
        if (flags === null) throw new Error('z3: cannot locate the context cancel flags (unexpected z3-solver build): solver time limits are unavailable');
        watchdog = new Z3Watchdog(inst.heap32, flags);
      }
      let tactic = 0;
      if (this.mode === 'tactic') {
        const name = inst.allocString('qfaufbv');
        tactic = z.Z3_mk_tactic(ctx, name);
        inst.free(name);
        if (tactic === 0) throw new Error('z3: no qfaufbv tactic in this build');
        z.Z3_tactic_inc_ref(ctx, tactic);
      }
      const builder = new Z3Builder(inst, ctx, { cacheLimit: this.opts.cacheLimit });
      this.counters.instances++;
      return (this.current = { inst, ctx, builder, watchdog, tactic, solver: 0, solverUses: 0 });
    } catch (e) {
      watchdog?.stop();
      inst.kill();
      throw e;
    }
  }

  /** Runs one query on the live session, turning wasm failures into a SolverFailure for it. */
  private run<T>(f: (s: Session) => T): T {
    this.queries++;
    const start = performance.now();
    let s: Session | null = null;
    try {
      s = this.session();
      s.builder.trim();
      return f(s);
    } catch (e) {
      if (e instanceof SolverFailure) throw e;
      const kind = wasmFailureKind(e);
      if (kind === null) throw e; // a bug on our side, not z3's: let it surface
      if (s !== null) this.discard(s);
      this.counters.crashes++;
      const log = s !== null && s.inst.log.length > 0 ? ` (${s.inst.log[s.inst.log.length - 1]})` : '';
      throw new SolverFailure(kind, `z3 ${kind}: ${(e as Error).message}${log}`.slice(0, 2000));
    } finally {
      this.timeMs += performance.now() - start;
    }
  }

  private discard(s: Session): void {
    s.watchdog?.stop();
    s.inst.kill();
    if (this.current === s) this.current = null;
  }

  // ---- checks and models ----

  /**
   * Is constraints ∧ goal (¬goal if `negate`) satisfiable? On sat, `onModel` sees the model.
   * Throws SolverFailure on unknown.
   */
  private sat(
    s: Session,
    constraints: readonly Expr[],
    goal: Expr | null,
    negate: boolean,
    onModel: ((model: number) => void) | null,
  ): boolean {
    const { inst, ctx, builder } = s;
    const z = inst.z;
    const solver = this.acquire(s);
    try {
      for (const c of constraints) z.Z3_solver_assert(ctx, solver, builder.bool(c));
      if (goal !== null) {
        const g = builder.bool(goal);
        z.Z3_solver_assert(ctx, solver, negate ? z.Z3_mk_not(ctx, g) : g);
      }
      this.counters.checks++;
      const r = this.check(s, solver);
      if (r === -1) {
        this.counters.unsat++;
        return false;
      }
      if (r !== 1) throw this.unknown(s, solver);
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
      return true;
    } catch (e) {
      if (wasmFailureKind(e) !== null) inst.dead = true; // never call into it again
      throw e;
    } finally {
      if (!inst.dead) this.release(s, solver);
    }
  }

  /** Z3_solver_check under the time limit: 1 sat, -1 unsat, 0 unknown (a timeout among others). */
  private check(s: Session, solver: number): number {
    const dog = s.watchdog;
    if (dog === null) return s.inst.z.Z3_solver_check(s.ctx, solver);
    dog.arm(this.opts.timeoutMs!);
    try {
      return s.inst.z.Z3_solver_check(s.ctx, solver);
    } finally {
      this.lastCheckCanceled = dog.disarm();
    }
  }

  /** A solver for one check: a fresh one, or the shared one inside a new scope. */
  private acquire(s: Session): number {
    const z = s.inst.z;
    if (this.mode !== 'fresh' && s.solver !== 0) {
      z.Z3_solver_push(s.ctx, s.solver);
      return s.solver;
    }
    const solver =
      this.mode === 'incremental'
        ? z.Z3_mk_simple_solver(s.ctx)
        : this.mode === 'tactic'
          ? z.Z3_mk_solver_from_tactic(s.ctx, s.tactic)
          : z.Z3_mk_solver(s.ctx);
    z.Z3_solver_inc_ref(s.ctx, solver);
    if (this.mode === 'fresh') return solver;
    s.solver = solver;
    s.solverUses = 0;
    z.Z3_solver_push(s.ctx, solver);
    return solver;
  }

  private release(s: Session, solver: number): void {
    const z = s.inst.z;
    if (this.mode === 'fresh') {
      z.Z3_solver_dec_ref(s.ctx, solver);
      return;
    }
    z.Z3_solver_pop(s.ctx, solver, 1);
    if (++s.solverUses >= (this.opts.recycleAfter ?? 2000)) {
      z.Z3_solver_dec_ref(s.ctx, solver);
      s.solver = 0;
    }
  }

  private unknown(s: Session, solver: number): SolverFailure {
    const reason = s.inst.string(s.inst.z.Z3_solver_get_reason_unknown(s.ctx, solver));
    if (this.lastCheckCanceled || reason === 'timeout' || reason === 'canceled') {
      this.counters.timeouts++;
      return new SolverFailure(SolverFailureKind.Timeout, `z3 timeout after ${this.opts.timeoutMs ?? 0} ms`);
    }
    if (/memory/i.test(reason)) {
      // z3's out-of-memory state is global to the instance: start afresh
      s.inst.dead = true;
      this.discard(s);
      this.counters.crashes++;
      return new SolverFailure(SolverFailureKind.OutOfMemory, `z3: ${reason}`);
    }
    this.counters.unknowns++;
    return new SolverFailure(SolverFailureKind.Unknown, `z3 unknown: ${reason}`);
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

/**
 * Whether an exception came out of the wasm instance (so the instance is unusable), and
 * what to call it. Checked by name: the error may come from another realm (jest's vm).
 */
export function wasmFailureKind(e: unknown): SolverFailureKind | null {
  if (e === null || typeof e !== 'object') return null;
  const name = String((e as { name?: unknown }).name ?? '');
  const message = String((e as { message?: unknown }).message ?? '');
  const tag = Object.prototype.toString.call(e);
  const fromWasm =
    name === 'RuntimeError' || // traps and Emscripten aborts
    tag === '[object WebAssembly.Exception]' || // a C++ exception escaping z3
    message.startsWith('Aborted(') ||
    (name === 'RangeError' && /call stack/i.test(message)); // wasm stack overflow
  if (!fromWasm) return null;
  return /OOM|out of memory|Cannot enlarge memory|bad_alloc/i.test(message)
    ? SolverFailureKind.OutOfMemory
    : SolverFailureKind.Crash;
}
