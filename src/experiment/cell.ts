/**
 * One cell: `tsklee run` on the cell's program and options, as a child process (a crash or a
 * runaway run costs the cell, never the runner), its output directory kept as `out/` beside
 * `cell.json`, the cell's result. The numbers come from the output directory (info's `done`
 * lines, run.stats' last row, the .err files), so a cell run on another machine and copied
 * back reads the same.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readRunStats } from '../output/run-stats.js';
import { packageRoot } from '../util/package-root.js';
import type { Cell } from './matrix.js';

export interface CellMetrics {
  /** User CPU seconds of the tsklee process (run.stats' UserTime). */
  cpuSeconds: number | null;
  /** Seconds from the run's start to its last run.stats row (run.stats' WallTime). */
  runSeconds: number | null;
  completedPaths: number;
  exploredPaths: number;
  tests: number;
  instructions: number;
  /** Checks the solver backend ran (run.stats' NumQueries). */
  queries: number;
  solverSeconds: number | null;
  /** Instruction coverage of everything linked (KLEE's ICov), %. */
  icov: number | null;
  /** Line and branch-side coverage of the program's own source, %. */
  lineCoverage: number | null;
  branchCoverage: number | null;
  errors: number;
  /** Every path was explored (no halt). */
  finished: boolean;
  haltReason: string | null;
}

export interface CellResult {
  key: string;
  status: 'ok' | 'failed' | 'dead';
  /** The command as run (`tsklee run …`), so a changed experiment file reruns the cell. */
  command: string[];
  exitCode: number | null;
  signal: string | null;
  /** Wall seconds of the child process. */
  wallSeconds: number;
  startedAt: string;
  host: string;
  /** Who ran it: `local`, or the queue worker's name. */
  runner: string;
  /** Tries it took (the queue retries a crashed cell once). */
  attempts: number;
  /** Why it failed: the last line tsklee wrote on stderr, or the signal. */
  error?: string;
  metrics: CellMetrics | null;
}

/** What running a cell needs (a queue worker gets this much, not the whole matrix). */
export type CellJob = Pick<Cell, 'key' | 'options' | 'args' | 'killAfterSeconds'>;

/**
 * tsklee run's arguments for a cell (after `run`). The program's output is not echoed (a
 * cell's log would hold every path's writes; testN.stdout has them) unless the cell asks.
 */
export function cellCommand(cell: CellJob, bitcode: string, outDir: string): string[] {
  const echo = cell.options.some((o) => /^--?(no-)?echo-program-output/.test(o)) ? [] : ['--no-echo-program-output'];
  return ['run', `--output-dir=${outDir}`, ...echo, ...cell.options, bitcode, ...cell.args];
}

/** The node and script that run tsklee (the launcher of this package). */
export function tskleeExecutable(): string[] {
  return [process.execPath, join(packageRoot(import.meta.url), 'dist', 'cli', 'launch.cjs')];
}

const pct = (a: number, b: number): number | null => (b > 0 ? (100 * a) / b : null);

/** The cell's numbers from a finished output directory. */
export async function readCellMetrics(outDir: string): Promise<CellMetrics | null> {
  const infoPath = join(outDir, 'info');
  if (!existsSync(infoPath)) return null;
  const info = readFileSync(infoPath, 'utf8');
  const done: Record<string, number> = {};
  for (const m of info.matchAll(/^KLEE: done: (.*?) = (\d+)$/gm)) done[m[1]!] = Number(m[2]);
  const halt = /^Halted: (.*)$/m.exec(info)?.[1] ?? null;
  let row: Record<string, number> = {};
  if (existsSync(join(outDir, 'run.stats'))) {
    const stats = await readRunStats(join(outDir, 'run.stats'));
    const last = stats.rows.at(-1);
    if (last !== undefined) row = Object.fromEntries(stats.columns.map((c, i) => [c, last[i]!]));
  }
  const has = (c: string): boolean => row[c] !== undefined;
  const errors = readdirSync(outDir).filter((f) => /^test\d+\..*\.err$/.test(f)).length;
  return {
    cpuSeconds: has('UserTime') ? row.UserTime! / 1e6 : null,
    runSeconds: has('WallTime') ? row.WallTime! / 1e6 : null,
    completedPaths: done['completed paths'] ?? 0,
    exploredPaths: done['explored paths'] ?? 0,
    tests: done['generated tests'] ?? 0,
    instructions: done['total instructions'] ?? 0,
    queries: has('NumQueries') ? row.NumQueries! : (done['total queries'] ?? 0),
    solverSeconds: has('SolverTime') ? row.SolverTime! / 1e6 : null,
    icov: has('CoveredInstructions') ? pct(row.CoveredInstructions!, row.CoveredInstructions! + row.UncoveredInstructions!) : null,
    lineCoverage: has('ProgramLines') ? pct(row.ProgramCoveredLines!, row.ProgramLines!) : null,
    branchCoverage: has('ProgramBranchSides') ? pct(row.ProgramCoveredBranchSides!, row.ProgramBranchSides!) : null,
    errors,
    finished: halt === null,
    haltReason: halt,
  };
}

export interface RunCellOptions {
  /** Who runs it (cell.json's runner). */
  runner?: string;
  attempts?: number;
  /** Called with the child once it runs (a queue worker keeps it to stop it). */
  onChild?: (pid: number) => void;
}

/**
 * Runs the cell into `dir` (dir/out is the output directory; an old one is removed first) and
 * returns its result; never throws for a failing run (status 'failed').
 */
export async function runCell(cell: CellJob, bitcode: string, dir: string, opts: RunCellOptions = {}): Promise<CellResult> {
  const outDir = join(dir, 'out');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = cellCommand(cell, bitcode, outDir);
  const [node, launcher] = tskleeExecutable();
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  const { code, signal, stderr } = await new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    const child = spawn(node!, [launcher!, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_EXTRA_CA_CERTS: '' } });
    if (child.pid !== undefined) opts.onChild?.(child.pid);
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      err = (err + d).slice(-8192);
    });
    const timer = cell.killAfterSeconds === null ? null : setTimeout(() => child.kill('SIGKILL'), cell.killAfterSeconds * 1000);
    child.on('error', (e) => {
      if (timer !== null) clearTimeout(timer);
      resolve({ code: null, signal: null, stderr: e.message });
    });
    child.on('close', (c, s) => {
      if (timer !== null) clearTimeout(timer);
      resolve({ code: c, signal: s, stderr: err });
    });
  });
  const wallSeconds = (performance.now() - t0) / 1000;
  const metrics = code === 0 ? await readCellMetrics(outDir) : null;
  const lastLine = stderr.trim().split('\n').filter((l) => l.trim() !== '').at(-1);
  const ok = code === 0 && metrics !== null;
  return {
    key: cell.key,
    status: ok ? 'ok' : 'failed',
    command: ['tsklee', ...args],
    exitCode: code,
    signal,
    wallSeconds,
    startedAt,
    host: hostname(),
    runner: opts.runner ?? 'local',
    attempts: opts.attempts ?? 1,
    ...(ok ? {} : { error: signal !== null ? `killed by ${signal}` : (lastLine ?? `exit status ${code}`) }),
    metrics,
  };
}
