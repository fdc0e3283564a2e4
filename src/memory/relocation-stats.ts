/** What the relocatable model did in one run (run.stats columns, the benchmark script). */
export class RelocationStats {
  /** Pointer resolutions (one per resolveOne / resolveAll). */
  resolutions = 0;
  /** Solver questions resolution asked (an example value, may/must point into, the walk's stops). */
  resolutionQueries = 0;
  /** Segments made by merging (§3). */
  merges = 0;
  /** Segments whose address and array were reused (§3.5). */
  reusedSegments = 0;
  /** Largest segment and total segment bytes. */
  maxSegmentSize = 0;
  segmentBytes = 0;
  /** Objects split (§4), and the chunks made. */
  splits = 0;
  chunks = 0;
  /** Splits refused because an access could straddle two chunks. */
  splitsRefused = 0;
  /** Context resolutions (§3.4) answered from the recorded contexts, and those that fell back. */
  contextHits = 0;
  contextFallbacks = 0;
}

/** run.stats columns of the relocatable model (after KLEE's and tsklee's others), in order. */
export const RELOCATION_COLUMNS = [
  'Resolutions',
  'ResolutionQueries',
  'SegmentMerges',
  'ReusedSegments',
  'MaxSegmentSize',
  'SegmentBytes',
  'Splits',
  'SplitChunks',
  'SplitsRefused',
  'ContextHits',
  'ContextFallbacks',
  'SubstitutionTime',
] as const;

/** A run.stats row's relocation columns (SubstitutionTime in microseconds, as KLEE's times). */
export function relocationRow(s: RelocationStats, substitutionMs: number): Record<(typeof RELOCATION_COLUMNS)[number], number> {
  return {
    Resolutions: s.resolutions,
    ResolutionQueries: s.resolutionQueries,
    SegmentMerges: s.merges,
    ReusedSegments: s.reusedSegments,
    MaxSegmentSize: s.maxSegmentSize,
    SegmentBytes: s.segmentBytes,
    Splits: s.splits,
    SplitChunks: s.chunks,
    SplitsRefused: s.splitsRefused,
    ContextHits: s.contextHits,
    ContextFallbacks: s.contextFallbacks,
    SubstitutionTime: Math.round(substitutionMs * 1000),
  };
}
