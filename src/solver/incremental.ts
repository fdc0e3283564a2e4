/**
 * An incremental check session on a backend: assert formulas, check, read values, assert
 * more, check again — what a CEGAR loop needs (paper 002, Algorithm 2). The embedded z3
 * implements it natively (one push/pop scope on its solver, z3-solver.ts); any other Solver
 * gets `replaySession`, which re-sends everything asserted so far on each check.
 */
import { collectArraysOf, Evaluator, TRUE, type Expr, type ExprArray } from '../expr/index.js';
import type { Solver } from './solver.js';

export interface IncrementalSession {
  /** Asserts a width-1 formula for the rest of the session. */
  add(formula: Expr): void;
  /** Whether everything asserted is satisfiable (a SolverFailure when the backend cannot tell). */
  check(): boolean;
  /** After a satisfiable check: e's value in the model (unsigned). */
  value(e: Expr): bigint;
  /** Ends the session (idempotent). */
  close(): void;
}

export interface IncrementalSolver extends Solver {
  openSession(): IncrementalSession;
}

export function isIncremental(s: Solver): s is IncrementalSolver {
  return typeof (s as Partial<IncrementalSolver>).openSession === 'function';
}

/** A session over any Solver: each check asks for a model of all assertions. */
export function replaySession(solver: Solver): IncrementalSession {
  const asserted: Expr[] = [];
  let model: Evaluator | null = null;
  return {
    add(formula: Expr): void {
      asserted.push(formula);
      model = null;
    },
    check(): boolean {
      const arrays: ExprArray[] = [...collectArraysOf(asserted)].filter((a) => a.constantValues === null);
      const values = solver.computeInitialValues({ constraints: asserted, expr: TRUE }, arrays);
      if (values === null) return false;
      model = new Evaluator(new Map(arrays.map((a, i) => [a, values[i]!])));
      return true;
    },
    value(e: Expr): bigint {
      if (model === null) throw new Error('replaySession: value() without a satisfiable check');
      return model.evaluate(e);
    },
    close(): void {
      model = null;
    },
  };
}

/** The backend's own session when it has one, else a replaying one. */
export function openSession(solver: Solver): IncrementalSession {
  return isIncremental(solver) ? solver.openSession() : replaySession(solver);
}
