/**
 * Searchers: which state runs next. `createSearcher` builds what KLEE's `--search` (repeatable),
 * `--use-batching-search` and `--use-iterative-deepening-time-search` build
 * (lib/Core/UserSearcher.cpp): one core searcher per `--search` name, interleaved when there
 * are several, wrapped by batching, then by iterative deepening.
 */
import type { Rng } from '../../util/rng.js';
import { BatchingSearcher, type BatchingOptions } from './batching.js';
import { BFSSearcher } from './bfs.js';
import { DFSSearcher } from './dfs.js';
import { InterleavedSearcher } from './interleaved.js';
import { IterativeDeepeningTimeSearcher, type IterativeDeepeningOptions } from './iterative-deepening.js';
import type { PTree } from './ptree.js';
import { RandomPathSearcher } from './random-path.js';
import { RandomStateSearcher } from './random-state.js';
import type { CoverageOracle, Searcher, SearchableState } from './searcher.js';
import { WeightedRandomSearcher, weightNeedsOracle, type WeightType } from './weighted.js';

export type { CoverageOracle, PTreeNode, Searcher, SearchableState } from './searcher.js';
export { PTree, MAX_PTREE_SEARCHERS } from './ptree.js';
export { DiscretePDF } from './discrete-pdf.js';
export { DFSSearcher } from './dfs.js';
export { BFSSearcher } from './bfs.js';
export { RandomStateSearcher } from './random-state.js';
export { RandomPathSearcher } from './random-path.js';
export {
  WeightedRandomSearcher,
  WEIGHT_TYPES,
  MD2U_UNREACHABLE,
  kleeWeight,
  md2uOf,
  weightIsUpdated,
  weightNeedsOracle,
  type WeightType,
} from './weighted.js';
export { InterleavedSearcher } from './interleaved.js';
export { BatchingSearcher, BATCH_DEFAULTS, type BatchingCounters, type BatchingOptions } from './batching.js';
export { IterativeDeepeningTimeSearcher, type IterativeDeepeningOptions } from './iterative-deepening.js';
export { Rng, DEFAULT_SEED } from '../../util/rng.js';

/** KLEE's `--search` values, in KLEE's order. */
export const SEARCH_NAMES = [
  'dfs',
  'bfs',
  'random-state',
  'random-path',
  'nurs:covnew',
  'nurs:md2u',
  'nurs:depth',
  'nurs:rp',
  'nurs:icnt',
  'nurs:cpicnt',
  'nurs:qc',
] as const;
export type SearchName = (typeof SEARCH_NAMES)[number];

/** KLEE's help text for each `--search` value. */
export const SEARCH_DESCRIPTIONS: Readonly<Record<SearchName, string>> = {
  dfs: 'use Depth First Search (DFS)',
  bfs: 'use Breadth First Search (BFS), where scheduling decisions are taken at the level of (2-way) forks',
  'random-state': 'randomly select a state to explore',
  'random-path': "use Random Path Selection (see OSDI'08 paper)",
  'nurs:covnew': 'use Non Uniform Random Search (NURS) with Coverage-New',
  'nurs:md2u': 'use NURS with Min-Dist-to-Uncovered',
  'nurs:depth': 'use NURS with depth',
  'nurs:rp': 'use NURS with 1/2^depth',
  'nurs:icnt': 'use NURS with Instr-Count',
  'nurs:cpicnt': 'use NURS with CallPath-Instr-Count',
  'nurs:qc': 'use NURS with Query-Cost',
};

/** KLEE's default when no `--search` is given: random-path interleaved with nurs:covnew. */
export const DEFAULT_SEARCH: readonly SearchName[] = ['random-path', 'nurs:covnew'];
/** KLEE's default under `--use-merge` (it warns "Using NURS_CovNew as default searcher"). */
export const DEFAULT_SEARCH_WITH_MERGE: readonly SearchName[] = ['nurs:covnew'];

export function isSearchName(name: string): name is SearchName {
  return (SEARCH_NAMES as readonly string[]).includes(name);
}

/** A bad `--search` configuration (unknown name, missing ptree/oracle). */
export class SearcherConfigError extends Error {
  override readonly name = 'SearcherConfigError';
}

/** The names `createSearcher` would use: `names`, or DEFAULT_SEARCH if empty; validated. */
export function resolveSearchNames(names: readonly string[]): SearchName[] {
  if (names.length === 0) return [...DEFAULT_SEARCH];
  return names.map((n) => {
    if (!isSearchName(n)) {
      throw new SearcherConfigError(`unknown searcher '${n}' (--search): valid searchers are ${SEARCH_NAMES.join(', ')}`);
    }
    return n;
  });
}

/**
 * Whether the executor must compute the coverage statistics behind the oracle (KLEE's
 * userSearcherRequiresMD2U: covnew, md2u, icnt, cpicnt, qc). For `names` as given to
 * createSearcher (empty = the default).
 */
export function searchRequiresCoverageOracle(names: readonly string[]): boolean {
  return resolveSearchNames(names).some((n) => n.startsWith('nurs:') && n !== 'nurs:depth' && n !== 'nurs:rp');
}

/** Whether the executor must keep a PTree (KLEE's userSearcherRequiresInMemoryPTree). */
export function searchRequiresPTree(names: readonly string[]): boolean {
  return resolveSearchNames(names).includes('random-path');
}

export interface SearcherContext<S extends SearchableState> {
  /** The run's one generator (every random choice of every searcher draws from it). */
  rng: Rng;
  /** Needed by nurs:covnew, nurs:md2u, nurs:icnt, nurs:cpicnt. */
  oracle?: CoverageOracle<S>;
  /** Needed by random-path. */
  ptree?: PTree<S>;
  /** Present = `--use-batching-search`, with `--batch-instructions` / `--batch-time`. */
  batching?: BatchingOptions;
  /** Present = `--use-iterative-deepening-time-search`. */
  iterativeDeepeningTime?: IterativeDeepeningOptions;
}

/** One core searcher (KLEE's getNewSearcher). */
export function createCoreSearcher<S extends SearchableState>(name: SearchName, ctx: SearcherContext<S>): Searcher<S> {
  switch (name) {
    case 'dfs':
      return new DFSSearcher<S>();
    case 'bfs':
      return new BFSSearcher<S>();
    case 'random-state':
      return new RandomStateSearcher<S>(ctx.rng);
    case 'random-path':
      if (ctx.ptree === undefined) throw new SearcherConfigError('random-path needs the process tree (ctx.ptree)');
      return new RandomPathSearcher<S>(ctx.ptree, ctx.rng);
    default: {
      const type = name.slice('nurs:'.length) as WeightType;
      if (weightNeedsOracle(type) && ctx.oracle === undefined) {
        throw new SearcherConfigError(`${name} needs a coverage oracle (ctx.oracle)`);
      }
      return new WeightedRandomSearcher<S>(type, ctx.rng, ctx.oracle);
    }
  }
}

/**
 * The searcher for `--search` names (in order; repeats allowed, as in KLEE): empty → KLEE's
 * default (random-path interleaved with nurs:covnew); one → that searcher; several → KLEE's
 * InterleavedSearcher over them. Then batching and iterative deepening if configured.
 * Throws SearcherConfigError for an unknown name (listing the valid ones) or a missing
 * ptree/oracle.
 */
export function createSearcher<S extends SearchableState>(names: readonly string[], ctx: SearcherContext<S>): Searcher<S> {
  const resolved = resolveSearchNames(names);
  const core = resolved.map((n) => createCoreSearcher(n, ctx));
  let searcher: Searcher<S> = core.length === 1 ? core[0]! : new InterleavedSearcher<S>(core);
  if (ctx.batching !== undefined) searcher = new BatchingSearcher<S>(searcher, ctx.batching);
  if (ctx.iterativeDeepeningTime !== undefined) searcher = new IterativeDeepeningTimeSearcher<S>(searcher, ctx.iterativeDeepeningTime);
  return searcher;
}
