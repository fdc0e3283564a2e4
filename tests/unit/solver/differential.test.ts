/**
 * z3 against evaluate(): the solver and the evaluator must agree on the meaning of every
 * expression (division by zero, over-shifts, widths 1…128, arrays and update lists), or
 * tests generated from models would not replay. For random expressions e and random array
 * contents σ with v = evaluate(e, σ):
 *  - pinned: with the arrays fixed to σ by constraints, z3's computeValue(e) is v;
 *  - model: z3 finds `e == v` satisfiable (σ is a witness) and its model makes e evaluate to v;
 *  - folded: a raw constant-only tree, which z3 must agree is v (and is not v + 1).
 */
import { builder as b, evaluate, ExprKind, raw, type Expr, type ExprArray } from '../../../src/expr/index.js';
import { SolverFailure, SolverFailureKind, Validity } from '../../../src/solver/index.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { ExprGen, makeArrays, pin, Rng, WIDTHS } from './gen.js';

const CASES_PER_WIDTH = 160;
/** Some random cases are hard (64-bit division chains): those time out and are skipped. */
const TIMEOUT_MS = 3000;
const MAX_SKIPPED = CASES_PER_WIDTH / 20;

let solver: Z3Solver;
beforeAll(async () => {
  solver = await Z3Solver.create({ timeoutMs: TIMEOUT_MS });
});
afterAll(() => solver.dispose());

function describeCase(e: Expr, asg: Map<ExprArray, Uint8Array>): string {
  const arrays = [...asg].map(([a, v]) => `${a.name}=[${v.join(',')}]`).join(' ');
  return `${e.toString()}\n  under ${arrays}`;
}

function check(e: Expr, w: number, v: bigint, arrays: readonly ExprArray[], asg: Map<ExprArray, Uint8Array>): void {
  // pinned: the value z3 computes with every array byte fixed
  const got = solver.computeValue({ constraints: pin(arrays, asg), expr: e });
  if (got !== v) throw new Error(`pinned: z3 says ${got}, evaluate says ${v} for ${describeCase(e, asg)}`);
  // model: z3's model of e == v must evaluate to v
  const model = solver.computeInitialValues({ constraints: [], expr: b.eq(e, b.constant(v, w)) }, arrays);
  if (model === null) throw new Error(`model: z3 says e == ${v} is unsat for ${describeCase(e, asg)}`);
  const masg = new Map(arrays.map((a, j) => [a, model[j]!] as const));
  const mv = evaluate(e, masg);
  if (mv !== v) throw new Error(`model: e evaluates to ${mv}, not ${v}, under z3's model for ${describeCase(e, masg)}`);
}

describe('z3 agrees with evaluate()', () => {
  for (const w of WIDTHS) {
    test(`width ${w}: ${CASES_PER_WIDTH} random expressions`, () => {
      const arrays = makeArrays();
      const gen = new ExprGen(new Rng(7000 + w), arrays);
      let nonConstant = 0;
      let skipped = 0;
      for (let i = 0; i < CASES_PER_WIDTH; i++) {
        const e = gen.gen(w);
        const asg = gen.assignment();
        const v = evaluate(e, asg);
        if (e.kind !== ExprKind.Constant) nonConstant++;
        try {
          check(e, w, v, arrays, asg);
        } catch (err) {
          if (!(err instanceof SolverFailure && err.kind === SolverFailureKind.Timeout)) throw err;
          skipped++;
        }
      }
      expect(skipped).toBeLessThanOrEqual(MAX_SKIPPED);
      expect(solver.counters.slowArrayReads).toBe(0); // every model was read from its interpretation
      expect(nonConstant).toBeGreaterThan(CASES_PER_WIDTH / 2);
    });
  }

  test('folded: raw constant trees of every operator', () => {
    const gen = new ExprGen(new Rng(99), [], 3, 1);
    const ops = ['add', 'sub', 'mul', 'udiv', 'sdiv', 'urem', 'srem', 'and', 'or', 'xor', 'shl', 'lshr', 'ashr'] as const;
    let n = 0;
    for (const w of WIDTHS) {
      for (let i = 0; i < 40; i++) {
        // two levels of raw operators over edge-case constants, and the same through the folding builder
        const x = raw.constant(gen.value(w), w);
        const y = raw.constant(gen.value(w), w);
        const z = raw.constant(gen.value(w), w);
        const [op1, op2] = [gen.pick(ops), gen.pick(ops)];
        const e = raw[op2](raw[op1](x, y), z);
        const v = evaluate(e, new Map());
        const folded = b[op2](b[op1](x, y), z); // stays unfolded only around a division by zero
        if (folded.kind === ExprKind.Constant) expect(folded).toBe(b.constant(v, w));
        expect(solver.computeTruth({ constraints: [], expr: raw.eq(e, raw.constant(v, w)) })).toBe(true);
        const wrong = raw.constant(v + 1n, w);
        expect(solver.computeValidity({ constraints: [], expr: raw.eq(e, wrong) })).toBe(Validity.False);
        n++;
      }
    }
    expect(n).toBe(WIDTHS.length * 40);
  });
});
