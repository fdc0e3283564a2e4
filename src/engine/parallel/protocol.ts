/**
 * What the coordinator (the main thread of `tsklee run --jobs N`) and its worker threads say
 * to each other (tests do not pass through it: each worker writes its own into the output
 * directory, numbered from the shared counter), and the shared memory they both read: the test counter (so tests are numbered
 * once over all workers), the stop flag (Ctrl-C), and per worker its live state count and a
 * "give me states" flag that the worker checks after every step.
 */
import type { EngineOptions } from '../options.js';
import type { SolverBackendName, SolverOptions, Z3WasmModule } from '../../solver/index.js';
import type { RuntimeChoice } from '../prepare/runtime.js';
import type { PeerCounts } from '../stats-peers.js';
import type { WorkerProfile } from './profile.js';
import type { NamedModel } from '../../solver/layers/model-hints.js';

/** States handed over: each one's path prefix and a model of its path condition (null: none found). */
export interface Jobs {
  paths: number[][];
  models: (NamedModel | null)[];
}

export const TEST_COUNTER = 0;
export const STOP_FLAG = 1;
export const liveSlot = (worker: number): number => 2 + 2 * worker;
export const requestSlot = (worker: number): number => 3 + 2 * worker;
export const sharedInts = (workers: number): number => 2 + 2 * workers;

/** A worker's exit-status lines, merged into exit-status.txt at the end. */
export const exitStatusPart = (worker: number): string => `exit-status.worker${worker}.txt`;

/** What a worker thread starts with. */
export interface WorkerSetup {
  index: number;
  shared: SharedArrayBuffer;
  bitcode: string;
  /** The output directory the worker writes its tests into. */
  outDir: string;
  load: RuntimeChoice;
  engine: Partial<EngineOptions>;
  backend: SolverBackendName;
  solver: SolverOptions;
  /** Epoch ms after which the backend's checks stop (--max-time plus a grace: Z3SolverOptions.stopAt). */
  solverStopAt?: number;
  /** The embedded z3 compiled once by the coordinator (the z3 backend only): every worker shares its machine code. */
  z3Module?: Z3WasmModule;
  /** What worker 0 needs to write run.stats, run.istats and coverage.lcov for the whole run. */
  statsFiles: StatsFilesSetup;
}

export interface StatsFilesSetup {
  /** run.istats' cmd line (the input file, as a single-worker run says). */
  cmd: string;
  /** coverage.lcov's test name. */
  lcovName: string;
  /** --stats-commit-after. */
  commitEvery?: number;
  /** --addressing=relocatable: run.stats has the relocation columns. */
  relocationColumns: boolean;
}

export interface WorkerSummary {
  instructions: number;
  forks: number;
  completedPaths: number;
  exploredPaths: number;
  generatedTests: number;
  errors: number;
  queries: number;
  haltReason: string | null;
  backend: { checks: number; unsat: number; sat: number; cex: number; constructs: number };
  /** States this worker gave away, and adopted (jobs). */
  given: number;
  adopted: number;
  profile: WorkerProfile;
}

export type FromWorker =
  | { t: 'message'; text: string }
  | { t: 'warning'; text: string; kind: 'WARNING' | 'WARNING ONCE' | 'ERROR' }
  | { t: 'file'; name: string; text: string }
  | { t: 'log'; line: string; kind: 'message' | 'warning' | 'error' | 'print' }
  | ({ t: 'jobs' } & Jobs)
  | { t: 'idle' }
  | { t: 'done'; summary: WorkerSummary; searcher: string }
  /** A worker's coverage and statistics so far (workers 1..N-1), for worker 0 to merge. */
  | { t: 'counts'; counts: PeerCounts }
  /** A model the worker's backend found: for the other workers' counterexample caches. */
  | { t: 'model'; model: NamedModel }
  /** Worker 0 wrote the statistics files; `info`: the coverage lines of the info file. */
  | { t: 'stats-written'; info: string }
  | { t: 'failed'; message: string };

export type ToWorker =
  | ({ t: 'jobs' } & Jobs)
  | { t: 'finish' }
  /** Another worker's backend found this model (a hint for the counterexample cache). */
  | { t: 'model'; model: NamedModel }
  /** To worker 0: another worker's counts. */
  | { t: 'peer-counts'; worker: number; counts: PeerCounts }
  /** To worker 0, once every worker is done and their last counts were passed on: write the files. */
  | { t: 'write-stats' };
