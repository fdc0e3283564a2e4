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
  /** Called once the executor exists (e.g. to show the searcher's name). */
  onStart?: (ex: Executor) => void;
}

export interface ExploreResult extends RunSummary {
  /** The searcher's description (for the info file). */
  searcher: string;
  output: RunOutput;
}

export async function explore(module: Module, options: Partial<EngineOptions> = {}, setup: ExploreSetup = {}): Promise<ExploreResult> {
  const opts = resolveOptions(options);
  const ownSolver = setup.solver === undefined;
  const solver = setup.solver ?? (await createSolver({ timeoutMs: opts.maxSolverTime > 0 ? opts.maxSolverTime * 1000 : undefined, quantifiers: opts.mergeMode === 'quantified' }));
  const output = setup.output ?? new MemoryOutput();
  try {
    const ex = new Executor(module, solver, output, opts, setup.events);
    const oracle = new CoverageTracker(ex);
    // KLEE's default under --use-merge is nurs:covnew alone
    const names = opts.search.length === 0 && opts.useMerge ? [...DEFAULT_SEARCH_WITH_MERGE] : opts.search;
    if (resolveSearchNames(names).includes('nurs:cpicnt')) ex.callPaths = new CallPathCounts();
    ex.keepProcessTree = searchRequiresPTree(names);
    let name = '';
    setup.onStart?.(ex);
    const merging = setUpStateMerging(ex);
    const summary = await ex.run((ptree, rng) => {
      const s = merging.searcher(() => createSearcher(names, { rng, ptree, oracle }));
      name = s.name;
      return s;
    }, setup.shouldStop);
    return { ...summary, searcher: name, output };
  } finally {
    if (ownSolver) solver.dispose();
  }
}
