/**
 * Support for the per-rule builder tests: symbolic leaves built raw (so their shape is
 * known), and a checker that compares the simplified result with the same formula built raw
 * (by evaluation) and, optionally, with an expected shape (by identity: hash-consing).
 */
import { builder, raw, collectArraysOf, ExprArray, UpdateList, type Expr, type ExprBuilder } from '../../../src/expr/index.js';
import { expectEquivalent, Rng } from './helpers.js';

export const A = new ExprArray('a', 32);
export const B = new ExprArray('b', 32);
export const ARRAYS = [A, B];

/** A raw symbolic value of width w read from bytes [first, ...) of arr. */
export function sym(w: number, first = 0, arr: ExprArray = A): Expr {
  const ul = new UpdateList(arr);
  let e = raw.read(ul, raw.constant(first, 32));
  for (let i = 1; e.width < w; i++) e = raw.concat(raw.read(ul, raw.constant(first + i, 32)), e);
  return e.width === w ? e : raw.extract(e, 0, w);
}

export interface Vars {
  w: number;
  x: Expr;
  y: Expr;
  z: Expr;
  p: Expr; // width-1
  q: Expr; // width-1
  c: (v: number | bigint) => Expr;
  zero: Expr;
  ones: Expr;
}

export function vars(w: number): Vars {
  return {
    w,
    x: sym(w, 0),
    y: sym(w, 0, B),
    z: sym(w, 20),
    p: sym(1, 30),
    q: sym(1, 31),
    c: (v) => raw.constant(v, w),
    zero: raw.constant(0, w),
    ones: raw.constant(-1, w),
  };
}

let seed = 1;

/**
 * Builds `f` with the simplifying and the raw builder, checks that they agree under random
 * assignments, and that the simplified form is `expected` (built raw) when given.
 */
export function check(f: (b: ExprBuilder) => Expr, expected?: Expr): Expr {
  const s = f(builder);
  const r = f(raw);
  const ground = collectArraysOf([s, r]).size === 0; // one evaluation settles it
  expectEquivalent(s, r, ARRAYS, new Rng(seed++), ground ? 1 : 24);
  if (expected !== undefined && s !== expected) {
    throw new Error(`expected ${expected.toString()}\n     got ${s.toString()}\n    from ${r.toString()}`);
  }
  return s;
}
