import { describe, expect, it } from '@jest/globals';
import { FunctionCfg } from '../../../../src/engine/merging/cfg.js';
import { computeCounts, Counts } from '../../../../src/engine/merging/qce-counts.js';

// variables of the paper's Fig. 1 example
const ARG = 0;
const I = 1;
const R = 2;

describe('QCE counts (paper 001 §3.3, the worked example)', () => {
  // the hand CFG of §3.3 (κ = 1 already unrolled): 7 → 8 | 10; 8 → 9 | 10; 9 → 10; 10 → 11 | 12; 11 → 12; 12 halt
  const blocks = { 7: 0, 8: 1, 9: 2, 10: 3, 11: 4, 12: 5 } as const;
  const succ = [[1, 3], [2, 3], [3], [4, 5], [5], []];
  const local = [Counts.site(1, [ARG]), Counts.site(1, [ARG, I]), new Counts(), Counts.site(1, [R]), new Counts(), new Counts()];
  const counts = computeCounts(new FunctionCfg(succ), local, { beta: 0.6, tripCount: () => 1 });
  const at7 = counts.entry[blocks[7]]!;

  it('gives the paper\'s Qt(7), Qadd(7, arg), Qadd(7, r)', () => {
    expect(at7.qt).toBeCloseTo(2.92, 12);
    expect(at7.get(ARG)).toBeCloseTo(1.6, 12);
    expect(at7.get(R)).toBeCloseTo(1.32, 12);
  });

  it('makes only arg hot at α = 0.5 (H(7) = {arg})', () => {
    const alpha = 0.5;
    const hot = [ARG, I, R].filter((v) => at7.get(v) > alpha * at7.qt);
    expect(hot).toEqual([ARG]);
  });

  it('counts only what follows a block in `after`', () => {
    expect(counts.after[blocks[7]]!.qt).toBeCloseTo(0.6 * counts.entry[blocks[8]]!.qt + 0.6 * counts.entry[blocks[10]]!.qt, 12);
    expect(counts.entry[blocks[12]]!.qt).toBe(0);
  });
});

describe('QCE counts with loops unrolled', () => {
  // the same program with its loops kept: 0: arg<argc → 1 | 3; 1: argv[arg][i] → 2 | (back to 0 via 4); 2 → 1 (i++); 4: ++arg → 0; 3: if (r) → 5 | 6; 5 → 6
  const succ = [[1, 3], [2, 4], [1], [5, 6], [0], [6], []];
  const local = [Counts.site(1, [ARG]), Counts.site(1, [ARG, I]), new Counts(), Counts.site(1, [R]), new Counts(), new Counts(), new Counts()];

  it('with κ = 1 it equals the hand-unrolled graph', () => {
    const c = computeCounts(new FunctionCfg(succ), local, { beta: 0.6, tripCount: () => 1 });
    expect(c.entry[0]!.qt).toBeCloseTo(2.92, 12);
    expect(c.entry[0]!.get(ARG)).toBeCloseTo(1.6, 12);
    expect(c.entry[0]!.get(R)).toBeCloseTo(1.32, 12);
  });

  it('grows with κ and keeps r cold where arg is hot', () => {
    const c1 = computeCounts(new FunctionCfg(succ), local, { beta: 0.8, tripCount: () => 1 });
    const c10 = computeCounts(new FunctionCfg(succ), local, { beta: 0.8, tripCount: () => 10 });
    expect(c10.entry[0]!.qt).toBeGreaterThan(c1.entry[0]!.qt);
    expect(c10.entry[0]!.get(ARG)).toBeGreaterThan(c10.entry[0]!.get(R));
    // a single loop: q0 = C·(1+β+…+β^(T−1)) + β^T·exit, exactly
    const single = computeCounts(new FunctionCfg([[1, 2], [0], []]), [Counts.site(1, [ARG]), new Counts(), Counts.site(1, [R])], { beta: 0.8, tripCount: () => 3 });
    const exit = 1;
    const c = 1 + 0.8 * exit;
    expect(single.entry[0]!.qt).toBeCloseTo(c * (1 + 0.8 + 0.64) + 0.8 ** 3 * exit, 12);
  });
});
