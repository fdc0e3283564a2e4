/**
 * A failure inside z3 costs one query, never the run (DESIGN decision 3): timeouts, an
 * out-of-memory abort of the wasm instance, and z3's own memory limit each end their query
 * with a SolverFailure, and the next query on the same Z3Solver answers correctly. These
 * run in the normal parallel jest run: z3 never starts a thread of its own (z3-watchdog.ts).
 */
import { builder as b, ExprArray, UpdateList, type Expr } from '../../../src/expr/index.js';
import { SolverFailure, SolverFailureKind, Validity } from '../../../src/solver/index.js';
import { Z3Solver, wasmFailureKind } from '../../../src/solver/z3/z3-solver.js';
import { failureOf } from '../../support/solver-failure.js';
import { leWord } from '../../support/le-word.js';

const c = (v: number | bigint, w: number) => b.constant(v, w);
const x = new ExprArray('x', 32);
const ux = new UpdateList(x);

const word = (w: number, at = 0): Expr => leWord(ux, w, at);

/** A query z3 cannot answer quickly: factor the prime 2^89 - 1 into two 48-bit factors > 1
 *  (a 64-bit prime with 32-bit factors was proved in 450 ms on an idle machine). */
function factoring(): { constraints: Expr[]; expr: Expr } {
  const p = b.zext(word(48), 96);
  const q = b.zext(word(48, 6), 96);
  return {
    constraints: [b.ugt(p, c(1, 96)), b.ugt(q, c(1, 96))],
    expr: b.ne(b.mul(p, q), c((1n << 89n) - 1n, 96)),
  };
}

/** Another hard one: a 64-bit product equal to a 64-bit quotient, neither side trivial. */
function hardDivision(): Expr {
  const p = word(64);
  const q = word(64, 8);
  return b.eq(b.mul(b.or(p, c(1n << 40n, 64)), b.or(q, c(3, 64))), b.udiv(c(0xfedcba9876543210n, 64), b.or(q, c(1n << 20n, 64))));
}

/** A query whose bit-blasting needs hundreds of MB: a chain of 256-bit multiplications. */
function memoryHog(): { constraints: Expr[]; expr: Expr } {
  const a = word(256);
  const m = word(256, 0);
  let acc = a;
  for (let i = 0; i < 20; i++) acc = b.mul(acc, b.add(m, c(i + 1, 256)));
  return { constraints: [], expr: b.ne(acc, c(123456789123456789123456789n, 256)) };
}

/** A normal query with a known answer, to show the solver still works. */
function expectHealthy(s: Z3Solver): void {
  const v = word(32);
  expect(s.computeValidity({ constraints: [b.ult(v, c(10, 32))], expr: b.ult(v, c(20, 32)) })).toBe(Validity.True);
  expect(s.computeValue({ constraints: [b.eq(v, c(0xcafe, 32))], expr: b.add(v, c(1, 32)) })).toBe(0xcaffn);
}

test('a timeout fails its query only', async () => {
  const s = await Z3Solver.create({ timeoutMs: 500 });
  // on a loaded machine even a trivial query can overrun 500 ms on a cold instance: allow retries
  const healthy = (): void => {
    for (let attempt = 1; ; attempt++) {
      try {
        return expectHealthy(s);
      } catch (e) {
        if (!(e instanceof SolverFailure && e.kind === SolverFailureKind.Timeout) || attempt === 5) throw e;
      }
    }
  };
  try {
    healthy();
    const before = s.counters.timeouts;
    const start = performance.now();
    const f = failureOf(() => s.computeTruth(factoring()));
    expect(f.kind).toBe(SolverFailureKind.Timeout);
    expect(performance.now() - start).toBeLessThan(30_000); // honoured, if late under load
    expect(s.counters.timeouts).toBe(before + 1);
    healthy();
    expect(s.counters.instances).toBe(1); // a timeout keeps the instance
    // and again: the watchdog re-arms
    expect(failureOf(() => s.computeValidity({ constraints: [], expr: hardDivision() })).kind).toBe(SolverFailureKind.Timeout);
    healthy();
    expect(s.instance().threads).toBe(0); // the time limit never made z3 start a (pthread) worker
  } finally {
    s.dispose();
  }
});

test('an out-of-memory abort of the wasm instance fails its query; the next query gets a new instance', async () => {
  const s = await Z3Solver.create();
  try {
    expectHealthy(s);
    // Leave z3 only ~48 MB of its 2 GB heap (the pages are reserved, not touched), so the
    // memory hog aborts the instance the way a real out-of-memory does.
    const inst = s.instance();
    const top = inst.malloc(16);
    expect(inst.malloc(2 ** 31 - top - 48 * 2 ** 20)).not.toBe(0);
    const f = failureOf(() => s.computeTruth(memoryHog()));
    expect(f.kind).toBe(SolverFailureKind.OutOfMemory);
    expect(f.message).toMatch(/Cannot enlarge memory|OOM/);
    expect(inst.dead).toBe(true);
    expectHealthy(s);
    expect(s.instance()).not.toBe(inst);
    expect(s.counters.crashes).toBe(1);
    expect(s.counters.instances).toBe(2);
  } finally {
    s.dispose();
  }
});

test("z3's own memory limit fails its query; the next query gets a new instance", async () => {
  const s = await Z3Solver.create({ memoryLimitMB: 40 });
  try {
    expectHealthy(s);
    const inst = s.instance();
    const f = failureOf(() => s.computeTruth(memoryHog()));
    expect(f.kind).toBe(SolverFailureKind.OutOfMemory);
    expectHealthy(s);
    expect(s.instance()).not.toBe(inst);
    expect(s.counters.instances).toBe(2);
  } finally {
    s.dispose();
  }
});

test('a trap inside z3 (simulated) fails its query; the next query gets a new instance', async () => {
  const s = await Z3Solver.create();
  try {
    expectHealthy(s);
    const inst = s.instance();
    // the instance's check traps, as z3 hitting `unreachable` would
    const RuntimeError = (globalThis as unknown as { WebAssembly: { RuntimeError: new (m: string) => Error } }).WebAssembly.RuntimeError;
    (inst.z as Record<string, unknown>).Z3_solver_check = () => {
      throw new RuntimeError('unreachable');
    };
    const f = failureOf(() => s.computeTruth({ constraints: [], expr: b.ult(word(32), c(7, 32)) }));
    expect(f.kind).toBe(SolverFailureKind.Crash);
    expect(inst.dead).toBe(true);
    expectHealthy(s);
    expect(s.counters.instances).toBe(2);
  } finally {
    s.dispose();
  }
});

test('wasmFailureKind tells wasm failures from our own bugs', () => {
  const trap = Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' });
  const abort = Object.assign(new Error('Aborted(Cannot enlarge memory arrays to size 2147491840 bytes (OOM).'), { name: 'RuntimeError' });
  expect(wasmFailureKind(trap)).toBe(SolverFailureKind.Crash);
  expect(wasmFailureKind(abort)).toBe(SolverFailureKind.OutOfMemory);
  expect(wasmFailureKind(new RangeError('Maximum call stack size exceeded'))).toBe(SolverFailureKind.Crash);
  expect(wasmFailureKind(new TypeError('x is undefined'))).toBeNull();
  expect(wasmFailureKind('string')).toBeNull();
});
