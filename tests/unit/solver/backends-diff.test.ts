/**
 * The embedded z3 (wasm) against z3 and cvc5 as processes, on the same generated queries
 * (gen.ts): path-shaped constraint lists that hold under a random assignment σ (so they are
 * satisfiable, as the Solver contract requires) and a random goal. For every query
 *  - validity: every backend gives the same Validity of the goal;
 *  - models: every backend agrees whether constraints ∧ goal is satisfiable, and each
 *    backend's model makes every constraint and the goal evaluate to true (evaluate()).
 * Each embedded solver mode is held to the same answers ('hybrid', the default, also with
 * a tiny budget so its tactic fallback answers too, and with Emscripten's JS exception
 * trampolines instead of z3-trampolines.ts). A backend whose binary is absent is
 * skipped, saying so (scripts/setup installs both).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { builder as b, evaluate, TRUE, type Expr, type ExprArray } from '../../../src/expr/index.js';
import { SolverFailure, SolverFailureKind, Validity, type Solver } from '../../../src/solver/solver.js';
import { findOnPath } from '../../../src/solver/smtlib/backends.js';
import { SmtLibSolver } from '../../../src/solver/smtlib/smtlib-solver.js';
import { loadZ3 } from '../../../src/solver/z3/z3-module.js';
import { Z3Solver, type Z3SolverOptions } from '../../../src/solver/z3/z3-solver.js';
import { ExprGen, makeArrays, Rng, WIDTHS } from './gen.js';

const QUERIES = 60;
const TIMEOUT_MS = 2000;
/** Random 64/128-bit division chains can be hard for one backend: such a query is skipped, a few at most. */
const MAX_SKIPPED = QUERIES / 10;

interface Backend {
  name: string;
  solver: Solver;
}

const backends: Backend[] = [];
beforeAll(async () => {
  const embedded: [string, Z3SolverOptions][] = [
    ['z3 wasm hybrid', {}],
    ['z3 wasm hybrid, tiny budget', { budget: 50 }],
    ['z3 wasm logic', { solverMode: 'logic' }],
    ['z3 wasm tactic', { solverMode: 'tactic' }],
  ];
  for (const [name, opts] of embedded) backends.push({ name, solver: await Z3Solver.create({ ...opts, timeoutMs: TIMEOUT_MS }) });
  // Emscripten's own JS exception trampolines, which z3-trampolines.ts replaces
  const jsTrampolines = (await loadZ3()).withJsTrampolines();
  backends.push({ name: 'z3 wasm hybrid, JS exception trampolines', solver: new Z3Solver({ timeoutMs: TIMEOUT_MS }, jsTrampolines) });
  for (const [name, binary] of [
    ['z3-native', 'z3'],
    ['cvc5', 'cvc5'],
  ] as const) {
    if (findOnPath(binary) === null) {
      console.warn(`backends-diff: skipping ${name}: '${binary}' is not on PATH (scripts/setup installs it)`);
      continue;
    }
    backends.push({ name, solver: new SmtLibSolver({ backend: name, timeoutMs: TIMEOUT_MS }) });
  }
});
afterAll(() => {
  for (const { solver } of backends) solver.dispose();
});

interface Case {
  constraints: Expr[];
  goal: Expr;
  arrays: readonly ExprArray[];
}

/** Up to 6 constraints made true under one random assignment, and a random goal (true or not under it). */
function makeCase(gen: ExprGen, arrays: readonly ExprArray[]): Case {
  const asg = gen.assignment();
  const constraints: Expr[] = [];
  const n = gen.int(7);
  for (let i = 0; i < n; i++) {
    const c = gen.gen(1);
    const held = evaluate(c, asg) === 1n ? c : b.not(c);
    if (held !== TRUE) constraints.push(held);
  }
  return { constraints, goal: gen.gen(1), arrays };
}

function describeCase(c: Case): string {
  return `${c.constraints.map(String).join(' ∧ ')} ⊢ ${c.goal.toString()}`;
}

/** Runs f for every backend; null if any of them timed out (the case is then skipped). */
function answers<T>(f: (s: Solver) => T): { name: string; value: T }[] | null {
  const out: { name: string; value: T }[] = [];
  for (const { name, solver } of backends) {
    try {
      out.push({ name, value: f(solver) });
    } catch (e) {
      if (e instanceof SolverFailure && e.kind === SolverFailureKind.Timeout) return null;
      throw new Error(`${name}: ${(e as Error).message}`);
    }
  }
  return out;
}

describe('embedded z3, z3-native and cvc5 agree', () => {
  test(`${QUERIES} random queries: validity, satisfiability and models`, () => {
    const arrays = makeArrays();
    const gen = new ExprGen(new Rng(31337), arrays, 3);
    const symbolic = arrays.filter((a) => a.constantValues === null);
    const validities = new Set<Validity>();
    let unsat = 0;
    let skipped = 0;
    for (let i = 0; i < QUERIES; i++) {
      const c = makeCase(gen, arrays);
      const where = (): string => `query ${i}: ${describeCase(c)}`;
      const v = answers((s) => s.computeValidity({ constraints: c.constraints, expr: c.goal }));
      const m = v && answers((s) => s.computeInitialValues({ constraints: c.constraints, expr: c.goal }, symbolic));
      if (v === null || m === null) {
        skipped++;
        continue;
      }
      for (const a of v) if (a.value !== v[0]!.value) throw new Error(`${where()}\n  ${v.map((x) => `${x.name}: ${Validity[x.value]}`).join(', ')}`);
      validities.add(v[0]!.value);
      for (const a of m) {
        if ((a.value === null) !== (m[0]!.value === null)) throw new Error(`${where()}\n  ${m.map((x) => `${x.name}: ${x.value === null ? 'unsat' : 'sat'}`).join(', ')}`);
        if (a.value === null) continue;
        const asg = new Map(symbolic.map((arr, j) => [arr, a.value![j]!] as const));
        for (const e of [...c.constraints, c.goal]) {
          if (evaluate(e, asg) !== 1n) throw new Error(`${where()}\n  ${a.name}'s model falsifies ${e.toString()}`);
        }
      }
      if (m[0]!.value === null) unsat++;
      // unsat with the goal means the goal is false in every model: validity must have said so
      expect(m[0]!.value === null).toBe(v[0]!.value === Validity.False);
    }
    expect(backends.length).toBeGreaterThanOrEqual(4);
    expect(skipped).toBeLessThanOrEqual(MAX_SKIPPED);
    expect(validities.size).toBe(3); // True, False and Unknown all occurred
    expect(unsat).toBeGreaterThan(0);
    expect(unsat).toBeLessThan(QUERIES - skipped);
  });

  test.each(WIDTHS.filter((w) => w > 1).map((w) => [w]))('computeValue at width %d: a value every backend can reach', (w) => {
    const arrays = makeArrays();
    const gen = new ExprGen(new Rng(5150 + w), arrays, 3);
    let compared = 0;
    for (let i = 0; i < 6; i++) {
      const c = makeCase(gen, arrays);
      const e = gen.gen(w);
      const got = answers((s) => s.computeValue({ constraints: c.constraints, expr: e }));
      if (got === null) continue;
      // each backend's value must be attainable according to every other backend
      for (const a of got) {
        const pinned = b.eq(e, b.constant(a.value, w));
        const ok = answers((s) => s.computeTruth({ constraints: c.constraints, expr: b.not(pinned) }));
        if (ok === null) continue;
        for (const o of ok) if (o.value) throw new Error(`${o.name} says ${a.name}'s value ${a.value} of ${e.toString()} is unreachable under ${describeCase(c)}`);
      }
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(4);
  });
});
