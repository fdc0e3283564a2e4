/**
 * `run.stats`: the running statistics of a run, one row per write interval.
 *
 * Since KLEE 2.1 this file is an SQLite database with one table, `stats`, one column per
 * statistic (names below are KLEE's, so `klee-stats` and scripts that query it work on
 * tsklee's output). Units are KLEE's: times in microseconds (UserTime and WallTime are
 * declared REAL but hold microseconds), MallocUsage in bytes. ArrayHashTime is -1 as in a
 * KLEE built without array debugging. tsklee's own statistics go in extra columns after
 * KLEE's (`extraColumns`).
 *
 * Writing: sqlite-file.ts, a small writer of SQLite's file format, keeps the table in memory
 * and every flush writes the whole file through a temporary file and a rename, so a reader (or
 * a crash) never sees a half-written database. Flushes are rate-limited so that writing the
 * file costs at most ~5% of the run. Reading (readRunStats, for tools and tests) uses sql.js
 * (SQLite compiled to WebAssembly), loaded only then: compiling its wasm cost ~50 ms of every
 * run's start-up when it also wrote the file. (`node:sqlite` does not exist in Node 20;
 * better-sqlite3 needs a native build whose prebuilt binaries come from outside the npm registry.)
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { writeFileAtomic } from './ktest.js';
import { SqliteTableFile } from './sqlite-file.js';
import type { SolverStats } from '../solver/solver.js';

/** KLEE's run.stats columns, in KLEE's order (before tsklee's extra columns). */
export const RUN_STATS_COLUMNS = [
  'Instructions',
  'FullBranches',
  'PartialBranches',
  'NumBranches',
  'UserTime',
  'NumStates',
  'MallocUsage',
  'NumQueries',
  'NumQueryConstructs',
  'WallTime',
  'CoveredInstructions',
  'UncoveredInstructions',
  'QueryTime',
  'SolverTime',
  'CexCacheTime',
  'ForkTime',
  'ResolveTime',
  'QueryCacheMisses',
  'QueryCacheHits',
  'QueryCexCacheMisses',
  'QueryCexCacheHits',
  'InhibitedForks',
  'ExternalCalls',
  'Allocations',
  'States',
  // forks by cause (KLEE's BranchTypes.h)
  'BranchesNONE',
  'BranchesConditionalBranch',
  'BranchesIndirectBranch',
  'BranchesSwitch',
  'BranchesCall',
  'BranchesMemOp',
  'BranchesResolvePointer',
  'BranchesAlloc',
  'BranchesRealloc',
  'BranchesFree',
  'BranchesGetVal',
  // terminated states by class (KLEE's TerminationTypes.h)
  'TerminationExit',
  'TerminationEarly',
  'TerminationSolverError',
  'TerminationProgramError',
  'TerminationUserError',
  'TerminationExecutionError',
  'TerminationEarlyAlgorithm',
  'TerminationEarlyUser',
  'ArrayHashTime',
] as const;

export type RunStatsColumn = (typeof RUN_STATS_COLUMNS)[number];

/** One row: any subset of the columns; missing ones are written as 0 (ArrayHashTime as -1). */
export type RunStatsRow = Partial<Record<RunStatsColumn, number | bigint>> & Record<string, number | bigint | undefined>;

const REAL_COLUMNS = new Set<string>(['UserTime', 'WallTime']);

// The part of sql.js's API used here (sql.js ships no types; @types/sql.js would pull in emscripten's).
interface SqlDatabase {
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  close(): void;
}
interface SqlJs {
  Database: new (data?: Uint8Array) => SqlDatabase;
}

// The WebAssembly global, typed here: the project's libs (ES2022, @types/node 20) omit it.
interface WasmModule {
  readonly __wasmModule?: never;
}
type WasmInstance = object;
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: unknown) => WasmInstance;
};

let sqlJs: Promise<SqlJs> | undefined;

/**
 * Loads sql.js once (its glue code's start-up is asynchronous).
 *
 * SQLite stays in V8's baseline WebAssembly code: left to itself, V8 re-compiles SQLite's two
 * largest functions with its optimizing compiler in the background (~300 ms of CPU), and node
 * waits for that at exit, so every short run took ~0.3 s longer. Reading run.stats takes a
 * few statements, for which baseline code is fast enough.
 */
export function loadSqlJs(): Promise<SqlJs> {
  if (sqlJs === undefined) {
    const require = createRequire(import.meta.url);
    const init = require('sql.js') as (config?: object) => Promise<SqlJs>;
    const wasm = readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'));
    sqlJs = init({
      instantiateWasm: (imports: unknown, done: (instance: WasmInstance) => void) => {
        done(instantiateUnoptimized(wasm, imports));
        return {};
      },
    });
  }
  return sqlJs;
}

/**
 * Compiles and instantiates `wasm` with a tier-up budget so large that V8 practically never
 * optimizes it. V8 gives a module its budget when it compiles it, and this is synchronous,
 * so no other module (z3) is compiled under the raised budget. A budget given to node is kept.
 */
function instantiateUnoptimized(wasm: Uint8Array, imports: unknown): WasmInstance {
  const raise = !tieringBudgetGiven() && setV8Flag(`--wasm-tiering-budget=${2 ** 31 - 1}`);
  try {
    return new WebAssembly.Instance(new WebAssembly.Module(wasm), imports);
  } finally {
    if (raise) setV8Flag(`--wasm-tiering-budget=${V8_DEFAULT_WASM_TIERING_BUDGET}`);
  }
}

/** V8's default for --wasm-tiering-budget (node 20, V8 11.3). */
const V8_DEFAULT_WASM_TIERING_BUDGET = 1_800_000;

/** Whether the user chose a tier-up budget for node, which is then left alone. */
function tieringBudgetGiven(): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((a) => /^--wasm[-_]tiering[-_]budget\b/.test(a));
}

/** Sets a V8 flag; false if this node refuses (then sql.js only costs more CPU). */
function setV8Flag(flag: string): boolean {
  try {
    setFlagsFromString(flag);
    return true;
  } catch {
    return false;
  }
}

const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface RunStatsOptions {
  /** tsklee's own columns (INTEGER), after KLEE's. */
  extraColumns?: readonly string[];
  /** Least time between two writes of the file (default 1000 ms; KLEE writes stats every 1 s). */
  flushIntervalMs?: number;
  /**
   * Write the file after every this many rows instead (KLEE's --stats-commit-after: rows are
   * committed in batches of N), and at close. 0 or absent: by time, as above.
   */
  commitEvery?: number;
}

/**
 * Appends rows to run.stats. `write` is synchronous and cheap (the row is encoded into the
 * in-memory table); the file is rewritten at most every flushIntervalMs, and always by flush/close.
 */
export class RunStatsWriter {
  private lastFlush = 0;
  private minGapMs: number;
  private dirty = false;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly table: SqliteTableFile,
    private readonly flushIntervalMs: number,
    private readonly commitEvery: number,
  ) {
    this.minGapMs = flushIntervalMs;
  }

  private rowsSinceFlush = 0;

  /** Creates the database at `path` (replacing any file there) with the stats table, and writes it. */
  static async open(path: string, opts: RunStatsOptions = {}): Promise<RunStatsWriter> {
    const extra = opts.extraColumns ?? [];
    const known = new Set<string>(RUN_STATS_COLUMNS);
    for (const c of extra) {
      if (!NAME_RE.test(c)) throw new Error(`run.stats: bad column name '${c}'`);
      if (known.has(c)) throw new Error(`run.stats: column '${c}' given twice`);
      known.add(c);
    }
    const columns = [...RUN_STATS_COLUMNS, ...extra].map((name) => ({ name, affinity: REAL_COLUMNS.has(name) ? ('REAL' as const) : ('INTEGER' as const) }));
    const w = new RunStatsWriter(path, new SqliteTableFile('stats', columns), opts.flushIntervalMs ?? 1000, opts.commitEvery ?? 0);
    w.dirty = true;
    w.flush();
    return w;
  }

  /** The column names, KLEE's first. */
  get columnNames(): readonly string[] {
    return this.table.columns.map((c) => c.name);
  }

  /**
   * Adds one row; the file follows at the next allowed flush. Each value is stored as SQLite
   * stores it when sql.js binds it (sqlite-record.ts): a bigint as an integer, NaN as NULL.
   */
  write(row: RunStatsRow): void {
    if (this.closed) throw new Error('run.stats: write after close');
    this.table.append(this.table.columns.map(({ name }) => row[name] ?? (name === 'ArrayHashTime' ? -1 : 0)));
    this.dirty = true;
    this.rowsSinceFlush++;
    if (this.commitEvery > 0 ? this.rowsSinceFlush >= this.commitEvery : Date.now() - this.lastFlush >= this.minGapMs) this.flush();
  }

  /** Writes the database file now (atomically), if anything changed since the last write. */
  flush(): void {
    if (!this.dirty) return;
    const t0 = Date.now();
    writeFileAtomic(this.path, this.table.image());
    const now = Date.now();
    this.lastFlush = now;
    this.dirty = false;
    this.rowsSinceFlush = 0;
    // Keep flushing to at most ~5% of the time: a large database is written less often.
    this.minGapMs = Math.max(this.flushIntervalMs, 20 * (now - t0));
  }

  /** Flushes; later writes are refused. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
  }
}

/** The rows of a run.stats file (KLEE's or tsklee's), for tools and tests. */
export async function readRunStats(path: string): Promise<{ columns: string[]; rows: number[][] }> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database(readFileSync(path));
  try {
    const res = db.exec('SELECT * FROM stats ORDER BY rowid');
    if (res.length === 0) {
      const cols = db.exec('PRAGMA table_info(stats)');
      return { columns: cols.length > 0 ? cols[0].values.map((r) => String(r[1])) : [], rows: [] };
    }
    return { columns: res[0].columns, rows: res[0].values.map((r) => r.map((v) => Number(v))) };
  } finally {
    db.close();
  }
}

/**
 * The solver chain's counters (Solver.stats(), outermost layer first, the backend last) as
 * run.stats values: KLEE's columns where KLEE has the statistic (lib/Solver/SolverStats.cpp,
 * TimingSolver), and one Queries/Hits/Time triple per layer in tsklee's own columns.
 *
 *   NumQueries            queries the backend had to solve (KLEE's stats::queries, counted in the core solver)
 *   QueryTime             time in the backend (stats::queryTime)
 *   SolverTime            time in the whole chain (stats::solverTime, TimingSolver), except the
 *                         fast layers' answers read off interval sets (~1 µs each: counted as
 *                         queries and hits, not timed, since two clock reads cost a tenth of one)
 *   CexCacheTime          time in the counterexample cache and below
 *   QueryCacheHits/Misses the branch (query) cache; QueryCexCacheHits/Misses the counterexample cache
 *   SolverLayer<Name>Queries/Hits/Time   every layer, <Name> from its name (query-cache → QueryCache);
 *                         the backend is SolverLayerBackend… whichever solver it is
 * Times in microseconds, as KLEE's.
 */
export function solverStatsColumns(layers: readonly SolverStats[]): string[] {
  const names = layerColumnNames(layers);
  return layers.flatMap((l, i) => {
    const n = names[i]!;
    return [`SolverLayer${n}Queries`, `SolverLayer${n}Hits`, `SolverLayer${n}Time`, ...cacheColumns(l, n)];
  });
}

/** A caching layer's columns: its entries, evictions and (z3) reused translations. */
function cacheColumns(l: SolverStats, n: string): string[] {
  const cols: string[] = [];
  if (l.entries !== undefined) cols.push(`SolverLayer${n}Entries`);
  if (l.evicted !== undefined) cols.push(`SolverLayer${n}Evicted`);
  if (l.cacheHits !== undefined) cols.push(`SolverLayer${n}CacheHits`);
  if (l.rewrites !== undefined) cols.push(`SolverLayer${n}Rewrites`);
  if (l.readsRemoved !== undefined) cols.push(`SolverLayer${n}ReadsRemoved`);
  return cols;
}

export function solverStatsRow(layers: readonly SolverStats[]): RunStatsRow {
  const row: RunStatsRow = {};
  const us = (ms: number): number => Math.round(ms * 1000);
  const names = layerColumnNames(layers);
  layers.forEach((l, i) => {
    const n = names[i]!;
    row[`SolverLayer${n}Queries`] = l.queries;
    row[`SolverLayer${n}Hits`] = l.hits;
    row[`SolverLayer${n}Time`] = us(l.timeMs);
    if (l.entries !== undefined) row[`SolverLayer${n}Entries`] = l.entries;
    if (l.evicted !== undefined) row[`SolverLayer${n}Evicted`] = l.evicted;
    if (l.cacheHits !== undefined) row[`SolverLayer${n}CacheHits`] = l.cacheHits;
    if (l.rewrites !== undefined) row[`SolverLayer${n}Rewrites`] = l.rewrites;
    if (l.readsRemoved !== undefined) row[`SolverLayer${n}ReadsRemoved`] = l.readsRemoved;
  });
  const backend = layers[layers.length - 1];
  if (backend !== undefined) {
    row.NumQueries = backend.queries - backend.hits;
    row.QueryTime = us(backend.timeMs);
    row.SolverTime = us(layers[0]!.timeMs);
  }
  const byName = (name: string): SolverStats | undefined => layers.find((l) => l.layer === name);
  const qc = byName('query-cache');
  if (qc !== undefined) {
    row.QueryCacheHits = qc.hits;
    row.QueryCacheMisses = qc.queries - qc.hits;
  }
  const cex = byName('cex-cache');
  if (cex !== undefined) {
    row.QueryCexCacheHits = cex.hits;
    row.QueryCexCacheMisses = cex.queries - cex.hits;
    row.CexCacheTime = us(cex.timeMs);
  }
  return row;
}

/** A column-name part per layer, unique (a repeated layer gets its position appended). */
function layerColumnNames(layers: readonly SolverStats[]): string[] {
  const seen = new Set<string>();
  return layers.map((l, i) => {
    let n =
      i === layers.length - 1
        ? 'Backend'
        : l.layer
            .split(/[^A-Za-z0-9]+/)
            .filter((p) => p !== '')
            .map((p) => p[0]!.toUpperCase() + p.slice(1))
            .join('');
    if (n === '' || seen.has(n)) n = `${n}${i}`;
    seen.add(n);
    return n;
  });
}
