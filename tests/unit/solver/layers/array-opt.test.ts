/**
 * --optimize-array=index|all in the solver chain (src/solver/layers/array-index-opt.ts,
 * array-opt.ts): the rewrites remove the constant-table reads and are exact — checked against
 * the original expression for every value of a 16-bit index (past the tables' ends too).
 */
import { describe, expect, it } from '@jest/globals';
import { builder as b, constant, Evaluator, ExprArray, ExprKind, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { indexRewrite } from '../../../../src/solver/layers/array-index-opt.js';
import { ArrayOptSolver, countTableReads, valueRewrite } from '../../../../src/solver/layers/array-opt.js';
import { Validity, type Query, type Solver } from '../../../../src/solver/solver.js';

const K = new ExprArray('k', 2);
const kUl = new UpdateList(K);
/** The 16-bit input, zero-extended to an index. */
const k32 = b.zext(b.concat(b.read(kUl, constant(1, 32)), b.read(kUl, constant(0, 32))), 32);
const c32 = (v: number): Expr => constant(v, 32);
const c8 = (v: number): Expr => constant(v, 8);

function table(name: string, bytes: number[]): UpdateList {
  return new UpdateList(new ExprArray(name, bytes.length, Uint8Array.from(bytes)));
}
/** The little-endian int at byte offset `off` of the table. */
function int32At(t: UpdateList, off: Expr): Expr {
  const byte = (i: number): Expr => b.read(t, b.add(c32(i), off));
  return b.concat(b.concat(b.concat(byte(3), byte(2)), byte(1)), byte(0));
}

/** e and r agree for every value of k. */
function expectEquivalent(e: Expr, r: Expr): void {
  const bytes = new Uint8Array(2);
  const asg = new Map([[K, bytes]]);
  for (let v = 0; v < 65536; v++) {
    bytes[0] = v & 0xff;
    bytes[1] = v >> 8;
    const [x, y] = [new Evaluator(asg).valueOf(e), new Evaluator(asg).valueOf(r)];
    if (x !== y) throw new Error(`k=${v}: original ${x}, rewritten ${y}\n${e}\n${r}`);
  }
}

const bits = table('bits', [0, 1, 0, 1, 0]);
const cubes = table(
  'cubes',
  Array.from({ length: 50 }, (_, i) => [0, 1, 2, 3].map((j) => ((i * i * i) >>> (8 * j)) & 0xff)).flat(),
);

describe('index rewrite', () => {
  it("turns t[k] == 0 into comparisons of k (KLEE's test_feasible)", () => {
    const e = b.eq(c8(0), b.read(bits, k32));
    const r = indexRewrite(e)!;
    expect(r).not.toBeNull();
    expect(countTableReads(e)).toBe(1);
    expect(countTableReads(r)).toBe(0);
    expectEquivalent(e, r);
    // past the end the read is 0, so k ≥ 5 satisfies it too: the rewrite says so
    expect(r.toString()).not.toMatch(/bits/);
  });

  it('handles a scaled index into an int table (candidates only at multiples of 4) and a shifted one', () => {
    const off = b.mul(c32(4), k32);
    const e = b.slt(c32(1000), int32At(cubes, off));
    const r = indexRewrite(e)!;
    expect(countTableReads(r)).toBe(0);
    expectEquivalent(e, r);
    const prev = b.slt(c32(1000), int32At(cubes, b.mul(c32(4), b.add(c32(0xffffffff), k32))));
    const rp = indexRewrite(prev)!;
    expect(countTableReads(rp)).toBe(0);
    expectEquivalent(prev, rp);
  });

  it('handles a table indexed by a table (the inner read is the index base)', () => {
    const inner = table('perm', [3, 0, 4, 1, 2]);
    const outer = table('vals', [10, 20, 30, 40, 50]);
    const e = b.ult(c8(25), b.read(outer, b.zext(b.read(inner, k32), 32)));
    const r = indexRewrite(e)!;
    expect(countTableReads(r)).toBe(0);
    expectEquivalent(e, r);
  });

  it('handles constant writes over the table, past its end too', () => {
    const t = table('w', [7, 7, 7]).extend(c32(1), c8(9)).extend(c32(5), c8(7));
    const e = b.eq(c8(7), b.read(t, k32));
    const r = indexRewrite(e)!;
    expect(countTableReads(r)).toBe(0);
    expectEquivalent(e, r);
  });

  it('leaves conditions with two indices, or the index used outside the read, or a symbolic table', () => {
    const j = b.zext(b.read(kUl, c32(1)), 32);
    expect(indexRewrite(b.eq(b.read(bits, k32), b.read(bits, j)))).toBeNull();
    expect(indexRewrite(b.and(b.ult(k32, c32(3)), b.eq(c8(1), b.read(bits, k32))))).toBeNull();
    const sym = new UpdateList(new ExprArray('s', 5));
    expect(indexRewrite(b.eq(c8(1), b.read(sym, k32)))).toBeNull();
    const symWrite = bits.extend(c32(2), b.read(kUl, c32(0)));
    expect(indexRewrite(b.eq(c8(1), b.read(symWrite, k32)))).toBeNull();
  });
});

describe('value rewrite (all)', () => {
  it('turns each read into a choice among the values, 0 past the end', () => {
    const j = b.zext(b.read(kUl, c32(1)), 32);
    const e = b.eq(b.read(bits, k32), b.read(table('t2', [5, 0, 5, 1]), j));
    const r = valueRewrite(e)!;
    expect(countTableReads(r)).toBe(0);
    expectEquivalent(e, r);
  });
});

/** A core that records the queries it gets and answers Unknown / false / 0 / no model. */
class Recorder implements Solver {
  seen: Query[] = [];
  computeTruth(q: Query): boolean {
    this.seen.push(q);
    return false;
  }
  computeValidity(q: Query): Validity {
    this.seen.push(q);
    return Validity.Unknown;
  }
  computeValue(q: Query): bigint {
    this.seen.push(q);
    return 0n;
  }
  computeInitialValues(q: Query): null {
    this.seen.push(q);
    return null;
  }
  stats() {
    return [{ layer: 'core', queries: this.seen.length, hits: 0, timeMs: 0 }];
  }
  dispose(): void {}
}

describe('the layer', () => {
  it('passes the rewritten constraints and question down, and counts what it removed', () => {
    const core = new Recorder();
    const s = new ArrayOptSolver(core, 'index');
    const pc = [b.ult(k32, c32(5)), b.eq(c8(0), b.read(bits, k32))];
    s.computeValidity({ constraints: pc, expr: b.eq(c8(1), b.read(bits, b.add(c32(1), k32))) });
    s.computeValidity({ constraints: pc, expr: b.ult(k32, c32(2)) });
    const q = core.seen[0]!;
    expect(q.constraints[0]).toBe(pc[0]);
    expect([...q.constraints, q.expr].map(countTableReads)).toEqual([0, 0, 0]);
    expect(core.seen[1]!.constraints[1]).toBe(q.constraints[1]); // memoised
    const st = s.stats()[0]!;
    expect(st).toMatchObject({ layer: 'array-opt', queries: 2, rewrites: 2, readsRemoved: 2 });
  });

  it("in 'all' mode falls back to the value rewrite; in 'index' mode leaves such expressions", () => {
    const j = b.zext(b.read(kUl, c32(1)), 32);
    const e = b.eq(b.read(bits, k32), b.read(bits, j));
    const idx = new Recorder();
    new ArrayOptSolver(idx, 'index').computeTruth({ constraints: [], expr: e });
    expect(idx.seen[0]!.expr).toBe(e);
    const all = new Recorder();
    new ArrayOptSolver(all, 'all').computeTruth({ constraints: [], expr: e });
    expect(countTableReads(all.seen[0]!.expr)).toBe(0);
    expect(all.seen[0]!.expr.kind).not.toBe(ExprKind.Constant);
  });
});
