/**
 * --debug-validate-solver with the native z3 process as the oracle
 * (--debug-validate-solver-backend=z3-native) over a representative subset of the engine
 * fixtures (branches, memory, strings, switch tables, 64/128-bit arithmetic, errors,
 * klee_get_value): every answer of the default chain over the embedded z3 is cross-checked
 * and no disagreement may appear. Half the programs run with the fast layer off so that more
 * queries reach the embedded z3 itself. `tsklee run` as a child process (needs `npm run build`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readRunStats } from '../../src/output/run-stats.js';

const CLI = resolve('dist/cli/main.js');
const FIXTURES = resolve('fixtures/engine');
const PROGRAMS = [
  'br_and_or',
  'br_infeasible',
  'mem_two_objects',
  'mem_memset_symlen',
  'str_len',
  'str_cmp',
  'str_atoi',
  'sw_lookup',
  'api_get_value',
  'err_div_zero',
  'int64_ops',
  'int128_ops',
];

interface Outcome {
  code: number | null;
  stderr: string;
  validated: number;
}

let dir: string;
const outcomes = new Map<string, Outcome>();

function run(name: string, fastOff: boolean): Promise<Outcome> {
  const bc = join(dir, `${name}.bc`);
  const cc = spawnSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${resolve('runtime/include')}`, join(FIXTURES, `${name}.c`), '-o', bc], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`clang-19 ${name}: ${cc.stderr}`);
  const out = join(dir, `out-${name}`);
  const args = [CLI, 'run', '--search=dfs', '--max-time=60s', `--output-dir=${out}`, '--debug-validate-solver', '--debug-validate-solver-backend=z3-native'];
  if (fastOff) args.push('--use-fast-solver=false');
  return new Promise((done, fail) => {
    const p = spawn(process.execPath, [...args, bc], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', fail);
    p.on('close', (code) => {
      readRunStats(join(out, 'run.stats')).then(
        ({ columns, rows }) => done({ code, stderr, validated: rows.length > 0 ? rows[rows.length - 1]![columns.indexOf('SolverLayerValidatingQueries')] ?? 0 : 0 }),
        () => done({ code, stderr, validated: 0 }),
      );
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-validate-'));
  // two at a time: the machine has two cores
  const queue = PROGRAMS.map((p, i) => [p, i % 2 === 1] as const);
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) outcomes.set(next[0], await run(next[0], next[1]));
  };
  await Promise.all([worker(), worker()]);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the embedded z3 chain agrees with native z3', () => {
  it.each(PROGRAMS.map((p) => [p]))('%s', (name) => {
    const o = outcomes.get(name)!;
    expect(o.stderr).not.toMatch(/validation failed|SolverValidationError/);
    expect(o.code).toBe(0);
    expect(o.validated).toBeGreaterThan(0);
  });
});
