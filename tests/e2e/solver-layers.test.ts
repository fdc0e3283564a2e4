/**
 * The solver chain seen from run.stats (`tsklee run` as a child process; needs `npm run build`):
 * each layer switched off in turn (KLEE's --use-cex-cache, --use-branch-cache,
 * --use-independent-solver; tsklee's fast layer off throughout so queries reach the lower
 * layers) changes what reaches the layers below and the backend the way it should.
 * Exploration is deterministic (--search=dfs and no concretisation in the program), so the
 * engine asks the same questions in every configuration.
 * Also: --solver-backend errors, and --write-smt2s writing what the backend was asked.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readRunStats } from '../../src/output/run-stats.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

// Two independent inputs, branches on hashed bits: queries the caches and independence
// each change (a hash is beyond the fast layer's interval reasoning anyway).
const PROG = `#include <klee/klee.h>
int main(void) {
  unsigned a, b;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  int n = 0;
  for (int i = 0; i < 3; i++) {
    if (((a * 2654435761u) >> (i * 5)) & 1) n++;
    if (((b ^ (b >> 7)) * 40503u) % 17 == (unsigned)i) n += 2;
  }
  return n;
}
`;

function tsklee(args: string[]): { code: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 });
  return { code: r.status, stderr: r.stderr };
}

type Stats = Record<string, number>;

async function runWith(name: string, flags: string[]): Promise<Stats> {
  const r = tsklee(['run', '--search=dfs', '--use-fast-solver=false', '--solver-backend=z3-native', `--output-dir=${name}`, ...flags, 'layers.bc']);
  if (r.code !== 0) throw new Error(`tsklee ${flags.join(' ')} failed (${r.code}): ${r.stderr}`);
  const { columns, rows } = await readRunStats(join(dir, name, 'run.stats'));
  const last = rows[rows.length - 1]!;
  return Object.fromEntries(columns.map((c, i) => [c, last[i]!]));
}

const runs: Record<string, Stats> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-layers-'));
  writeFileSync(join(dir, 'layers.c'), PROG);
  const cc = spawnSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${resolve('runtime/include')}`, 'layers.c', '-o', 'layers.bc'], { cwd: dir, encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`clang-19 failed: ${cc.stderr}`);
  runs['all'] = await runWith('all', []);
  runs['noCex'] = await runWith('no-cex', ['--use-cex-cache=false']);
  runs['noBranch'] = await runWith('no-branch', ['--use-branch-cache=false']);
  runs['noIndep'] = await runWith('no-indep', ['--use-independent-solver=false']);
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('chain layers in run.stats', () => {
  it('reports every layer, and KLEE columns consistent with them', () => {
    const s = runs['all']!;
    for (const l of ['Independence', 'QueryCache', 'CexCache', 'Backend']) expect(s[`SolverLayer${l}Queries`]).toBeGreaterThan(0);
    // each layer passes on its misses
    expect(s['SolverLayerCexCacheQueries']).toBe(s['SolverLayerQueryCacheQueries']! - s['SolverLayerQueryCacheHits']!);
    expect(s['QueryCacheHits']).toBe(s['SolverLayerQueryCacheHits']);
    expect(s['QueryCacheMisses']).toBe(s['SolverLayerCexCacheQueries']);
    expect(s['QueryCexCacheHits']).toBe(s['SolverLayerCexCacheHits']);
    // NumQueries counts the backend's checks, as KLEE's stats::queries: a validity query is one or two
    const solved = s['SolverLayerBackendQueries']! - s['SolverLayerBackendHits']!;
    expect(s['NumQueries']).toBeGreaterThanOrEqual(solved);
    expect(s['NumQueries']).toBeLessThanOrEqual(2 * solved);
    expect(s['NumQueries']).toBeGreaterThan(0);
    // times nest: the whole chain ⊇ the cex cache ⊇ the backend
    expect(s['SolverTime']).toBeGreaterThanOrEqual(s['CexCacheTime']!);
    expect(s['CexCacheTime']).toBeGreaterThanOrEqual(s['QueryTime']!);
    expect(s['QueryTime']).toBeGreaterThan(0);
  });

  it('--use-cex-cache=false: the backend gets every branch-cache miss', () => {
    const [all, off] = [runs['all']!, runs['noCex']!];
    expect(off['SolverLayerCexCacheQueries']).toBeUndefined();
    expect(off['QueryCexCacheHits']).toBe(0);
    expect(off['SolverLayerQueryCacheQueries']).toBe(all['SolverLayerQueryCacheQueries']);
    expect(off['SolverLayerBackendQueries']).toBe(off['QueryCacheMisses']);
    expect(off['NumQueries']).toBeGreaterThanOrEqual(off['QueryCacheMisses']!);
    expect(off['NumQueries']).toBeGreaterThan(all['NumQueries']! * 2);
  });

  it('--use-branch-cache=false: the cex cache gets what the branch cache got, and absorbs the repeats', () => {
    const [all, off] = [runs['all']!, runs['noBranch']!];
    expect(off['SolverLayerQueryCacheQueries']).toBeUndefined();
    expect(off['QueryCacheHits']).toBe(0);
    expect(off['SolverLayerCexCacheQueries']).toBe(all['SolverLayerQueryCacheQueries']);
    expect(off['SolverLayerCexCacheHits']).toBeGreaterThan(all['SolverLayerCexCacheHits']!);
    expect(off['NumQueries']).toBeGreaterThanOrEqual(all['NumQueries']!);
  });

  it('--use-independent-solver=false: whole path conditions reach the caches and more reach the backend', () => {
    const [all, off] = [runs['all']!, runs['noIndep']!];
    expect(off['SolverLayerIndependenceQueries']).toBeUndefined();
    // independence splits queries: with it, the cache below sees more (smaller) queries
    expect(off['SolverLayerQueryCacheQueries']).toBe(all['SolverLayerIndependenceQueries']);
    expect(all['SolverLayerQueryCacheQueries']).toBeGreaterThan(all['SolverLayerIndependenceQueries']!);
    expect(off['NumQueries']).toBeGreaterThan(all['NumQueries']!);
  });
});

describe('backend selection and --write-smt2s', () => {
  it('refuses an unknown backend and a missing binary in one line, before writing anything', () => {
    const r1 = tsklee(['run', '--solver-backend=mathsat', '--output-dir=bad1', 'layers.bc']);
    expect(r1.code).toBe(1);
    expect(r1.stderr.trim()).toBe('tsklee: error: --solver-backend=mathsat: unknown solver backend (z3, z3-native, cvc5, bitwuzla, boolector, yices)');
    const env = { ...process.env, PATH: '/nonexistent' };
    const r2 = spawnSync(process.execPath, [CLI, 'run', '--solver-backend=cvc5', '--output-dir=bad2', 'layers.bc'], { encoding: 'utf8', cwd: dir, env });
    expect(r2.status).toBe(1);
    expect(r2.stderr.trim()).toBe("tsklee: error: --solver-backend=cvc5: 'cvc5' not found on PATH (install Debian's cvc5 package)");
    expect(readdirSync(dir).filter((f) => f.startsWith('bad'))).toEqual([]);
  });

  it('writes one .smt2 per backend query, each replayable by z3', () => {
    const r = tsklee(['run', '--search=dfs', '--use-fast-solver=false', '--solver-backend=cvc5', '--write-smt2s', '--output-dir=smt2', 'layers.bc']);
    expect(r).toMatchObject({ code: 0 }); // shows stderr if not
    const qdir = join(dir, 'smt2', 'solver-queries');
    const files = readdirSync(qdir).filter((f) => f.endsWith('.smt2')).sort();
    expect(files.length).toBeGreaterThan(0);
    const first = readFileSync(join(qdir, files[0]!), 'utf8');
    expect(first).toMatch(/^; tsklee /);
    expect(first).toMatch(/\(check-sat\)/);
    const answered = /; answer: (valid \(unsat\)|not valid \(sat\)|sat: |unsat|value )/.exec(first);
    expect(answered).not.toBeNull();
    // each test still gets its path condition as testNNNNNN.smt2 (KLEE's --write-smt2s)
    expect(readdirSync(join(dir, 'smt2')).some((f) => /^test\d{6}\.smt2$/.test(f))).toBe(true);
    const z3 = spawnSync('z3', ['-smt2', join(qdir, files[0]!)], { encoding: 'utf8' });
    expect(z3.stdout).toMatch(/^(sat|unsat)$/m);
  });
});
