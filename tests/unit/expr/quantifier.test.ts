/**
 * The Forall kind and its bound variables in every consumer of expressions: the builder's
 * rules, the evaluator's exact expansion, the printers, substitution, and the SMT-LIB text
 * against z3 (when installed).
 */
import { execFileSync } from 'node:child_process';
import { builder as b, evaluateBool, ExprArray, ExprKind, freshBoundVar, hasBoundVar, hasQuantifier, makeBoundVar, toSmtLib2, UpdateList, type Expr } from '../../../src/expr/index.js';
import { replaceExprs } from '../../../src/solver/layers/replace.js';

const c32 = (v: number): Expr => b.constant(v, 32);
const s = new ExprArray('s', 8);
const kArr = new ExprArray('k', 4);
const k = b.concat(b.read(new UpdateList(kArr), c32(3)), b.concat(b.read(new UpdateList(kArr), c32(2)), b.concat(b.read(new UpdateList(kArr), c32(1)), b.read(new UpdateList(kArr), c32(0)))));

describe('Forall', () => {
  const i = freshBoundVar(32);
  const body = b.ne(b.read(new UpdateList(s), b.sub(i, c32(1))), b.constant(0, 8));
  const f = b.forall(i, k, body);

  test('is hash-consed, flagged, and bound variables are interned by id', () => {
    expect(f.kind).toBe(ExprKind.Forall);
    expect(b.forall(i, k, body)).toBe(f);
    expect(makeBoundVar(i.varId, 32)).toBe(i);
    expect(hasQuantifier(f)).toBe(true);
    expect(hasBoundVar(f)).toBe(false);
    expect(hasBoundVar(body)).toBe(true);
    expect(hasQuantifier(b.or(f, b.eq(k, c32(3))))).toBe(true);
  });

  test('builder rules: true body, zero bound, a body without the variable', () => {
    expect(b.forall(i, k, b.bool(true))).toBe(b.bool(true));
    expect(b.forall(i, c32(0), body)).toBe(b.bool(true));
    const closed = b.eq(b.read(new UpdateList(s), c32(2)), b.constant(7, 8));
    expect(b.forall(i, k, closed)).toBe(b.or(b.eq(c32(0), k), closed));
    expect(() => b.forall(i, k, b.and(f, body))).toThrow(/nested/);
  });

  test('evaluates by exact expansion over 1..k', () => {
    const m = (sv: number[], kv: number): Map<ExprArray, Uint8Array> =>
      new Map([
        [s, Uint8Array.from(sv)],
        [kArr, Uint8Array.from([kv, 0, 0, 0])],
      ]);
    expect(evaluateBool(f, m([1, 2, 3, 0, 5, 5, 5, 5], 3))).toBe(true);
    expect(evaluateBool(f, m([1, 2, 3, 0, 5, 5, 5, 5], 4))).toBe(false);
    expect(evaluateBool(f, m([0, 2, 3, 0, 5, 5, 5, 5], 0))).toBe(true);
    expect(() => evaluateBool(body, m([1], 1))).toThrow(/outside its Forall/);
  });

  test('substitution rebuilds the body, never the variable it binds', () => {
    const r = replaceExprs(f, new Map<Expr, Expr>([[k, c32(2)]]));
    expect(r.kind).toBe(ExprKind.Forall);
    expect(r.toString()).toContain(`Forall i${i.varId} w32 2`);
  });

  test('SMT-LIB: forall with the range premise, logic ABV, no sharing across the binder', () => {
    const shared = b.and(f, b.eq(b.read(new UpdateList(s), k), b.constant(0, 8)));
    const text = toSmtLib2([shared]).text;
    expect(text).toContain('(set-logic ABV)');
    expect(text).toContain(`(forall ((i!${i.varId} (_ BitVec 32))) (=> (and (bvule #x00000001 i!${i.varId})`);
    let z3 = true;
    try {
      execFileSync('z3', ['-version']);
    } catch {
      z3 = false;
    }
    if (z3) expect(execFileSync('z3', ['-in', '-smt2'], { input: text }).toString().trim()).toBe('sat');
  });
});
