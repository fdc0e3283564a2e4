/** Models handed over with --jobs jobs: the counterexample cache tries them before asking below, and only uses one that satisfies the key. */
import { builder as b, ExprArray, UpdateList, TRUE, type Expr } from '../../../../src/expr/index.js';
import { CexCachingSolver } from '../../../../src/solver/layers/index.js';
import { ModelHints, namedModel } from '../../../../src/solver/layers/model-hints.js';
import { BruteForceSolver } from './fake-core.js';

// the receiver's arrays: other objects than the giver's, with the same names
const x = new ExprArray('x', 1);
const y = new ExprArray('y', 1);
const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const c8 = (v: number): Expr => b.constant(v, 8);

describe('model hints', () => {
  test('a hint that satisfies the key answers it without the solver', () => {
    const hints = new ModelHints();
    hints.add(namedModel([new ExprArray('x', 1), new ExprArray('y', 1)], [Uint8Array.of(40), Uint8Array.of(7)]));
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core, { hints });
    const cs = [b.ugt(rd(x, 0), c8(30)), b.ult(rd(x, 0), c8(50))];
    const m = s.computeInitialValues({ constraints: cs, expr: b.ult(rd(y, 0), c8(10)) }, [x, y]);
    expect(m).toEqual([Uint8Array.of(40), Uint8Array.of(7)]);
    expect(core.count).toBe(0);
    expect(hints.hits).toBe(1);
    // the other side of the branch: the hint does not satisfy it, the solver answers
    expect(s.computeTruth({ constraints: cs, expr: b.ult(rd(y, 0), c8(10)) })).toBe(false);
    expect(core.count).toBe(1);
    expect(hints.hits).toBe(1);
  });

  test('a model found below the cache goes to onSolved (by name, for another worker), one answered by the cache does not', () => {
    const sent: [string, number[]][][] = [];
    const hints = new ModelHints();
    hints.onSolved = (m) => sent.push(m.map(([n, bytes]) => [n, [...bytes]]));
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core, { hints });
    const cs = [b.eq(rd(x, 0), c8(42))];
    expect(s.computeInitialValues({ constraints: cs, expr: TRUE }, [x])).toEqual([Uint8Array.of(42)]);
    expect(sent).toEqual([[['x', [42]]]]);
    // the same key again: the cache answers, nothing new to send
    s.computeInitialValues({ constraints: cs, expr: TRUE }, [x]);
    expect(core.count).toBe(1);
    expect(sent.length).toBe(1);
    // another worker's cache, cold, takes the sent model as a hint and answers without its solver
    const other = new ModelHints();
    for (const m of sent) other.add(m.map(([n, bytes]) => [n, Uint8Array.from(bytes)]));
    const otherCore = new BruteForceSolver();
    const t = new CexCachingSolver(otherCore, { hints: other });
    expect(t.computeTruth({ constraints: [b.ugt(rd(new ExprArray('x', 1), 0), c8(40))], expr: b.eq(rd(new ExprArray('x', 1), 0), c8(0)) })).toBe(false);
    expect(otherCore.count).toBe(0);
    expect(other.hits).toBe(1);
  });

  test('a hint with other sizes or names, or one that does not satisfy the key, is not used', () => {
    const hints = new ModelHints();
    hints.add([['x', Uint8Array.of(9, 9)]]); // x has 1 byte here
    hints.add([['z', Uint8Array.of(5)]]);
    hints.add([['y', Uint8Array.of(200)]]);
    const core = new BruteForceSolver();
    const s = new CexCachingSolver(core, { hints });
    const m = s.computeInitialValues({ constraints: [b.ult(rd(y, 0), c8(10)), b.ugt(rd(x, 0), c8(3))], expr: TRUE }, [x, y])!;
    expect(core.count).toBe(1);
    expect(hints.hits).toBe(0);
    expect(m[1]![0]).toBeLessThan(10);
  });
});
