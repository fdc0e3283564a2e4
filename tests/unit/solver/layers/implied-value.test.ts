/** Implied values (KLEE's ImpliedValue): every implied read value holds in every model of e == value. */
import { builder as b, Evaluator, ExprArray, UpdateList, type ConstantExpr, type Expr } from '../../../../src/expr/index.js';
import { concreteImpliedBytes, getImpliedValues } from '../../../../src/solver/layers/index.js';
import { Rng, SmallGen } from './gen.js';

const x = new ExprArray('x', 2);
const y = new ExprArray('y', 1);
const rd = (a: ExprArray, i: number): Expr => b.read(new UpdateList(a), b.constant(i, 32));
const x0 = rd(x, 0);
const x1 = rd(x, 1);
const y0 = rd(y, 0);

describe('getImpliedValues', () => {
  test("KLEE's rules", () => {
    const word = b.concat(x1, x0);
    const iv = getImpliedValues(b.add(b.constant(5, 16), word), b.constant(0x1234 + 5, 16) as ConstantExpr);
    expect(iv.map((v) => [v.read, v.value.value])).toEqual(
      expect.arrayContaining([
        [x1, 0x12n],
        [x0, 0x34n],
      ]),
    );
    expect(concreteImpliedBytes(b.zext(y0, 32), b.constant(200, 32) as ConstantExpr)).toEqual([{ array: y, index: 0, value: 200 }]);
    const conj = b.and(b.eq(b.constant(3, 8), x0), b.eq(b.constant(4, 8), y0));
    expect(getImpliedValues(conj, b.constant(1, 1) as ConstantExpr).length).toBe(2);
    expect(getImpliedValues(conj, b.constant(0, 1) as ConstantExpr)).toEqual([]); // And false: nothing
    expect(getImpliedValues(b.mul(b.constant(3, 8), x0), b.constant(9, 8) as ConstantExpr)).toEqual([]);
    expect(() => getImpliedValues(b.zext(y0, 32), b.constant(0x100, 32) as ConstantExpr)).toThrow(/not an extension/);
  });

  test('random: implied values hold in every model (b: all 256 values, c: 16)', () => {
    const rng = new Rng(11);
    const gen = new SmallGen(rng, true);
    const models: Map<ExprArray, Uint8Array>[] = [];
    for (let v = 0; v < 256; v++) {
      for (let w = 0; w < 256; w += 17) models.push(new Map([[gen.b, new Uint8Array([v])], [gen.c, new Uint8Array([w])]]));
    }
    let implied = 0;
    for (let i = 0; i < 200; i++) {
      const e = rng.chance(0.3) ? gen.bool(3) : rng.chance(0.5) ? gen.byte(3) : b.concat(gen.byte(1), b.add(b.constant(rng.int(256), 8), gen.read()));
      const value = b.constant(new Evaluator(rng.pick(models)).evaluate(e), e.width) as ConstantExpr;
      const ivs = getImpliedValues(e, value);
      if (ivs.length === 0) continue;
      for (const m of models) {
        const ev = new Evaluator(m);
        if (ev.evaluate(e) !== value.value) continue;
        for (const iv of ivs) expect(ev.evaluate(iv.read)).toBe(iv.value.value);
      }
      implied += ivs.length;
    }
    expect(implied).toBeGreaterThan(10);
  });
});
