/**
 * Wires automatic state merging (--state-merging) into an executor: block-granular steps, the
 * merge points, the similarity relation, and the searcher (static: topological order;
 * dynamic: the DSM decorator around the --search searcher).
 */
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { LocationOracle, Searcher } from '../searchers/searcher.js';
import { TopologicalSearcher } from '../searchers/topological.js';
import { mergeInto } from './core.js';
import { MERGE_ALWAYS, MergePoints, type Similarity } from './auto.js';
import { locationKey, topoPosition } from './location.js';
import { DynamicMergingSearcher } from '../searchers/dsm.js';
import { QceAnalysis } from './qce.js';
import { QceSimilarity } from './similarity.js';
import { differingPointer } from './pointers.js';
import { QuantifiedRegions } from './quantified/regions.js';
import { IncrementalMergingSearcher } from '../searchers/incremental-merging.js';

export interface MergingSetup {
  /** The searcher to run with, given the one --search would build. */
  searcher(base: () => Searcher<ExecutionState>): Searcher<ExecutionState>;
}

export function setUpStateMerging(ex: Executor): MergingSetup {
  const setup = mergingSetup(ex);
  if (ex.quantified?.incremental == null) return setup;
  // incremental merging runs a region's states breadth-first, ahead of the others
  return { searcher: (base) => new IncrementalMergingSearcher(setup.searcher(base), (s) => s.regionNode !== null) };
}

function mergingSetup(ex: Executor): MergingSetup {
  if (ex.opts.mergeMode === 'quantified') {
    ex.quantified = new QuantifiedRegions(ex);
    // every arrival at a loop header or exit must be seen
    if (ex.opts.quantifiedLoops) ex.blockSteps = true;
  }
  const kind = ex.opts.stateMerging;
  if (kind === 'none') return { searcher: (base) => base() };
  const o = ex.opts;
  const qce = o.qceAlpha === Infinity ? null : new QceSimilarity(ex, new QceAnalysis(ex.km, { alpha: o.qceAlpha, beta: o.qceBeta, kappa: o.qceKappa }), { scope: o.qceScope, iteTerm: o.qceIteTerm });
  const similarity: Similarity = qce ?? MERGE_ALWAYS;
  const mergedAway = new WeakSet<ExecutionState>();
  const oracle: LocationOracle<ExecutionState> = {
    topologicalPosition: topoPosition,
    signature: (st) => {
      // the merge points computed both when the state arrived in this step
      const p = ex.mergePoints!.standing(st);
      const location = p?.key ?? locationKey(st);
      const h = p?.hash ?? similarity.hash?.(st) ?? 0;
      // a structural fingerprint keeps states that can never merge (other objects, arrays) apart
      return { location, hash: Math.imul(h ^ st.memory.liveObjects, 0x01000193) ^ st.symbolics.length };
    },
    endedByMerge: (st) => mergedAway.has(st),
  };
  ex.blockSteps = true;
  ex.mergePoints = new MergePoints(
    similarity,
    (a, b) => {
      const notes: string[] | undefined = o.debugLogMerge ? [] : undefined;
      mergeInto(ex, a, b, ex.mergeCounters, o.mergeWitnessTests ? ex.witnessEvents : undefined, notes);
      if (notes !== undefined && notes.length > 0) ex.message(`  ites: ${notes.slice(0, 12).join(', ')}${notes.length > 12 ? `, … (${notes.length})` : ''}`);
      mergedAway.add(b);
    }, ex.opts.maxStateMultiplicity, o.debugLogMerge ? (l) => ex.message(l) : null,
    o.mergePointerRule ? differingPointer : null);
  return {
    searcher: (base) => {
      if (kind === 'static') {
        if (ex.opts.search.length > 0) ex.warning('--state-merging=static runs states in topological order: --search is ignored');
        return new TopologicalSearcher(oracle);
      }
      const dsm = new DynamicMergingSearcher(base(), oracle, o.dsmDelta);
      ex.dsmCounters = dsm.counters;
      ex.mergePoints!.onApart = (a, b) => dsm.apart(a, b);
      return dsm;
    },
  };
}
