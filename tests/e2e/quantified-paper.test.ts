/**
 * Paper 000's test programs (digest §8: T1–T5, T8; fixtures/quantified/) under
 * --merge-mode=quantified, with Theorem 3.7 checked on every merge (validateQuantifiedMerges)
 * and every answer of the quantified-query layer checked against z3 (debugValidateSolver):
 * the partitions, merged states and path conditions the digest gives, and every test replayed
 * natively to the exit status tsklee recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../src/index.js';
import { explore, type ExploreResult } from '../../src/engine/explore.js';
import { MemoryOutput } from '../../src/engine/test-output.js';
import type { EngineOptions } from '../../src/engine/options.js';
import { createSolver, type Solver } from '../../src/solver/index.js';
import { writeKTestFile } from '../../src/output/ktest.js';
import { buildReplayLib, replayNativeAsync, ROOT, INCLUDE_DIR } from '../support/engine-harness.js';

const DIR = join(ROOT, 'fixtures', 'quantified');
let solver: Solver;
let work: string;
let lib: string;
beforeAll(async () => {
  solver = await createSolver({ quantifiers: true, debugValidateSolver: true });
  work = mkdtempSync(join(tmpdir(), 'tsklee-quantified-'));
  lib = buildReplayLib();
});
afterAll(() => solver.dispose());

interface Run extends ExploreResult {
  out: MemoryOutput;
  name: string;
  pcs: string[][];
}

function compile(name: string, defines: string[] = []): { bc: string; exe: string } {
  const src = join(DIR, `${name}.c`);
  const tag = `${name}${defines.join('')}`;
  const bc = join(work, `${tag}.bc`);
  const exe = join(work, `${tag}.native`);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE_DIR}`, ...defines, src, '-o', bc]);
  execFileSync('clang-19', ['-O0', `-I${INCLUDE_DIR}`, ...defines, src, lib, '-o', exe]);
  return { bc, exe };
}

async function run(name: string, opts: Partial<EngineOptions> = {}, defines: string[] = []): Promise<Run> {
  const { bc, exe } = compile(name, defines);
  const out = new MemoryOutput();
  const r = await explore(loadModule([bc]), { search: ['dfs'], programName: bc, mergeMode: 'quantified', validateQuantifiedMerges: true, writeKQueries: true, maxMemory: 0, ...opts }, { output: out, solver });
  // every test replays natively to the exit status recorded
  for (const t of out.tests) {
    expect(t.ktest).not.toBeNull();
    const path = join(work, `${name}-${t.id}.ktest`);
    writeKTestFile(path, t.ktest!);
    const native = await replayNativeAsync(exe, path);
    expect(native.status).toBe(t.extras.exitStatus);
  }
  const pcs = out.tests.map((t) => String(t.extras.files?.kquery ?? '').trim().split('\n'));
  return { ...r, out, name, pcs };
}

const k = (r: Run) => r.merging!.quantified!;

/** The label a .kquery file gives the term whose printing starts with `start` (N3 for `N3:(…`). */
function labelOf(text: string, start: RegExp): string {
  const m = new RegExp(`(N\\d+):${start.source}`).exec(text);
  if (m === null) throw new Error(`no labelled ${start.source} in ${text}`);
  return m[1]!;
}

describe('paper 000, digest §8', () => {
  it('T1: 7 paths in BASE; 2 partitions merged into 2 states whose pcs are Table 1 rows, count ↦ k', async () => {
    const base = await run('t1_memspn', { mergeMode: 'ite' });
    expect(base.completedPaths).toBe(7);
    const r = await run('t1_memspn');
    expect(k(r).leaves).toBe(7);
    expect(k(r).quantifiedMerges).toBe(2);
    expect(k(r).quantifiedMergedStates).toBe(5);
    expect(k(r).linearValues).toBe(2); // count ↦ k in both (no ite)
    expect(k(r).iteValues).toBe(0);
    expect(r.merging!.pathMultiplicity).toBe(7);
    // Table 1 row 1 (Y): 0 ≤ k ≤ 2 ∧ ∀i. (i−1 < n ∧ s[i−1] = 97) ∧ k < n ∧ ¬ s[k] = 97
    const all = r.pcs.map((p) => p.join('\n'));
    // a .kquery file labels a term shared between constraints (N3:…, then N3): k and n by label
    const y = all.find((p) => /Ule (?:N\d+:)?\(Concat w32 \(Read w8 3 __k\d+\).*\) 2\)/.test(p))!;
    const [kY, nY] = [labelOf(y, /\(Concat w32 \(Read w8 3 __k/), labelOf(y, /\(Concat w32 \(Concat w24 \(Concat w16 \(Read w8 3 n\)/)];
    expect(y).toMatch(new RegExp(`Forall i\\d+ w32 ${kY} \\(And w1 \\(Ult (N\\d+):\\(Add w32 4294967295 i\\d+\\) ${nY}\\) \\(Eq 97 \\(Read w8 \\1 s\\)\\)\\)`));
    expect(y).toContain(`(Not w1 (Eq 97 (Read w8 ${kY} s)))`);
    // row 2 (R): k ≤ 3 ∧ ∀ … ∧ n ≤ k
    const rr = all.find((p) => /Ule (?:N\d+:)?\(Concat w32 \(Read w8 3 __k\d+\).*\) 3\)/.test(p))!;
    expect(rr).toContain(`(Ule ${labelOf(rr, /\(Concat w32 \(Concat w24 \(Concat w16 \(Read w8 3 n\)/)} ${labelOf(rr, /\(Concat w32 \(Read w8 3 __k/)})`);
    for (const p of all) expect(p).not.toMatch(/Select/);
  });

  it('T1 with a marker on count == 2: PAT forks each merged state, the marker models are the digest’s', async () => {
    const r = await run('t1_marker');
    expect(k(r).quantifiedMerges).toBe(2);
    expect(r.completedPaths).toBe(4);
    const marker = r.out.tests.filter((t) => t.extras.exitStatus === 42).map((t) => t.ktest!.objects);
    expect(marker.length).toBe(2);
    const n = (o: { bytes: Uint8Array }[]) => new DataView(o[1]!.bytes.buffer, o[1]!.bytes.byteOffset).getUint32(0, true);
    const byN = new Map(marker.map((o) => [n(o), o[0]!.bytes]));
    expect([...byN.keys()].sort()).toEqual([2, 3]); // R-state n = 2; Y-state n = 3
    expect([...byN.get(2)!.subarray(0, 2)]).toEqual([97, 97]);
    expect([...byN.get(3)!.subarray(0, 2)]).toEqual([97, 97]);
    expect(byN.get(3)![2]).not.toBe(97);
  });

  it('T2 (chars "ab", no incremental merging): sound, partly merged, the rest by standard merging', async () => {
    const base = await run('t2_ab', { mergeMode: 'ite' });
    expect(base.completedPaths).toBe(22);
    const r = await run('t2_ab', { useIncrementalMerging: false });
    expect(k(r).leaves).toBe(22);
    expect(k(r).quantifiedMerges + k(r).fallbackSynthesis + k(r).fallbackPatterns + k(r).fallbackHash).toBeGreaterThan(0);
  });

  it('T2 with incremental merging (§4): Fig. 2\'s tree with a ∨ b letters, 7 leaves, 2 merged states, count ↦ k', async () => {
    const r = await run('t2_ab', { useIncrementalMerging: true });
    // one merge per iteration (s[i] = a with ¬ s[i] = a ∧ s[i] = b), one join each (the ¬a node)
    expect(k(r).incrementalMerges).toBe(3);
    expect(k(r).incrementalJoins).toBe(3);
    expect(k(r).leaves).toBe(7);
    expect(k(r).quantifiedMerges).toBe(2);
    expect(k(r).quantifiedMergedStates).toBe(5);
    expect(k(r).linearValues).toBe(2);
    expect(k(r).iteValues).toBe(0);
    expect(k(r).fallbackHash + k(r).fallbackPatterns + k(r).fallbackSynthesis).toBe(0);
    // the core's letter: ∀i. i−1 < n ∧ (s[i−1] = 97 ∨ (¬ s[i−1] = 97 ∧ s[i−1] = 98))
    const all = r.pcs.map((p) => p.join('\n')).join('\n');
    expect(all).toMatch(/Forall i\d+ w32 .*\(Ult N\d+:\(Add w32 4294967295 i\d+\) .*\(Or w1 N\d+:\(Eq 97 N\d+:\(Read w8 N\d+ s\)\) \(And w1 \(Not w1 N\d+\) \(Eq 98 N\d+\)\)\)/);
  });

  it('T3: the index merges to k, the sum (not linear) to an ite chain on k', async () => {
    const r = await run('t3_sum');
    expect(k(r).leaves).toBe(5);
    expect(k(r).quantifiedMerges).toBe(1);
    expect(k(r).linearValues).toBeGreaterThanOrEqual(1);
    expect(k(r).iteValues).toBeGreaterThanOrEqual(1);
  });

  it('T4: stride 2 synthesises a = 2 (s[2x−2], i ↦ 2k)', async () => {
    const base = await run('t4_stride', { mergeMode: 'ite' });
    expect(base.completedPaths).toBe(7);
    const r = await run('t4_stride');
    expect(k(r).quantifiedMerges).toBe(2);
    const all = r.pcs.map((p) => p.join('\n')).join('\n');
    // φ2 = n > 2x−2 ∧ s[2x−2] = 120; φ3 = n > 2k ∧ ¬ s[2k] = 120 (mismatch) or ¬ n > 2k
    expect(all).toMatch(/\(Ult (N\d+):\(Add w32 4294967294 \(Mul w32 2 i\d+\)\) .*\(Eq 120 \(Read w8 \1 s\)\)/);
    const k2 = /(N\d+):\(Mul w32 2 (N\d+)\)[^]*\(Not w1 \(Eq 120 \(Read w8 \1 s\)\)\)/.exec(all);
    expect(k2).not.toBeNull();
    expect(all).toContain(`${k2![2]}:(Concat w32 (Read w8 3 __k`);
  });

  it('T5: two varying constants per condition: no formula pattern, standard merging, no ∀', async () => {
    const r = await run('t5_pairs');
    expect(k(r).quantifiedMerges).toBe(0);
    expect(k(r).fallbackSynthesis).toBeGreaterThan(0);
    for (const p of r.pcs) expect(p.join('\n')).not.toMatch(/Forall/);
  });

  it('T5: no quantified merge, so the leaves go on unmerged by default; ite merging only with quantifiedIteFallback', async () => {
    const base = await run('t5_pairs', { mergeMode: 'ite' });
    const r = await run('t5_pairs');
    expect(k(r).fallbackSynthesis).toBeGreaterThan(0);
    expect(r.completedPaths).toBe(base.completedPaths); // before (ite fallback by default): fewer, merged
    const ite = await run('t5_pairs', { quantifiedIteFallback: true });
    expect(ite.completedPaths).toBeLessThan(base.completedPaths);
    for (const p of ite.pcs) expect(p.join('\n')).not.toMatch(/Forall/);
  });

  it('T8: two merged states whatever the capacity, a pc constant in size; chained calls stay compact, ite merging grows', async () => {
    // the distinct shapes (witness tests of merged states repeat their state's path condition)
    const shape = (r: Run): number[] => [...new Set(r.pcs.map((p) => p.join('').replace(/\d+/g, '').length))].sort((a, b) => a - b);
    const single: number[][] = [];
    for (const cap of [3, 10, 50]) {
      const r = await run('t8_chain', {}, [`-DCAP=${cap}`, '-DCHAIN=0']);
      expect(k(r).quantifiedMerges).toBe(2);
      expect(k(r).leaves).toBe(2 * cap + 1); // BASE's paths
      single.push(shape(r));
    }
    // only the range constants change with C
    expect(single[1]).toEqual(single[0]);
    expect(single[2]).toEqual(single[0]);
    const chain10 = await run('t8_chain', {}, ['-DCAP=10']);
    const chain50 = await run('t8_chain', {}, ['-DCAP=50']);
    expect(k(chain50).fallbackSynthesis + k(chain50).fallbackPatterns + k(chain50).fallbackHash).toBe(0);
    expect(shape(chain50)).toEqual(shape(chain10));
    // standard (ite) merging at the loop exits: the path condition grows with C
    const ite = { mergeMode: 'ite', stateMerging: 'static', qceAlpha: Infinity } as const;
    const len = (r: Run): number => Math.max(...r.pcs.map((p) => p.join('').length));
    const ite3 = await run('t8_chain', ite, ['-DCAP=3', '-DCHAIN=0']);
    const ite10 = await run('t8_chain', ite, ['-DCAP=10', '-DCHAIN=0']);
    expect(len(ite10)).toBeGreaterThan(2 * len(ite3));
  });

  it('the fixtures’ sources are the digest’s programs', () => {
    expect(readFileSync(join(DIR, 't1_memspn.c'), 'utf8')).toContain("if (s[count] != 'a') break;");
  });
});
