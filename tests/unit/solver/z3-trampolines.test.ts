/**
 * z3's C++ exception trampolines in wasm (z3-trampolines.ts) and the V8 flags z3 is loaded
 * under (z3-v8-flags.ts). backends-diff.test.ts holds the wasm and the JS trampolines to the
 * same answers on random queries; here: exceptions really cross the wasm trampolines and are
 * caught there, and loading z3 leaves V8's flags as they were.
 */
import { Script } from 'node:vm';
import { builder as b, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import { Validity } from '../../../src/solver/index.js';
import { loadZ3Sync } from '../../../src/solver/z3/z3-module.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';
import { leWord } from '../../support/le-word.js';

const c = (v: number | bigint, w: number) => b.constant(v, w);
const x = new ExprArray('x', 8);
const ux = new UpdateList(x);

const word = (w: number, at = 0): Expr => leWord(ux, w, at);

test('loading z3 leaves the V8 flags as they were (a code cache made before is still accepted)', () => {
  const source = 'function f(n) { let s = 0; for (let i = 0; i < n; i++) s += i; return s; } f(10);';
  const before = new Script(source);
  before.runInThisContext();
  const cache = before.createCachedData();
  const handle = loadZ3Sync();
  handle.newInstance().kill();
  const after = new Script(source, { cachedData: cache });
  expect(after.cachedDataRejected).toBe(false);
});

test('C++ exceptions inside z3 are caught by the wasm trampolines, with the same answers as the JS ones', () => {
  const handle = loadZ3Sync();
  expect(handle.wasmTrampolines).toBe(true);
  // a tiny budget makes z3 cancel the first solver with an exception on every non-trivial check
  const wasm = new Z3Solver({ budget: 50 }, handle);
  const js = new Z3Solver({ budget: 50 }, handle.withJsTrampolines());
  try {
    const p = word(32);
    const q = word(32, 4);
    const constraints = [b.ugt(p, c(1, 32)), b.ugt(q, c(1, 32)), b.ult(p, c(1000, 32)), b.ult(q, c(1000, 32))];
    const product = b.mul(p, q);
    for (const s of [wasm, js]) {
      expect(s.computeValidity({ constraints, expr: b.ne(product, c(97 * 89, 32)) })).toBe(Validity.Unknown);
      expect(s.computeValidity({ constraints, expr: b.ne(product, c(997, 32)) })).toBe(Validity.True); // 997 is prime
      const model = s.computeInitialValues({ constraints, expr: b.eq(product, c(97 * 89, 32)) }, [x]);
      expect(model).not.toBeNull();
      const bytes = model![0]!;
      const le = (at: number): number => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! * 2 ** 24);
      expect(new Set([le(0), le(4)])).toEqual(new Set([97, 89]));
      expect(s.counters.fallbacks).toBeGreaterThan(0);
    }
    expect(wasm.instance().cppExceptions).toBeGreaterThan(0);
    expect(js.instance().cppExceptions).toBeNull();
    // the instance survives its exceptions
    expect(wasm.computeValue({ constraints: [b.eq(word(16), c(0xbeef, 16))], expr: word(16) })).toBe(0xbeefn);
  } finally {
    wasm.dispose();
    js.dispose();
  }
});
