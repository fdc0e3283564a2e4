/**
 * One worker thread of `tsklee run --jobs N`: loads the program, builds its own solver chain
 * and explores with the work-sharing hooks of jobs.ts. It writes its tests into the output
 * directory itself, numbered from the shared counter; its messages and warnings go to the
 * coordinator (each worker says the same start-up warnings: they are written once).
 *
 * Statistics: every worker counts coverage and statistics as a single run does; workers
 * 1..N-1 send their counts to worker 0 (through the coordinator) every stats interval and
 * when they end, and worker 0 writes run.stats, run.istats and coverage.lcov from the sum
 * (stats-peers.ts), the last time once the coordinator says every worker's last counts are in.
 *
 * Its counterexample cache takes, as hints, the models of the states it adopts and every model
 * the other workers' backends find; it sends its own backend's. Where its time goes (start-up,
 * solver, replay, idle; thread CPU) is in its summary (profile.ts), and in info.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { explore } from '../explore.js';
import type { Executor } from '../executor.js';
import { loadProgram, type LoadedProgram } from '../prepare/runtime.js';
import { buildChain, createBackend, HighsIlp, useSharedZ3Module } from '../../solver/index.js';
import { countingBackend, type Solver } from '../../solver/solver.js';
import type { RunOutput } from '../test-output.js';
import type { WorkSharing } from './jobs.js';
import { attachOutputDir } from '../../output/output-dir.js';
import { exitStatusPart, liveSlot, requestSlot, STOP_FLAG, TEST_COUNTER, type FromWorker, type ToWorker, type WorkerSetup } from './protocol.js';
import type { StatsTracker } from '../stats-tracker.js';
import { ModelHints } from '../../solver/layers/model-hints.js';
import { modelOfState } from './adopt.js';
import { countGc, emptyProfile, threadCpuMs, TimedSolver, type WorkerProfile } from './profile.js';
import { openStatsFiles, peerCountsEvery, writeStatsFiles } from './stats-files.js';

/** Messages from the coordinator, one at a time. */
class Inbox {
  private queue: ToWorker[] = [];
  private waiting: ((m: ToWorker) => void) | null = null;
  /** Worker 0's tracker, which takes the other workers' counts as they come. */
  tracker: StatsTracker | null = null;

  constructor(
    port: MessagePort,
    private readonly hints: ModelHints,
  ) {
    port.on('message', (m: ToWorker) => {
      if (m.t === 'peer-counts') {
        this.tracker?.setPeerCounts(m.worker, m.counts);
        return;
      }
      if (m.t === 'model') {
        this.hints.add(m.model);
        return;
      }
      if (this.waiting !== null) {
        const w = this.waiting;
        this.waiting = null;
        w(m);
      } else this.queue.push(m);
    });
  }

  next(): Promise<ToWorker> {
    const m = this.queue.shift();
    return m !== undefined ? Promise.resolve(m) : new Promise((r) => (this.waiting = r));
  }
}

class ThreadSharing implements WorkSharing {
  ex: Executor | null = null;
  given = 0;
  adopted = 0;
  /** When the last step (or wait) ended: a step's time is the time since. */
  private lastStepEnd = -1;

  constructor(
    private readonly index: number,
    private readonly shared: Int32Array,
    private readonly post: (m: FromWorker) => void,
    private readonly inbox: Inbox,
    /** The counterexample cache's hints: the models that came with adopted jobs. */
    private readonly hints: ModelHints,
    readonly profile: WorkerProfile,
  ) {}

  begin(): boolean {
    return this.index === 0;
  }

  afterStep(replayed: boolean): void {
    const now = performance.now();
    if (replayed) {
      this.profile.replaySteps++;
      if (this.lastStepEnd >= 0) this.profile.replayMs += now - this.lastStepEnd;
    }
    this.lastStepEnd = now;
    const ex = this.ex!;
    this.shared[liveSlot(this.index)] = ex.liveStateCount;
    if (this.shared[requestSlot(this.index)] !== 0) this.answerRequest();
  }

  /**
   * Another worker is dry: this one's shallowest state (the root of its largest subtree, likely)
   * goes to it, none when it has only one. One, not half: every state handed over is replayed
   * from the program's start and meets a cold solver cache, and with half of its states the
   * giver keeps only the deep, small subtrees and soon asks back (cut.c, 4 workers: 213 states
   * handed over and +88 % instructions with half, 40 and +25 % with one).
   */
  private answerRequest(): void {
    const ex = this.ex!;
    Atomics.store(this.shared, requestSlot(this.index), 0);
    const give = ex.liveStateCount >= 2 ? ex.statesToGive(1) : [];
    const models = give.map((st) => modelOfState(ex, st));
    const paths = give.length > 0 ? ex.giveAway(give) : [];
    this.given += paths.length;
    this.shared[liveSlot(this.index)] = ex.liveStateCount;
    this.post({ t: 'jobs', paths, models });
  }

  async waitForWork(): Promise<boolean> {
    this.shared[liveSlot(this.index)] = 0;
    // a request that came as this worker ran dry gets its (empty) answer first
    if (Atomics.load(this.shared, requestSlot(this.index)) !== 0) this.answerRequest();
    this.post({ t: 'idle' });
    const t = performance.now();
    const m = await this.inbox.next();
    this.lastStepEnd = performance.now();
    this.profile.idleMs += this.lastStepEnd - t;
    // 'write-stats' comes only after every worker is done
    if (m.t !== 'jobs') return false;
    this.adopted += m.paths.length;
    for (const model of m.models) if (model !== null) this.hints.add(model);
    this.ex!.adoptJobs(m.paths);
    this.shared[liveSlot(this.index)] = this.ex!.liveStateCount;
    return true;
  }
}

/**
 * The models the backend finds go to the other workers (a shared counterexample cache, in
 * effect): a model that came from below the cache is the backend's when the backend's count of
 * model queries moved since the last one (the fast layer's cheap models stay here).
 */
function shareBackendModels(core: Solver, hints: ModelHints, post: (m: FromWorker) => void): void {
  const counters = countingBackend(core)?.counters;
  if (counters === undefined) return;
  let seen = counters.cex;
  hints.onSolved = (model) => {
    if (counters.cex === seen) return;
    seen = counters.cex;
    post({ t: 'model', model });
  };
}

/** The thread's work: called in a worker thread whose workerData is a WorkerSetup. */
export async function runThreadWorker(): Promise<void> {
  await runWorker(parentPort!, workerData as WorkerSetup);
}

/**
 * One worker's exploration, talking to the coordinator through `port`: a worker thread's
 * parentPort, or (worker 0, which runs in the main thread: no isolate of its own to start,
 * JIT-compile and collect) one end of a MessageChannel, with the program the main thread
 * already loaded (`preloaded`).
 */
export async function runWorker(port: MessagePort, setup: WorkerSetup, preloaded?: LoadedProgram): Promise<void> {
  const post = (m: FromWorker): void => port.postMessage(m);
  const bundleMs = performance.now();
  const cpu0 = threadCpuMs();
  let cpuRun = 0;
  const profile = emptyProfile();
  profile.bundleMs = bundleMs;
  const stopGc = countGc(profile);
  try {
    const shared = new Int32Array(setup.shared);
    if (setup.z3Module !== undefined) useSharedZ3Module(setup.z3Module);
    const hints = new ModelHints();
    const inbox = new Inbox(port, hints);
    // z3's heap bounded as the single-process run's (--max-memory)
    const core = await createBackend(setup.backend, setup.solver.timeoutMs, setup.engine.maxMemory ?? 0, setup.solverStopAt, { constantArrays: setup.solver.z3ConstantArrays });
    shareBackendModels(core, hints, post);
    const solverOpts = { ...setup.solver, modelHints: hints, ...(setup.solver.ilpPrecheck === true ? { ilp: await HighsIlp.create() } : {}) };
    const solver = new TimedSolver(buildChain(core, solverOpts));
    const loaded = preloaded ?? (await loadProgram([setup.bitcode], setup.load, { onWarning: (m) => post({ t: 'warning', text: m, kind: 'WARNING' }) }));
    const tests = attachOutputDir(setup.outDir, exitStatusPart(setup.index));
    const output: RunOutput = {
      writeTest: (ktest, extras = {}) => tests.writeTestAs(Atomics.add(shared, TEST_COUNTER, 1) + 1, ktest, extras),
      appendMessage: (text) => post({ t: 'message', text }),
      appendWarning: (text, kind = 'WARNING') => post({ t: 'warning', text, kind }),
      writeFile: (name, text) => post({ t: 'file', name, text }),
    };
    const sharing = new ThreadSharing(setup.index, shared, post, inbox, hints, profile);
    profile.loadMs = performance.now() - bundleMs;
    const first = setup.index === 0;
    // worker 0 writes the files; the others send their counts to it
    const files = first ? await openStatsFiles(setup, solver) : null;
    let sendCounts: ReturnType<typeof setInterval> | null = null;
    const hold: { tracker: StatsTracker | null } = { tracker: null };
    const r = await explore(loaded.module, setup.engine, {
      solver,
      output,
      shouldStop: () => (Atomics.load(shared, STOP_FLAG) !== 0 ? 'ctrl-c detected, requesting interpreter to halt.' : null),
      onStart: (ex, t) => {
        profile.prepareMs = performance.now() - bundleMs - profile.loadMs;
        cpuRun = threadCpuMs();
        // the thread's CPU since it was made: the bundle's loading included
        profile.startCpuMs = cpu0 < 0 ? -1 : cpuRun;
        ex.workSharing = sharing;
        // in the main thread, the coordinator answers the other workers only when this loop yields
        if (preloaded !== undefined) ex.yieldEveryMs = 5;
        sharing.ex = ex;
        hold.tracker = t!;
        if (first) inbox.tracker = t!;
        const every = peerCountsEvery(ex.opts);
        if (!first && every > 0) {
          sendCounts = setInterval(() => post({ t: 'counts', counts: t!.peerCounts() }), every);
          sendCounts.unref();
        }
      },
      events: { onLog: (line, kind) => post({ t: 'log', line, kind }) },
      statistics: { ...(files?.sinks ?? { runStats: null, istats: null }), backend: countingBackend(core), deferFinish: true },
    });
    if (sendCounts !== null) clearInterval(sendCounts);
    profile.runMs = performance.now() - bundleMs - profile.loadMs - profile.prepareMs;
    if (cpu0 >= 0) profile.runCpuMs = threadCpuMs() - cpuRun;
    profile.solverMs = solver.timeMs;
    profile.backendMs = countingBackend(core)?.backendTimeMs() ?? 0;
    stopGc();
    tests.close(); // every test on disk before the coordinator writes info
    // the last counts go before 'done': the coordinator passes them on before it asks for the files
    const tracker = hold.tracker!;
    if (!first) post({ t: 'counts', counts: tracker.peerCounts() });
    const c = countingBackend(core)?.counters;
    post({
      t: 'done',
      searcher: r.searcher,
      summary: {
        instructions: r.instructions,
        forks: r.forks,
        completedPaths: r.completedPaths,
        exploredPaths: r.exploredPaths,
        generatedTests: r.generatedTests,
        errors: r.errors,
        queries: r.queries,
        haltReason: r.haltReason,
        backend: { checks: c?.checks ?? 0, unsat: c?.unsat ?? 0, sat: c?.sat ?? 0, cex: c?.cex ?? 0, constructs: c?.constructs ?? 0 },
        given: sharing.given,
        adopted: sharing.adopted,
        profile,
      },
    });
    if (files !== null) {
      // every other worker's last counts are in once this comes
      while ((await inbox.next()).t !== 'write-stats');
      post({ t: 'stats-written', info: writeStatsFiles(files, tracker) });
    }
    solver.dispose();
  } catch (e) {
    post({ t: 'failed', message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
}
