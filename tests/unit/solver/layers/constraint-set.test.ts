/** The path condition: KLEE's equality rewriting, simplification, splitting, persistence. */
import { builder as b, Evaluator, ExprArray, UpdateList, TRUE, type Expr } from '../../../../src/expr/index.js';
import { ConstraintSet, conjunction, newConstraintSet } from '../../../../src/solver/layers/index.js';
import { Rng, SMALL_DOMAIN, SmallGen } from './gen.js';

const x = new ExprArray('x', 2);
const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const c8 = (v: number): Expr => b.constant(v, 8);
const x0 = rd(x, 0);
const x1 = rd(x, 1);

describe('ConstraintSet', () => {
  test('an equality with a constant rewrites the other constraints (and they fold)', () => {
    const s = new ConstraintSet();
    expect(s.add(b.ult(x0, c8(10)))).toBe(true);
    expect(s.add(b.ult(x1, b.add(x0, c8(5))))).toBe(true);
    expect(s.add(b.eq(c8(3), x0))).toBe(true);
    // x0 < 10 became 3 < 10 = true (dropped); x1 < x0 + 5 became x1 < 8
    expect(s.toArray()).toEqual([b.ult(x1, c8(8)), b.eq(c8(3), x0)]);
    expect(s.simplify(b.add(x0, c8(1)))).toBe(c8(4));
    expect(s.simplify(b.ult(x1, c8(8)))).toBe(TRUE); // a constraint itself is true
  });

  test('a contradiction is signalled and leaves the set unchanged', () => {
    const s = new ConstraintSet();
    s.add(b.eq(c8(3), x0));
    s.add(b.ult(x1, c8(100)));
    const before = s.toArray().slice();
    expect(s.add(b.eq(c8(4), x0))).toBe(false);
    expect(s.add(b.and(b.ult(x1, c8(50)), b.ugt(x0, c8(7))))).toBe(false); // the first conjunct alone is fine
    expect(s.toArray()).toEqual(before);
    // an equality whose rewriting falsifies an old constraint
    const t = new ConstraintSet({ rewriteEqualities: true });
    t.add(b.ult(x1, x0));
    t.add(b.ne(x0, c8(1)));
    expect(t.add(b.eq(c8(0), x0))).toBe(false); // x1 < 0 is false
    expect(t.size).toBe(2);
  });

  test('conjunctions split into constraints; true is dropped', () => {
    const s = new ConstraintSet();
    s.add(b.and(b.ult(x0, c8(10)), b.and(b.ugt(x1, c8(2)), TRUE)));
    expect(s.size).toBe(2);
    s.add(TRUE);
    expect(s.size).toBe(2);
    s.add(b.not(b.or(b.eq(x0, c8(5)), b.eq(x1, c8(6))))); // ¬(a ∨ b) = ¬a ∧ ¬b
    expect(s.size).toBe(4);
  });

  test('fork is copy-on-write', () => {
    const s = new ConstraintSet();
    s.add(b.ult(x0, c8(10)));
    const f = s.fork();
    f.add(b.eq(c8(2), x0));
    s.add(b.ugt(x1, c8(1)));
    expect(s.toArray()).toEqual([b.ult(x0, c8(10)), b.ugt(x1, c8(1))]);
    expect(f.toArray()).toEqual([b.eq(c8(2), x0)]);
    const held = s.toArray();
    s.add(b.ult(x1, c8(9)));
    expect(held.length).toBe(2); // what a caller holds does not change
  });

  test('simplify after many adds and forks equals simplify of a set built at once', () => {
    // the substitution is extended incrementally (a shared base plus a small delta per state)
    const big = new ExprArray('big', 80);
    const r = (i: number): Expr => rd(big, i);
    let s = new ConstraintSet();
    const forks: ConstraintSet[] = [];
    for (let i = 0; i < 80; i++) {
      const c = i % 3 === 0 ? b.ult(r(i), c8(100)) : i % 3 === 1 ? b.not(b.eq(r(i), c8(7))) : b.ule(c8(5), r(i));
      expect(s.add(c)).toBe(true);
      if (i % 7 === 0) {
        forks.push(s);
        s = s.fork();
        s.simplify(r(0)); // builds the substitution, so the next adds extend it
      }
    }
    const fresh = new ConstraintSet({}, s.toArray());
    for (let i = 0; i < 80; i++) {
      const q = b.and(b.ult(r(i), c8(100)), b.not(b.eq(r(i), c8(7))));
      expect(s.simplify(q)).toBe(fresh.simplify(q));
    }
    // forks taken earlier still see only their own constraints
    const early = forks[1]!;
    expect(early.simplify(b.ult(r(78), c8(100)))).toBe(b.ult(r(78), c8(100)));
    expect(s.simplify(b.ult(r(78), c8(100)))).toBe(TRUE);
  });

  test('rewriteEqualities off keeps old constraints but still simplifies new ones', () => {
    const s = newConstraintSet({ rewriteEqualities: false });
    s.add(b.ult(x0, c8(10)));
    s.add(b.eq(c8(3), x0));
    expect(s.size).toBe(2);
    expect(s.simplify(b.mul(x0, c8(2)))).toBe(c8(6));
    s.add(b.ult(x1, x0)); // simplified on the way in
    expect(s.toArray()[2]).toBe(b.ult(x1, c8(3)));
  });

  test('random sequences: same models as the plain conjunction; simplify preserves values', () => {
    const rng = new Rng(7);
    const gen = new SmallGen(rng);
    const assignments: Map<ExprArray, Uint8Array>[] = [];
    const D = SMALL_DOMAIN.filter((_, i) => i % 2 === 0); // 0, 2, 0x7f, 0xfe: 4^4 assignments
    for (let i = 0; i < D.length ** 4; i++) {
      const v = [i % 4, (i >> 2) % 4, (i >> 4) % 4, (i >> 6) % 4].map((k) => D[k]!);
      assignments.push(new Map([[gen.a, new Uint8Array([v[0]!, v[1]!])], [gen.b, new Uint8Array([v[2]!])], [gen.c, new Uint8Array([v[3]!])]]));
    }
    let checked = 0;
    for (let round = 0; round < 25; round++) {
      const s = new ConstraintSet();
      const plain: Expr[] = [];
      for (let k = 0; k < 6; k++) {
        const e = rng.chance(0.4) ? b.eq(b.constant(rng.pick(D), 8), gen.read()) : gen.bool(2);
        const cand = [...plain, e];
        const sat = assignments.some((m) => {
          const ev = new Evaluator(m);
          return cand.every((c) => ev.isTrue(c));
        });
        if (!sat) {
          // the engine adds only feasible constraints; a syntactic contradiction must be caught
          const copy = s.fork();
          if (!copy.add(e)) expect(copy.toArray()).toEqual(s.toArray());
          continue;
        }
        expect(s.add(e)).toBe(true);
        plain.push(e);
        const probe = gen.byte(2);
        const simp = s.simplify(probe);
        for (const m of assignments) {
          const ev = new Evaluator(m);
          const inPlain = plain.every((c) => ev.isTrue(c));
          expect(s.toArray().every((c) => ev.isTrue(c))).toBe(inPlain);
          if (inPlain) expect(ev.evaluate(simp)).toBe(ev.evaluate(probe));
        }
        checked++;
      }
      expect(conjunction(s)).toBeDefined();
    }
    expect(checked).toBeGreaterThan(50);
  });
});
