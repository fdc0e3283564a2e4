/** The paper's speed-up metric in quantified-debian.mjs's speedups.md, on a hand-made table. */
import { paperSummary, speedups } from '../../../scripts/subjects/lib/speedups.mjs';

type Run = { driver: string; lib: string; bound: number; mode: string; maxTime: string; tsklee: string; cpu: number; halted: boolean; error?: string };
const run = (driver: string, lib: string, bound: number, mode: string, cpu: number, halted = false, error?: string): Run =>
  ({ driver, lib, bound, mode, maxTime: 'cpu:60', tsklee: '', cpu, halted, ...(error === undefined ? {} : { error }) });

// lib a: d1 all finish (BASE 4, CFG 2, PAT 1); d2 BASE stops, PAT 6, CFG 3; d3 all stop (left out);
// d4 PAT stops, BASE 30, CFG errors (left out for CFG). lib b: d5 at bound 100 only.
const runs: Run[] = [
  run('d1', 'a', 50, 'base', 4), run('d1', 'a', 50, 'cfg', 2), run('d1', 'a', 50, 'pat', 1),
  run('d2', 'a', 50, 'base', 61.3, true), run('d2', 'a', 50, 'cfg', 3), run('d2', 'a', 50, 'pat', 6),
  run('d3', 'a', 50, 'base', 60.5, true), run('d3', 'a', 50, 'cfg', 60.2, true), run('d3', 'a', 50, 'pat', 61, true),
  run('d4', 'a', 50, 'base', 30), run('d4', 'a', 50, 'cfg', 1, false, 'exit 1'), run('d4', 'a', 50, 'pat', 62, true),
  run('d5', 'b', 100, 'base', 2), run('d5', 'b', 100, 'cfg', 2), run('d5', 'b', 100, 'pat', 4),
];
const drivers = ['d1', 'd2', 'd3', 'd4'].map((name) => ({ name, lib: 'a' })).concat([{ name: 'd5', lib: 'b' }]);
const cellsOf = (other: string) => drivers.flatMap((d) => [50, 100].map((b) => ({
  lib: d.lib, other,
  pat: runs.find((r) => r.driver === d.name && r.bound === b && r.mode === 'pat'),
  run: runs.find((r) => r.driver === d.name && r.bound === b && r.mode === other),
})));

describe('paperSummary', () => {
  it('averages only over cells where a mode finished, a stop counted at the budget', () => {
    const s = paperSummary([...cellsOf('base'), ...cellsOf('cfg')], 60);
    const a = (other: string) => s.find((x: { lib: string; other: string }) => x.lib === 'a' && x.other === other);
    // BASE: d1 4/1 = 4, d2 60/6 = 10 (lower bound), d4 30/60 = 0.5 (upper bound); d3 left out
    expect(a('base')).toEqual({ lib: 'a', other: 'base', cells: 3, mean: (4 + 10 + 0.5) / 3, median: 4, lower: 1, upper: 1 });
    // CFG: d1 2, d2 0.5; d3 both stopped, d4 an error
    expect(a('cfg')).toEqual({ lib: 'a', other: 'cfg', cells: 2, mean: 1.25, median: 1.25, lower: 0, upper: 0 });
    expect(s.find((x: { lib: string; other: string }) => x.lib === 'b' && x.other === 'base')).toMatchObject({ cells: 1, mean: 0.5, median: 0.5 });
  });

  it('gives no line for a library where every cell stopped', () => {
    const stopped = { cpu: 61, halted: true };
    expect(paperSummary([{ lib: 'c', other: 'base', pat: stopped, run: stopped }], 60)).toEqual([]);
  });
});

describe('speedups.md', () => {
  const md = speedups({ drivers, modes: ['base', 'cfg', 'pat'], bounds: [50, 100], maxTime: 'cpu:60', tag: '', runs });
  it('keeps the both-stopped-as-1× medians and adds the paper metric', () => {
    expect(md).toContain('- a: PAT/BASE median 2.50× over 4 cells'); // 0.48, 1, 4, 10.2
    expect(md).toContain('- a: PAT/BASE mean 4.83×, median 4.00× over 3 cells; 1 lower bound (other stopped), 1 upper bound (PAT stopped)');
    expect(md).toContain('- a: PAT/CFG mean 1.25×, median 1.25× over 2 cells\n');
    expect(md).toContain('- b: PAT/BASE mean 0.50×, median 0.50× over 1 cells');
  });
  it('leaves out the bounds a driver was not run at', () => {
    expect(md).toContain('| d5 | 100 | 2.0 | 2.0 | 4.0 | 0.50× | 0.50× |');
    expect(md).not.toMatch(/\| d5 \| 50 \|/);
    expect(md).not.toMatch(/\| d1 \| 100 \|/);
  });
});
