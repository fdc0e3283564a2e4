/**
 * The simplifying builder against the raw builder: random expression trees built through
 * both with the same choices must evaluate to the same value under random assignments.
 */
import { evaluate, type Expr } from '../../../src/expr/index.js';
import { makeArrays, PairGen, randomAssignment, Rng, WIDTHS } from './helpers.js';

const CASES_PER_WIDTH = 600;
const ASSIGNMENTS = 4;

describe('builder ≡ raw under evaluation', () => {
  for (const w of WIDTHS) {
    test(`width ${w}: ${CASES_PER_WIDTH} random trees`, () => {
      const rng = new Rng(1000 + w);
      const arrays = makeArrays();
      const gen = new PairGen(rng, arrays, 4);
      let simplifiedSmaller = 0;
      for (let i = 0; i < CASES_PER_WIDTH; i++) {
        const { s, r } = gen.gen(w);
        expect(s.width).toBe(w);
        expect(r.width).toBe(w);
        if (s !== r) simplifiedSmaller++;
        for (let j = 0; j < ASSIGNMENTS; j++) {
          const asg = randomAssignment(rng, arrays);
          const vs = evaluate(s, asg);
          const vr = evaluate(r, asg);
          if (vs !== vr) fail(s, r, vs, vr);
        }
      }
      // the generator must actually exercise the simplifier
      expect(simplifiedSmaller).toBeGreaterThan(CASES_PER_WIDTH / 4);
    });
  }
});

function fail(s: Expr, r: Expr, vs: bigint, vr: bigint): never {
  throw new Error(`simplified ${vs} ≠ raw ${vr}\n  simplified: ${s.toString()}\n  raw:        ${r.toString()}`);
}
