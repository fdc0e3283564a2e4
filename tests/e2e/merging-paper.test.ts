/**
 * The small programs of paper 001's digest (§10, T1–T9) under --state-merging, each with the
 * effect the paper predicts: merges, refusals by QCE, multiplicities, and dynamic merging's
 * fast-forwarding. Every completed path's exit value is also checked against its test's inputs.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, runC, valueUnder, type RunResult } from '../unit/engine/support/run-c.js';
import type { EngineOptions } from '../../src/engine/options.js';

afterAll(() => disposeSolver());

const STATIC: Partial<EngineOptions> = { stateMerging: 'static' };
const DYNAMIC_BFS: Partial<EngineOptions> = { stateMerging: 'dynamic', search: ['bfs'] };

/** T1: dead-variable diamonds. */
const T1 = (n: number): string => `#include <klee/klee.h>
int main(void) {
  unsigned char x[${n}]; klee_make_symbolic(x, ${n}, "x");
  int cnt = 0;
  for (int i = 0; i < ${n}; i++) if (x[i] > 100) cnt++;
  return 0;
}`;

/** T2: a hot concrete variable (k decides every later branch). */
const T2 = `#include <klee/klee.h>
int main(void) {
  unsigned char x; klee_make_symbolic(&x, 1, "x");
  int k; if (x > 100) k = 3; else k = 5;
  int buf[8]; for (int j = 0; j < k; j++) buf[j] = j;
  return buf[k - 1];
}`;

/** T4: loop exits that differ only in a dead counter. */
const T4 = (n: number, l: number): string => `#include <klee/klee.h>
int main(void) {
  char s[${n}][${l}]; klee_make_symbolic(s, sizeof s, "s");
  for (int k = 0; k < ${n}; k++) { s[k][${l - 1}] = 0; int i = 0; while (s[k][i] != 0) i++; }
  return 0;
}`;

/** T6: sleep-like accumulation (sec symbolic in one state, concrete in the other: mergeable). */
const T6 = (n: number): string => `#include <klee/klee.h>
int main(void) {
  char s[${n}]; klee_make_symbolic(s, ${n}, "s"); unsigned sec = 0;
  for (int i = 0; i < ${n}; i++)
    if (s[i] >= '0' && s[i] <= '9') sec = sec * 10 + (s[i] - '0'); else sec += 1;
  if (sec >= ${10 ** n}u) klee_assert(0);
  return (int)(sec % 7);
}`;

function endedMultiplicity(r: RunResult): number {
  return r.merging?.pathMultiplicity ?? r.completedPaths + (r.exploredPaths - r.completedPaths);
}

/** Every completed path's recorded exit value matches what its test's inputs compute (C semantics in `f`). */
function checkExitValues(r: RunResult & { bc: string }, f: (bytes: Uint8Array) => number): void {
  for (const t of r.tests) {
    const end = r.ends.find((e) => e.testId === t.id)!;
    if (end.exitValue === undefined) continue;
    expect(Number(valueUnder(end.exitValue, t))).toBe(f(t.ktest!.objects[0]!.bytes));
  }
}

describe('T1: dead-variable diamonds merge whatever α', () => {
  const n = 8;
  it('explores 2^N paths without merging', async () => {
    const r = await runC(T1(n));
    expect(r.completedPaths).toBe(2 ** n);
    expect(r.merging).toBeNull();
  });

  it('static merging: one completed state standing for 2^N paths, N forks', async () => {
    for (const qceAlpha of [0, 1e-12, Infinity]) {
      const r = await runC(T1(n), { ...STATIC, qceAlpha });
      expect(r.completedPaths).toBe(1);
      expect(r.forks).toBe(n);
      expect(r.merging!.merges).toBe(n);
      expect(r.merging!.pathMultiplicity).toBe(2 ** n);
      expect(r.merging!.refusedBySimilarity).toBe(0);
    }
  });

  it('dynamic merging under BFS: far fewer states, multiplicity exactly 2^N', async () => {
    const r = await runC(T1(n), DYNAMIC_BFS);
    expect(r.completedPaths).toBeLessThan(4);
    expect(endedMultiplicity(r)).toBe(2 ** n);
  });
});

describe('T2: QCE keeps states apart where a hot concrete variable differs', () => {
  it('QCE refuses the merge at the join: one symbolic branch, 2 paths', async () => {
    const r = await runC(T2, STATIC);
    expect(r.forks).toBe(1);
    expect(r.merging!.refusedBySimilarity).toBeGreaterThan(0);
    checkExitValues(r, (b) => (b[0]! > 100 ? 2 : 4));
  });

  it('merging everything (α = ∞) makes k symbolic: the loop forks again and queries grow', async () => {
    const qce = await runC(T2, STATIC);
    const all = await runC(T2, { ...STATIC, qceAlpha: Infinity });
    expect(all.merging!.refusedBySimilarity).toBe(0);
    expect(all.forks).toBeGreaterThan(qce.forks);
    expect(all.queries).toBeGreaterThan(qce.queries);
    checkExitValues(all, (b) => (b[0]! > 100 ? 2 : 4));
  });
});

describe('T4: loop exits merge (the echo inner-loop effect)', () => {
  const n = 2;
  const l = 4;
  it('none: L^N paths; static: 1 state of multiplicity L^N', async () => {
    const none = await runC(T4(n, l));
    expect(none.completedPaths).toBe(l ** n);
    const merged = await runC(T4(n, l), STATIC);
    expect(merged.completedPaths).toBe(1);
    expect(merged.merging!.pathMultiplicity).toBe(l ** n);
  });
});

describe('T6: sleep-like accumulation merges into one state', () => {
  const n = 4;
  const sec = (b: Uint8Array): number => {
    let s = 0;
    for (let i = 0; i < n; i++) {
      const c = (b[i]! << 24) >> 24;
      s = c >= 48 && c <= 57 ? (s * 10 + (c - 48)) >>> 0 : (s + 1) >>> 0;
    }
    return s % 7;
  };
  it('none: 3^N paths', async () => {
    const r = await runC(T6(n));
    expect(r.completedPaths).toBe(3 ** n);
  });

  it('static: one state of multiplicity 3^N, no false assertion failure', async () => {
    const r = await runC(T6(n), STATIC);
    expect(r.completedPaths).toBe(1);
    expect(r.merging!.pathMultiplicity).toBe(3 ** n);
    expect(r.tests.filter((t) => t.err !== undefined)).toEqual([]);
    checkExitValues(r, sec);
  });
});

describe('T7: raising α keeps fewer states apart', () => {
  const program = `#include <klee/klee.h>
int main(void) {
  unsigned char x; char s[2][4]; klee_make_symbolic(&x, 1, "x"); klee_make_symbolic(s, sizeof s, "s");
  int k; if (x > 100) k = 3; else k = 5;
  int buf[8]; for (int j = 0; j < k; j++) buf[j] = j;
  for (int q = 0; q < 2; q++) { s[q][3] = 0; int i = 0; while (s[q][i] != 0) i++; }
  return buf[0];
}`;
  it('refusals(α=0) ≥ refusals(1e-12) ≥ refusals(0.5) ≥ refusals(∞) = 0, and α = 0 still merges dead variables', async () => {
    const runs: RunResult[] = [];
    for (const qceAlpha of [0, 1e-12, 0.5, Infinity]) runs.push(await runC(program, { ...STATIC, qceAlpha }));
    const refused = runs.map((r) => r.merging!.refusedBySimilarity);
    for (let i = 1; i < refused.length; i++) expect(refused[i]).toBeLessThanOrEqual(refused[i - 1]!);
    expect(refused[3]).toBe(0);
    expect(refused[0]).toBeGreaterThan(0);
    expect(runs[0]!.merging!.merges).toBeGreaterThan(0);
  });
});

describe('T8: dynamic merging does not hold states back the way static merging does (Fig. 2)', () => {
  // the then side computes a concrete hash of 10 symbolic bits (2^10 paths QCE keeps apart:
  // the hash decides a later branch); handlePacket's failure needs only the cheap else side
  const program = `#include <klee/klee.h>
#include <assert.h>
int computeHash(unsigned char *p, int k) { int h = 0; for (int i = 0; i < k; i++) { if (p[i] & 1) h = h * 2 + 1; else h = h * 2; } return h; }
int handlePacket(unsigned char *p, int hash) { if (p[0] == 42) assert(0 && "reached"); if (hash == 77) return 1; return 0; }
int main(void) {
  unsigned char pkt[12]; int log; klee_make_symbolic(pkt, sizeof pkt, "pkt"); klee_make_symbolic(&log, sizeof log, "log");
  int hash = 0;
  if (log) hash = computeHash(pkt + 1, 10);
  return handlePacket(pkt, hash);
}`;
  it('within a small instruction budget DSM reaches handlePacket, SSM does not', async () => {
    const budget = { maxInstructions: 3000 };
    const found = (r: RunResult): boolean => r.tests.some((t) => t.err === 'assert');
    const ssm = await runC(program, { ...STATIC, ...budget });
    expect(ssm.merging!.refusedBySimilarity).toBeGreaterThan(0);
    expect(found(ssm)).toBe(false);
    const dsm = await runC(program, { stateMerging: 'dynamic', search: ['random-path'], ...budget });
    expect(found(dsm)).toBe(true);
  });
});

describe('T9: dynamic merging only catches up within δ blocks', () => {
  // the then arm runs m loop iterations (about 3 blocks each) before the join, the else arm none
  const program = (m: number): string => `#include <klee/klee.h>
int main(void) {
  unsigned char x[4]; klee_make_symbolic(x, 4, "x");
  int acc = 0;
  if (x[0] > 100) { for (int j = 0; j < ${m}; j++) acc += j; }
  int r = 0;
  for (int i = 1; i < 4; i++) if (x[i] > 7) r++;
  return r;
}`;
  it('a short arm (within δ = 8) usually merges back; a long one (≫ δ) never does', async () => {
    let short = 0;
    let long = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const opts: Partial<EngineOptions> = { stateMerging: 'dynamic', search: ['random-state'], dsmDelta: 8, seed };
      short += (await runC(program(1), opts)).completedPaths;
      const l = await runC(program(30), opts);
      // the arms never meet again: each ends as a state of its own
      expect(l.completedPaths).toBeGreaterThanOrEqual(2);
      long += l.completedPaths;
    }
    expect(long).toBeGreaterThan(short);
  });
});
