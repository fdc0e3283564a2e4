/**
 * Writes the run's statistics while it runs (KLEE's StatsTracker): a run.stats row when the
 * tracker starts, every `statsWriteInterval` seconds and/or every
 * `statsWriteAfterInstructions` instructions, and at the end; run.istats every
 * `istatsWriteInterval` seconds and/or `istatsWriteAfterInstructions` instructions, and at
 * the end. Time-driven writes come from timers, which fire while the executor yields to the
 * event loop (every ~50 ms), between two steps; instruction-driven ones from the executor's
 * instruction alarm, which ends a step at the next multiple.
 *
 * Every run.stats column is measured (columns listed in output/run-stats.ts):
 *   Instructions, NumStates (states alive), States (states ever created), CoveredInstructions
 *   and UncoveredInstructions (coverable instructions, phis included, of every function as
 *   KLEE counts them), Full/Partial/NumBranches (conditional br), UserTime and WallTime (µs),
 *   MallocUsage (bytes in use: V8's heap, its buffers and the embedded z3's heap, util/memory-use.ts),
 *   NumQueries / NumQueryConstructs (backend checks and the expression nodes translated for
 *   them), the solver times and caches, ForkTime (µs in forks' queries), ResolveTime (µs
 *   resolving symbolic pointers), InhibitedForks, Allocations (memory objects made, globals
 *   included), Branches<cause> (forks by cause), Termination<class> (states ended by class).
 *   ExternalCalls is 0 because tsklee never calls external code (DESIGN decision 8).
 */
import { objectsCreated } from '../memory/index.js';
import { solverStatsRow, type RunStatsRow } from '../output/run-stats.js';
import { memoryInUse } from '../util/memory-use.js';
import { internedCount } from '../expr/expr.js';
import { internCounters } from '../expr/intern.js';
import { formatIStats } from '../output/istats.js';
import type { CountingBackend } from '../solver/solver.js';
import type { Executor } from './executor.js';
import { BRANCH_TYPES, RunStatistics, TERMINATION_CLASSES } from './stats.js';
import { CoverageModel } from './stats-coverage.js';
import { buildIStats, type IStatsHeader } from './stats-istats.js';
import { addPeerColumns, ownCounts, sumCounts, type PeerCounts, type RunCounts } from './stats-peers.js';

export interface StatsSinks {
  /** Takes run.stats rows; null: run.stats is not written. */
  runStats: { write(row: RunStatsRow): void } | null;
  /** Takes run.istats' whole text each time; null: run.istats is not written. */
  istats: ((text: string) => void) | null;
  /** What run.istats' header says (default: this process, the module's source file). */
  istatsHeader?: { pid?: number; cmd?: string };
  /**
   * Instruction positions in run.istats are assembly.ll lines, as KLEE's (the module is
   * printed and assembly.ll written for it, ob= names it); otherwise 1-based positions in
   * module order, ob= naming the module's source file.
   */
  assemblyLines?: boolean;
}

/** What `info` reports at the end (KLEE's "done:" query lines). */
export interface QueryTotals {
  queries: number;
  valid: number;
  invalid: number;
  cex: number;
  constructs: number;
}

export class StatsTracker {
  readonly stats: RunStatistics;
  readonly coverage: CoverageModel;
  private readonly startMs = Date.now();
  private readonly timers: ReturnType<typeof setInterval>[] = [];
  private nextRowAt = Infinity;
  private nextIStatsAt = Infinity;
  private finished = false;
  /** The latest counts of the other workers of a parallel exploration, by worker (stats-peers.ts). */
  private readonly peers = new Map<number, PeerCounts>();

  constructor(
    readonly ex: Executor,
    readonly backend: CountingBackend | null,
    private readonly sinks: StatsSinks,
  ) {
    this.stats = new RunStatistics(ex, backend);
    this.coverage = new CoverageModel(ex.km);
  }

  /** Attaches the statistics to the executor, writes the first row and arms the timers. */
  start(): void {
    const ex = this.ex;
    const o = ex.opts;
    ex.stats = this.stats;
    if (this.sinks.runStats !== null) {
      this.writeRow();
      if (o.statsWriteInterval > 0) this.every(o.statsWriteInterval, () => this.writeRow());
      if (o.statsWriteAfterInstructions > 0) this.nextRowAt = o.statsWriteAfterInstructions;
    }
    if (this.sinks.istats !== null) {
      if (o.istatsWriteInterval > 0) this.every(o.istatsWriteInterval, () => this.writeIStats());
      if (o.istatsWriteAfterInstructions > 0) this.nextIStatsAt = o.istatsWriteAfterInstructions;
    }
    this.armAlarm();
  }

  /** The last row and run.istats; stops the timers. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const t of this.timers) clearInterval(t);
    this.ex.instructionAlarm = null;
    this.writeRow();
    this.writeIStats();
  }

  /** Stops the timers and the alarm without writing anything (the run failed). */
  cancel(): void {
    this.finished = true;
    this.stopTimers();
  }

  /** Stops the timers and the alarm; finish() still writes the last row and run.istats. */
  stopTimers(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    this.ex.instructionAlarm = null;
  }

  /** Another worker's latest counts (replacing its earlier ones): from now on part of every write. */
  setPeerCounts(worker: number, counts: PeerCounts): void {
    this.peers.set(worker, counts);
  }

  /** This worker's own counts and row, to send to the worker that writes the files. */
  peerCounts(): PeerCounts {
    return { ...ownCounts(this.ex, this.stats), row: this.row() };
  }

  /** The counts the files are written from: the executor's, plus the other workers' when there are any (`withStates`: with statesAt). */
  counts(withStates = true): RunCounts {
    const own = ownCounts(this.ex, this.stats, withStates);
    return this.peers.size === 0 ? own : sumCounts(own, this.peers.values());
  }

  /** Instructions covered (CoveredInstructions), over all workers. */
  coveredInstructions(counts: RunCounts = this.counts(false)): number {
    return this.coverage.coveredInstructions(counts.covered, counts.coveredCount);
  }

  /** The run.stats row for now. */
  row(): RunStatsRow {
    const ex = this.ex;
    const model = this.coverage;
    const stats = this.stats;
    const us = (ms: number): number => Math.round(ms * 1000);
    const counts = this.counts(false);
    const coveredInstructions = this.coveredInstructions(counts);
    const branches = model.branchCounts(counts.edgeTaken);
    const q = this.queryTotals();
    const row: RunStatsRow = {
      ...solverStatsRow(ex.solver.stats()),
      Instructions: ex.instructions,
      FullBranches: branches.full,
      PartialBranches: branches.partial,
      NumBranches: branches.total,
      UserTime: process.cpuUsage().user,
      NumStates: ex.liveStateSet.size,
      MallocUsage: memoryInUse().total,
      NumQueries: q.queries,
      NumQueryConstructs: q.constructs,
      WallTime: (Date.now() - this.startMs) * 1000,
      CoveredInstructions: coveredInstructions,
      UncoveredInstructions: model.coverableCount - coveredInstructions,
      ForkTime: us(stats.forkTimeMs),
      ResolveTime: us(stats.totalResolveTimeMs),
      InhibitedForks: stats.inhibitedForks,
      ExternalCalls: 0,
      Allocations: objectsCreated(),
      States: ex.statesCreated,
    };
    const d = model.detailedCounts(counts.covered, counts.edgeTaken);
    row.CoveredLines = d.lines;
    row.NumLines = model.lineCount;
    row.ProgramCoveredInstructions = d.programCoveredInstructions;
    row.ProgramInstructions = d.programInstructions;
    row.ProgramCoveredLines = d.programCoveredLines;
    row.ProgramLines = d.programLines;
    row.ProgramCoveredBranchSides = d.programCoveredBranchSides;
    row.ProgramBranchSides = d.programBranchSides;
    row.ExprInternEntries = internedCount();
    row.ExprInternLookups = internCounters.lookups;
    row.ExprInternHits = internCounters.hits;
    BRANCH_TYPES.forEach((t, i) => (row[`Branches${t}`] = stats.forksByType[i]!));
    TERMINATION_CLASSES.forEach((c, i) => (row[`Termination${c}`] = stats.terminations[i]!));
    const m = ex.mergingSummary();
    if (m !== null) {
      row.MergedStates = m.merges;
      row.MergesRefusedByQce = m.refusedBySimilarity;
      row.MergesRefusedByQceIte = m.refusedByIte;
      row.MergesRefusedByPointer = m.refusedByPointer;
      row.IncompatibleAtMergePoint = m.incompatible;
      row.PathMultiplicity = m.pathMultiplicity;
      row.FastForwardSteps = m.forwardSteps;
      row.FastForwardedStates = m.forwardedStates;
      row.FastForwardedMerged = m.forwardedMerged;
      row.MergedStateQueries = m.mergedStateQueries;
    }
    Object.assign(row, ex.memoryModel.statistics());
    addPeerColumns(row, this.peers.values());
    return row;
  }

  /** The backend's query totals (KLEE's stats::queries, queriesValid, queriesInvalid, queryCounterexamples, queryConstructs). */
  queryTotals(): QueryTotals {
    const c = this.backend?.counters;
    if (c === undefined) return { queries: 0, valid: 0, invalid: 0, cex: 0, constructs: 0 };
    return { queries: c.checks, valid: c.unsat, invalid: c.sat, cex: c.cex, constructs: c.constructs };
  }

  writeRow(): void {
    this.sinks.runStats?.write(this.row());
  }

  writeIStats(): void {
    const sink = this.sinks.istats;
    if (sink === null) return;
    const h = this.sinks.istatsHeader ?? {};
    const ex = this.ex;
    const header: IStatsHeader = { pid: h.pid ?? process.pid, cmd: h.cmd ?? ex.km.module.source, objectFile: ex.km.module.source, instrOf: (site) => site + 1 };
    if (this.sinks.assemblyLines === true && ex.writer.output.writeFile !== undefined) {
      const asm = ex.writer.assembly;
      const insts = this.coverage.siteInst;
      ex.writer.writeAssembly();
      header.objectFile = 'assembly.ll';
      header.instrOf = (site) => asm.lineOf(insts[site]!);
    }
    sink(formatIStats(buildIStats(this.ex, this.counts(), this.coverage, header)));
  }

  /**
   * What a timer's write threw (the output directory was removed, the disk is full): the
   * timers stop, the run halts without dumping states, and explore() rethrows it, so the CLI
   * reports one line instead of Node dying of an exception nobody could catch.
   */
  failure: unknown = null;

  private every(seconds: number, f: () => void): void {
    const guarded = (): void => {
      try {
        f();
      } catch (e) {
        this.failure ??= e;
        this.cancel();
        this.ex.halt('writing the statistics failed', false);
      }
    };
    const t = setInterval(guarded, Math.max(1, seconds * 1000));
    t.unref();
    this.timers.push(t);
  }

  /** Points the executor's instruction alarm at the next instruction-driven write. */
  private armAlarm(): void {
    const at = Math.min(this.nextRowAt, this.nextIStatsAt);
    this.ex.instructionAlarm = at === Infinity ? null : { at, ring: () => this.ring() };
  }

  private ring(): void {
    const n = this.ex.instructions;
    const o = this.ex.opts;
    if (n >= this.nextRowAt) {
      this.writeRow();
      this.nextRowAt = (Math.floor(n / o.statsWriteAfterInstructions) + 1) * o.statsWriteAfterInstructions;
    }
    if (n >= this.nextIStatsAt) {
      this.writeIStats();
      this.nextIStatsAt = (Math.floor(n / o.istatsWriteAfterInstructions) + 1) * o.istatsWriteAfterInstructions;
    }
    this.armAlarm();
  }
}
