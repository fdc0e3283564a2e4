/**
 * The hand-written SQLite writer (src/output/sqlite-file.ts) against SQLite itself: every
 * database it writes must read back, through sql.js and through the sqlite3 command, exactly
 * as the same rows inserted by SQLite (sql.js) into the same table, and pass integrity_check.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteTableFile, type SqliteColumn } from '../../../src/output/sqlite-file.js';
import { encodeRecord, type SqliteValue } from '../../../src/output/sqlite-record.js';
import { loadSqlJs, readRunStats, RunStatsWriter, RUN_STATS_COLUMNS } from '../../../src/output/run-stats.js';
import { prng } from '../../support/prng.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-sqlite-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A random value of every kind the writer takes: each integer width, int64 edges and beyond, reals, NaN, NULL. */
function randomValue(rand: () => number): SqliteValue {
  const int = (bits: number): number => Math.floor((rand() - 0.5) * 2 ** bits);
  const big = (): bigint => (BigInt(Math.floor(rand() * 2 ** 32)) << 32n) | BigInt(Math.floor(rand() * 2 ** 32));
  switch (Math.floor(rand() * 20)) {
    case 0: return 0;
    case 1: return 1;
    case 2: return int(8);
    case 3: return int(16);
    case 4: return int(24);
    case 5: return int(32);
    case 6: return int(40);
    case 7: return int(48);
    case 8: return int(53);
    case 9: return big() - 2n ** 63n; // any int64
    case 10: return [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n, -(2n ** 63n) - 1n, 2n ** 70n][Math.floor(rand() * 5)]!;
    case 11: return [2 ** 63, -(2 ** 63), 2 ** 63 - 1024, 2 ** 60, -0, Infinity, -Infinity, 2 ** 32][Math.floor(rand() * 8)]!;
    case 12: return (rand() - 0.5) * 1e6;
    case 13: return (rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20);
    case 14: return NaN;
    case 15: return null;
    default: return Math.floor(rand() * 5_000_000);
  }
}

function columnsOf(n: number, rand: () => number): SqliteColumn[] {
  return Array.from({ length: n }, (_, i) => ({ name: `C${i}`, affinity: rand() < 0.3 ? 'REAL' : 'INTEGER' }));
}

/** The same table filled by SQLite itself, binding values as run-stats.ts once did (a bigint as its decimal text). */
async function referenceDatabase(file: SqliteTableFile, rows: readonly SqliteValue[][]): Promise<Uint8Array> {
  const SQL = (await loadSqlJs()) as unknown as { Database: new () => SqlJsDb };
  const db = new SQL.Database();
  try {
    db.run(file.createSql);
    db.run('BEGIN');
    const insert = db.prepare(`INSERT INTO ${file.table} VALUES (${file.columns.map(() => '?').join(',')})`);
    for (const r of rows) insert.run(r.map((v) => (typeof v === 'bigint' ? v.toString() : v)));
    insert.free();
    db.run('COMMIT');
    return db.export();
  } finally {
    db.close();
  }
}
interface SqlJsDb {
  run(sql: string, params?: unknown[]): void;
  exec(sql: string): { columns: string[]; values: unknown[][] }[];
  prepare(sql: string): { run(params: unknown[]): void; free(): void };
  export(): Uint8Array;
  close(): void;
}

/** Every cell as `typeof:quote`, rows in rowid order, and the schema table, read by sql.js. */
async function readWithSqlJs(bytes: Uint8Array, file: SqliteTableFile): Promise<{ schema: unknown[][]; rows: unknown[][] }> {
  const SQL = (await loadSqlJs()) as unknown as { Database: new (data: Uint8Array) => SqlJsDb };
  const db = new SQL.Database(bytes);
  try {
    const schema = db.exec('SELECT type, name, tbl_name, rootpage, sql FROM sqlite_schema')[0]?.values ?? [];
    const cells = file.columns.map((c) => `typeof(${c.name}) || ':' || quote(${c.name})`).join(', ');
    const rows = db.exec(`SELECT rowid, ${cells} FROM ${file.table} ORDER BY rowid`)[0]?.values ?? [];
    return { schema, rows };
  } finally {
    db.close();
  }
}

const SQLITE3 = 'sqlite3';
function sqlite3(path: string, sql: string): string {
  const r = spawnSync(SQLITE3, [path, sql], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.error !== undefined || r.status === null) {
    throw new Error(`the sqlite3 command is needed (scripts/setup installs it): ${r.error?.message ?? 'killed'}`);
  }
  if (r.status !== 0) throw new Error(`sqlite3 ${path}: ${r.stderr}`);
  return r.stdout;
}

/** Row lists equal; compared as text first (deep equality of 50 000 rows is slow), the first difference shown. */
function expectSameRows(got: readonly unknown[], want: readonly unknown[]): void {
  const text = (r: unknown): string => JSON.stringify(r);
  const g = got.map(text);
  const w = want.map(text);
  const firstDiff = g.findIndex((r, i) => r !== w[i]);
  expect(firstDiff === -1 ? null : { row: firstDiff, got: g[firstDiff], want: w[firstDiff] }).toBeNull();
  expect(g.length).toBe(w.length);
}

/** Writes `rows` with the writer and checks the file against SQLite's own. */
async function checkAgainstSqlite(name: string, columns: SqliteColumn[], rows: SqliteValue[][]): Promise<SqliteTableFile> {
  const file = new SqliteTableFile('stats', columns);
  for (const r of rows) file.append(r);
  const ours = file.image();
  const reference = await referenceDatabase(file, rows);

  // (a) sql.js reads the same schema and the same values, of the same types
  const got = await readWithSqlJs(ours, file);
  const want = await readWithSqlJs(reference, file);
  expect(got.schema).toEqual([['table', 'stats', 'stats', 2, file.createSql]]);
  expect(got.schema).toEqual(want.schema);
  expect(got.rows).toHaveLength(rows.length);
  expectSameRows(got.rows, want.rows);

  // (b) so does the sqlite3 command, which also finds the file sound
  const oursPath = join(dir, `${name}.db`);
  const refPath = join(dir, `${name}.ref.db`);
  writeFileSync(oursPath, ours);
  writeFileSync(refPath, reference);
  expect(sqlite3(oursPath, 'PRAGMA integrity_check')).toBe('ok\n');
  const query = `SELECT * FROM sqlite_schema; SELECT count(*) FROM stats; SELECT rowid, ${columns.map((c) => `typeof(${c.name}), quote(${c.name})`).join(', ')} FROM stats ORDER BY rowid`;
  const cli = sqlite3(oursPath, query);
  expect(cli.split('\n')[1]).toBe(String(rows.length));
  expectSameRows(cli.split('\n'), sqlite3(refPath, query).split('\n'));
  return file;
}

function randomRows(seed: number, nColumns: number, nRows: number): { columns: SqliteColumn[]; rows: SqliteValue[][] } {
  const rand = prng(seed);
  const columns = columnsOf(nColumns, rand);
  const rows = Array.from({ length: nRows }, () => columns.map(() => randomValue(rand)));
  return { columns, rows };
}

test('the sqlite3 command is installed', () => {
  expect(sqlite3(':memory:', 'SELECT 1')).toBe('1\n');
});

describe.each([
  [0, 12],
  [1, 12],
  [30, 63],
  [1000, 63],
])('%i random rows of %i columns', (nRows, nColumns) => {
  test('read back by sql.js and sqlite3 as SQLite wrote them', async () => {
    const { columns, rows } = randomRows(1000 + nRows, nColumns, nRows);
    await checkAgainstSqlite(`r${nRows}`, columns, rows);
  });
});

test('50 000 rows: a B-tree three levels deep, read back as SQLite wrote it', async () => {
  const { columns, rows } = randomRows(50_000, 8, 50_000);
  const file = await checkAgainstSqlite('r50000', columns, rows);
  // page 2 (the root) and its first child are interior pages: the leaves are two levels down
  const image = new DataView(file.image().buffer);
  const pageAt = (n: number): number => (n - 1) * 4096;
  expect(image.getUint8(pageAt(2))).toBe(0x05);
  const firstCell = pageAt(2) + image.getUint16(pageAt(2) + 12);
  expect(image.getUint8(pageAt(image.getUint32(firstCell)))).toBe(0x05);
}, 120_000);

test('SQLite can go on writing the file (insert, delete, vacuum)', () => {
  const file = new SqliteTableFile('stats', [
    { name: 'A', affinity: 'INTEGER' },
    { name: 'B', affinity: 'REAL' },
  ]);
  for (let i = 0; i < 20_000; i++) file.append([i * 7919 - 100_000, i / 3]);
  const path = join(dir, 'modified.db');
  writeFileSync(path, file.image());
  const out = sqlite3(
    path,
    'INSERT INTO stats SELECT * FROM stats; DELETE FROM stats WHERE rowid % 3 = 0; PRAGMA integrity_check; SELECT count(*), sum(A) FROM stats; VACUUM; PRAGMA integrity_check',
  );
  // rows 1..40000 hold A = ((r-1) mod 20000)·7919 - 100000; a third of them (r divisible by 3) deleted
  let count = 0;
  let sum = 0;
  for (let r = 1; r <= 40_000; r++) {
    if (r % 3 === 0) continue;
    count++;
    sum += ((r - 1) % 20_000) * 7919 - 100_000;
  }
  expect(out).toBe(`ok\n${count}|${sum}\nok\n`);
});

test('stored types and values, as SQLite documents them', async () => {
  const cols: SqliteColumn[] = [
    { name: 'I', affinity: 'INTEGER' },
    { name: 'R', affinity: 'REAL' },
  ];
  const file = new SqliteTableFile('stats', cols);
  const rows: SqliteValue[][] = [
    [2 ** 40, 3],
    [-5, 1.5],
    [1.5, NaN],
    [12345678901234567890n, 7n],
    [-(2n ** 63n), null],
  ];
  for (const r of rows) file.append(r);
  const path = join(dir, 'types.db');
  writeFileSync(path, file.image());
  expect(sqlite3(path, 'SELECT typeof(I), I, typeof(R), R FROM stats ORDER BY rowid')).toBe(
    [
      'integer|1099511627776|real|3.0',
      'integer|-5|real|1.5',
      'real|1.5|null|',
      'real|1.23456789012346e+19|real|7.0',
      'integer|-9223372036854775808|null|',
      '',
    ].join('\n'),
  );
});

test('integers take the smallest serial type (0 and 1 none at all), reals serial type 7', () => {
  const values = [0, 1, -1, 127, -128, 128, 32767, 32768, 8388607, 8388608, 2 ** 31 - 1, 2 ** 31, 2 ** 47 - 1, 2 ** 47, -(2n ** 63n), 2.5];
  const rec = encodeRecord(values, values.map(() => 'INTEGER'));
  expect(rec[0]).toBe(1 + values.length); // header length, then one serial type per value
  expect([...rec.subarray(1, 1 + values.length)]).toEqual([8, 9, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
  expect(rec.length).toBe(rec[0]! + [0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4, 6, 6, 8, 8, 8].reduce((a, b) => a + b));
  // in a REAL column every number is a double
  expect([...encodeRecord([0, 1, -7], ['REAL', 'REAL', 'REAL']).subarray(1, 4)]).toEqual([7, 7, 7]);
});

test('a row too large for one page, or a schema too large for page 1, is refused', () => {
  // short names keep the schema on page 1; 460 doubles (9 bytes each with their serial type) do not fit a page
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const shortName = (i: number): string => (i < 52 ? letters[i]! : letters[Math.floor(i / 52) - 1]! + letters[i % 52]!);
  const wide: SqliteColumn[] = Array.from({ length: 460 }, (_, i) => ({ name: shortName(i), affinity: 'REAL' }));
  const file = new SqliteTableFile('stats', wide);
  expect(() => file.append(wide.map(() => 1.5))).toThrow(/needs overflow pages/);
  expect(() => file.append([1])).toThrow(/1 values for 460 columns/);
  expect(file.rowCount).toBe(0);
  const tooMany: SqliteColumn[] = Array.from({ length: 300 }, (_, i) => ({ name: `AVeryLongColumnName${i}`, affinity: 'INTEGER' }));
  expect(() => new SqliteTableFile('stats', tooMany)).toThrow(/does not fit on page 1/);
  expect(() => new SqliteTableFile('stats', [{ name: 'a b', affinity: 'REAL' }])).toThrow(/'a b' is not a plain identifier/);
});

test('run.stats: each flush leaves a complete database, its change counter counting the writes', async () => {
  const path = join(dir, 'run.stats');
  const w = await RunStatsWriter.open(path, { extraColumns: ['MergedStates'], flushIntervalMs: 60_000 });
  const header = (): DataView => new DataView(readFileSync(path).buffer);
  expect(header().getUint32(24)).toBe(1);
  expect((await readRunStats(path)).rows).toEqual([]);
  for (let i = 0; i < 300; i++) w.write({ Instructions: i, WallTime: i * 1000.5, MallocUsage: BigInt(i) << 40n, MergedStates: i % 3 });
  w.flush();
  const h = header();
  expect(h.getUint32(24)).toBe(2);
  expect(h.getUint32(92)).toBe(2); // version-valid-for follows the change counter
  expect(h.getUint32(28)).toBe(readFileSync(path).length / 4096);
  const r = await readRunStats(path);
  expect(r.columns).toEqual([...RUN_STATS_COLUMNS, 'MergedStates']);
  const col = (name: string): number[] => r.rows.map((row) => row[r.columns.indexOf(name)]!);
  expect(col('Instructions')).toEqual(Array.from({ length: 300 }, (_, i) => i));
  expect(col('WallTime')).toEqual(Array.from({ length: 300 }, (_, i) => i * 1000.5));
  expect(col('MallocUsage')).toEqual(Array.from({ length: 300 }, (_, i) => i * 2 ** 40));
  expect(col('ArrayHashTime').every((v) => v === -1)).toBe(true);
  w.close();
  expect(() => w.write({})).toThrow(/write after close/);
  expect(sqlite3(path, 'PRAGMA integrity_check; SELECT count(*), sum(MergedStates), typeof(UserTime) FROM stats')).toBe('ok\n300|300|real\n');
});
