/**
 * The fast layer's case split of disjunctions (fast-cases.ts): a merged state's path
 * condition — one disjunct per merged path, each a conjunction of one-byte constraints over
 * several bytes — is decided without the next layer, exactly, and within the case limit.
 */
import { builder as b, Evaluator, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import { Validity } from '../../../src/solver/solver.js';
import { FastSolver } from '../../../src/solver/layers/fast-solver.js';
import { conjunctsInto, disjunctsOf } from '../../../src/solver/layers/fast-cases.js';
import { RefusingSolver } from '../../support/refusing-solver.js';

const a = new ExprArray('arg', 10);
const rd = (i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const is = (i: number, c: number): Expr => b.eq(b.constant(c, 8), rd(i));
const SLASH = 0x2f;

/** The path that scans bytes 0..i-1 (neither NUL nor '/') and stops at byte i on `stop`. */
function scanPath(i: number, stop: number): Expr {
  let e = is(i, stop);
  for (let j = i - 1; j >= 0; j--) e = b.and(b.and(b.not(is(j, 0)), b.not(is(j, SLASH))), e);
  return e;
}

/** The scan loop's exits 0..n-1 at '/', merged one after another as merging/core.ts does. */
function mergedScan(n: number): Expr {
  let pc = scanPath(0, SLASH);
  for (let i = 1; i < n; i++) pc = b.or(pc, scanPath(i, SLASH));
  return pc;
}

describe('disjunctions and conjunctions as cases', () => {
  test('Or trees and ¬(x ∧ y) give their disjuncts; And trees and ¬(x ∨ y) their conjuncts', () => {
    const [x, y, z] = [is(0, 1), is(1, 2), is(2, 3)];
    expect(disjunctsOf(b.or(b.or(x, y), z))).toEqual([x, y, z]);
    expect(disjunctsOf(b.not(b.and(x, y)))).toEqual([b.not(x), b.not(y)]);
    expect(disjunctsOf(x)).toBeNull();
    const out: Expr[] = [];
    conjunctsInto(b.and(x, b.not(b.or(y, z))), out);
    expect(out).toEqual([x, b.not(y), b.not(z)]);
  });
});

describe('a merged path condition', () => {
  const pc = mergedScan(8);
  // the question the merged state asks after the loop: did the scan stop before byte k?
  const allPlain = (k: number): Expr[] => {
    const out: Expr[] = [];
    for (let j = 0; j < k; j++) out.push(b.not(is(j, 0)), b.not(is(j, SLASH)));
    return out;
  };

  test('UNSAT when every case is (no byte search: the top layer, budget 0)', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner, { searchBudget: 0 });
    expect(s.computeInitialValues({ constraints: [pc, ...allPlain(8)], expr: b.constant(1, 1) }, [a])).toBeNull();
    expect(inner.calls).toBe(0);
    expect(s.split).toBe(1);
  });

  test('SAT with a model of one case that satisfies the whole question', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner, { searchBudget: 0 });
    const q = { constraints: [pc, ...allPlain(5)], expr: is(7, SLASH) };
    const m = s.computeInitialValues(q, [a]);
    expect(m).not.toBeNull();
    const ev = new Evaluator(new Map([[a, m![0]!]]));
    for (const e of [...q.constraints, q.expr]) expect(ev.isTrue(e)).toBe(true);
    expect(inner.calls).toBe(0);
  });

  test('validity of a branch on a byte the disjuncts constrain differently', () => {
    const s = new FastSolver(new RefusingSolver(), { searchBudget: 0 });
    // byte 3 is '/' on one path, plain on later ones, unconstrained on earlier ones: both
    expect(s.computeValidity({ constraints: [pc], expr: is(3, SLASH) })).toBe(Validity.Unknown);
    // no path of the merged scan stops at NUL
    const stopsAtNul = b.or(b.or(is(0, 0), b.and(b.not(is(0, SLASH)), is(1, 0))), b.and(b.and(b.not(is(0, SLASH)), b.not(is(1, SLASH))), is(2, 0)));
    expect(s.computeValidity({ constraints: [pc, ...allPlain(1)], expr: b.not(b.and(is(1, SLASH), stopsAtNul)) })).toBe(Validity.True);
  });

  test('beyond the case limit the question goes to the next layer', () => {
    const inner = new RefusingSolver();
    const s = new FastSolver(inner, { searchBudget: 0 });
    // 9 × 9 cases of two independent merged scans, all UNSAT only after every pair is tried
    const other = new ExprArray('other', 10);
    const rdo = (i: number): Expr => b.read(new UpdateList(other), b.constant(i, 32));
    let pc2 = b.eq(b.constant(1, 8), rdo(0));
    for (let i = 1; i < 9; i++) pc2 = b.or(pc2, b.eq(b.constant(1, 8), b.add(rdo(i), rdo(0))));
    expect(() => s.computeInitialValues({ constraints: [mergedScan(9), pc2, ...allPlain(9)], expr: b.constant(1, 1) }, [a, other])).toThrow('undecided');
    expect(inner.calls).toBe(1);
  });
});
