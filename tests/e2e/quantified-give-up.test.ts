/**
 * PAT degrading to BASE's cost where it cannot merge (fixtures/quantified/t10_collapse.c,
 * apr_collapse_spaces' shape: the two ways of every byte leave different destination
 * pointers, so incremental merging finds no partner and the exit gives no quantified merge):
 * the region gives incremental merging up after --incremental-merge-give-up misses, and an
 * exit that reaches --max-states-to-merge leaves lets them go on before the region ends. The
 * paths, tests and exit statuses stay BASE's; every test replays natively.
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

const N = 6;
let solver: Solver;
let work: string;
let bc: string;
let exe: string;
beforeAll(async () => {
  solver = await createSolver({ quantifiers: true, debugValidateSolver: true });
  work = mkdtempSync(join(tmpdir(), 'tsklee-quantified-give-up-'));
  const lib = buildReplayLib();
  const src = join(ROOT, 'fixtures', 'quantified', 't10_collapse.c');
  bc = join(work, 't10.bc');
  exe = join(work, 't10.native');
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE_DIR}`, `-DN=${N}`, src, '-o', bc]);
  execFileSync('clang-19', ['-O0', `-I${INCLUDE_DIR}`, `-DN=${N}`, src, lib, '-o', exe]);
});
afterAll(() => solver.dispose());

async function run(opts: Partial<EngineOptions>) {
  const out = new MemoryOutput();
  const r = await explore(loadModule([bc]), { search: ['dfs'], programName: bc, maxMemory: 0, ...opts }, { output: out, solver });
  return { r, out };
}

/** Every test's native exit status is the one it recorded; the statuses seen. */
async function replayAll(out: MemoryOutput, tag: string): Promise<Set<number>> {
  const seen = new Set<number>();
  for (const t of out.tests) {
    const path = join(work, `${tag}-${t.id}.ktest`);
    writeKTestFile(path, t.ktest!);
    const native = await replayNativeAsync(exe, path);
    expect(native.status).toBe(t.extras.exitStatus);
    seen.add(native.status!);
  }
  return seen;
}

const PAT: Partial<EngineOptions> = { mergeMode: 'quantified', useIncrementalMerging: true, validateQuantifiedMerges: true };

describe('quantified merging gives up where no two states agree (t10_collapse.c)', () => {
  it('incremental merging stops after --incremental-merge-give-up misses; paths and statuses as BASE', async () => {
    const base = await run({});
    // 2^(N+1) − 1 paths: each byte ends the string, is a space, or is copied
    expect(base.r.completedPaths).toBe(2 ** (N + 1) - 1);
    const gaveUp = await run({ ...PAT, incrementalGiveUp: 8 });
    const q = gaveUp.r.merging!.quantified!;
    expect(q.incrementalGaveUp).toBe(1);
    expect(q.incrementalMerges).toBe(0);
    // the tree stopped growing at the give-up (before: a node per fork, 2^(N+1) − 2)
    expect(q.incrementalNodes).toBeLessThan(2 ** (N + 1) / 4);
    const kept = await run({ ...PAT, incrementalGiveUp: 0, incrementalMaxNodes: 0 });
    expect(kept.r.merging!.quantified!.incrementalGaveUp).toBe(0);
    expect(kept.r.merging!.quantified!.incrementalNodes).toBeGreaterThanOrEqual(2 ** (N + 1) - 2);
    // the same leaves either way, unmerged (no pattern merge, no ite fallback by default)
    expect(q.leaves).toBe(kept.r.merging!.quantified!.leaves);
    expect(gaveUp.r.completedPaths).toBe(base.r.completedPaths);
    const statuses = await replayAll(gaveUp.out, 'gave-up');
    expect([...statuses].sort()).toEqual([...(await replayAll(base.out, 'base'))].sort());
  });

  it('--incremental-merge-max-nodes gives up on the tree size alone', async () => {
    const { r } = await run({ ...PAT, incrementalGiveUp: 0, incrementalMaxNodes: 16 });
    const q = r.merging!.quantified!;
    expect(q.incrementalGaveUp).toBe(1);
    expect(q.incrementalNodes).toBeLessThan(16 + 8);
    expect(r.completedPaths).toBe(2 ** (N + 1) - 1);
  });

  it('an exit at --max-states-to-merge leaves lets them go on before the region ends', async () => {
    const early = await run({ ...PAT, maxStatesToMerge: 8 });
    const q = early.r.merging!.quantified!;
    expect(q.releasedEarly).toBe(1);
    expect(q.tooManyLeaves).toBe(1);
    // the leaves past the bound were never held: fewer counted at the exit than the 2^N the region ends with
    expect(q.leaves).toBeLessThan(2 ** N);
    const late = await run({ ...PAT, maxStatesToMerge: 8, releaseUnmergedEarly: false });
    expect(late.r.merging!.quantified!.releasedEarly).toBe(0);
    expect(late.r.merging!.quantified!.leaves).toBeGreaterThanOrEqual(2 ** N);
    expect(early.r.completedPaths).toBe(2 ** (N + 1) - 1);
    expect(late.r.completedPaths).toBe(early.r.completedPaths);
    await replayAll(early.out, 'early');
  });
});
