/**
 * --optimize-array=index|all on programs in the style of KLEE's test/ArrayOpt: each is run
 * without the option and with it (the backend's cross-check on, so the rewrite is validated
 * against the raw core). The paths, tests and errors are the same; fewer reads of constant
 * tables reach the backend (solver-queries/, and run.stats' counter); every test replays to
 * the outcome recorded for it.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';

let dir: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-array-opt-'));
});

const HEAD = '#include <klee/klee.h>\n';

/** name → [source, the rewrite applies?] */
const PROGRAMS: Record<string, [string, boolean]> = {
  // KLEE's test_feasible: the table's zeros are at 0, 2, 4
  feasible: [
    `${HEAD}char array[5] = {0, 1, 0, 1, 0};
int main(void) { unsigned k; klee_make_symbolic(&k, sizeof k, "k"); klee_assume(k < 5);
  if (array[k] == 0) { if (k == 0 | k == 2 | k == 4) return 1; klee_assert(0); }
  return 0; }`,
    true,
  ],
  // test_expr_simple: a one-byte index
  simple: [
    `${HEAD}char array[5] = {1, 2, 3, -4, 5};
int main(void) { unsigned char k; klee_make_symbolic(&k, sizeof k, "k"); klee_assume(k < 5);
  if (array[k] == -4) return 1;
  return 0; }`,
    true,
  ],
  // test_nier in small: an int table, index scaled by 4, and k - 1
  cubes: [
    `${HEAD}int cubes[64];
int main(void) { for (int i = 0; i < 64; i++) cubes[i] = i * i * i;
  unsigned k; klee_make_symbolic(&k, sizeof k, "k"); klee_assume(k > 0); klee_assume(k < 64);
  if (cubes[k] > 100000 || cubes[k - 1] > 100000) return 1;
  return 0; }`,
    true,
  ],
  // test_array_index_array: a table indexed by a table
  nested: [
    `${HEAD}unsigned char perm[6] = {3, 0, 5, 1, 4, 2};
int vals[6] = {10, 20, 30, 40, 50, 60};
int main(void) { unsigned k; klee_make_symbolic(&k, sizeof k, "k"); klee_assume(k < 6);
  if (vals[perm[k]] > 35) return 1;
  return 0; }`,
    true,
  ],
  // an unchecked index: the out-of-bounds side is a memory error with and without the option
  bounds: [
    `${HEAD}char t[4] = {1, 3, 3, 7};
int main(void) { unsigned k; klee_make_symbolic(&k, sizeof k, "k"); klee_assume(k < 9);
  if (t[k] == 3) return 1;
  return 0; }`,
    true,
  ],
  // two different indices: KLEE's index rewrite does not apply (the value one does, under all)
  twoIndices: [
    `${HEAD}char t[6] = {4, 8, 4, 15, 16, 8};
int main(void) { unsigned i, j; klee_make_symbolic(&i, sizeof i, "i"); klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 6); klee_assume(j < 6); klee_assume(i != j);
  if (t[i] == t[j]) return 1;
  return 0; }`,
    false,
  ],
};

function run(bc: string, options: string[]): OutDir {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '-search=dfs', '-use-fast-solver=false', '-write-smt2s', `-output-dir=${out}`, ...options, bc], dir);
  if (r.code !== 0) throw new Error(`tsklee ${options.join(' ')} ${bc}: exit ${r.code}\n${r.stderr}`);
  const o = readOutDir(out);
  paths.set(o, out);
  return o;
}

const paths = new Map<OutDir, string>();

/** Reads of constant tables at symbolic indices in the queries the backend got. */
function backendTableReads(o: OutDir): number {
  const qdir = join(paths.get(o)!, 'solver-queries');
  return readdirSync(qdir)
    .map((f) => readFileSync(join(qdir, f), 'utf8').match(/\(select const_arr\d+ [^#]/g)?.length ?? 0)
    .reduce((a, b) => a + b, 0);
}

/** The ending of each test: `exit N` or `error: KIND`. */
function recorded(o: OutDir): string[] {
  const exits = new Map(o.read('exit-status.txt').trim().split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]));
  const names = o.files.filter((f) => /^test\d+\.ktest$/.test(f)).map((f) => f.replace('.ktest', ''));
  return names.map((t) => {
    const err = o.files.find((f) => f.startsWith(`${t}.`) && f.endsWith('.err'));
    return `${t}: ${err !== undefined ? `error: ${err.split('.')[1]}` : `exit ${exits.get(t)}`}`;
  });
}

function replayed(bc: string, o: OutDir): string[] {
  const r = tsklee(['replay', bc, paths.get(o)!], dir);
  expect(r.code).toBe(0);
  return r.stdout
    .trim()
    .split('\n')
    .map((l) => l.replace('.ktest', '').replace(/^(\S+: error: \w+):.*$/, '$1'));
}

describe('--optimize-array=index and all', () => {
  for (const [name, [source, applies]] of Object.entries(PROGRAMS)) {
    it(`${name}: same paths, tests and errors; ${applies ? 'fewer' : 'as many'} table reads reach the backend; tests replay`, () => {
      const bc = compileProgram(dir, name, source);
      const plain = run(bc, []);
      const index = run(bc, ['-optimize-array=index']);
      const all = run(bc, ['--optimize-array', 'all']);
      const checked = run(bc, ['-optimize-array=index', '-debug-validate-solver']);
      for (const o of [index, all, checked]) {
        expect(o.done).toEqual(plain.done);
        expect(o.errors).toEqual(plain.errors);
        expect(recorded(o).map((l) => l.replace(/^test\d+: /, '')).sort()).toEqual(recorded(plain).map((l) => l.replace(/^test\d+: /, '')).sort());
      }
      const before = backendTableReads(plain);
      expect(before).toBeGreaterThan(0);
      if (applies) {
        expect(backendTableReads(index)).toBeLessThan(before);
        expect(index.read('run.stats')).toMatch(/SolverLayerArrayOptReadsRemoved/);
      } else {
        expect(backendTableReads(index)).toBe(before);
        expect(backendTableReads(all)).toBeLessThan(before); // the value rewrite
      }
      expect(replayed(bc, index)).toEqual(recorded(index));
    });
  }

  it('knows the option values and refuses others in one line', () => {
    const bc = compileProgram(dir, 'tiny', `${HEAD}int main(void) { return 0; }`);
    const r = tsklee(['run', '-optimize-array=indexes', bc], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^tsklee: error: --optimize-array.*indexes.*\n$/);
  });
});
