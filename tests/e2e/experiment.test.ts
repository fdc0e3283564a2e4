/**
 * `tsklee experiment run|table|plot` end to end (needs `npm run build`): a 2-program ×
 * 2-configuration × 2-repetition matrix runs on 2 cores, keeps each cell's output directory,
 * resumes without rerunning finished cells, and gives the table and the plots.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { tsklee } from '../support/tsklee-cli.js';

let dir: string;

const BRANCHY = `#include <klee/klee.h>
#ifndef N
#define N 2
#endif
int main(void) {
  char b[N];
  klee_make_symbolic(b, sizeof b, "b");
  int k = 0;
  for (int i = 0; i < N; i++) if (b[i] > 'm') k++;
  return k;
}
`;
const DIVIDE = `#include <klee/klee.h>
int main(void) {
  int d;
  klee_make_symbolic(&d, sizeof d, "d");
  if (d > 10) return 100 / (d - 20);
  return 0;
}
`;

const EXPERIMENT = `name: small
repetitions: 2
timeout: 30s
jobs: 2
programs:
  - name: branchy
    source: branchy.c
    sizes: [2, 3]
    cflags: ["-DN={size}"]
  - name: divide
    source: divide.c
configurations:
  - name: dfs
    options: [--search=dfs]
  - name: random
    options: [--search=random-path, "--seed={rep}"]
`;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-experiment-'));
  writeFileSync(join(dir, 'branchy.c'), BRANCHY);
  writeFileSync(join(dir, 'divide.c'), DIVIDE);
  writeFileSync(join(dir, 'small.yaml'), EXPERIMENT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cellJson = (key: string): { status: string; metrics: { completedPaths: number; errors: number }; command: string[] } =>
  JSON.parse(readFileSync(join(dir, 'small-results', 'cells', ...key.split('/'), 'cell.json'), 'utf8'));

describe('tsklee experiment', () => {
  it('runs every cell once, keeps its output directory, and resumes', () => {
    const r = tsklee(['experiment', 'run', 'small.yaml'], dir);
    expect(r.stderr).toContain('[12/12]');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('12 cells, 0 already done, 12 run, 0 failed');
    expect(cellJson('branchy@3/dfs/rep-1').metrics.completedPaths).toBe(8);
    expect(cellJson('branchy@2/random/rep-2').metrics.completedPaths).toBe(4);
    expect(cellJson('divide/dfs/rep-1').metrics.errors).toBe(1);
    expect(cellJson('divide/random/rep-2').command).toContain('--seed=2');
    expect(existsSync(join(dir, 'small-results', 'cells', 'divide', 'dfs', 'rep-2', 'out', 'test000001.ktest'))).toBe(true);
    const again = tsklee(['experiment', 'run', 'small.yaml'], dir);
    expect(again.stdout).toContain('12 cells, 12 already done, 0 run, 0 failed');
    unlinkSync(join(dir, 'small-results', 'cells', 'divide', 'random', 'rep-1', 'cell.json'));
    const third = tsklee(['experiment', 'run', 'small.yaml', '--jobs', '1'], dir);
    expect(third.stdout).toContain('12 cells, 11 already done, 1 run, 0 failed');
  });

  it('tabulates medians with the baseline ratio, as Markdown and CSV', () => {
    const md = tsklee(['experiment', 'table', 'small.yaml', '--metric', 'paths,errors'], dir);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('| program | size | dfs (baseline) | random | random ÷ dfs |');
    expect(md.stdout).toContain('| branchy | 3 | 8 (8–8) | 8 (8–8) | 1.00× |');
    expect(md.stdout).toContain('| divide |  | 1 (1–1) | 1 (1–1) | 1.00× |');
    const csv = tsklee(['experiment', 'table', 'small.yaml', '--format', 'csv', '--metric', 'paths'], dir);
    expect(csv.stdout.split('\n')).toContain('branchy,2,random,paths,,4,4,4,2,0,0,false,1');
  });

  it('draws coverage over time, speed-up over sizes and the scatter, as SVG and PNG', () => {
    const r = tsklee(['experiment', 'plot', 'small.yaml', '--format', 'svg,png', '--output-dir', 'plots'], dir);
    expect(r.code).toBe(0);
    for (const kind of ['coverage', 'speedup', 'scatter']) {
      const svg = readFileSync(join(dir, 'plots', `small-${kind}.svg`), 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).toContain('random');
      const png = readFileSync(join(dir, 'plots', `small-${kind}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(readFileSync(join(dir, 'plots', 'small-coverage.svg'), 'utf8')).toContain('branchy (3)');
    expect(readFileSync(join(dir, 'plots', 'small-speedup.svg'), 'utf8')).toContain('median wall time');
    // CPU seconds instead of wall seconds (steadier on a loaded machine)
    const cpu = tsklee(['experiment', 'plot', 'small.yaml', '--kind', 'speedup,scatter', '--metric', 'cpu', '--output-dir', 'plots-cpu'], dir);
    expect(cpu.code).toBe(0);
    expect(readFileSync(join(dir, 'plots-cpu', 'small-speedup.svg'), 'utf8')).toContain('median user CPU time');
    expect(readFileSync(join(dir, 'plots-cpu', 'small-scatter.svg'), 'utf8')).toContain('user CPU time against dfs');
    const bad = tsklee(['experiment', 'plot', 'small.yaml', '--metric', 'paths'], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('tsklee: error: --metric=paths: expected one of time, cpu, solver\n');
  });

  it('refuses a bad experiment file in one line', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'name: bad\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: a, options: [], colour: 1}]\n');
    const r = tsklee(['experiment', 'run', 'bad.yaml'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("tsklee: error: bad.yaml: configurations[0]: unknown key 'colour'\n");
    const missing = tsklee(['experiment', 'table', 'nothere.yaml'], dir);
    expect(missing.stderr).toBe('tsklee: error: nothere.yaml: cannot read the experiment file (ENOENT)\n');
  });
});
