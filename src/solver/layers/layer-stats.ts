/**
 * Counters every layer keeps (DESIGN.md: "each layer counts queries in and out, hits and
 * time"). `queries` counts calls into the layer, `hits` those answered without asking the
 * next layer, `timeMs` the wall time spent in the layer including the layers below it.
 */
import type { SolverStats } from '../solver.js';
import { nowMs } from '../../util/clock.js';

export class LayerCounters {
  queries = 0;
  hits = 0;
  timeMs = 0;

  constructor(readonly layer: string) {}

  /** Runs one query, counting it and its time (also when it throws). */
  time<T>(f: () => T): T {
    this.queries++;
    const start = nowMs();
    try {
      return f();
    } finally {
      this.timeMs += nowMs() - start;
    }
  }

  /** Counts a query answered at once, without work worth timing (a hit); returns the answer. */
  answered<T>(v: T): T {
    this.queries++;
    this.hits++;
    return v;
  }

  snapshot(): SolverStats {
    return { layer: this.layer, queries: this.queries, hits: this.hits, timeMs: this.timeMs };
  }
}
