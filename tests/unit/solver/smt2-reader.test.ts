/**
 * Reading back what the SMT-LIB2 printer writes (src/solver/smtlib/smt2-reader.ts): random
 * expressions of every kind and width over symbolic and constant arrays, printed with `let`
 * and with `define-fun` sharing, read again, mean the same under random assignments.
 */
import { describe, expect, it } from '@jest/globals';
import { evaluate, toSmtLib2, type Expr, type ExprArray } from '../../../src/expr/index.js';
import { readSmt2Query, Smt2ReadError } from '../../../src/solver/smtlib/smt2-reader.js';
import { ExprGen, makeArrays, Rng } from './gen.js';

function sizesLine(names: ReadonlyMap<ExprArray, string>): string {
  return `; tsklee arrays:${[...names].map(([a, n]) => ` ${n}:${a.size}`).join('')}\n`;
}

describe('smt2 reader', () => {
  it.each(['let', 'define-fun'] as const)('reads back random assertions printed with %s sharing', (sharing) => {
    const rng = new Rng(7);
    const arrays = makeArrays();
    for (let round = 0; round < 60; round++) {
      const gen = new ExprGen(rng, arrays);
      const originals: Expr[] = Array.from({ length: 1 + rng.nextInt(3) }, () => gen.gen(1));
      const script = toSmtLib2(originals, { sharing, getValue: [arrays[0]!] });
      const q = readSmt2Query(sizesLine(script.arrayNames) + script.text);
      const byName = new Map(q.arrays.map((a) => [a.name, a]));
      // each constant array's bytes are pinned by assertions before the query's own
      const own = q.assertions.slice(q.assertions.length - originals.length);
      expect(q.getValue.map((a) => a.name)).toEqual([script.arrayNames.get(arrays[0]!)]);
      for (let k = 0; k < 5; k++) {
        const asg = new Map<ExprArray, Uint8Array>();
        const readAsg = new Map<ExprArray, Uint8Array>();
        for (const a of arrays) {
          const bytes = a.constantValues ?? Uint8Array.from({ length: a.size }, () => rng.nextInt(256));
          asg.set(a, bytes);
          const name = script.arrayNames.get(a);
          if (name !== undefined) {
            expect(byName.get(name)!.size).toBe(a.size);
            readAsg.set(byName.get(name)!, bytes);
          }
        }
        for (const e of q.assertions.slice(0, q.assertions.length - originals.length)) expect(evaluate(e, readAsg)).toBe(1n);
        originals.forEach((e, i) => expect({ i, v: evaluate(own[i]!, readAsg) }).toEqual({ i, v: evaluate(e, asg) }));
      }
    }
  });

  it('refuses what tsklee never prints, with the term named', () => {
    expect(() => readSmt2Query('(declare-fun x () (_ BitVec 8))\n(assert (bvcomp x x))')).toThrow(Smt2ReadError);
    expect(() => readSmt2Query('(push 1)')).toThrow(/unsupported command push/);
  });
});
