/**
 * Paper 000's procedure for quantified queries (§5) on the digest's Examples 5–7 (T6, T7),
 * stage by stage, and a family of random quantified queries whose every answer is
 * cross-checked against z3's own quantifier engine and against the exact expansion.
 */
import { builder as b, ExprKind, freshBoundVar, type Expr, type ExprArray, type ForallExpr } from '../../../src/expr/index.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { assembleChain } from '../../../src/solver/layers/chain.js';
import { Validity, type Solver } from '../../../src/solver/index.js';
import { auxValue, freshCount, inRange } from '../../../src/solver/quantified/instantiate.js';
import { duplicate, repair, satisfies, strip, type Model } from '../../../src/solver/quantified/stages.js';
import { expandAll } from '../../../src/solver/quantifiers.js';
import { ExprArray as Arr, UpdateList } from '../../../src/expr/array.js';
import { Rng } from '../../../src/util/rng.js';

let z3: Z3Solver;
let oracle: Z3Solver;
beforeAll(async () => {
  z3 = await Z3Solver.create({ timeoutMs: 10_000 });
  oracle = await Z3Solver.create({ timeoutMs: 10_000 });
});
afterAll(() => {
  z3.dispose();
  oracle.dispose();
});

const c32 = (v: number | bigint): Expr => b.constant(v, 32);
const c8 = (v: number): Expr => b.constant(v, 8);

interface Ex5 {
  s: ExprArray;
  nArr: ExprArray;
  kArr: ExprArray;
  n: Expr;
  k: Expr;
  f: ForallExpr;
  /** s[n] = 0, 1 ≤ k ≤ 10, s[k−1] = 8, ∀ i. 1 ≤ i ≤ k → s[i−1] ≠ 0 */
  phi: Expr[];
}

function example5(): Ex5 {
  const s = new Arr('s', 32);
  const nArr = new Arr('n', 4);
  const kArr = freshCount('k', 10n);
  const n = auxValue(nArr);
  const k = auxValue(kArr);
  const i = freshBoundVar(32);
  const sRead = (idx: Expr): Expr => b.read(new UpdateList(s), idx);
  const f = b.forall(i, k, b.ne(sRead(b.sub(i, c32(1))), c8(0))) as ForallExpr;
  expect(f.kind).toBe(ExprKind.Forall);
  const phi = [b.eq(sRead(n), c8(0)), b.ule(c32(1), k), b.ule(k, c32(10)), b.eq(sRead(b.sub(k, c32(1))), c8(8)), f];
  return { s, nArr, kArr, n, k, f, phi };
}

function le32(v: number): Uint8Array {
  return new Uint8Array([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >>> 24]);
}

function chain(opts: Parameters<typeof assembleChain>[1] = {}): Solver {
  // the layers never dispose the shared z3 here: wrap it
  const core: Solver = { ...bindAll(z3), dispose: () => {} };
  return assembleChain(core, { quantifiers: true, quantifierBackend: { ...bindAll(oracle), dispose: () => {} }, ...opts });
}

function bindAll(s: Solver): Solver {
  return {
    computeTruth: (q) => s.computeTruth(q),
    computeValidity: (q) => s.computeValidity(q),
    computeValue: (q) => s.computeValue(q),
    computeInitialValues: (q, a) => s.computeInitialValues(q, a),
    stats: () => s.stats(),
    dispose: () => s.dispose(),
  };
}

function stat(s: Solver, layer: string): { queries: number; hits: number } {
  const l = s.stats().find((x) => x.layer === layer)!;
  return { queries: l.queries, hits: l.hits };
}

describe('T6: Example 5 (SAT)', () => {
  test('stripping gives φ_QF with the lemma ¬(1 ≤ n+1 ≤ k)', () => {
    const { phi, f, n } = example5();
    const qf = phi.filter((c) => c.kind !== ExprKind.Forall);
    const stripped = strip(qf, [f], true);
    const lemma = b.not(inRange(f, b.add(n, c32(1))));
    expect(stripped).toContain(lemma);
    // k ≥ 1 → s[0] ≠ 0, written k = 0 ∨ s[0] ≠ 0
    expect(stripped).toContain(b.or(b.eq(c32(0), f.upper), b.ne(b.read(new UpdateList(example5s(f)), c32(0)), c8(0))));
    expect(stripped.some((c) => c.kind === ExprKind.Forall)).toBe(false);
    expect(strip(qf, [f], false)).not.toContain(lemma);
  });

  test('Example 6 and 7: duplication of m, then repair', () => {
    const ex = example5();
    const m: Model = new Map([
      [ex.s, Uint8Array.from([1, 0, 0, 0, 0, 0, 8, ...new Array<number>(25).fill(0)])],
      [ex.nArr, le32(7)],
      [ex.kArr, le32(7)],
    ]);
    const qf = ex.phi.filter((c) => c.kind !== ExprKind.Forall);
    const stripped = strip(qf, [ex.f], true);
    expect(satisfies(m, stripped)).toBe(true);
    expect(satisfies(m, ex.phi)).toBe(false);
    const md = duplicate(m, [ex.f]);
    expect([...md.get(ex.s)!.subarray(0, 8)]).toEqual([1, 1, 1, 1, 1, 1, 1, 0]); // Ex. 6
    expect(satisfies(md, ex.phi)).toBe(false); // s[k−1] = 8 broken
    const mr = repair(z3, stripped, ex.phi, [ex.f], [ex.s, ex.nArr, ex.kArr], md)!;
    expect(mr).not.toBeNull();
    expect(satisfies(mr, ex.phi)).toBe(true);
    // n and k stay pinned at 7; s[1..5] copy s[0]; s[6] = 8 (Ex. 7: [1,1,1,1,1,1,8,0] when z3 picks s[0] = 1)
    expect([...mr.get(ex.nArr)!]).toEqual([...le32(7)]);
    expect([...mr.get(ex.kArr)!]).toEqual([...le32(7)]);
    const sv = mr.get(ex.s)!;
    expect(sv[6]).toBe(8);
    for (let j = 1; j <= 5; j++) expect(sv[j]).toBe(sv[0]);
    expect(sv[0]).not.toBe(0);
  });

  test('the layer answers SAT without the quantified fallback, with a model of φ', () => {
    const ex = example5();
    const s = chain();
    const values = s.computeInitialValues({ constraints: ex.phi, expr: b.bool(true) }, [ex.s, ex.nArr, ex.kArr])!;
    expect(values).not.toBeNull();
    const m: Model = new Map([
      [ex.s, values[0]!],
      [ex.nArr, values[1]!],
      [ex.kArr, values[2]!],
    ]);
    expect(satisfies(m, ex.phi)).toBe(true);
    expect(stat(s, 'quantifier-fallback').queries).toBe(0);
    expect(stat(s, 'quantifiers').hits).toBe(1);
  });
});

function example5s(f: ForallExpr): ExprArray {
  let arr: ExprArray | null = null;
  const visit = (e: Expr): void => {
    if (e.kind === ExprKind.Read) arr = e.updates.root;
    else for (let i = 0; i < e.numKids; i++) visit(e.kid(i));
  };
  visit(f.body);
  return arr!;
}

describe('T7: UNSAT through the stripping lemma', () => {
  test('φ ∧ n ≤ 100 ∧ n+1 ≤ k is UNSAT at stage 1', () => {
    const ex = example5();
    const s = chain();
    const q = [...ex.phi, b.ule(ex.n, c32(100)), b.ule(b.add(ex.n, c32(1)), ex.k)];
    expect(s.computeInitialValues({ constraints: q, expr: b.bool(true) }, [ex.s])).toBeNull();
    expect(stat(s, 'quantifier-strip')).toEqual({ queries: 1, hits: 1 });
    expect(stat(s, 'quantifier-fallback').queries).toBe(0);
    expect(oracle.computeInitialValues({ constraints: q, expr: b.bool(true) }, [ex.s])).toBeNull();
  });

  test('without n ≤ 100, wrap-around (n = 2^32 − 1) makes it SAT', () => {
    const ex = example5();
    const s = chain();
    const q = [...ex.phi, b.ule(b.add(ex.n, c32(1)), ex.k)];
    const values = s.computeInitialValues({ constraints: q, expr: b.bool(true) }, [ex.s, ex.nArr, ex.kArr])!;
    expect(values).not.toBeNull();
    expect([...values[1]!]).toEqual([0xff, 0xff, 0xff, 0xff]);
    expect(s.computeValidity({ constraints: q, expr: b.eq(ex.n, c32(0xffffffff)) })).toBe(Validity.True);
  });
});

describe('random quantified queries: every answer agrees with z3 and with the expansion', () => {
  test('200 queries, 0 disagreements', () => {
    const rng = new Rng(17);
    let answered = 0;
    let sat = 0;
    for (let round = 0; round < 200; round++) {
      const ex = example5();
      const sRead = (idx: Expr): Expr => b.read(new UpdateList(ex.s), idx);
      const pick = (n: number): number => rng.nextU32() % n;
      const i = freshBoundVar(32);
      const bodies = [
        b.ne(sRead(b.sub(i, c32(1))), c8(0)),
        b.and(b.ult(b.sub(i, c32(1)), ex.n), b.eq(sRead(b.sub(i, c32(1))), c8(97))),
        b.eq(sRead(b.add(b.mul(c32(2), i), c32(0xfffffffe))), c8(120)),
        b.ult(sRead(i), sRead(b.sub(i, c32(1)))),
      ];
      const f = b.forall(i, ex.k, bodies[pick(bodies.length)]!);
      const pool = [
        b.eq(sRead(ex.n), c8(0)),
        b.ule(ex.k, c32(1 + pick(6))),
        b.ule(c32(pick(3)), ex.k),
        b.eq(sRead(b.sub(ex.k, c32(1))), c8(pick(2) === 0 ? 8 : 97)),
        b.ult(ex.n, c32(3 + pick(10))),
        b.ule(b.add(ex.n, c32(1)), ex.k),
        b.not(b.eq(sRead(ex.k), c8(97))),
        b.eq(ex.n, ex.k),
        b.eq(sRead(c32(pick(8))), c8(pick(2) === 0 ? 0 : 97)),
        b.ult(ex.k, ex.n),
      ];
      // reads stay inside s (the engine's bounds checks see to that; past the end the evaluator reads 0, z3 anything)
      const q: Expr[] = [b.ule(c32(1), ex.k), b.ule(ex.k, c32(10)), f];
      for (const c of pool) if (pick(3) === 0) q.push(c);
      const s = chain({ quantifierOptions: { fallback: round % 2 === 0 ? 'backend' : 'expand' } });
      let mine: Uint8Array[] | null;
      try {
        mine = s.computeInitialValues({ constraints: q, expr: b.bool(true) }, [ex.s, ex.nArr, ex.kArr]);
      } catch (e) {
        throw new Error(`round ${round}: ${String(e)}\n${q.map((c) => c.toString()).join('\n')}`);
      }
      let theirs: Uint8Array[] | null | 'unknown';
      try {
        theirs = oracle.computeInitialValues({ constraints: q, expr: b.bool(true) }, []);
      } catch {
        theirs = 'unknown';
      }
      const expanded = z3.computeInitialValues({ constraints: expandAll(q, 64)!, expr: b.bool(true) }, []);
      expect(mine === null).toBe(expanded === null);
      if (theirs !== 'unknown') expect(mine === null).toBe(theirs === null);
      if (mine !== null) {
        sat++;
        const m: Model = new Map([
          [ex.s, mine[0]!],
          [ex.nArr, mine[1]!],
          [ex.kArr, mine[2]!],
        ]);
        expect(satisfies(m, q)).toBe(true);
      }
      answered++;
    }
    expect(answered).toBe(200);
    expect(sat).toBeGreaterThan(20);
    expect(sat).toBeLessThan(200);
  });
});
