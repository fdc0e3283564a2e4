/**
 * Where a worker of `tsklee run --jobs N` spends its time (wall milliseconds of its thread,
 * which on a loaded machine include waiting for a core): starting (loading the bundle, the
 * solver chain, the program, and preparing it), in the solver chain, replaying adopted
 * prefixes, and idle waiting for work. info shows one line per worker; the sum over workers
 * against a single run's says which of the parallel run's costs grew.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import type { InitialValues, Query, Solver, SolverStats, Validity } from '../../solver/solver.js';
import type { ExprArray } from '../../expr/index.js';

export interface WorkerProfile {
  /** The thread's start to the bundle loaded (performance.now() in the worker counts from its start). */
  bundleMs: number;
  /** Solver chain built and the program loaded (parsed, linked with the runtime). */
  loadMs: number;
  /** The executor made (the module prepared) and the statistics set up. */
  prepareMs: number;
  /** The run loop: from its first step to its end, idle time included. */
  runMs: number;
  /** Waiting for jobs after running dry. */
  idleMs: number;
  /** Steps of states still on an adopted prefix, and their time. */
  replaySteps: number;
  replayMs: number;
  /** Inside the solver chain (all layers, z3's loading included). */
  solverMs: number;
  /** Of which in the backend's checks. */
  backendMs: number;
  /** CPU time of the thread (not wall): starting, and the run loop; -1 where unknown (not Linux). */
  startCpuMs: number;
  runCpuMs: number;
  /** Garbage-collection pauses of the thread's isolate. */
  gcMs: number;
}

export function emptyProfile(): WorkerProfile {
  return { bundleMs: 0, loadMs: 0, prepareMs: 0, runMs: 0, idleMs: 0, replaySteps: 0, replayMs: 0, solverMs: 0, backendMs: 0, startCpuMs: -1, runCpuMs: -1, gcMs: 0 };
}

/** CPU time of the calling thread in ms (Linux's schedstat: ns on a CPU), -1 elsewhere. ~50 µs a call. */
export function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ', 1)[0]) / 1e6;
  } catch {
    return -1;
  }
}

/** Sums the isolate's garbage-collection pauses into `p.gcMs` until the returned function is called. */
export function countGc(p: WorkerProfile): () => void {
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) p.gcMs += e.duration;
  });
  obs.observe({ entryTypes: ['gc'] });
  return () => obs.disconnect();
}

/** One info line: the worker's time split, whole milliseconds. */
export function formatProfile(p: WorkerProfile): string {
  const ms = (x: number): string => `${Math.round(x)} ms`;
  const cpu = p.startCpuMs >= 0 ? `CPU: start ${ms(p.startCpuMs)}, run ${ms(p.runCpuMs)}; wall: ` : 'wall: ';
  return `${cpu}start ${ms(p.bundleMs + p.loadMs + p.prepareMs)} (bundle ${ms(p.bundleMs)}, load ${ms(p.loadMs)}, prepare ${ms(p.prepareMs)}), run ${ms(p.runMs)}: solver ${ms(p.solverMs)} (backend ${ms(p.backendMs)}), replay ${ms(p.replayMs)} in ${p.replaySteps} steps, idle ${ms(p.idleMs)}, gc ${ms(p.gcMs)}`;
}

/** The solver chain with its time counted (the chain's layers time themselves, but not z3's loading). */
export class TimedSolver implements Solver {
  timeMs = 0;

  constructor(private readonly inner: Solver) {}

  private timed<T>(f: () => T): T {
    const t = performance.now();
    try {
      return f();
    } finally {
      this.timeMs += performance.now() - t;
    }
  }

  computeTruth(q: Query): boolean {
    return this.timed(() => this.inner.computeTruth(q));
  }
  computeValidity(q: Query): Validity {
    return this.timed(() => this.inner.computeValidity(q));
  }
  computeValue(q: Query): bigint {
    return this.timed(() => this.inner.computeValue(q));
  }
  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.timed(() => this.inner.computeInitialValues(q, arrays));
  }
  stats(): SolverStats[] {
    return this.inner.stats();
  }
  dispose(): void {
    this.inner.dispose();
  }
}
