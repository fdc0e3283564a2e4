/**
 * Paper 002's pre-check over z3's own arrays and the store-chain baseline, from the command
 * line: the digest's T1 (a[i] + a[j] > 10 infeasible) answered by the pre-check with the
 * backend encoding, its profile file, the store-chain encoding's equal paths and tests, and
 * the options' one-line errors.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';

let dir: string;
let bc: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-arrays-precheck-'));
  bc = compileProgram(dir, 't1', readFileSync(fileURLToPath(new URL('../../bench/arrays/t1_precheck.c', import.meta.url)), 'utf8'));
});

function run(options: string[], expectCode = 0): OutDir & { stderr: string; out: string } {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '--search=dfs', `--output-dir=${out}`, '--use-fast-solver=false', ...options, bc], dir);
  if (r.code !== expectCode) throw new Error(`tsklee ${options.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return { ...(expectCode === 0 ? readOutDir(out) : ({} as OutDir)), stderr: r.stderr, out };
}

function stat(out: string, column: string): number {
  const r = spawnSync('sqlite3', [join(out, 'run.stats'), `select ${column} from stats order by rowid desc limit 1`], { encoding: 'utf8' });
  return Number(r.stdout.trim());
}

describe('--ilp-precheck over --array-encoding=backend', () => {
  it('answers T1 UNSAT itself, writes the profile, and explores the same 2 paths', () => {
    const plain = run([]);
    const pre = run(['--ilp-precheck', '--debug-ilp-precheck-profile']);
    expect(pre.tests).toBe(plain.tests);
    expect(stat(pre.out, 'States')).toBe(2);
    expect(stat(pre.out, 'SolverLayerIlpPrecheckHits')).toBeGreaterThanOrEqual(1);
    const profile = pre.read('ilp-precheck.txt').trim().split('\n');
    expect(profile.some((l) => / verdict=unsat$/.test(l))).toBe(true);
    for (const l of profile) expect(l).toMatch(/^ilp-precheck q=\d+ \w+ (vars=\d+ rows=\d+ nonzeros=\d+ reads=\d+ ilp=[\w-]+|size=cached) analyses=\d+ cached=\d+ /);
  });

  it('with the store-chain baseline: the same paths and tests', () => {
    const chain = run(['--z3-constant-arrays=store-chain', '--ilp-precheck']);
    expect(stat(chain.out, 'States')).toBe(2);
    expect(chain.tests).toBe(2);
  });
});

describe('one-line errors', () => {
  it.each([
    [['--z3-constant-arrays=stp'], /--z3-constant-arrays=stp: expected one of lambda, store-chain/],
    [['--debug-ilp-precheck-profile'], /--debug-ilp-precheck-profile: needs --ilp-precheck/],
    [['--ilp-precheck', '--ilp-precheck-min-hit-rate=2'], /--ilp-precheck-min-hit-rate=2: expected a fraction in \[0, 1\]/],
    [['--ilp-precheck', '--ilp-precheck-time=0'], /--ilp-precheck-time=0: expected milliseconds > 0/],
  ])('%j', (options, message) => {
    const r = run(options as string[], 1);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
