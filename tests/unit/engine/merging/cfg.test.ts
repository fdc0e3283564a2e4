import { describe, expect, it } from '@jest/globals';
import { FunctionCfg } from '../../../../src/engine/merging/cfg.js';

/** Blocks in the order of the CFG's topological ranks. */
function order(cfg: FunctionCfg): number[] {
  return Array.from({ length: cfg.size }, (_, b) => b).sort((x, y) => cfg.topoRank[x]! - cfg.topoRank[y]!);
}

describe('FunctionCfg: dominators, loops, the loop-contiguous topological order', () => {
  it('a diamond: both arms before the join', () => {
    const cfg = new FunctionCfg([[1, 2], [3], [3], []]);
    expect(cfg.loops).toEqual([]);
    expect(Array.from(cfg.idom)).toEqual([0, 0, 0, 0]);
    const o = order(cfg);
    expect(o[0]).toBe(0);
    expect(o[3]).toBe(3);
  });

  it('a loop: its body comes right after its header and before the exit, whatever the successor order', () => {
    // 0 → 1 (header) → 2 (body) → 1; 1 → 3 (exit); exit listed first and second
    for (const succ of [[[1], [3, 2], [1], []], [[1], [2, 3], [1], []]]) {
      const cfg = new FunctionCfg(succ);
      expect(cfg.loops.map((l) => [l.header, [...l.blocks].sort()])).toEqual([[1, [1, 2]]]);
      expect(cfg.isBackEdge(2, 1)).toBe(true);
      expect(order(cfg)).toEqual([0, 1, 2, 3]);
    }
  });

  it('nested loops stay contiguous and nested (inner inside outer, exits after)', () => {
    // 0 → 1 (outer header) → 2 (inner header) → 3 (inner body) → 2; 2 → 4 (outer latch) → 1; 1 → 5 (exit)
    const cfg = new FunctionCfg([[1], [5, 2], [4, 3], [2], [1], []]);
    expect(cfg.loops.length).toBe(2);
    const inner = cfg.loops.find((l) => l.header === 2)!;
    const outer = cfg.loops.find((l) => l.header === 1)!;
    expect(inner.parent).toBe(outer);
    expect(inner.depth).toBe(2);
    expect(order(cfg)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('irreducible control flow still gets a total order', () => {
    // 0 → 1 | 2; 1 → 2; 2 → 1 (a cycle entered twice: no natural loop)
    const cfg = new FunctionCfg([[1, 2], [2], [1, 3], []]);
    expect(cfg.loops).toEqual([]);
    expect(new Set(Array.from(cfg.topoRank)).size).toBe(4);
  });
});
