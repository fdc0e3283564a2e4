/**
 * The external backends (z3 and cvc5 as processes) on the solver differential generator
 * (gen.ts): for random expressions e and array contents σ with v = evaluate(e, σ)
 *  - pinned: with every array byte fixed to σ, computeValue(e) is v;
 *  - model: `e == v` is satisfiable and the model's bytes make e evaluate to v;
 *  - validity: both backends give the same Validity for `e == v` and for `e ≠ v` under a
 *    random constraint.
 * evaluate() is the reference the embedded z3 is held to (differential.test.ts), so agreeing
 * with it is agreeing with the embedded backend; the engine-level cross-check of the embedded
 * z3 against the native one is tests/e2e/solver-validate.test.ts. No z3 wasm here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { builder as b, evaluate, ExprArray, ExprKind, UpdateList, type Expr } from '../../../src/expr/index.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../../../src/solver/solver.js';
import { SmtLibSolver } from '../../../src/solver/smtlib/smtlib-solver.js';
import { ExprGen, makeArrays, pin, Rng, WIDTHS } from './gen.js';

const CASES_PER_WIDTH = 20;
const TIMEOUT_MS = 1000;
const MAX_SKIPPED = 2;

let z3: SmtLibSolver;
let cvc5: SmtLibSolver;
beforeAll(() => {
  z3 = new SmtLibSolver({ backend: 'z3-native', timeoutMs: TIMEOUT_MS });
  cvc5 = new SmtLibSolver({ backend: 'cvc5', timeoutMs: TIMEOUT_MS });
});
afterAll(() => {
  z3.dispose();
  cvc5.dispose();
});

/** Runs f; a solver timeout counts as a skip (some random 64-bit division chains are hard). */
function orSkip(f: () => void): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof SolverFailure && e.kind === SolverFailureKind.Timeout) return true;
    throw e;
  }
}

function checkAgainstEvaluate(s: Solver, name: string, e: Expr, w: number, v: bigint, arrays: readonly ExprArray[], asg: Map<ExprArray, Uint8Array>): void {
  const where = `${name} on ${e.toString()}`;
  const got = s.computeValue({ constraints: pin(arrays, asg), expr: e });
  if (got !== v) throw new Error(`pinned: ${where} gives ${got}, evaluate gives ${v}`);
  const model = s.computeInitialValues({ constraints: [], expr: b.eq(e, b.constant(v, w)) }, arrays);
  if (model === null) throw new Error(`model: ${where}: e == ${v} unsat`);
  const mv = evaluate(e, new Map(arrays.map((a, j) => [a, model[j]!] as const)));
  if (mv !== v) throw new Error(`model: ${where}: e evaluates to ${mv} under the model, not ${v}`);
}

describe.each([['z3-native'], ['cvc5']])('%s agrees with evaluate()', (name) => {
  test.each(WIDTHS.map((w) => [w]))(`width %d: ${CASES_PER_WIDTH} random expressions`, (w) => {
    const s = name === 'cvc5' ? cvc5 : z3;
    const arrays = makeArrays();
    const gen = new ExprGen(new Rng(9100 + w), arrays);
    let nonConstant = 0;
    let skipped = 0;
    for (let i = 0; i < CASES_PER_WIDTH; i++) {
      const e = gen.gen(w);
      const asg = gen.assignment();
      const v = evaluate(e, asg);
      if (e.kind !== ExprKind.Constant) nonConstant++;
      if (orSkip(() => checkAgainstEvaluate(s, name, e, w, v, arrays, asg))) skipped++;
    }
    expect(skipped).toBeLessThanOrEqual(MAX_SKIPPED);
    expect(nonConstant).toBeGreaterThan(CASES_PER_WIDTH / 2);
  });
});

describe('z3-native and cvc5 agree', () => {
  test('validity of random equalities under random constraints', () => {
    const arrays = makeArrays();
    const gen = new ExprGen(new Rng(4242), arrays, 2);
    let compared = 0;
    const seen = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const w = WIDTHS[i % WIDTHS.length]!;
      const e = gen.gen(w);
      const v = evaluate(e, gen.assignment());
      const c = gen.gen(1); // may be unsatisfiable: then both must say True (vacuous validity)
      for (const expr of [b.eq(e, b.constant(v, w)), b.ne(e, b.constant(v, w))]) {
        const q = { constraints: [c], expr };
        let mine = 0;
        let theirs = 0;
        if (orSkip(() => void ((mine = z3.computeValidity(q)), (theirs = cvc5.computeValidity(q))))) continue;
        if (mine !== theirs) throw new Error(`z3-native says ${mine}, cvc5 says ${theirs} for ${expr.toString()} under ${c.toString()}`);
        seen.add(mine);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(60);
    expect(seen.size).toBeGreaterThanOrEqual(2); // not all one answer
  });
});

describe('process life cycle with the real solvers', () => {
  const a = makeArrays()[0]!;
  const ul = new UpdateList(a);
  const word = (at: number, bytes: number): Expr => {
    let e: Expr = b.read(ul, b.constant(at, 32));
    for (let i = 1; i < bytes; i++) e = b.concat(b.read(ul, b.constant(at + i, 32)), e);
    return e;
  };

  test.each<['z3-native' | 'cvc5']>([['z3-native'], ['cvc5']])('%s: a hard query times out, the next one is answered', (name) => {
    const s = new SmtLibSolver({ backend: name, timeoutMs: 300 });
    try {
      // factor a 64-bit semiprime: far beyond 300 ms for bit-blasting solvers
      const p = 4294967291n * 4294967279n;
      const [x, y] = [b.zext(word(0, 8), 128), b.zext(word(8, 8), 128)];
      const hard = { constraints: [b.ugt(x, b.constant(1, 128)), b.ugt(y, b.constant(1, 128))], expr: b.ne(b.mul(x, y), b.constant(p, 128)) };
      const t0 = Date.now();
      const f = (() => {
        try {
          s.computeTruth(hard);
        } catch (e) {
          return e;
        }
        return null;
      })();
      expect(f).toBeInstanceOf(SolverFailure);
      expect((f as SolverFailure).kind).toBe(SolverFailureKind.Timeout);
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(s.computeValue({ constraints: [b.eq(word(0, 2), b.constant(0x1234, 16))], expr: b.zext(word(0, 2), 32) })).toBe(0x1234n);
    } finally {
      s.dispose();
    }
  });

  test('recycling with (reset) forgets declarations and keeps answering', () => {
    const s = new SmtLibSolver({ backend: 'z3-native', recycleAfter: 2 });
    try {
      for (let i = 0; i < 7; i++) {
        const arr = new ExprArray(`r${i % 3}`, 2); // same names, different arrays: renamed per process epoch
        const v = b.read(new UpdateList(arr), b.constant(1, 32));
        const m = s.computeInitialValues({ constraints: [b.eq(v, b.constant(i + 40, 8))], expr: b.ult(b.read(new UpdateList(arr), b.constant(0, 32)), b.constant(3, 8)) }, [arr]);
        expect(m).not.toBeNull();
        expect(m![0]![1]).toBe(i + 40);
        expect(m![0]![0]).toBeLessThan(3);
      }
      expect(s.counters.processes).toBe(1);
    } finally {
      s.dispose();
    }
  });
});
