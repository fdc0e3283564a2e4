/**
 * The byte sets a path condition keeps (src/solver/layers/byte-sets.ts) and the fast layer's
 * answers from them: the same answers, models included, as reading the whole constraint list
 * (a copy of the list carries no byte sets, so the layer reads it constraint by constraint).
 */
import { builder as b, ExprArray, TRUE, UpdateList, type Expr } from '../../../src/expr/index.js';
import { Validity } from '../../../src/solver/solver.js';
import { RefusingSolver } from '../../support/refusing-solver.js';
import { FastSolver } from '../../../src/solver/layers/fast-solver.js';
import { ConstraintSet } from '../../../src/solver/layers/constraint-set.js';
import { byteSetsOf } from '../../../src/solver/layers/byte-sets.js';
import { prng } from '../../support/prng.js';

const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const COMPARISONS = [b.ult, b.ule, b.slt, b.sle, b.eq] as const;

/** A simple constraint on one byte: a comparison of it (or its extension to 32 bits) with a constant, maybe negated. */
function byteConstraint(next: () => number, arrays: readonly ExprArray[]): Expr {
  const a = arrays[Math.floor(next() * arrays.length)]!;
  let x = rd(a, Math.floor(next() * a.size));
  let w = 8;
  if (next() < 0.5) {
    x = next() < 0.5 ? b.zext(x, 32) : b.sext(x, 32);
    w = 32;
  }
  // a 32-bit constant may lie outside the byte's range, on either side
  const c = w === 8 ? b.constant(Math.floor(next() * 256), 8) : b.constant((Math.floor(next() * 512) - 128) >>> 0, 32);
  const cmp = COMPARISONS[Math.floor(next() * COMPARISONS.length)]!;
  const e = next() < 0.5 ? cmp(x, c) : cmp(c, x);
  return next() < 0.4 ? b.not(e) : e;
}

describe('byte sets along a path condition', () => {
  const x = new ExprArray('x', 4);
  const y = new ExprArray('y', 3);

  it('give the fast layer the same answers and models as the whole list, on random paths', () => {
    const fast = new FastSolver(new RefusingSolver('the fast layer passed on a simple question'), { name: 'fast-top', searchBudget: 0 });
    const next = prng(11);
    let answeredFromSets = 0;
    for (let path = 0; path < 300; path++) {
      const cs = new ConstraintSet({ rewriteEqualities: false });
      for (let depth = 0; depth < 8; depth++) {
        const q = byteConstraint(next, [x, y]);
        const list = cs.toArray();
        if (byteSetsOf(list) !== undefined) answeredFromSets++;
        const v = fast.computeValidity({ constraints: list, expr: q });
        expect(v).toBe(fast.computeValidity({ constraints: [...list], expr: q }));
        // go where the path can go, as the engine does
        const c = v === Validity.False ? b.not(q) : v === Validity.True ? q : next() < 0.5 ? q : b.not(q);
        expect(cs.add(c)).toBe(true);
        const now = cs.toArray();
        const model = fast.computeInitialValues({ constraints: now, expr: TRUE }, [x, y, x]);
        expect(model).toEqual(fast.computeInitialValues({ constraints: [...now], expr: TRUE }, [x, y, x]));
      }
    }
    expect(answeredFromSets).toBeGreaterThan(1000); // the sets were there to be used
  });

  it('are kept per fork, and dropped by a constraint that is not simple or rewrites the list', () => {
    const cs = new ConstraintSet();
    expect(cs.add(b.ult(rd(x, 0), b.constant(10, 8)))).toBe(true);
    const first = byteSetsOf(cs.toArray())!.setOf(x, 0)!;
    expect([first.min(), first.max()]).toEqual([0n, 9n]);
    const fork = cs.fork();
    expect(fork.add(b.ult(b.constant(3, 8), rd(x, 0)))).toBe(true);
    expect(cs.add(b.ult(rd(y, 1), b.constant(7, 8)))).toBe(true);
    const mine = byteSetsOf(cs.toArray())!;
    const theirs = byteSetsOf(fork.toArray())!;
    expect(mine.setOf(x, 0)!.min()).toBe(0n);
    expect(mine.setOf(y, 1)!.max()).toBe(6n);
    expect(theirs.setOf(x, 0)!.min()).toBe(4n);
    expect(theirs.setOf(x, 0)!.max()).toBe(9n);
    expect(theirs.setOf(y, 1)).toBeUndefined();
    // two bytes in one constraint: not simple on one byte
    expect(fork.add(b.ult(rd(x, 1), rd(x, 2)))).toBe(true);
    expect(byteSetsOf(fork.toArray())).toBeUndefined();
    expect(fork.add(b.ult(rd(x, 3), b.constant(9, 8)))).toBe(true);
    expect(byteSetsOf(fork.toArray())).toBeUndefined(); // not back: the list holds a complex constraint
    // an equality rewrites the list (KLEE's --rewrite-equalities): read as a whole from then on
    expect(cs.add(b.eq(b.constant(5, 8), rd(x, 0)))).toBe(true);
    expect(byteSetsOf(cs.toArray())).toBeUndefined();
    expect(cs.add(b.ult(rd(y, 2), b.constant(100, 8)))).toBe(true);
    expect(byteSetsOf(cs.toArray())).toBeUndefined(); // and stays so
    // so does a conjunction (split into the list)
    const split = new ConstraintSet({ rewriteEqualities: false });
    expect(split.add(b.and(b.ult(rd(y, 0), b.constant(9, 8)), b.ult(rd(y, 1), b.constant(9, 8))))).toBe(true);
    expect(split.add(b.ult(rd(y, 2), b.constant(9, 8)))).toBe(true);
    expect(byteSetsOf(split.toArray())).toBeUndefined();
    // a list changed by anyone but its set carries nothing
    const other = new ConstraintSet();
    expect(other.add(b.ult(rd(y, 0), b.constant(200, 8)))).toBe(true);
    expect(byteSetsOf([...other.toArray()])).toBeUndefined();
  });
});
