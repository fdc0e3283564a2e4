/**
 * Quantified merging of a loop whose body branches several times on alike conditions
 * (fixtures/quantified/url_host.c: `c != 0 && c != '/' && c != ':'`): the one-letter core
 * the shape hash suggests has no formula pattern, the three-letter one has; the leaves merge
 * per exit with a ∀ and no standard-merging fallback. The host loop reads s[k1 + 1 + i]
 * (k1 the scheme loop's count): E-matching inverts that index through k1, so no quantified
 * query reaches the fallback. Theorem 3.7 checked on every merge, every solver answer
 * against z3, every test replayed natively to its recorded exit status.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../src/index.js';
import { explore } from '../../src/engine/explore.js';
import { MemoryOutput } from '../../src/engine/test-output.js';
import { createSolver, type Solver } from '../../src/solver/index.js';
import { writeKTestFile } from '../../src/output/ktest.js';
import { buildReplayLib, replayNativeAsync, ROOT, INCLUDE_DIR } from '../support/engine-harness.js';

let solver: Solver;
let work: string;
let lib: string;
beforeAll(async () => {
  solver = await createSolver({ quantifiers: true, debugValidateSolver: true });
  work = mkdtempSync(join(tmpdir(), 'tsklee-qunroll-'));
  lib = buildReplayLib();
});
afterAll(() => solver.dispose());

describe('quantified merging: cores of several alike letters', () => {
  it('url_host: every exit partition merges with a ∀, no fallback, exit statuses as native', async () => {
    const src = join(ROOT, 'fixtures', 'quantified', 'url_host.c');
    const bc = join(work, 'url_host.bc');
    const exe = join(work, 'url_host.native');
    execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE_DIR}`, src, '-o', bc]);
    execFileSync('clang-19', ['-O0', `-I${INCLUDE_DIR}`, src, lib, '-o', exe]);
    const out = new MemoryOutput();
    const r = await explore(loadModule([bc]), { search: ['dfs'], programName: bc, mergeMode: 'quantified', useIncrementalMerging: false, validateQuantifiedMerges: true, writeKQueries: true, maxMemory: 0 }, { output: out, solver });
    const q = r.merging!.quantified!;
    expect(q.fallbackSynthesis + q.fallbackPatterns + q.fallbackHash).toBe(0);
    // scheme loop: its exits; host loop: the 0, '/' and ':' exits each a partition of their own
    expect(q.quantifiedMerges).toBeGreaterThanOrEqual(4);
    const pcs = out.tests.map((t) => String(t.extras.files?.kquery ?? ''));
    // the host loop's body: three conjuncts on one byte at s[1 + i + k1]
    expect(pcs.join('\n')).toMatch(/Forall i\d+ w32 .*\(Not w1 \(Eq 0 N\d+:\(Read w8 .*\)\) \(Not w1 \(Eq 47 N\d+\)\)\) \(Not w1 \(Eq 58 N\d+\)\)/);
    const fallback = solver.stats().find((s) => s.layer === 'quantifier-fallback')!;
    expect(fallback.queries).toBe(0);
    const statuses = new Set<number>();
    for (const t of out.tests) {
      const path = join(work, `url_host-${t.id}.ktest`);
      writeKTestFile(path, t.ktest!);
      const native = await replayNativeAsync(exe, path);
      expect(native.status).toBe(t.extras.exitStatus);
      statuses.add(native.status!);
    }
    expect([...statuses].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
