/**
 * The executor (KLEE's Executor): owns the states, runs the search loop, forks, talks to the
 * solver, and ends states. Instruction semantics live in the exec-*.ts files, the hot loop in
 * interpreter.ts, intrinsics and special functions in intrinsics*.ts and special/.
 */
import { MergeDistances } from './merging/incomplete.js';
import { collectMergingSummary } from './merging/summary.js';
import { builder } from '../expr/builder.js';
import { constantFromBV, TRUE, FALSE, type ConstantExpr, type Expr } from '../expr/expr.js';
import { ExprArray } from '../expr/array.js';
import { ExprKind } from '../expr/kinds.js';
import { Validity, isSolverFailure, type Solver } from '../solver/solver.js';
import { ObjectKind, resetConstArrayCounter, resetObjectIds, type MemoryModelFactory, type MemoryObject } from '../memory/index.js';
import type { GlobalVariable } from '../ir/index.js';
import { Rng } from '../util/rng.js';
import type { Searcher } from './searchers/searcher.js';
import { PTree } from './searchers/ptree.js';
import { KModule } from './prepare/kmodule.js';
import { Op, type KFunction, type KInst } from './prepare/kinst.js';
import { ExecutionState, StackFrame, StateStatus } from './state.js';
import { ConstraintSet } from '../solver/layers/constraint-set.js';
import { resolveOptions, type EngineOptions } from './options.js';
import { Msg, StateAbort, Termination } from './errors.js';
import { endLiveStates } from './halt-dump.js';
import { applyPoisonTracking } from './prepare/poison.js';
import { fromExpr, toExpr, type Scalar, type Val } from './values.js';
import { interpret } from './interpreter.js';
import { MergeGroup } from './merging/manual.js';
import type { MergeCounters, WitnessEvents } from './merging/core.js';
import { leaveMergeGroup, releaseEarly } from './merging/close.js';
import type { MergePoints } from './merging/auto.js';
import type { QuantifiedRegions } from './merging/quantified/regions.js';
import type { DsmCounters } from './searchers/dsm.js';
import { callBindings, withoutExternalCalls } from './bindings.js';
import { TestWriter, type RunOutput } from './test-output.js';
import { initializeGlobals } from './prepare/globals.js';
import { memoryModelOf } from './prepare/memory-model.js';
import { branchState, forkState } from './forking.js';
import { EngineSetupError, INTERRUPT_DUMP_BUDGET_MS, REPLAY_MISMATCH_PREFIX, type ExploreEvents, type MergingSummary, type RunSummary, type SearcherFactory } from './run-types.js';
export { EngineSetupError, INTERRUPT_DUMP_BUDGET_MS, REPLAY_MISMATCH_PREFIX, type ExploreEvents, type MergingSummary, type RunSummary, type SearcherFactory, type StateEndInfo } from './run-types.js';
import { buildMainArgs, libcExit, setEnviron } from './prepare/startup.js';
import { applyFunctionAliases } from './prepare/function-alias.js';
import { StaticLimitTracker } from './static-limits.js';
import { MemoryCap, statesToEnd } from './memory-cap.js';
import { interpretTraced } from './trace.js';
import type { Module } from '../ir/module.js';
import type { CallPathCounts } from './coverage.js';
import type { RunStatistics } from './stats.js';
import { nowMs } from '../util/clock.js';
import { RunClock } from './run-clock.js';
import { runSummary } from './run-summary.js';
import { jobPath, type WorkSharing } from './parallel/jobs.js';
import { adoptJobPaths } from './parallel/adopt.js';
import { Seeding, seedingConflict } from './seeding/seeding.js';
import { runSeedingPhase, HoldingSearcher } from './seeding/phase.js';

export class Executor {
  readonly km: KModule;
  readonly opts: EngineOptions;
  /** Makes the first state's memory (memory/model.ts): KLEE's forking model, or the relocatable one. */
  readonly memoryModel: MemoryModelFactory;
  readonly rng: Rng;
  readonly writer: TestWriter;
  /** Execution statistics. */
  instructions = 0;
  forks = 0;
  queries = 0;
  /**
   * Times each instruction (by gid) has run, over all states (KLEE's per-instruction
   * stats::instructions, read by nurs:icnt); non-zero = covered.
   */
  readonly covered: Float64Array;
  /** Times each control-flow edge (by Edge.id) was taken out of a conditional branch, switch or indirectbr (branch coverage). */
  readonly edgeTaken: Float64Array;
  /** Instructions per call path, kept only when a searcher needs them (nurs:cpicnt). */
  callPaths: CallPathCounts | null = null;
  coveredCount = 0;
  /** States created / ended during the current step (KLEE's addedStates / removedStates). */
  added: ExecutionState[] = [];
  removed: ExecutionState[] = [];
  ptree: PTree<ExecutionState> | null = null;
  /**
   * Whether run() keeps the process tree: only random-path walks it (KLEE builds it only then
   * too), and keeping it costs each fork a node and each ended state a walk up the tree.
   */
  keepProcessTree = true;
  searcher: Searcher<ExecutionState> | null = null;
  haltReason: string | null = null;
  /** The error report that stopped the run under --exit-on-error (KLEE prints it). */
  exitErrorReport: string | null = null;
  private nextStateId = 1;
  private readonly liveStates = new Set<ExecutionState>();
  private warnedOnce = new Set<string>();
  /** --max-static-*-pct bookkeeping, when a limit is set. */
  readonly staticLimits: StaticLimitTracker | null;
  /** Per-run solver time (ms). */
  solverTimeMs = 0;
  /** The seeds states follow (--seed-file, --seed-dir), or null without seeds. */
  readonly seeding: Seeding | null;

  constructor(
    module: Module,
    readonly solver: Solver,
    output: RunOutput,
    options: Partial<EngineOptions> = {},
    readonly events: ExploreEvents = {},
  ) {
    this.opts = resolveOptions(options);
    this.rng = new Rng(this.opts.seed);
    this.memoryModel = memoryModelOf(this.opts);
    // Object and array numbering restart per run: MO ids and const_arr names are deterministic.
    resetObjectIds();
    resetConstArrayCounter();
    const aliased = applyFunctionAliases(module, this.opts.functionAliases);
    this.km = new KModule(module, this.opts.externalCalls === 'none' ? withoutExternalCalls(callBindings) : callBindings);
    if (this.opts.checkOvershift) applyPoisonTracking(this.km, this.opts.overshiftAt);
    // --make-concrete-symbolic: every load through the general path (the fast one reads bytes)
    if (this.opts.makeConcreteSymbolic > 0) for (const ki of this.km.instructions) if (ki.op === Op.Load) ki.op = Op.LoadSlow;
    // path files record concrete branches too: those through the general path then
    if (this.opts.writePaths || this.opts.replayPath !== undefined) for (const ki of this.km.instructions) if (ki.op === Op.CondBr) ki.op = Op.CondBrSlow;
    this.covered = new Float64Array(this.km.instructions.length);
    this.edgeTaken = new Float64Array(this.km.edgeCount);
    this.staticLimits = StaticLimitTracker.create(this.opts, this.km.instructions.length);
    this.memoryCap = new MemoryCap({ capMB: this.opts.maxMemory, inhibit: this.opts.maxMemoryInhibit });
    // 'all' keeps the reads: the solver chain's array-opt layer tries the index rewrite first
    this.km.io.arrayValueChoice = this.opts.optimizeArray === 'value';
    this.writer = new TestWriter(this, output);
    this.seeding = this.opts.seeding !== undefined && this.opts.seeding.seeds.length > 0 ? new Seeding(this, this.opts.seeding) : null;
    const conflict = this.seeding !== null ? seedingConflict(this.opts) : null;
    if (conflict !== null) throw new EngineSetupError(conflict);
    for (const w of this.km.warnings) this.warning(w);
    const heapWarning = this.memoryCap.heapLimitWarning();
    if (heapWarning !== null) this.warning(heapWarning);
    for (const [from, to] of aliased) this.message(`function ${from} aliased to ${to} (--function-alias)`);
  }

  // ------------------------------------------------------------------ logging

  /** A "KLEE: …" line in messages.txt (and to the caller). */
  message(text: string): void {
    this.writer.output.appendMessage(text);
    this.events.onLog?.(text, 'message');
  }

  warning(text: string): void {
    this.writer.output.appendWarning(text, 'WARNING');
    this.events.onLog?.(`WARNING: ${text}`, 'warning');
  }

  /** Output of klee_print_expr and friends (KLEE writes these to stderr). */
  print(line: string): void {
    if (this.events.onLog !== undefined) this.events.onLog(line, 'print');
    else process.stderr.write(`${line}\n`);
  }

  /** A warning printed once per key (KLEE's klee_warning_once). */
  warningOnce(key: string, text: string): void {
    if (this.warnedOnce.has(key)) return;
    this.warnedOnce.add(key);
    this.writer.output.appendWarning(text, 'WARNING ONCE');
    this.events.onLog?.(`WARNING ONCE: ${text}`, 'warning');
  }

  // ------------------------------------------------------------------ setup

  /** The state at the entry point, with globals initialised and main's arguments built. */
  createInitialState(): ExecutionState {
    const entry = this.km.module.getFunction(this.opts.entryPoint);
    if (entry === undefined || entry.isDeclaration) {
      throw new EngineSetupError(`Entry function '${this.opts.entryPoint}' not found in module.`);
    }
    const kf = this.km.kfunction(entry)!;
    const st = new ExecutionState(this.nextStateId++, [], new ConstraintSet({ rewriteEqualities: this.opts.rewriteEqualities }), this.memoryModel.initial());
    initializeGlobals(this, st);
    const errno = st.memory.allocate(4, ObjectKind.Fixed, 4, 'errno')!.mo!;
    errno.name = 'errno';
    this.errnoMo = errno;
    const args = buildMainArgs(this, st, kf);
    if (this.opts.libc === 'tsklee' || this.opts.posixRuntime) setEnviron(this, st);
    // Static constructors run first, destructors after the entry function returns.
    st.entryQueue = [...this.km.ctors, kf, ...this.km.dtors];
    // with tsklee's libc: exit(main(...)) flushes stdio and runs atexit handlers
    this.exitKf = this.opts.libc === 'tsklee' ? libcExit(this) : null;
    if (this.exitKf !== null) st.entryQueue.push(this.exitKf);
    const first = st.entryQueue.shift()!;
    this.pushEntryFrame(st, first, first === kf ? args : []);
    this.mainArgs = args;
    this.mainKf = kf;
    return st;
  }

  private errnoMo: MemoryObject | null = null;

  /** The object behind errno (__errno_location). */
  errnoObject(_st: ExecutionState): MemoryObject {
    return this.errnoMo!;
  }

  /** Where main's envp points (the libc's `environ` starts there). */
  envpAddress = 0;

  /** main's (argc, argv, envp), remembered for when main runs after constructors. */
  mainArgs: Val[] = [];
  mainKf: KFunction | null = null;
  /** The libc's exit, queued after main and the destructors (gets main's result). */
  exitKf: KFunction | null = null;

  /** Start `kf` as an entry function (no caller). */
  pushEntryFrame(st: ExecutionState, kf: KFunction, args: Val[]): void {
    if (kf === this.exitKf) args = [st.exitValue ?? 0];
    const regs = kf.template.slice();
    const n = kf.fn.args.length;
    for (let i = 0; i < n && i < args.length; i++) regs[kf.argBase + i] = args[i]!;
    st.stack.push(new StackFrame(kf, regs, -1));
    st.pc = kf.entryPc;
    st.prevPc = kf.entryPc;
  }

  // ------------------------------------------------------------------ the run

  /**
   * Explore until every state ended or a limit stopped the run. Synchronous inside; it
   * yields to the event loop every ~50 ms so that signals (SIGINT) are seen.
   */
  async run(makeSearcher: SearcherFactory, shouldStop: () => string | null = () => null): Promise<RunSummary> {
    const t0 = Date.now();
    const initial = this.createInitialState();
    this.liveStates.add(initial);
    this.ptree = this.keepProcessTree ? new PTree(initial) : null;
    this.clock = new RunClock(this.opts.maxTime, this.opts.maxCpuTime);
    let lastYield = Date.now();
    let interrupted = false;
    let steps = 0;
    /**
     * After each step: memory every 16 steps (it can grow fast between yields: a fork copies
     * what its state writes next); every ~50 ms the time limit, the caller's stop request,
     * memory, and a turn of the event loop (a promise to await then; undefined the rest of
     * the time, so most steps await nothing).
     */
    const poll = (): Promise<void> | undefined => {
      if ((++steps & 15) === 0) this.checkMemory();
      const now = Date.now();
      if (now - lastYield < this.yieldEveryMs) return undefined;
      lastYield = now;
      const limit = this.clock.expired();
      if (limit !== null) this.halt(limit);
      const why = shouldStop();
      if (why !== null) {
        this.halt(why);
        interrupted = this.haltReason === why;
      }
      this.checkMemory();
      return new Promise<void>((r) => setImmediate(r));
    };
    let waiting = [initial];
    if (this.seeding !== null) {
      // the seeding phase runs only seeded states; the others wait for the searcher (KLEE's order)
      this.searcher = new HoldingSearcher();
      this.searcher.update(null, [initial], []);
      await runSeedingPhase(this, this.seeding, initial, poll);
      waiting = (this.searcher as HoldingSearcher).held();
    }
    this.searcher = makeSearcher(this.ptree ?? undefined, this.rng);
    this.searcher.update(null, waiting, []);
    const sharing = this.workSharing;
    if (sharing !== null) this.beginJobs(initial, sharing);
    const searcher = this.searcher;
    // in a parallel exploration a worker that runs dry waits for states of another (parallel/)
    while (this.haltReason === null && (!searcher.empty() || (sharing !== null && (await sharing.waitForWork())))) {
      const st = searcher.selectState();
      const replaying = st.jobPrefix !== null;
      if (!this.runStep(st)) break;
      sharing?.afterStep(replaying);
      const turn = poll();
      if (turn !== undefined) await turn;
    }
    if (this.haltReason !== null) await this.dumpRemainingStates(interrupted ? INTERRUPT_DUMP_BUDGET_MS : Infinity);
    const capSummary = this.memoryCap.summary(this.statesEndedAtMemoryCap);
    if (capSummary !== null) this.message(capSummary);
    return runSummary(this, Date.now() - t0);
  }

  /**
   * Run st for one quantum (less under --max-instructions and the statistics' instruction
   * alarm) and tell the searcher; false when --max-instructions stopped the run instead.
   */
  runStep(st: ExecutionState): boolean {
    let budget = this.opts.quantum;
    if (this.opts.maxInstructions > 0) {
      budget = Math.min(budget, this.opts.maxInstructions - this.instructions);
      if (budget <= 0) {
        this.halt('max-instructions exceeded');
        return false;
      }
    }
    const alarm = this.instructionAlarm;
    if (alarm !== null) budget = Math.min(budget, Math.max(1, alarm.at - this.instructions));
    this.step(st, budget);
    if (alarm !== null && this.instructions >= alarm.at) alarm.ring();
    this.updateStates(st);
    return true;
  }

  /** States alive now (running or paused at a merge). */
  get liveStateCount(): number {
    return this.liveStates.size;
  }

  /** Merging's statistics so far (null when merging is off and nothing merged). */
  mergingSummary(): MergingSummary | null {
    return collectMergingSummary(this);
  }


  /** Queries asked for states standing for several paths (their path conditions hold disjunctions, their values ites). */
  mergedStateQueries = 0;

  /** Paths the ended states stood for (merged-away states excluded: their paths live on). */
  endedMultiplicity = 0;

  /** Stop the run; `dump` = false: the remaining states end without tests (--exit-on-error). */
  halt(reason: string, dump = true): void {
    if (this.haltReason !== null) return;
    this.haltReason = reason;
    this.dumpOnHalt = dump;
  }

  private dumpOnHalt = true;

  /** Run one state for up to `budget` instructions (it stops early at forks and endings). */
  step(st: ExecutionState, budget: number): void {
    try {
      const n = this.opts.debugPrintInstructions !== undefined ? interpretTraced(this, st, budget, this.opts.debugPrintInstructions) : interpret(this, st, budget);
      this.instructions += n;
      st.steppedInstructions += n; // (instsSinceCovNew is kept by interpret)
      // a fork ends the step: the children share all of it (KLEE copies the count at the fork)
      for (const s of this.added) if (s !== st) s.steppedInstructions += n;
      this.mergeDistances.settle();
    } catch (e) {
      if (e instanceof StateAbort) {
        if (st.status === StateStatus.Running) this.terminateOnError(st, e.message, Termination.Solver);
        return;
      }
      throw e;
    }
  }

  /**
   * Automatic merging (--state-merging): steps end at block entries, and a state arriving
   * where a similar one stands merges into it (merging/auto.ts). Set up by explore().
   */
  blockSteps = false;
  mergePoints: MergePoints | null = null;
  /** Fast-forwarding statistics of dynamic merging (set when --state-merging=dynamic). */
  dsmCounters: DsmCounters | null = null;

  /** After a step: the states that moved merge into states waiting where they arrived. */
  private mergeArrivals(current: ExecutionState | null): void {
    const mp = this.mergePoints!;
    const arrivals = current !== null ? [current, ...this.added] : this.added.slice();
    for (const s of arrivals) {
      if (s.status !== StateStatus.Running) continue;
      if (this.pausedSet.has(s) || this.paused.includes(s)) {
        mp.leave(s); // waits at klee_close_merge: manual merging's business
        continue;
      }
      if (mp.arrive(s) !== null) this.terminateSilently(s, Termination.Merge);
    }
  }

  /** Tell the searcher and the process tree what the last step did (KLEE's updateStates). */
  updateStates(current: ExecutionState | null): void {
    if (this.quantified !== null) this.regionArrivals(current);
    if (this.mergePoints !== null) this.mergeArrivals(current);
    const { added, removed, paused, resumed } = this;
    // fresh lists only where something was recorded (most steps fork once or end one state)
    if (added.length > 0) this.added = [];
    if (removed.length > 0) this.removed = [];
    if (paused.length > 0) this.paused = [];
    if (resumed.length > 0) this.resumed = [];
    for (const s of added) this.liveStates.add(s);
    const toAdd = resumed.length > 0 ? added.slice() : added; // added may still be this.added
    const toRemove: ExecutionState[] = [];
    for (const s of removed) {
      // a state ended while paused at klee_close_merge is no longer in the searcher
      if (this.pausedSet.delete(s)) continue;
      toRemove.push(s);
    }
    // paused states leave the searcher but stay alive (and in the process tree); one merged
    // away in the step that paused it (a quantified region's release) left with `removed`
    for (const s of paused) {
      if (s.status !== StateStatus.Running) continue;
      toRemove.push(s);
      this.pausedSet.add(s);
    }
    for (const s of resumed) {
      if (s.status !== StateStatus.Running || !this.pausedSet.delete(s)) continue;
      const j = toRemove.indexOf(s);
      if (j >= 0) toRemove.splice(j, 1); // paused and released in one step: it never left
      else toAdd.push(s);
    }
    // merging searchers order states by where they stand: they hear of every step
    if (toAdd.length > 0 || toRemove.length > 0 || current === null || this.blockSteps) this.searcher!.update(current, toAdd, toRemove);
    for (const s of removed) {
      this.liveStates.delete(s);
      this.ptree?.remove(s);
      this.mergePoints?.leave(s);
    }
  }

  /** States paused at klee_close_merge, out of the searcher. */
  private readonly pausedSet = new Set<ExecutionState>();

  /**
   * At a halt, end every remaining state (a test each, KLEE's --dump-states-on-halt), for at
   * most `budgetMs`: each dump costs a solver query and files, and after a Ctrl-C the user
   * waits (thousands of states take minutes); the states left then end without a test. It
   * yields now and then so that a second Ctrl-C is seen.
   */
  async dumpRemainingStates(budgetMs: number): Promise<void> {
    if (this.liveStates.size === 0) return;
    await endLiveStates(this, this.opts.dumpStatesOnHalt && this.dumpOnHalt, budgetMs);
  }

  /** --max-memory (memory-cap.ts): checked every 16 steps and at every yield of the run loop (~20 times a second). */
  private readonly memoryCap: MemoryCap;

  private checkMemory(): void {
    if (!this.memoryCap.enabled) return;
    const paused = this.pausedSet;
    const c = this.memoryCap.check(this.liveStates.size - paused.size);
    this.atMemoryLimit = c.atLimit;
    if (c.statesToEnd === 0) return;
    const candidates = [...this.liveStates].filter((s) => s.status === StateStatus.Running && !paused.has(s));
    const victims = statesToEnd(candidates, c.statesToEnd, this.rng);
    this.warning(`killing ${victims.length} states (over memory cap: ${Math.round(c.used / (1024 * 1024))}MB)`);
    for (const st of victims) this.terminateEarly(st, Msg.memoryLimit, Termination.OutOfMemory);
    this.statesEndedAtMemoryCap += victims.length;
    this.updateStates(null);
  }

  /** States ended because the run was over --max-memory. */
  statesEndedAtMemoryCap = 0;

  atMemoryLimit = false;

  // ------------------------------------------------------------------ forking

  /**
   * Fork on a width-1 condition (KLEE's Executor::fork, forking.ts). Returns [state where cond
   * holds, state where it does not]; either is null when infeasible.
   */
  fork(st: ExecutionState, cond: Expr): [ExecutionState | null, ExecutionState | null] {
    return forkState(this, st, cond);
  }

  /** One state per condition (KLEE's Executor::branch, forking.ts): result[i] takes conditions[i], or null. */
  branch(st: ExecutionState, conditions: Expr[]): (ExecutionState | null)[] {
    return branchState(this, st, conditions);
  }

  /** A fresh state id (KLEE's ExecutionState ids: one counter per run). */
  newStateId(): number {
    return this.nextStateId++;
  }

  /**
   * Adds a constraint the solver found feasible. When the constraint set simplifies it to
   * false (the solver and the simplifier disagree: a bug in one of them), the state does not
   * go on without it: it ends with a solver error, and the caller gets false.
   */
  constrain(st: ExecutionState, e: Expr): boolean {
    this.seeding?.beforeConstraint(st, e);
    if (st.addConstraint(e)) return true;
    this.terminateOnError(st, Msg.infeasibleConstraint(e.toString()), Termination.Solver);
    return false;
  }

  /** A klee_assume-like constraint the caller checked is not provably false (seeds it contradicts are patched first). */
  addAssumption(st: ExecutionState, e: Expr): boolean {
    this.seeding?.beforeConstraint(st, e);
    return st.addConstraint(e);
  }

  // ------------------------------------------------------------------ solver

  /** Run one solver call for st: counted, timed, and a failure ends the state (StateAbort). */
  query<T>(st: ExecutionState, f: () => T, what = 'query'): T {
    const t0 = nowMs();
    this.queries++;
    if (st.multiplicity > 1) this.mergedStateQueries++;
    try {
      return f();
    } catch (e) {
      // KLEE's wording ("Query timed out (fork)."), whatever the failure was
      if (isSolverFailure(e)) throw new StateAbort(`Query timed out (${what}).`);
      throw e;
    } finally {
      const dt = nowMs() - t0;
      st.queryCostMs += dt;
      this.solverTimeMs += dt;
      this.stats?.onQuery(st, dt, what);
      this.staticLimits?.recordSolverTime(st, this.currentInst(st), dt);
      // one instruction can ask thousands of queries (a memcpy of symbolic length, a switch,
      // a symbolic function pointer) with no turn of the event loop: its loops stop on halt
      const limit = this.clock.expired(t0 + dt);
      if (limit !== null) this.halt(limit);
    }
  }

  /** --max-time and --max-cpu-time (set when the run starts). */
  private clock = new RunClock(0, 0);

  evaluate(st: ExecutionState, e: Expr): Validity {
    e = st.memory.solverView(st.constraints.simplify(e));
    if (e.kind === ExprKind.Constant) return e === TRUE ? Validity.True : Validity.False;
    return this.query(st, () => this.solver.computeValidity({ constraints: this.solverConstraints(st), expr: e }), 'fork');
  }

  /** The path condition as the solver sees it (the memory model rewrites what it must not see). */
  solverConstraints(st: ExecutionState): readonly Expr[] {
    return st.memory.solverConstraints(st.constraints.toArray());
  }

  mustBeTrue(st: ExecutionState, e: Expr): boolean {
    e = st.memory.solverView(st.constraints.simplify(e));
    if (e.kind === ExprKind.Constant) return e === TRUE;
    return this.query(st, () => this.solver.computeTruth({ constraints: this.solverConstraints(st), expr: e }));
  }

  mustBeFalse(st: ExecutionState, e: Expr): boolean {
    return this.mustBeTrue(st, builder.not(e));
  }

  mayBeTrue(st: ExecutionState, e: Expr): boolean {
    return !this.mustBeFalse(st, e);
  }

  mayBeFalse(st: ExecutionState, e: Expr): boolean {
    return !this.mustBeTrue(st, e);
  }

  /** Some value e can take on this path. */
  getValue(st: ExecutionState, e: Expr): ConstantExpr {
    e = st.memory.solverView(st.constraints.simplify(e));
    if (e.kind === ExprKind.Constant) return e;
    const v = this.query(st, () => this.solver.computeValue({ constraints: this.solverConstraints(st), expr: e }));
    return constantFromBV(e.width <= 32 ? Number(v) : v, e.width);
  }

  /** e as a constant: its only value, or a value it is then constrained to (KLEE's toConstant, with a warning). */
  toConstant(st: ExecutionState, e: Expr, reason: string): ConstantExpr {
    if (e.kind === ExprKind.Constant) return e;
    const v = this.getValue(st, e);
    const ki = this.currentInst(st);
    const where = ki !== null && ki.file !== '' ? ` (${ki.file}:${ki.line})` : '';
    this.warningOnce(`concretize:${reason}`, `silently concretizing (reason: ${reason}) expression ${e.toString()} to value ${v.value}${where}`);
    this.seeding?.beforeConstraint(st, builder.eq(e, v));
    if (!st.addConstraint(builder.eq(e, v))) throw new StateAbort(Msg.infeasibleConstraint(builder.eq(e, v).toString()));
    return v;
  }

  /** A concrete scalar for v: concretizing with a warning when symbolic. */
  concretize(st: ExecutionState, v: Scalar, _w: number, reason: string): number | bigint {
    if (typeof v !== 'object') return v;
    return fromExpr(this.toConstant(st, v, reason)) as number | bigint;
  }

  /** e's unique value if it has one, else e (KLEE's toUnique). */
  toUnique(st: ExecutionState, e: Expr): Expr {
    if (e.kind === ExprKind.Constant) return e;
    const v = this.getValue(st, e);
    return this.mustBeTrue(st, builder.eq(e, v)) ? v : e;
  }

  /** The instruction a state is executing. */
  currentInst(st: ExecutionState): KInst | null {
    if (st.stack.length === 0) return null;
    return st.top.kf.insts[st.prevPc] ?? null;
  }

  // ------------------------------------------------------------------ registers

  /** Set the result register of `ki` in st's top frame. */
  bindLocal(st: ExecutionState, ki: KInst, v: Val): void {
    if (ki.dest < 0) return;
    st.thawTop().regs[ki.dest] = v;
  }

  // ------------------------------------------------------------------ symbolic objects

  /** Make an object's contents a fresh symbolic array (KLEE's executeMakeSymbolic). */
  executeMakeSymbolic(st: ExecutionState, mo: MemoryObject, name: string): void {
    const replay = this.opts.replay;
    if (replay !== undefined) {
      // Replaying a test: the object gets the test's bytes instead of becoming symbolic.
      const index = st.replayPosition++;
      const obj = replay.objects[index];
      const os = st.memory.writeableOf(mo)!;
      if (obj === undefined || obj.bytes.length !== mo.size || obj.name !== name) {
        const found = obj === undefined ? `the test has only ${index} objects` : `the test's object ${index + 1} is '${obj.name}' (${obj.bytes.length} bytes)`;
        const wanted = `klee_make_symbolic #${index + 1} asks for '${name}' (${mo.size} bytes)`;
        this.terminateOnError(st, `${REPLAY_MISMATCH_PREFIX}${wanted}, ${found}`, Termination.User);
        return;
      }
      for (let i = 0; i < mo.size; i++) os.write8(i, obj.bytes[i]!);
      return;
    }
    let unique = name;
    for (let id = 1; st.hasArrayName(unique); id++) unique = `${name}_${id}`;
    const array = new ExprArray(unique, mo.size);
    array.access = mo.accessTypes();
    const os = st.memory.writeableOf(mo);
    if (os === null) throw new Error(`make_symbolic: object ${mo.id} not bound`);
    os.makeSymbolic(array);
    st.symbolics.push({ mo, array });
    this.seeding?.bindSymbolic(st, mo, name, array);
  }

  // ------------------------------------------------------------------ ending states

  terminateOnExit(st: ExecutionState): void {
    this.writer.onExit(st);
    this.terminate(st);
  }

  terminateOnError(st: ExecutionState, message: string, kind: Termination, info?: string, suffix?: string): void {
    this.writer.onError(st, message, kind, info, suffix);
    this.terminate(st);
  }

  terminateEarly(st: ExecutionState, message: string, kind: Termination): void {
    this.writer.onEarly(st, message, kind);
    this.terminate(st);
  }

  /** End a state without a test (klee_silent_exit, halts without dumping). */
  terminateSilently(st: ExecutionState, kind: Termination = Termination.SilentExit): void {
    this.writer.exploredPaths++;
    this.events.onStateEnd?.({ stateId: st.id, testId: 0, kind });
    this.terminate(st, kind === Termination.Merge);
  }

  private terminate(st: ExecutionState, merged = false): void {
    if (st.status === StateStatus.Terminated) return;
    if (!merged) this.endedMultiplicity += st.multiplicity;
    st.status = StateStatus.Terminated;
    this.seeding?.forget(st);
    // the states sharing its objects and frames may now write them in place
    st.memory.release();
    st.releaseFrames();
    for (const g of st.openMergeStack) leaveMergeGroup(this, g, st);
    st.openMergeStack = [];
    // Release frames' allocas (not needed for correctness: the state is gone).
    const i = this.added.indexOf(st);
    if (i >= 0) {
      // Never reached the searcher: drop it now (KLEE's terminateState).
      this.added.splice(i, 1);
      this.ptree?.remove(st);
      return;
    }
    this.removed.push(st);
  }

  // ------------------------------------------------------------------ merging

  private nextMergeGroup = 1;

  /** A number for a new merge region. */
  newMergeGroupId(): number {
    return this.nextMergeGroup++;
  }
  /** States paused at klee_close_merge in this step / released to run again. */
  paused: ExecutionState[] = [];
  resumed: ExecutionState[] = [];

  /** Opens and closes of this step: their instruction counts are settled when it ends (merging/incomplete.ts). */
  readonly mergeDistances = new MergeDistances();

  /** Manual merge regions with running states (--use-incomplete-merge looks at them). */
  readonly liveMergeGroups = new Set<MergeGroup>();

  /** st waits at a klee_close_merge (paused, out of the searcher). */
  waitingAtClose(st: ExecutionState): boolean {
    return this.pausedSet.has(st) || this.paused.includes(st);
  }

  /** --use-incomplete-merge: the states waiting at g's closes run on before the region is complete. */
  releaseEarly(g: MergeGroup): void {
    releaseEarly(this, g);
  }

  /** Quantified merging's regions (--merge-mode=quantified), set up by explore(). */
  quantified: QuantifiedRegions | null = null;

  private regionArrivals(current: ExecutionState | null): void {
    const moved = current !== null ? [current, ...this.added] : this.added.slice();
    this.quantified!.arriveAll(moved.filter((s) => !this.waitingAtClose(s)));
  }

  /** What merging did in this run (manual and automatic merges alike). */
  readonly mergeCounters: MergeCounters = { merges: 0, itesCreated: 0 };
  /** Witness tests of merged states (merging/core.ts, test-output.ts). */
  readonly witnessEvents: WitnessEvents = { next: 1, done: new Set() };

  get mergedStates(): number {
    return this.mergeCounters.merges;
  }

  /** Free the allocas of a frame being popped. */
  releaseFrame(st: ExecutionState, f: StackFrame): void {
    // newest first: each is then the top of the stack bindings (memory/stack-bindings.ts)
    for (let i = (f.allocas?.length ?? 0) - 1; i >= 0; i--) st.memory.unbind(f.allocas![i]!);
    if (f.varargs !== null) st.memory.unbind(f.varargs);
  }

  /** Bool helper: the expression of a concrete or symbolic i1 register. */
  condExpr(v: Scalar): Expr {
    return typeof v === 'object' ? v : v !== 0 ? TRUE : FALSE;
  }

  /** An integer register value as an expression of width w. */
  expr(v: Scalar, w: number): Expr {
    return toExpr(v, w);
  }

  // ------------------------------------------------------------------ parallel exploration (parallel/)

  /** Set before run() by a parallel exploration (--jobs); null in a run of its own. */
  workSharing: WorkSharing | null = null;
  /** How often the run loop lets the event loop turn (ms): shorter where it shares its thread with --jobs' coordinator. */
  yieldEveryMs = 50;
  /** An untouched copy of the initial state: each adopted job starts from a copy of it. */
  private pristine: ExecutionState | null = null;

  private beginJobs(initial: ExecutionState, sharing: WorkSharing): void {
    this.pristine = initial.branch(this.nextStateId++);
    initial.depth = 0;
    if (!sharing.begin(initial)) this.giveAway([initial]);
  }

  /** Ends states another worker takes over (no test, not counted) and returns their paths. */
  giveAway(states: ExecutionState[]): number[][] {
    const paths = states.map(jobPath);
    for (const s of states) this.terminate(s, true);
    this.updateStates(null);
    return paths;
  }

  /** States to hand over: up to `max` of the live ones, shallowest first. */
  statesToGive(max: number): ExecutionState[] {
    return [...this.liveStates].filter((st) => st.status === StateStatus.Running && !this.pausedSet.has(st)).sort((a, b) => a.depth - b.depth || a.id - b.id).slice(0, max);
  }

  /** Takes over jobs from another worker: a copy of the initial state per path, replaying it (parallel/adopt.ts). */
  adoptJobs(paths: readonly (readonly number[])[]): void {
    adoptJobPaths(this, this.pristine!, paths);
  }

  // ------------------------------------------------------------------ statistics (stats.ts)

  /** Per-instruction and per-cause counters of run.stats and run.istats; null when nothing reads them. */
  stats: RunStatistics | null = null;
  /** Called once `instructions` reaches `at` (KLEE's --stats-write-after-instructions); ring() moves `at` on. */
  instructionAlarm: { at: number; ring(): void } | null = null;

  /** States created so far (KLEE's ExecutionState::getLastID, run.stats' States). */
  get statesCreated(): number {
    return this.nextStateId - 1;
  }

  /** The states alive now (KLEE's executor.states). */
  get liveStateSet(): ReadonlySet<ExecutionState> {
    return this.liveStates;
  }

  /** The global variable object of gv (for tests and special functions). */
  globalObject(gv: GlobalVariable): MemoryObject | undefined {
    return this.km.globalObjects.get(gv);
  }
}

