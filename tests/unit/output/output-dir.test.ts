/** Output directory layout: klee-out-N numbering, klee-last, tests, messages, info, run.stats. */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOutputDir, OutputDir, OutputDirError } from '../../../src/output/output-dir.js';
import { readKTestFile, type KTest } from '../../../src/output/ktest.js';
import { readRunStats, RUN_STATS_COLUMNS } from '../../../src/output/run-stats.js';

let base: string;
const open: OutputDir[] = [];
const make = (opts: Parameters<typeof createOutputDir>[0]): OutputDir => {
  const o = createOutputDir(opts);
  open.push(o);
  return o;
};

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'tsklee-outdir-'));
});
afterEach(() => {
  for (const o of open.splice(0)) o.close();
  rmSync(base, { recursive: true, force: true });
});

const T: KTest = { version: 3, args: ['p.bc'], symArgvs: 0, symArgvLen: 0, objects: [{ name: 'x', bytes: new Uint8Array([5, 0, 0, 0]) }] };

describe('klee-out-N and klee-last', () => {
  test('numbers from 0, takes the first free number, points klee-last at the newest', () => {
    const a = make({ base });
    const b = make({ base });
    const c = make({ base });
    expect([a.path, b.path, c.path]).toEqual([0, 1, 2].map((i) => join(base, `klee-out-${i}`)));
    expect(readlinkSync(join(base, 'klee-last'))).toBe('klee-out-2');
    rmSync(b.path, { recursive: true });
    const d = make({ base });
    expect(d.path).toBe(join(base, 'klee-out-1'));
    expect(d.lastLink).toBe(join(base, 'klee-last'));
    expect(readlinkSync(join(base, 'klee-last'))).toBe('klee-out-1');
    expect(readdirSync(base).sort()).toEqual(['klee-last', 'klee-out-0', 'klee-out-1', 'klee-out-2']);
    for (const o of [a, c, d]) expect(readdirSync(o.path).sort()).toEqual(['messages.txt', 'warnings.txt']);
    expect(readFileSync(d.file('messages.txt'), 'utf8')).toBe(`KLEE: output directory is "${d.path}"\n`);
  });

  test('a plain file in the way of a number is skipped', () => {
    writeFileSync(join(base, 'klee-out-0'), 'not a directory');
    expect(make({ base }).path).toBe(join(base, 'klee-out-1'));
  });

  test('replaces a dangling klee-last; a directory named klee-last only costs a warning', () => {
    symlinkSync('nowhere', join(base, 'klee-last'));
    make({ base });
    expect(readlinkSync(join(base, 'klee-last'))).toBe('klee-out-0');
    rmSync(join(base, 'klee-last'));
    mkdirSync(join(base, 'klee-last'));
    writeFileSync(join(base, 'klee-last', 'keep'), '');
    const o = make({ base });
    expect(o.lastLink).toBeUndefined();
    expect(lstatSync(join(base, 'klee-last')).isDirectory()).toBe(true);
    expect(readFileSync(o.file('warnings.txt'), 'utf8')).toMatch(/^KLEE: WARNING: cannot create klee-last symlink: E\w+: /);
    expect(readdirSync(base).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  test('--output-dir: created as given, no klee-last; an existing one is refused', () => {
    const want = join(base, 'out');
    const o = make({ outputDir: want });
    expect(o.path).toBe(want);
    expect(o.lastLink).toBeUndefined();
    expect(existsSync(join(base, 'klee-last'))).toBe(false);
    expect(() => createOutputDir({ outputDir: want })).toThrow(OutputDirError);
    expect(() => createOutputDir({ outputDir: want })).toThrow(/already exists/);
    expect(() => createOutputDir({ outputDir: join(base, 'no', 'such') })).toThrow(/parent does not exist/);
  });
});

describe('writing a run', () => {
  test('tests are numbered from 1 with KLEE\'s names; errors, early ends and extra files', () => {
    const o = make({ base });
    expect(o.writeTest(T)).toBe(1);
    expect(o.writeTest(T, { errKind: 'ptr', errText: 'Error: memory error: out of bound pointer\n' })).toBe(2);
    expect(o.writeTest(null, { errKind: 'div', errText: 'Error: divide by zero\n' })).toBe(3);
    expect(o.writeTest(T, { early: 'Execution halting.\n', files: { kquery: 'array x[4] : w32 -> w8 = symbolic\n' } })).toBe(4);
    expect(o.nextTestId()).toBe(5);
    expect(o.testsNumbered).toBe(5);
    expect(o.testsGenerated).toBe(3);
    const names = readdirSync(o.path).filter((n) => n.startsWith('test')).sort();
    expect(names).toEqual([
      'test000001.ktest',
      'test000002.ktest',
      'test000002.ptr.err',
      'test000003.div.err',
      'test000004.early',
      'test000004.kquery',
      'test000004.ktest',
    ]);
    expect(readKTestFile(o.testPath(2, 'ktest'))).toEqual(T);
    expect(readFileSync(o.testPath(2, 'ptr.err'), 'utf8')).toBe('Error: memory error: out of bound pointer\n');
    expect(() => o.writeTestFile(1, '../escape', 'x')).toThrow(OutputDirError);
    expect(() => o.writeTest(T, { errKind: 'a/b' })).toThrow(/bad test file suffix/);
  });

  test('messages and warnings are on disk as soon as they are appended', () => {
    const o = make({ base });
    o.appendMessage('HaltTimer invoked');
    o.appendWarning('undefined reference to function: foo');
    o.appendWarning('calling external: bar', 'WARNING ONCE');
    o.appendWarning('oops\n', 'ERROR');
    expect(readFileSync(o.file('messages.txt'), 'utf8').split('\n').slice(1)).toEqual(['KLEE: HaltTimer invoked', '']);
    expect(readFileSync(o.file('warnings.txt'), 'utf8')).toBe(
      'KLEE: WARNING: undefined reference to function: foo\nKLEE: WARNING ONCE: calling external: bar\nKLEE: ERROR: oops\n',
    );
    o.close();
    o.close();
    expect(() => o.appendMessage('late')).toThrow(OutputDirError);
  });

  test('info is replaced whole', () => {
    const o = make({ base });
    o.writeInfo('header\n');
    o.writeInfo('header\nfooter\n');
    expect(readFileSync(o.file('info'), 'utf8')).toBe('header\nfooter\n');
    o.writeInfo({ argv: ['tsklee', 'run', 'p.bc'], pid: 7, start: new Date(2026, 0, 1, 0, 0, 0) });
    expect(readFileSync(o.file('info'), 'utf8')).toBe(
      'tsklee run p.bc\nPID: 7\nUsing monotonic steady clock with 1/1000000000s resolution\nStarted: 2026-01-01 00:00:00\n',
    );
  });

  test('an error kind given with its .err suffix is not doubled', () => {
    const o = make({ base });
    o.writeTest(T, { errKind: 'overshift.err', errText: 'x' });
    expect(readdirSync(o.path).filter((n) => n.endsWith('.err'))).toEqual(['test000001.overshift.err']);
  });
});

describe('run.stats', () => {
  test('an SQLite table "stats" with KLEE\'s columns, readable while the run goes on', async () => {
    const o = make({ base });
    const w = await o.openRunStats({ extraColumns: ['MergedStates'], flushIntervalMs: 60_000 });
    // open writes the (empty) table at once, as KLEE does.
    let r = await readRunStats(o.file('run.stats'));
    expect(r.columns).toEqual([...RUN_STATS_COLUMNS, 'MergedStates']);
    expect(r.rows).toEqual([]);
    w.write({ Instructions: 10, NumStates: 1, WallTime: 1000, UserTime: 900 });
    w.write({ Instructions: 25, NumStates: 3, WallTime: 2000, UserTime: 1800, MergedStates: 2, MallocUsage: 12345678901n });
    w.flush();
    r = await readRunStats(o.file('run.stats'));
    const col = (name: string): number[] => r.rows.map((row) => row[r.columns.indexOf(name)]);
    expect(col('Instructions')).toEqual([10, 25]);
    expect(col('NumStates')).toEqual([1, 3]);
    expect(col('MergedStates')).toEqual([0, 2]);
    expect(col('MallocUsage')).toEqual([0, 12345678901]);
    expect(col('ArrayHashTime')).toEqual([-1, -1]);
    w.write({ Instructions: 40 });
    o.close();
    expect((await readRunStats(o.file('run.stats'))).rows).toHaveLength(3);
    expect(readdirSync(o.path).sort()).toEqual(['messages.txt', 'run.stats', 'warnings.txt']);
  });

  const sqlite3 = spawnSync('sqlite3', ['-version'], { encoding: 'utf8' });
  (sqlite3.status === 0 ? test : test.skip)('the sqlite3 command reads it (as klee-stats would)', async () => {
    const o = make({ base });
    const w = await o.openRunStats();
    w.write({ Instructions: 7, CoveredInstructions: 3, UncoveredInstructions: 4, WallTime: 5_000_000 });
    o.close();
    const r = spawnSync('sqlite3', [o.file('run.stats'), 'PRAGMA integrity_check; SELECT Instructions, CoveredInstructions, WallTime FROM stats;'], {
      encoding: 'utf8',
    });
    expect(r.stdout).toBe('ok\n7|3|5000000.0\n');
  });

  test('bad extra column names are refused', async () => {
    const o = make({ base });
    await expect(o.openRunStats({ extraColumns: ['bad name'] })).rejects.toThrow(/bad column name/);
    await expect(o.openRunStats({ extraColumns: ['Instructions'] })).rejects.toThrow(/given twice/);
  });
});
