/**
 * A branch on a digest of symbolic input (`tsklee run` as a child process; needs `npm run
 * build`): the fast layer's seeded random sampling (fast-sample.ts) gives the rare side its
 * model without the backend, and both sides get a test whose input really takes that side
 * (the digest recomputed here from the .ktest bytes). With --fast-solver-sampling=false the
 * same question goes to the backend (run.stats counts it there). And a backend query on a
 * digest that z3 cannot invert is stopped by --max-cpu-time, not by --max-solver-time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeKTest } from '../../src/output/ktest.js';
import { readRunStats } from '../../src/output/run-stats.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

const PROG = `#include <klee/klee.h>
static unsigned digest(const unsigned char *p, int n) {
  unsigned h = 0x811c9dc5u;
  for (int r = 0; r < 40; r++)
    for (int i = 0; i < n; i++) {
      h ^= p[i];
      h *= 0x01000193u;
      h ^= h >> 13;
    }
  return h;
}
int main(void) {
  unsigned char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  if ((digest(in, 8) & 0xff) < 4)
    return 1;
  return 0;
}
`;

/** The program's digest, in 32-bit arithmetic. */
function digest(p: Uint8Array): number {
  let h = 0x811c9dc5;
  for (let r = 0; r < 40; r++) {
    for (const byte of p) {
      h = (h ^ byte) >>> 0;
      h = Math.imul(h, 0x01000193) >>> 0;
      h = (h ^ (h >>> 13)) >>> 0;
    }
  }
  return h;
}

async function run(name: string, flags: string[]): Promise<{ sides: boolean[]; stats: Record<string, number> }> {
  const r = spawnSync(process.execPath, [CLI, 'run', '--search=dfs', '--max-solver-time=5s', `--output-dir=${name}`, ...flags, 'digest.bc'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsklee ${flags.join(' ')} failed (${r.status}): ${r.stderr}`);
  const out = join(dir, name);
  const sides = readdirSync(out)
    .filter((f) => f.endsWith('.ktest'))
    .sort()
    .map((f) => (digest(decodeKTest(readFileSync(join(out, f))).objects[0]!.bytes) & 0xff) < 4);
  const { columns, rows } = await readRunStats(join(out, 'run.stats'));
  const last = rows[rows.length - 1]!;
  return { sides, stats: Object.fromEntries(columns.map((c, i) => [c, Number(last[i]!)])) };
}

function compile(name: string, source: string): void {
  writeFileSync(join(dir, `${name}.c`), source);
  const cc = spawnSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${resolve('runtime/include')}`, `${name}.c`, '-o', `${name}.bc`], { cwd: dir, encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`clang-19 failed: ${cc.stderr}`);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-sampling-'));
  compile('digest', PROG);
  // 16 bits of the digest equal to a constant: z3 does not find that preimage in minutes
  compile('preimage', PROG.replace('& 0xff) < 4)', '& 0xffff) == 0x1234)'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('random sampling for branches on a digest', () => {
  it('finds both sides without the backend, each test taking its side natively', async () => {
    const { sides, stats } = await run('on', []);
    expect(sides.sort()).toEqual([false, true]);
    expect(stats['SolverLayerBackendQueries']).toBe(0);
  }, 120_000);

  it('--fast-solver-sampling=false sends the rare side to the backend', async () => {
    const { stats } = await run('off', ['--fast-solver-sampling=false']);
    expect(stats['SolverLayerBackendQueries']).toBeGreaterThan(0);
  }, 120_000);
});

describe('--max-cpu-time stops a backend query', () => {
  it('ends the run at the CPU limit plus the grace, not at --max-solver-time', () => {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [CLI, 'run', '--search=dfs', '--fast-solver-sampling=false', '--max-solver-time=300s', '--max-cpu-time=2s', '--output-dir=cpu', 'preimage.bc'], { cwd: dir, encoding: 'utf8' });
    const wallS = (performance.now() - t0) / 1000;
    expect(r.status).toBe(0);
    // the query ends as a solver failure at ~2 s of CPU + 5 s grace; before, it ran for minutes
    expect(r.stderr).toContain('Query timed out');
    expect(wallS).toBeLessThan(60);
  }, 120_000);
});
