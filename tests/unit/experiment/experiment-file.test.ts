/**
 * The experiment file: schema errors are one line naming the place; the matrix expands
 * programs × sizes × configurations × repetitions with {size} and {rep} substituted; the
 * table takes medians, ranges and ratios from the cells' results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ExperimentFileError, expandPath, parseExperiment, type Experiment } from '../../../src/experiment/experiment-file.js';
import { cells, programInstances } from '../../../src/experiment/matrix.js';
import { writeCellResult, cellSignature } from '../../../src/experiment/results.js';
import { aggregate, csvTable, markdownTable, median, METRICS, ratioText } from '../../../src/experiment/table.js';
import type { CellMetrics } from '../../../src/experiment/cell.js';

const GOOD = `
name: sweep
repetitions: 3
timeout: 30s
options: [--search=dfs]
programs:
  - name: echo
    source: progs/echo.c
    sizes: [1, 2]
    cflags: ["-DN={size}"]
    args: [--sym-arg, "{size}"]
  - name: cut
    bitcode: /abs/cut.bc
configurations:
  - { name: none, options: [] }
  - { name: static, options: [--state-merging=static, "--seed={rep}"] }
`;

function errorOf(text: string, file = 'x.yaml'): string {
  try {
    parseExperiment(text, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ExperimentFileError);
    return (e as Error).message;
  }
  throw new Error('accepted');
}

describe('experiment file', () => {
  it('loads YAML and JSON alike, paths relative to the file', () => {
    const x = parseExperiment(GOOD, '/data/exp/sweep.yaml');
    expect(x.programs[0]!.source).toBe('/data/exp/progs/echo.c');
    expect(x.outputDir).toBe('/data/exp/sweep-results');
    expect(x.baseline).toBe('none');
    const j = parseExperiment(JSON.stringify({ name: 'j', programs: [{ name: 'p', bitcode: 'p.bc' }], configurations: [{ name: 'a', options: [] }] }), '/d/j.json');
    expect(j.repetitions).toBe(1);
    expect(j.programs[0]!.bitcode).toBe('/d/p.bc');
  });

  it('says in one line what is wrong, and where', () => {
    const cases: [string, RegExp][] = [
      ['name: a\nprograms: []\nconfigurations: [{name: x, options: []}]', /^x\.yaml: programs: must NOT have fewer than 1 items$/],
      ['name: a\nprograms: [{name: p, source: p.c, colour: red}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: programs\[0\]: unknown key 'colour'$/],
      ['name: a\nprograms: [{name: p}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: programs\[0\]: needs 'source'/],
      ['name: a\nprograms: [{name: p, source: p.c, bitcode: p.bc}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: programs\[0\]: needs 'source' .* not both$/],
      ['name: a\nprograms: [{name: p, source: p.txt}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: programs\[0\]\.source: expected a \.c file$/],
      ['name: a\nrepetitions: 0\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: repetitions: must be >= 1$/],
      ['name: a\ntimeout: soon\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: timeout: expected a time span/],
      ['name: a b\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: name: 'a b' is not a name/],
      ['name: a\nbaseline: y\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x, options: []}]', /^x\.yaml: baseline 'y' is not one of the configurations \(x\)$/],
      ['name: a\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x, options: []}, {name: x, options: []}]', /^x\.yaml: two configurations are named 'x'$/],
      ['name: a\nprograms: [{name: p, source: p.c}]\nconfigurations: [{name: x}]', /^x\.yaml: configurations\[0\]: missing 'options'$/],
      ['name: [a\n', /^x\.yaml:\d+:\d+: not valid YAML \(Flow sequence/],
    ];
    for (const [text, re] of cases) {
      const msg = errorOf(text);
      expect(msg).toMatch(re);
      expect(msg).not.toContain('\n');
    }
    expect(errorOf('{"name": ', 'x.json')).toMatch(/^x\.json: not valid JSON/);
  });
});

describe('program paths', () => {
  it('expand ~ and ${VAR:-default}', () => {
    process.env.TSKLEE_TEST_SUBJECTS = '/cache';
    expect(expandPath('${TSKLEE_TEST_SUBJECTS}/x.bc', 'f')).toBe('/cache/x.bc');
    expect(expandPath('${TSKLEE_TEST_UNSET:-~/.c}/x.bc', 'f')).toBe(`${homedir()}/.c/x.bc`);
    expect(() => expandPath('${TSKLEE_TEST_UNSET}/x.bc', 'f.yaml')).toThrow("f.yaml: ${TSKLEE_TEST_UNSET} in '${TSKLEE_TEST_UNSET}/x.bc' is not set");
    delete process.env.TSKLEE_TEST_SUBJECTS;
  });
});

describe('matrix', () => {
  it('expands sizes, configurations and repetitions, substituting {size} and {rep}', () => {
    const x = parseExperiment(GOOD, '/data/exp/sweep.yaml');
    expect(programInstances(x).map((i) => i.key)).toEqual(['echo@1', 'echo@2', 'cut']);
    const all = cells(x);
    expect(all).toHaveLength(3 * 2 * 3);
    const c = all.find((k) => k.key === 'echo@2/static/rep-3')!;
    expect(c.options).toEqual(['--search=dfs', '--state-merging=static', '--seed=3', '--max-time=30s']);
    expect(c.args).toEqual(['--sym-arg', '2']);
    expect(c.instance.cflags).toContain('-DN=2');
    expect(c.killAfterSeconds).toBe(90);
  });
});

describe('table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tsklee-exp-table-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes small ratios with two significant digits, not as 0.00', () => {
    expect([ratioText(0.00027), ratioText(0.11), ratioText(1), ratioText(12.345), ratioText(0)]).toEqual(['0.00027', '0.11', '1.00', '12.35', '0.00']);
  });

  const metrics = (paths: number, finished = true): CellMetrics => ({
    cpuSeconds: 1,
    runSeconds: 1,
    completedPaths: paths,
    exploredPaths: paths,
    tests: paths,
    instructions: 100,
    queries: 3,
    solverSeconds: 0.1,
    icov: 50,
    lineCoverage: 60,
    branchCoverage: 40,
    errors: 0,
    finished,
    haltReason: finished ? null : 'HaltTimer invoked',
  });

  it('gives medians, ranges and ratios to the baseline; a failed cell is counted, not averaged', () => {
    const x: Experiment = { ...parseExperiment(GOOD, join(dir, 'sweep.yaml')), programs: [{ name: 'p', bitcode: '/p.bc' }] };
    const times: Record<string, number[]> = { none: [4, 2, 3], static: [1, 1.5, 0.5] };
    for (const cell of cells(x)) {
      const t = times[cell.config.name]![cell.repetition - 1]!;
      const failed = cell.config.name === 'static' && cell.repetition === 3;
      writeCellResult(x, cell, {
        key: cell.key,
        status: failed ? 'failed' : 'ok',
        command: [],
        exitCode: failed ? 2 : 0,
        signal: null,
        wallSeconds: t,
        startedAt: '',
        host: '',
        runner: 'local',
        attempts: 1,
        metrics: failed ? null : metrics(10 * cell.repetition, cell.repetition !== 2),
        signature: cellSignature(cell, '/p.bc'),
      });
    }
    const time = aggregate(x, METRICS.time!);
    const none = time.find((a) => a.config === 'none')!;
    const st = time.find((a) => a.config === 'static')!;
    expect([none.median, none.min, none.max, none.missing]).toEqual([3, 2, 4, 0]);
    expect([st.median, st.values.length, st.missing]).toEqual([1.25, 2, 1]);
    const md = markdownTable(x, 'time');
    expect(md).toContain('| p | 3.00+ (2.00–4.00) | 1.25+ (1.00–1.50) [1 failed] | 0.42× |');
    const csv = csvTable(x, ['paths']).trim().split('\n');
    expect(csv[0]).toBe('program,size,configuration,metric,unit,median,min,max,repetitions,failed,not_run,unfinished,ratio_to_baseline');
    expect(csv[1]).toBe('p,,none,paths,,20,10,30,3,0,0,true,1');
    expect(csv[2]).toBe('p,,static,paths,,15,10,20,2,1,0,true,0.75');
    expect(median([5, 1, 3, 2])).toBe(2.5);
  });

  it('tells cells not run yet from failed ones', () => {
    const x: Experiment = { ...parseExperiment(GOOD, join(dir, 'fresh', 'sweep.yaml')), programs: [{ name: 'q', bitcode: '/q.bc' }] };
    expect(markdownTable(x, 'paths')).toContain('| q | not run | not run |  |');
    expect(csvTable(x, ['paths']).split('\n')[1]).toBe('q,,none,paths,,,,,0,0,3,false,');
  });
});
