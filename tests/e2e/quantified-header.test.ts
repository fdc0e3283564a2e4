/**
 * Quantified merging on a loop whose body admits a byte several ways (fixtures/quantified/
 * t9_token.c, the name loop of bench/quantified/header.c): incremental merging must make the
 * ways meet (join-point snapshots) so that the region's leaves stay linear in the bound, and a
 * region that never releases must not hold the run past its time limit at the halt (its
 * paused leaves give one test per exit, not one each).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../src/index.js';
import { explore } from '../../src/engine/explore.js';
import { MemoryOutput } from '../../src/engine/test-output.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { createSolver, type Solver } from '../../src/solver/index.js';
import { writeKTestFile } from '../../src/output/ktest.js';
import { buildReplayLib, replayNativeAsync, ROOT, INCLUDE_DIR } from '../support/engine-harness.js';

const SRC = join(ROOT, 'fixtures', 'quantified', 't9_token.c');
let solver: Solver;
let work: string;
let lib: string;
beforeAll(async () => {
  solver = await createSolver({ quantifiers: true });
  work = mkdtempSync(join(tmpdir(), 'tsklee-quantified-header-'));
  lib = buildReplayLib();
});
afterAll(() => solver.dispose());

function compile(n: number): { bc: string; exe: string } {
  const bc = join(work, `t9_${n}.bc`);
  const exe = join(work, `t9_${n}.native`);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE_DIR}`, `-DN=${n}`, SRC, '-o', bc]);
  execFileSync('clang-19', ['-O0', `-I${INCLUDE_DIR}`, `-DN=${n}`, SRC, lib, '-o', exe]);
  return { bc, exe };
}

async function run(n: number, opts: Partial<EngineOptions>) {
  const { bc, exe } = compile(n);
  const out = new MemoryOutput();
  const t0 = Date.now();
  const r = await explore(loadModule([bc]), { search: ['dfs'], programName: bc, mergeMode: 'quantified', maxMemory: 0, ...opts }, { output: out, solver });
  return { r, out, exe, ms: Date.now() - t0 };
}

describe('quantified merging: a byte admitted three ways (t9_token.c)', () => {
  it('with incremental merging the three ways meet: leaves linear in N, one quantified merge, tests replay', async () => {
    const { r, out, exe } = await run(6, { useIncrementalMerging: true, validateQuantifiedMerges: true });
    const q = r.merging!.quantified!;
    // before join-point snapshots: 2^(N+1) − 1 = 127 leaves (the '-' way forked apart each byte)
    expect(q.leaves).toBeLessThanOrEqual(2 * 6 + 2);
    expect(q.incrementalSnapshots).toBeGreaterThan(0);
    expect(q.quantifiedMerges).toBe(1);
    expect(q.fallbackHash + q.fallbackPatterns + q.fallbackSynthesis).toBe(0);
    expect(q.theoremChecks).toBe(1);
    // every exit status the program has: 0 (name then ':'), 1 (empty name), 2 (other)
    expect(new Set(out.tests.map((t) => t.extras.exitStatus))).toEqual(new Set([0, 1, 2]));
    for (const t of out.tests) {
      const path = join(work, `t9-${t.id}.ktest`);
      writeKTestFile(path, t.ktest!);
      expect((await replayNativeAsync(exe, path)).status).toBe(t.extras.exitStatus);
    }
  }, 120_000);

  it('without it (--use-incremental-merging=false) the region does not release in time; the halt ends its paused leaves but one per exit, near the limit', async () => {
    const limit = 3;
    // leaves held at the exit until the halt (with --release-unmerged-early the exit's first
    // 10 000 go on as ordinary states, which the halt dumps as BASE's: see below)
    const { r, out, ms } = await run(16, { maxTime: limit, releaseUnmergedEarly: false, useIncrementalMerging: false });
    expect(r.haltReason).toBe('HaltTimer invoked');
    // before: every paused leaf dumped (~40 000 tests, 2.8× the limit from the CLI)
    expect(out.tests.length).toBeLessThan(100);
    expect(out.messages.some((m) => /states paused at the exits of unreleased quantified merge regions ended without a test/.test(m))).toBe(true);
    expect(ms).toBeLessThan(3 * limit * 1000);
    const early = await run(16, { maxTime: limit, useIncrementalMerging: false });
    expect(early.r.haltReason).toBe('HaltTimer invoked');
    expect(early.r.merging!.quantified!.releasedEarly).toBeGreaterThan(0);
    expect(early.ms).toBeLessThan(3 * limit * 1000);
  }, 120_000);

  it('--max-states-to-merge: an exit with more leaves is not merged, its states go on unmerged', async () => {
    const base = await run(6, { mergeMode: 'ite' });
    const apart = await run(6, { maxStatesToMerge: 100, releaseUnmergedEarly: false, useIncrementalMerging: false });
    const q = apart.r.merging!.quantified!;
    // 3^k ways: 1 821 leaves at the exit (without the limit: more patterns than --max-patterns, one standard merge)
    expect(q.leaves).toBe(1821);
    expect(q.tooManyLeaves).toBe(1);
    expect(q.fallbackPatterns + q.quantifiedMerges).toBe(0);
    // every leaf goes on to tests of its own, as without merging
    expect(apart.out.tests.length).toBe(base.out.tests.length);
    // released early (the default): the first 100 go on at once, the others pass the exit unpaused; the same tests
    const early = await run(6, { maxStatesToMerge: 100, useIncrementalMerging: false });
    expect(early.r.merging!.quantified!.leaves).toBe(100);
    expect(early.r.merging!.quantified!.releasedEarly).toBe(1);
    expect(early.out.tests.length).toBe(base.out.tests.length);
  }, 120_000);
});
