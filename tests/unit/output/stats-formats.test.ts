/**
 * The statistics formats on their own: klee-stats' table formats and derived columns,
 * run.istats written and read back, lcov tracefiles, and run.stats' --stats-commit-after.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { Real, renderTable } from '../../../src/output/text-table.js';
import { columnOfName, derive, rowAtOrBefore, statsRecord, stripCommonPrefix, totalRecord } from '../../../src/output/klee-stats.js';
import { formatIStats, parseIStats } from '../../../src/output/istats.js';
import { formatLcov } from '../../../src/output/lcov.js';
import { readRunStats, RunStatsWriter } from '../../../src/output/run-stats.js';

describe('table formats', () => {
  const headers = ['Path', 'Instrs', 'ICov(%)'];
  const rows = [
    ['a', 12, new Real(100)],
    ['bb', 3456, new Real(12.345)],
  ];

  it('klee: dashes around, bars between cells, columns at least their header plus two', () => {
    expect(renderTable(headers, rows, 'klee')).toBe(
      [
        '---------------------------',
        '| Path |  Instrs|  ICov(%)|',
        '---------------------------',
        '|  a   |      12|   100.00|',
        '|  bb  |    3456|    12.35|',
        '---------------------------',
        '',
      ].join('\n'),
    );
  });

  it('pipe, latex and csv', () => {
    expect(renderTable(headers, rows, 'pipe').split('\n').slice(0, 3)).toEqual(['|  Path  |   Instrs |   ICov(%) |', '|:------:|---------:|----------:|', '|   a    |       12 |    100.00 |']);
    expect(renderTable(['Path', 'x_y'], [['p%', 1]], 'latex')).toContain('p\\% & 1 \\\\');
    expect(renderTable(['Path', 'n'], [['a,"b"', 1.5]], 'csv', 1)).toBe('Path,n\n"a,""b""",1.5\n');
  });
});

describe('klee-stats records', () => {
  const data = {
    columns: ['Instructions', 'FullBranches', 'PartialBranches', 'NumBranches', 'WallTime', 'SolverTime', 'NumStates', 'MallocUsage', 'CoveredInstructions', 'UncoveredInstructions', 'NumQueries', 'NumQueryConstructs'],
    rows: [
      [0, 0, 0, 4, 0, 0, 1, 1048576, 0, 40, 0, 0],
      [500, 1, 2, 4, 2_000_000, 500_000, 3, 3 * 1048576, 30, 10, 4, 42],
    ],
  };

  it('derives ICount, ICov, BCov, relative times and averages as klee-stats does', () => {
    const r = statsRecord(data);
    expect(r['ICount']).toBe(40);
    expect(r['ICov']).toBe(75);
    expect(r['BCov']).toBe(50); // (2·1 + 2) / (2·4)
    expect(r['WallTime']).toBe(2);
    expect(r['RelSolverTime']).toBe(25);
    expect(r['AvgQC']).toBe(10);
    expect(r['maxStates']).toBe(3);
    expect(r['avgStates']).toBe(2);
    expect(r['maxMem']).toBe(3);
    expect(r['MallocUsage']).toBe(3);
    // straight-line code: 100% branch coverage
    expect(derive({ FullBranches: 0, PartialBranches: 0, NumBranches: 0 })['BCov']).toBe(100);
  });

  it('compares at a column value, sums several runs, and strips common path prefixes', () => {
    expect(rowAtOrBefore(data, 'Instructions', 499)).toBe(0);
    expect(rowAtOrBefore(data, 'Instructions', 500)).toBe(1);
    expect(columnOfName('Instrs', data.columns)).toBe('Instructions');
    expect(columnOfName('Time(s)', data.columns)).toBe('WallTime');
    expect(() => columnOfName('Nope', data.columns)).toThrow(/unknown column 'Nope'/);
    const t = totalRecord([data, data]);
    expect(t['Instructions']).toBe(1000);
    expect(t['ICov']).toBe(75);
    expect(stripCommonPrefix(['/x/y/klee-out-0', '/x/y/klee-out-1'])).toEqual(['klee-out-0', 'klee-out-1']);
  });
});

describe('run.istats', () => {
  it('reads back what it wrote: sums per line and function, inlined files under their own name', () => {
    const text = formatIStats({
      pid: 7,
      cmd: 'p.bc',
      objectFile: 'assembly.ll',
      events: [
        { short: 'I', long: 'Instructions' },
        { short: 'Icov', long: 'CoveredInstructions' },
      ],
      functions: [
        {
          name: 'main',
          file: '/s/p.c',
          lines: [
            { file: '/s/p.c', instr: 10, line: 3, costs: [5, 1] },
            { file: '/s/h.h', instr: 11, line: 9, costs: [2, 1] },
            { file: '/s/p.c', instr: 12, line: 3, costs: [5, 1] },
          ],
        },
      ],
    });
    expect(text).toContain('positions: instr line\nevent: I : Instructions\nevent: Icov : CoveredInstructions\nevents: I Icov\nob=assembly.ll\nfl=/s/p.c\nfn=main\n10 3 5 1\nfi=/s/h.h\n11 9 2 1\nfe=/s/p.c\n12 3 5 1\ntotals: 12 3\n');
    const p = parseIStats(text);
    expect(p.events).toEqual(['I', 'Icov']);
    expect(p.byLine.get('/s/p.c:3')).toEqual([10, 2]);
    expect(p.byLine.get('/s/h.h:9')).toEqual([2, 1]);
    expect(p.byFunction.get('main')).toEqual([12, 3]);
    expect(() => parseIStats('fn=x\n1 2 3\n')).toThrow(/before the events line/);
  });
});

describe('coverage.lcov', () => {
  it('writes lcov records', () => {
    const text = formatLcov('my-prog', [
      {
        path: '/s/p.c',
        functions: [{ name: 'main', line: 2, hits: 1 }],
        lines: [
          { line: 3, hits: 4 },
          { line: 4, hits: 0 },
        ],
        branches: [
          { line: 3, block: 0, branch: 0, taken: 4 },
          { line: 3, block: 0, branch: 1, taken: 0 },
          { line: 4, block: 0, branch: 0, taken: null },
        ],
      },
    ]);
    expect(text).toBe(
      'TN:my_prog\nSF:/s/p.c\nFN:2,main\nFNDA:1,main\nFNF:1\nFNH:1\nBRDA:3,0,0,4\nBRDA:3,0,1,0\nBRDA:4,0,0,-\nBRF:3\nBRH:1\nDA:3,4\nDA:4,0\nLF:2\nLH:1\nend_of_record\n',
    );
  });
});

describe('run.stats --stats-commit-after', () => {
  it('writes the file every N rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsklee-commit-'));
    try {
      const path = join(dir, 'run.stats');
      const w = await RunStatsWriter.open(path, { commitEvery: 3 });
      w.write({ Instructions: 1 });
      w.write({ Instructions: 2 });
      expect((await readRunStats(path)).rows).toHaveLength(0);
      w.write({ Instructions: 3 });
      expect((await readRunStats(path)).rows.map((r) => r[0])).toEqual([1, 2, 3]);
      w.write({ Instructions: 4 });
      expect((await readRunStats(path)).rows).toHaveLength(3);
      w.close();
      expect((await readRunStats(path)).rows).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
