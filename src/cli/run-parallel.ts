/**
 * `tsklee run --jobs N`: the run's exploration spread over N worker threads
 * (engine/parallel/), one output directory. The options that cannot be split that way are
 * refused in one line; run.stats, run.istats and coverage.lcov are those of the whole run
 * (worker 0 writes them from every worker's counts), and info says how the work moved.
 */
import { resolve, dirname } from 'node:path';
import { createOutputDir, formatDoneSummary, formatInfoFooter, formatInfoHeader, type RunDoneStats } from '../output/index.js';
import type { EngineOptions } from '../engine/options.js';
import type { LoadedProgram, RuntimeChoice } from '../engine/prepare/runtime.js';
import type { SolverBackendName, SolverOptions } from '../solver/index.js';
import type { StatsFilesSetup } from '../engine/parallel/protocol.js';
import { exploreInParallel, ParallelExplorationError } from '../engine/parallel/coordinator.js';
import { formatProfile } from '../engine/parallel/profile.js';
import { UsageError } from './errors.js';
import { consoleText, consoleWrite } from './console.js';

export interface ParallelRunSetup {
  jobs: number;
  input: string;
  bitcode: string;
  outputDir?: string;
  load: RuntimeChoice;
  engine: Partial<EngineOptions>;
  backend: SolverBackendName;
  solver: SolverOptions;
  /** The run's end for solver checks (--max-time plus a grace), as the single-thread run's. */
  solverStopAt?: number;
  statsFiles: StatsFilesSetup;
  /** The program as this thread loaded it (worker 0 runs here, on it). */
  loaded: LoadedProgram;
  /** --jobs-start-after, in ms of CPU (0: every worker at once). */
  startAfterCpuMs: number;
  /** Told the output directory's path once it exists (the caller's errors name it). */
  onOutputDir?: (path: string) => void;
}

/** Options a parallel exploration cannot honour, by the flag that set them. */
export function parallelRefusals(o: Record<string, unknown>): string | null {
  const checks: [boolean, string][] = [
    [o.stateMerging !== undefined && o.stateMerging !== 'none', '--state-merging'],
    [o.useMerge === true, '--use-merge'],
    [o.mergeMode === 'quantified', '--merge-mode=quantified'],
    [o.exitOnError === true, '--exit-on-error'],
    [o.debugPrintInstructions !== undefined, '--debug-print-instructions'],
    [o.replayPath !== undefined, '--replay-path'],
    [o.writeSmt2s === true || o.useQueryLog !== undefined, '--write-smt2s/--use-query-log'],
    [o.debugValidateSolverBackend !== undefined, '--debug-validate-solver-backend'],
    [o.maxForks !== undefined, '--max-forks'],
  ];
  // the workers' solver chains have no output file for the profile
  // a worker adopting a state replays its path from the start: the prefix's output would repeat
  if (o.echoProgramOutput === true) return "--jobs: --echo-program-output is not supported in a parallel exploration (a worker replays an adopted path's prefix, whose output would be shown again); testN.stdout has each path's output";
  if (o.debugIlpPrecheckProfile === true) return '--jobs: --debug-ilp-precheck-profile is not supported in a parallel exploration (the workers write no profile)';
  const bad = checks.find(([b]) => b);
  return bad === undefined ? null : `--jobs: ${bad[1]} is not supported in a parallel exploration (a merged or stopped state's path is not one prefix)`;
}

export async function runParallel(s: ParallelRunSetup): Promise<void> {
  const out = createOutputDir({ outputDir: s.outputDir, base: dirname(resolve(s.input)) });
  s.onOutputDir?.(out.path);
  consoleWrite(`output directory is "${out.path}"`);
  const start = new Date();
  const commandLine = ['tsklee', ...process.argv.slice(2)];
  out.writeInfo(formatInfoHeader({ argv: commandLine, pid: process.pid, start }));
  let interrupted: string | null = null;
  const onSigint = (): void => {
    if (interrupted !== null) process.exit(130);
    interrupted = 'ctrl-c detected, requesting interpreter to halt.';
    consoleWrite(interrupted);
    out.appendMessage(interrupted);
  };
  process.on('SIGINT', onSigint);
  try {
    const r = await exploreInParallel({
      jobs: s.jobs,
      out,
      bitcode: s.bitcode,
      load: s.load,
      engine: s.engine,
      backend: s.backend,
      solver: s.solver,
      ...(s.solverStopAt !== undefined ? { solverStopAt: s.solverStopAt } : {}),
      statsFiles: s.statsFiles,
      shouldStop: () => interrupted,
      loaded: s.loaded,
      startAfterCpuMs: s.startAfterCpuMs,
      onLog: (line, kind) => (kind === 'print' ? process.stderr.write(`${line}\n`) : consoleWrite(line)),
    });
    const sum = (f: (w: (typeof r.workers)[number]) => number): number => r.workers.reduce((a, w) => a + f(w), 0);
    const done: RunDoneStats = {
      forks: sum((w) => w.forks),
      queries: sum((w) => w.backend.checks),
      queriesValid: sum((w) => w.backend.unsat),
      queriesInvalid: sum((w) => w.backend.sat),
      queryCex: sum((w) => w.backend.cex),
      queryConstructs: sum((w) => w.backend.constructs),
      instructions: sum((w) => w.instructions),
      completedPaths: sum((w) => w.completedPaths),
      partiallyCompletedPaths: sum((w) => w.exploredPaths - w.completedPaths),
      generatedTests: sum((w) => w.generatedTests),
    };
    const perWorker = r.workers.map((w, i) => `tsklee: worker ${i}: ${w.completedPaths} completed paths, ${w.instructions} instructions, ${w.given} states given away, ${w.adopted} jobs adopted\ntsklee: worker ${i} time: ${formatProfile(w.profile)}\n`).join('');
    out.writeInfo(
      formatInfoHeader({ argv: commandLine, pid: process.pid, start, searcher: r.searcher }) +
        formatInfoFooter({ start, end: new Date(), haltReason: r.haltReason ?? undefined, done }) +
        r.coverageInfo +
        `tsklee: parallel exploration: ${r.started} worker${r.started === 1 ? '' : 's'}${r.notStarted !== null ? ` (of --jobs=${s.jobs}: ${r.notStarted})` : ''}, ${r.jobsMoved} states handed over, ${r.testsNumbered} tests numbered\n` +
        perWorker,
    );
    process.stderr.write(consoleText(formatDoneSummary(done)));
    if (r.haltReason !== null) consoleWrite(`halted: ${r.haltReason}`);
  } catch (e) {
    if (e instanceof ParallelExplorationError) throw new UsageError(`--jobs: ${e.message}`);
    throw e;
  } finally {
    process.off('SIGINT', onSigint);
    out.close();
  }
}
