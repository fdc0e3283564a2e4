/**
 * Paper 002's worked examples with their exact numbers (digest §2, §3.5, §5), built as the
 * engine builds them: a 4-byte little-endian load of `unsigned a[4]` at byte offset 4·i.
 */
import { AccessTypes, builder as b, ExprArray, UpdateList, type Expr } from '../../../../src/expr/index.js';
import { ArrayAxiomsSolver, Validity } from '../../../../src/solver/index.js';
import { Z3Solver } from '../../../../src/solver/z3/z3-solver.js';
import { Lowering } from '../../../../src/solver/arrays/lowering.js';
import { AxiomPool } from '../../../../src/solver/arrays/axiom-pool.js';
import { analyse } from '../../../../src/solver/ilp/analysis.js';
import { leWord } from '../../../support/le-word.js';

let z3: Z3Solver;
beforeAll(async () => {
  z3 = await Z3Solver.create();
});
afterAll(() => z3.dispose());

/** unsigned a[4] with these elements (little-endian bytes), read 4 bytes at a time. */
function table(elems: number[]): ExprArray {
  const bytes = new Uint8Array(elems.length * 4);
  elems.forEach((v, k) => new DataView(bytes.buffer).setUint32(4 * k, v, true));
  const a = new ExprArray('a', bytes.length, bytes);
  a.access = new AccessTypes();
  a.access.record(4);
  return a;
}

function sym(name: string): Expr {
  return leWord(new UpdateList(new ExprArray(name, 4)), 32);
}

/** a[x] as the engine reads it: bytes at 4·x + k. */
function element(a: ExprArray, x: Expr): Expr {
  const base = b.mul(b.constant(4, 32), x);
  let e = b.read(new UpdateList(a), base);
  for (let k = 1; k < 4; k++) e = b.concat(b.read(new UpdateList(a), b.add(base, b.constant(k, 32))), e);
  return e;
}

describe('§3.5 / Fig. 1: i+j > 4 ∧ a[i]+a[j] > 10 with 0 ≤ i, j ≤ 3', () => {
  const i = sym('i');
  const j = sym('j');
  const pc = [b.ule(i, b.constant(3, 32)), b.ule(j, b.constant(3, 32)), b.ult(b.constant(4, 32), b.add(i, j))];

  test('{0,0,0,5}: the pre-check proves UNSAT; i, j ∈ [2,3], byte indices [8,12], read intervals within [0,5]', () => {
    const a = table([0, 0, 0, 5]);
    const q = b.ult(b.constant(10, 32), b.add(element(a, i), element(a, j)));
    expect(analyse(pc, q, null).unsat).toBe(true);
    const r = analyse(pc, null, null, [b.mul(b.constant(4, 32), i), b.add(b.mul(b.constant(4, 32), i), b.constant(3, 32))]);
    expect(r.intervals.get(b.mul(b.constant(4, 32), i))).toEqual({ lo: 8n, hi: 12n });
    expect(r.intervals.get(b.add(b.mul(b.constant(4, 32), i), b.constant(3, 32)))).toEqual({ lo: 11n, hi: 15n });
  });

  test('{0,0,0,9}: SAT, candidate axioms 156 (128 element + 28 pair) → 20 (16 + 4)', () => {
    const a = table([0, 0, 0, 9]);
    const q = b.ult(b.constant(10, 32), b.add(element(a, i), element(a, j)));
    expect(analyse(pc, q, null).unsat).toBe(false);
    const iv = analyse(pc, q, null).intervals;
    const counts = (mode: 'plain' | 'typed' | 'typed-interval') => {
      const l = new Lowering();
      for (const f of [...pc, q]) l.lower(f);
      const pool = new AxiomPool(l, mode, (e) => iv.get(e));
      return { unpruned: pool.unpruned, pruned: pool.pruned };
    };
    const plain = counts('plain');
    expect(plain.unpruned.element + plain.unpruned.pair).toBe(156);
    expect(plain.pruned).toEqual(plain.unpruned);
    expect(plain.unpruned.bound).toBe(8); // tsklee's past-the-end rule, counted apart
    const typed = counts('typed-interval');
    expect(typed.pruned).toEqual({ element: 16, pair: 4, bound: 0 });
    expect(counts('typed').pruned).toEqual({ element: 32, pair: 4, bound: 8 });
  });

  test.each(['plain', 'typed', 'typed-interval'] as const)('{0,0,0,9}, %s: the own encoding finds i = j = 3 only', (mode) => {
    const a = table([0, 0, 0, 9]);
    const s = new ArrayAxiomsSolver(z3, { axioms: mode, generation: 'lazy', intervals: (cs, idx) => analyse(cs, null, null, idx).intervals });
    const q = b.ult(b.constant(10, 32), b.add(element(a, i), element(a, j)));
    expect(s.computeValidity({ constraints: pc, expr: q })).toBe(Validity.Unknown);
    const m = s.computeInitialValues({ constraints: pc, expr: q }, [rootOf(i), rootOf(j)])!;
    expect([...m[0]!]).toEqual([3, 0, 0, 0]);
    expect([...m[1]!]).toEqual([3, 0, 0, 0]);
    expect(s.last!.outsidePool).toBe(0);
  });
});

function rootOf(e: Expr): ExprArray {
  let x = e;
  while (x.kind !== 1) x = x.kid(x.numKids - 1); // down the Concat's low side to a Read
  return (x as Expr & { updates: UpdateList }).updates.root;
}

describe('§2 refinement example: R_I(a,i) > 10 ∧ 0 ≤ i ≤ 3, a = {0,0,0,11}', () => {
  const i = sym('i');
  const a = table([0, 0, 0, 11]);
  const pc = [b.ule(i, b.constant(3, 32))];
  const q = b.ult(b.constant(10, 32), element(a, i));

  test('4 candidate element axioms per byte variable; the model u = 12, i = 0 violates exactly i = 0 ⇒ u = 0', () => {
    const iv = analyse(pc, q, null).intervals;
    const l = new Lowering();
    for (const f of [...pc, q]) l.lower(f);
    const pool = new AxiomPool(l, 'typed-interval', (e) => iv.get(e));
    expect(l.reads).toHaveLength(4); // bytes 4i+0 … 4i+3
    expect(pool.pruned).toEqual({ element: 16, pair: 0, bound: 0 }); // 4 per byte: j = k, 4+k, 8+k, 12+k
    const base = b.mul(b.constant(4, 32), i);
    const byte0 = l.reads.find((r) => r.index === base)!;
    // the abstraction's model: i = 0, the read word u = 12 (byte 0 = 12, the others 0)
    const values = new Map<Expr, bigint>();
    for (let k = 0; k < 4; k++) {
      const r = l.reads.find((x) => x.index === (k === 0 ? base : b.add(base, b.constant(k, 32))))!;
      values.set(r.index, BigInt(k));
      values.set(r.value, k === 0 ? 12n : 0n);
    }
    const { axioms, outsidePool } = pool.violated({ value: (e) => values.get(e)! });
    expect(outsidePool).toBe(0);
    expect(axioms).toEqual([b.or(b.ne(byte0.index, b.constant(0, 32)), b.eq(byte0.value, b.constant(0, 8)))]);
  });

  test('CEGAR: SAT with i = 3 within the worst case of 4 refinements', () => {
    const s = new ArrayAxiomsSolver(z3, { axioms: 'typed-interval', generation: 'lazy', intervals: (cs, idx) => analyse(cs, null, null, idx).intervals });
    const m = s.computeInitialValues({ constraints: pc, expr: q }, [rootOf(i)])!;
    expect(m[0]![0]).toBe(3);
    expect(s.last!.rounds).toBeLessThanOrEqual(1 + 4);
  });
});
