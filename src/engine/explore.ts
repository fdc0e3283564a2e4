/**
 * The library entry: explore every path of a module (`import { loadModule, explore } from
 * 'tsklee'`). Builds the solver and the searcher, runs the executor, returns the summary.
 */
import type { Module } from '../ir/module.js';
import { createSolver, type Solver } from '../solver/index.js';
import { createSearcher, DEFAULT_SEARCH_WITH_MERGE, resolveSearchNames, searchRequiresPTree } from './searchers/index.js';
import { Executor, type ExploreEvents, type RunSummary } from './executor.js';
import { CallPathCounts, CoverageTracker } from './coverage.js';
import { MemoryOutput, type RunOutput } from './test-output.js';
import { resolveOptions, type EngineOptions } from './options.js';
import { IncompleteMergeSearcher } from './merging/incomplete.js';
import { StatsTracker, type StatsSinks } from './stats-tracker.js';
import type { CountingBackend } from '../solver/solver.js';
import { setUpStateMerging } from './merging/setup.js';

export interface ExploreSetup {
  /** Where tests go (default: kept in memory, see MemoryOutput). */
  output?: RunOutput;
  /** The solver to use (default: createSolver with --max-solver-time). Not disposed by explore. */
  solver?: Solver;
  events?: ExploreEvents;
  /**
   * Polled between steps: a non-null reason stops the run (tests already written stay; the
   * remaining states are dumped for at most INTERRUPT_DUMP_BUDGET_MS, see executor.ts).
   */
  shouldStop?: () => string | null;
  /** Called once the executor exists (e.g. to show the searcher's name), with the statistics when asked for. */
  onStart?: (ex: Executor, statistics?: StatsTracker) => void;
  /**
   * Record coverage and statistics while running and write them (run.stats rows, run.istats)
   * to these sinks; `backend` is the solver chain's backend, whose checks are the queries counted.
   */
  statistics?: StatsSinks & {
    backend: CountingBackend | null;
    /** Leave the last row and run.istats to the caller (StatsTracker.finish), e.g. once other workers' counts are in. */
    deferFinish?: boolean;
  };
}

export interface ExploreResult extends RunSummary {
  /** The searcher's description (for the info file). */
  searcher: string;
  output: RunOutput;
  /** The statistics, when ExploreSetup.statistics asked for them (finished: the last row is written). */
  statistics?: StatsTracker;
}

export async function explore(module: Module, options: Partial<EngineOptions> = {}, setup: ExploreSetup = {}): Promise<ExploreResult> {
  const opts = resolveOptions(options);
  const ownSolver = setup.solver === undefined;
  const solver = setup.solver ?? (await createSolver({ timeoutMs: opts.maxSolverTime > 0 ? opts.maxSolverTime * 1000 : undefined, quantifiers: opts.mergeMode === 'quantified', maxMemoryMB: opts.maxMemory, arrayOptimization: opts.optimizeArray === 'index' || opts.optimizeArray === 'all' ? opts.optimizeArray : undefined }));
  const output = setup.output ?? new MemoryOutput();
  try {
    // ended states are counted by class for run.stats
    let tracker: StatsTracker | undefined;
    const events = setup.statistics === undefined ? setup.events : { ...setup.events, onStateEnd: countEnds(setup.events, () => tracker) };
    const ex = new Executor(module, solver, output, opts, events);
    if (setup.statistics !== undefined) tracker = new StatsTracker(ex, setup.statistics.backend, setup.statistics);
    const oracle = new CoverageTracker(ex);
    // KLEE's default under --use-merge is nurs:covnew alone
    const names = opts.search.length === 0 && opts.useMerge ? [...DEFAULT_SEARCH_WITH_MERGE] : opts.search;
    if (resolveSearchNames(names).includes('nurs:cpicnt')) ex.callPaths = new CallPathCounts();
    ex.keepProcessTree = searchRequiresPTree(names);
    let name = '';
    setup.onStart?.(ex, tracker);
    const merging = setUpStateMerging(ex);
    const nowSeconds = (): number => performance.now() / 1000;
    tracker?.start();
    let summary;
    try {
      summary = await ex.run((ptree, rng) => {
        const s = merging.searcher(() =>
          createSearcher(names, {
            rng,
            ptree,
            oracle,
            // KLEE's --use-batching-search and --use-iterative-deepening-time-search
            batching:
              opts.batching === undefined
                ? undefined
                : { counters: { instructions: () => ex.instructions, nowSeconds }, instructions: opts.batching.instructions, timeSeconds: opts.batching.timeSeconds, onMessage: (m) => ex.message(m) },
            iterativeDeepeningTime: opts.iterativeDeepeningTime ? { nowSeconds, onMessage: (m) => ex.message(m) } : undefined,
          }),
        );
        name = s.name;
        // KLEE's MergingSearcher with --use-incomplete-merge
        if (opts.useMerge && opts.useIncompleteMerge) return new IncompleteMergeSearcher(s, ex, opts.debugLogIncompleteMerge ? (l) => ex.message(l) : null);
        return s;
      }, setup.shouldStop);
    } finally {
      // the last row and run.istats after a whole run; after a crash only the timers stop
      if (summary === undefined) tracker?.cancel();
      else if (setup.statistics?.deferFinish === true) tracker?.stopTimers();
      else tracker?.finish();
    }
    if (tracker !== undefined && tracker.failure !== null) throw tracker.failure;
    return { ...summary, searcher: name, output, statistics: tracker };
  } finally {
    if (ownSolver) solver.dispose();
  }
}

/** An onStateEnd that counts the ending in the statistics, then calls the caller's. */
function countEnds(events: ExploreEvents | undefined, tracker: () => StatsTracker | undefined): NonNullable<ExploreEvents['onStateEnd']> {
  const next = events?.onStateEnd;
  return (info) => {
    tracker()?.stats.onStateEnd(info.kind);
    next?.(info);
  };
}
