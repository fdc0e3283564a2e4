/** The SMT-LIB2 query logger: one replayable file per check, answered in a trailing comment. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builder as b, ExprArray, UpdateList, TRUE } from '../../../src/expr/index.js';
import { createSolver, LoggingSolver, Validity, type Solver } from '../../../src/solver/index.js';
import { Z3Solver } from '../../../src/solver/z3/z3-solver.js';

let dir: string;
let z3: Z3Solver;
let solver: Solver;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-smt2-'));
  z3 = await Z3Solver.create();
  solver = new LoggingSolver(z3, { dir: join(dir, 'queries') });
});
afterAll(() => {
  solver.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** z3's own verdict on a logged script (parsed from the text, not from our ASTs). */
function replay(text: string): number {
  const inst = z3.instance();
  const z = inst.z;
  const ctx = (z3 as unknown as { current: { ctx: number } }).current.ctx;
  const s = z.Z3_mk_solver(ctx);
  z.Z3_solver_inc_ref(ctx, s);
  const p = inst.allocString(text.replace(/\(get-value[^\n]*\n/g, '').replace('(check-sat)', ''));
  z.Z3_solver_from_string(ctx, s, p);
  inst.free(p);
  const r = z.Z3_solver_check(ctx, s);
  z.Z3_solver_dec_ref(ctx, s);
  return r;
}

test('each query is written before it runs and answered after', () => {
  const a = new ExprArray('a', 4);
  const k = new ExprArray('k', 4, Uint8Array.from([3, 1, 4, 1]));
  const ra = b.read(new UpdateList(a), b.constant(0, 32));
  const idx = b.zext(b.and(ra, b.constant(3, 8)), 32);
  const rk = b.read(new UpdateList(k), idx);
  expect(solver.computeTruth({ constraints: [b.ult(ra, b.constant(4, 8))], expr: b.ule(rk, b.constant(4, 8)) })).toBe(true);
  expect(solver.computeValidity({ constraints: [], expr: b.eq(rk, b.constant(1, 8)) })).toBe(Validity.Unknown);
  expect(solver.computeValue({ constraints: [b.eq(rk, b.constant(4, 8))], expr: idx })).toBe(2n);
  expect(solver.computeInitialValues({ constraints: [b.eq(rk, b.constant(3, 8))], expr: TRUE }, [a])![0]![0]! & 3).toBe(0);

  const files = readdirSync(join(dir, 'queries')).sort();
  expect(files).toEqual(['query000001.smt2', 'query000002.smt2', 'query000003.smt2', 'query000004.smt2', 'query000005.smt2']);
  const text = files.map((f) => readFileSync(join(dir, 'queries', f), 'utf8'));
  for (const t of text) {
    expect(t).toMatch(/^; tsklee /);
    expect(t).toContain('(check-sat)');
    expect(t).toMatch(/; answer: .* ms\)\n$/);
  }
  expect(text[0]).toContain('; answer: valid (unsat)');
  expect(text[1]).toContain('; answer: Unknown');
  expect(text[3]).toContain('; answer: value 2');
  expect(text[3]).toContain('(get-value');
  // the files mean what the backend answered: z3 parsing the text agrees
  expect(replay(text[0]!)).toBe(-1); // valid: constraints ∧ ¬expr unsat
  expect(replay(text[1]!)).toBe(1);
  expect(replay(text[2]!)).toBe(1);
  expect(replay(text[4]!)).toBe(1);
  const stats = solver.stats();
  expect(stats.map((s) => s.layer)).toEqual(['smt2-log', 'z3']);
  expect(stats[0]!.queries).toBe(5);
});

test('createSolver: the logger sits right above the backend, under the other layers', async () => {
  const off = { useIndependentSolver: false, useBranchCache: false, useCexCache: false, useFastSolver: false };
  const plain = await createSolver({ timeoutMs: 1000, ...off });
  try {
    expect(plain).toBeInstanceOf(Z3Solver);
  } finally {
    plain.dispose();
  }
  const logged = await createSolver({ smt2Dir: join(dir, 'chain'), useFastSolver: false }); // the fast layers would answer this simple query
  try {
    const a = new ExprArray('a', 1);
    const byte = b.read(new UpdateList(a), b.constant(0, 32));
    expect(logged.computeTruth({ constraints: [b.ult(byte, b.constant(3, 8))], expr: b.ult(byte, b.constant(5, 8)) })).toBe(true);
    const layers = logged.stats().map((s) => s.layer);
    expect(layers.slice(-2)).toEqual(['smt2-log', 'z3']);
    expect(readdirSync(join(dir, 'chain')).length).toBeGreaterThan(0);
  } finally {
    logged.dispose();
  }
});
