/**
 * A query the solver cannot answer ends only the state that asked (DESIGN decision 3).
 * As KLEE 3.x does on a fork query timeout (terminateStateOnSolverError "Query timed out
 * (fork)."), the state's test is still written, with a `.solver.err` beside it; the other
 * paths run to the end and the exit code is 0.
 */
import { describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../../src/index.js';
import { explore } from '../../../src/engine/explore.js';
import { MemoryOutput } from '../../../src/engine/test-output.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../../../src/solver/solver.js';
import { REPO_ROOT } from '../../support/fixtures.js';
import { compileC, INCLUDE } from './support/run-c.js';

/** A solver that fails with `kind` on every validity query and answers the rest trivially. */
function failingSolver(kind: SolverFailureKind): Solver {
  return {
    computeValidity() {
      throw new SolverFailure(kind, kind);
    },
    computeTruth() {
      return false;
    },
    computeValue() {
      return 0n;
    },
    computeInitialValues(_q, arrays) {
      return arrays.map((a) => new Uint8Array(a.size));
    },
    stats() {
      return [];
    },
    dispose() {},
  };
}

describe('solver failures', () => {
  // timeout, out of memory (the embedded z3 throws it when its wasm heap is exhausted, see
  // tests/unit/solver/z3-isolation.test.ts) and a crash all end only the state that asked
  it.each([SolverFailureKind.Timeout, SolverFailureKind.OutOfMemory, SolverFailureKind.Crash])('%s: ends the state that asked with a solver error; the run goes on', async (kind) => {
    const bc = compileC(`#include <klee/klee.h>
int main(void) { int x; klee_make_symbolic(&x, sizeof x, "x"); if (x > 3) return 1; return 0; }`);
    const out = new MemoryOutput();
    const r = await explore(loadModule([bc]), { search: ['dfs'], maxMemory: 0 }, { output: out, solver: failingSolver(kind) });
    expect(r.exploredPaths).toBe(1);
    expect(out.tests).toHaveLength(1);
    expect(out.tests[0]!.extras.errKind).toBe('solver');
    expect(out.tests[0]!.extras.errText).toMatch(/^Error: Query timed out \(fork\)\.\n/);
  });
});

/**
 * Seven easy paths and one whose fork query (factoring a 63-bit prime with 32-bit factors) no
 * solver answers in seconds. The prime is below (2^32-1)^2, so interval reasoning on p and q
 * (the fast layer) cannot refute it: only a real search can.
 */
const HARD_PATH = `#include <klee/klee.h>
#include <stdint.h>
int main(void) {
  uint64_t p, q;
  unsigned char sel;
  klee_make_symbolic(&p, sizeof p, "p");
  klee_make_symbolic(&q, sizeof q, "q");
  klee_make_symbolic(&sel, sizeof sel, "sel");
  if (sel == 1) return 1;
  if (sel == 2) return 2;
  if (sel != 3) return 0;
  if (p < 2 || q < 2 || p > 0xffffffffu || q > 0xffffffffu) return 3;
  if (p * q == 9223372036854775783ull) return 4; /* the largest prime below 2^63: in range, so bounds cannot refute it */
  return 5;
}
`;

describe('tsklee run --max-solver-time with the embedded z3', () => {
  it('times out the one hard query; its state ends with a .solver.err test, every other path gets its test', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tsklee-solver-timeout-'));
    writeFileSync(join(dir, 'hard.c'), HARD_PATH);
    execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, 'hard.c', '-o', 'hard.bc'], { cwd: dir });
    const out = join(dir, 'out');
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'cli', 'main.js'), 'run', '--search=dfs', '--max-solver-time=3s', `--output-dir=${out}`, 'hard.bc'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 110_000,
    });
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(r.status).toBe(0);
    const files = readdirSync(out);
    const errs = files.filter((f) => f.endsWith('.err'));
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatch(/^test\d{6}\.solver\.err$/);
    const err = readFileSync(join(out, errs[0]!), 'utf8');
    expect(err).toMatch(/^Error: Query timed out \(fork\)\.\n/);
    expect(err).toContain('Line: 13');
    // 3 paths on sel, 4 on the bounds, 1 ended by the timeout: a test for each
    expect(files.filter((f) => f.endsWith('.ktest'))).toHaveLength(8);
    expect(r.stderr).toContain('completed paths = 7');
    expect(r.stderr).toContain('partially completed paths = 1');
  });
});
