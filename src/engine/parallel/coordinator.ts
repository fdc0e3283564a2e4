/**
 * The main thread of `tsklee run --jobs N`: runs worker 0 itself (thread-worker.ts's runWorker,
 * on the program this thread loaded: no isolate to start, compile and collect for it) and
 * starts up to N-1 worker threads as start-policy.ts allows: one more each time the run has
 * used --jobs-start-after of CPU per worker running and has a state to give, at most one per
 * core (a short run stays on worker 0 and costs what a single run does). The workers write
 * their tests into the one output directory (numbered from a shared counter; their
 * exit-status lines are merged into exit-status.txt at the end; worker 0 writes run.stats,
 * run.istats and coverage.lcov from every worker's counts, which pass through here), and this
 * balances the work: when a worker runs dry it asks the busiest one (most live states) for
 * its shallowest state, as a path prefix with a model of its path condition (jobs.ts), and hands it over. When every worker is dry
 * and no hand-over is under way, the exploration is complete and the workers are told to end.
 *
 * Each worker thread runs the CLI's bundle (loaded through the launcher, so from the
 * same V8 code cache as the main thread), with its own solver chain and copy of the program;
 * the embedded z3 is compiled here once and shared (its machine code too). Every model a
 * worker's backend finds passes through here to the other workers, as hints for their
 * counterexample caches (a shared cache, in effect: cut.c at 4 workers asked the backend
 * 142–154 times without, 12–15 with, 18 at 1 worker).
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { OutputDir } from '../../output/output-dir.js';
import { writeFileAtomic } from '../../output/ktest.js';
import { EXIT_STATUS_FILE } from '../../output/exit-status.js';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { packageRoot } from '../../util/package-root.js';
import { emptyProfile } from './profile.js';
import { sharedZ3Module } from '../../solver/index.js';
import { exitStatusPart, liveSlot, requestSlot, sharedInts, STOP_FLAG, TEST_COUNTER, type FromWorker, type ToWorker, type WorkerSetup, type WorkerSummary } from './protocol.js';
import type { LoadedProgram } from '../prepare/runtime.js';
import { runWorker } from './thread-worker.js';
import { startPolicy } from './start-policy.js';

export interface ParallelSetup extends Omit<WorkerSetup, 'index' | 'shared' | 'outDir'> {
  jobs: number;
  out: OutputDir;
  onLog: (line: string, kind: 'message' | 'warning' | 'error' | 'print') => void;
  /** Polled every 50 ms: a reason stops every worker (Ctrl-C). */
  shouldStop: () => string | null;
  /** The program as the main thread loaded it: worker 0 runs in the main thread on it. */
  loaded: LoadedProgram;
  /**
   * CPU ms of the process per worker running before one more starts (startPolicy): 0 starts
   * every worker at once, beyond the cores too.
   */
  startAfterCpuMs: number;
}

export interface ParallelResult {
  workers: WorkerSummary[];
  searcher: string;
  testsNumbered: number;
  /** info's coverage lines (covered instructions, program coverage), from every worker's counts. */
  coverageInfo: string;
  haltReason: string | null;
  /** Hand-overs: states given away and adopted (jobs). */
  jobsMoved: number;
  /** Workers started (≤ jobs), and why not more when fewer. */
  started: number;
  notStarted: string | null;
}

/** A worker as the coordinator sees it: a thread, or worker 0 in this thread. */
interface Endpoint {
  postMessage(m: ToWorker): void;
  terminate(): Promise<unknown>;
}

/** Starts a worker thread through the launcher, which loads the bundle (or the modules). */
const THREAD_MAIN = `
const { workerData, parentPort } = require('node:worker_threads');
globalThis.tskleeParallelWorker = true;
require(workerData.launcher).loadCli()
  .then((cli) => cli.runParallelWorker())
  .catch((e) => parentPort.postMessage({ t: 'failed', message: String((e && e.message) || e) }));
`;

export class ParallelExplorationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParallelExplorationError';
  }
}

export async function exploreInParallel(p: ParallelSetup): Promise<ParallelResult> {
  const n = p.jobs;
  const sab = new SharedArrayBuffer(4 * sharedInts(n));
  const shared = new Int32Array(sab);
  const launcher = join(packageRoot(import.meta.url), 'dist', 'cli', 'launch.cjs');
  const threads: Endpoint[] = [];
  const policy = startPolicy(n, p.startAfterCpuMs);
  const cpuAtStart = process.cpuUsage();
  const idle = new Set<number>();
  const finished = new Map<number, { summary: WorkerSummary; searcher: string }>();
  /** worker asked for states → the dry worker they are for */
  const asked = new Map<number, number>();
  const served = new Set<number>();
  const seenNotes = new Set<string>();
  let failure: string | null = null;
  let stopping = false;
  let jobsMoved = 0;
  /** Worker 0's answer once it wrote the statistics files. */
  let coverageInfo: string | null = null;
  // compiled here once (tens of ms, mostly off the thread): the workers share its machine code;
  // when they start one by one, only once one is started (worker 0 loads z3 only if it asks z3)
  let z3Module = p.backend === 'z3' && p.startAfterCpuMs === 0 ? await sharedZ3Module() : undefined;
  /** The backends' models so far, for the workers still to start. */
  const models: ToWorker[] = [];
  /** A worker thread about to start (waiting for z3's module): the run is not over. */
  let pendingStart = false;
  /** The run used the CPU for one more worker, which did not start for want of a state to give. */
  let lastedLongEnough = false;

  const send = (i: number, m: ToWorker): void => threads[i]!.postMessage(m);
  const finishIdle = (): void => {
    for (const i of idle) send(i, { t: 'finish' });
    idle.clear();
  };

  /** Pair dry workers with the busiest others; end everything when no work is left anywhere. */
  const balance = (): void => {
    if (stopping || failure !== null) {
      finishIdle();
      return;
    }
    for (const dry of idle) {
      if (served.has(dry)) continue;
      let best = -1;
      let most = 1;
      for (let w = 0; w < threads.length; w++) {
        if (idle.has(w) || finished.has(w) || asked.has(w)) continue;
        const live = shared[liveSlot(w)]!;
        if (live > most) {
          most = live;
          best = w;
        }
      }
      if (best < 0) break;
      asked.set(best, dry);
      served.add(dry);
      Atomics.store(shared, requestSlot(best), 1);
    }
    if (asked.size === 0 && !pendingStart && idle.size + finished.size === threads.length) finishIdle();
  };

  let timer: NodeJS.Timeout | null = null;
  let askedForStats = false;
  const done = new Promise<void>((resolve) => {
    /** Every worker done (and the files written), or one failed. */
    const maybeResolve = (): void => {
      if (finished.size < threads.length) return;
      if (failure === null && coverageInfo === null) {
        // every worker's last counts reached worker 0 before this: messages keep their order
        if (!askedForStats) send(0, { t: 'write-stats' });
        askedForStats = true;
        return;
      }
      resolve();
    };
    const t0 = performance.now();
    const trace = process.env.TSKLEE_PARALLEL_TRACE !== undefined;
    if (trace) process.stderr.write(`parallel: workers start ${(process.uptime() * 1000).toFixed(0)} ms after the process\n`);
    const onMessage = (i: number, m: FromWorker): void => {
      if (trace) process.stderr.write(`parallel: ${(performance.now() - t0).toFixed(1)} ms: worker ${i}: ${m.t}${m.t === 'jobs' ? ` ${m.paths.length}` : ''}\n`);
      switch (m.t) {
        case 'message':
        case 'warning': {
          // every worker loads the same program: its start-up notes once
          const key = `${m.t}:${m.text}`;
          if (seenNotes.has(key)) return;
          seenNotes.add(key);
          if (m.t === 'message') p.out.appendMessage(m.text);
          else p.out.appendWarning(m.text, m.kind);
          return;
        }
        case 'log':
          if (m.kind !== 'warning' || !seenNotes.has(`log:${m.line}`)) p.onLog(m.line, m.kind);
          seenNotes.add(`log:${m.line}`);
          return;
        case 'file':
          // the same file from every worker (assembly.ll): the first worker's stands for all
          if (i === 0) writeFileAtomic(p.out.file(m.name), m.text);
          return;
        case 'jobs': {
          const dry = asked.get(i);
          asked.delete(i);
          if (dry === undefined) return;
          served.delete(dry);
          if (m.paths.length > 0 && idle.has(dry) && !stopping) {
            idle.delete(dry);
            jobsMoved += m.paths.length;
            send(dry, { t: 'jobs', paths: m.paths, models: m.models });
          }
          balance();
          return;
        }
        case 'model':
          // every other worker still exploring: their caches are cold where this one's is warm
          for (let w = 0; w < threads.length; w++) if (w !== i && !finished.has(w)) send(w, m);
          // and every worker started later (cut.c: 54 backend queries at 2 workers without, 12–20 with)
          if (threads.length < policy.limit) models.push(m);
          return;
        case 'counts':
          if (failure === null) send(0, { t: 'peer-counts', worker: i, counts: m.counts });
          return;
        case 'stats-written':
          coverageInfo = m.info;
          maybeResolve();
          return;
        case 'idle':
          // a request that crossed this worker's running dry is answered by its empty 'jobs' first
          idle.add(i);
          balance();
          return;
        case 'done':
          finished.set(i, { summary: m.summary, searcher: m.searcher });
          idle.delete(i);
          // a halted worker (--max-time) will not answer; nor will its requests be answered
          if (m.summary.haltReason !== null) stopping = true;
          balance();
          maybeResolve();
          return;
        case 'failed':
          failure ??= `worker ${i}: ${m.message}`;
          stopping = true;
          Atomics.store(shared, STOP_FLAG, 1);
          if (!finished.has(i)) finished.set(i, { summary: emptySummary(), searcher: '' });
          balance();
          maybeResolve();
          return;
      }
    };
    const startWorker = (): void => {
      const i = threads.length;
      const setup: WorkerSetup = {
        index: i,
        shared: sab,
        bitcode: p.bitcode,
        outDir: p.out.path,
        load: p.load,
        engine: p.engine,
        backend: p.backend,
        solver: p.solver,
        ...(p.solverStopAt !== undefined ? { solverStopAt: p.solverStopAt } : {}),
        statsFiles: p.statsFiles,
        ...(z3Module !== undefined ? { z3Module } : {}),
      };
      if (i === 0) {
        // worker 0 in this thread, on the program loaded here: the messages go through a channel
        const { port1, port2 } = new MessageChannel();
        port1.on('message', (m: FromWorker) => onMessage(0, m));
        threads.push({
          postMessage: (m) => port1.postMessage(m),
          terminate: async () => {
            port1.close();
            port2.close();
          },
        });
        runWorker(port2, setup, p.loaded).catch((e: unknown) => onMessage(0, { t: 'failed', message: String(e) }));
        return;
      }
      const t = new Worker(THREAD_MAIN, { eval: true, workerData: { ...setup, launcher } });
      t.on('message', (m: FromWorker) => onMessage(i, m));
      t.on('error', (e) => onMessage(i, { t: 'failed', message: e.message }));
      t.on('exit', (code) => {
        if (!finished.has(i)) onMessage(i, { t: 'failed', message: `exited with status ${code} before it finished` });
      });
      threads.push(t);
      // the models found before it started: its cache is as warm as the others'
      for (const m of models) t.postMessage(m);
    };
    startWorker();
    if (p.startAfterCpuMs === 0) while (threads.length < n) startWorker();
    /** One more worker once the run has lasted long enough for it, and has a state to give it. */
    const maybeStartWorker = (): void => {
      if (pendingStart || threads.length >= policy.limit || stopping || failure !== null) return;
      const used = process.cpuUsage(cpuAtStart);
      if ((used.user + used.system) / 1000 < threads.length * p.startAfterCpuMs) return;
      lastedLongEnough = true;
      let work = false;
      for (let w = 0; w < threads.length; w++) if (!finished.has(w) && shared[liveSlot(w)]! >= 2) work = true;
      if (!work) return;
      pendingStart = true;
      lastedLongEnough = false;
      const module = p.backend === 'z3' && z3Module === undefined ? sharedZ3Module() : Promise.resolve(z3Module);
      module.then(
        (m) => {
          z3Module = m;
          pendingStart = false;
          if (!stopping && failure === null) startWorker();
          balance();
        },
        (e: unknown) => {
          // as a worker's failure: every running worker stops, and the run reports it
          pendingStart = false;
          failure ??= `z3: ${e instanceof Error ? e.message : String(e)}`;
          stopping = true;
          Atomics.store(shared, STOP_FLAG, 1);
          balance();
        },
      );
    };
    timer = setInterval(() => {
      const why = p.shouldStop();
      if (why !== null && Atomics.load(shared, STOP_FLAG) === 0) {
        Atomics.store(shared, STOP_FLAG, 1);
        stopping = true;
      }
      // dry workers wait for a busy one to have more than one state
      if (idle.size > 0) balance();
      maybeStartWorker();
    }, 5);
  });
  const tEnd = performance.now();
  try {
    await done;
    if (process.env.TSKLEE_PARALLEL_TRACE !== undefined) {
      const elu = (e: { active: number; idle: number }): string => `${e.active.toFixed(0)} ms busy, ${e.idle.toFixed(0)} ms idle`;
      process.stderr.write(`parallel: main thread ${elu(performance.eventLoopUtilization())}\n`);
      threads.forEach((t, i) => {
        if (t instanceof Worker) process.stderr.write(`parallel: worker ${i} ${elu(t.performance.eventLoopUtilization())}\n`);
      });
      process.stderr.write(`parallel: CPU of the process's threads: ${cpuByThread()}\n`);
    }
  } finally {
    if (timer !== null) clearInterval(timer);
    await Promise.all(threads.map((t) => t.terminate()));
  }
  if (process.env.TSKLEE_PARALLEL_TRACE !== undefined) process.stderr.write(`parallel: terminated ${(performance.now() - tEnd).toFixed(1)} ms after start\n`);
  mergeExitStatuses(p.out.path, threads.length);
  if (failure !== null) throw new ParallelExplorationError(failure);
  const workers = [...finished.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f.summary);
  return {
    workers,
    searcher: finished.get(0)?.searcher ?? '',
    testsNumbered: Atomics.load(shared, TEST_COUNTER),
    coverageInfo: coverageInfo ?? '',
    haltReason: workers.find((w) => w.haltReason !== null)?.haltReason ?? null,
    jobsMoved,
    started: threads.length,
    notStarted:
      threads.length === n
        ? null
        : threads.length === policy.limit
          ? policy.why
          : lastedLongEnough
            ? `no state to hand over after ${p.startAfterCpuMs * threads.length} ms of CPU`
            : `the run ended before it used ${p.startAfterCpuMs * threads.length} ms of CPU`,
  };
}

/** The workers' exit-status lines, in test-number order, as exit-status.txt. */
function mergeExitStatuses(dir: string, workers: number): void {
  const lines: string[] = [];
  for (let i = 0; i < workers; i++) {
    const part = join(dir, exitStatusPart(i));
    if (!existsSync(part)) continue;
    for (const l of readFileSync(part, 'utf8').split('\n')) if (l !== '') lines.push(l);
    rmSync(part);
  }
  if (lines.length === 0) return;
  // fixed-width numbers up to 999999: text order is number order; longer ones sort by length first
  lines.sort((a, b) => a.indexOf(' ') - b.indexOf(' ') || (a < b ? -1 : a > b ? 1 : 0));
  writeFileAtomic(join(dir, EXIT_STATUS_FILE), `${lines.join('\n')}\n`);
}

/**
 * CPU time of each of the process's threads (Linux: /proc, by thread id): the main thread, the
 * workers (their own CPU is in info) and V8's helper threads (JIT compiler, GC), which no
 * worker counts and which grow with the number of isolates.
 */
function cpuByThread(): string {
  const parts: string[] = [];
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'latin1').split(' ', 1)[0]);
      if (ns >= 1e6) parts.push(`${tid === String(process.pid) ? 'main' : tid} ${(ns / 1e6).toFixed(0)} ms`);
    }
  } catch {
    return 'unknown (no /proc)';
  }
  return parts.join(', ');
}

function emptySummary(): WorkerSummary {
  return {
    instructions: 0,
    forks: 0,
    completedPaths: 0,
    exploredPaths: 0,
    generatedTests: 0,
    errors: 0,
    queries: 0,
    haltReason: null,
    backend: { checks: 0, unsat: 0, sat: 0, cex: 0, constructs: 0 },
    given: 0,
    adopted: 0,
    profile: emptyProfile(),
  };
}
