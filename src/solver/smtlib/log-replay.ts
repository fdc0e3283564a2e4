/**
 * The fast solver layer against a reference solver on logged queries (issue 12 item 5): each
 * --write-smt2s file of a real run is read back (smt2-reader.ts), its last assertion taken as
 * the query's expression and the others as its constraints, and asked of a fresh FastSolver
 * with nothing behind it, twice: a model (computeInitialValues) and a validity
 * (computeValidity, whose quick path is separate). Whatever the layer decides must be what
 * the reference says, and its models must satisfy the query; what it passes on is counted.
 */
import { builder } from '../../expr/builder.js';
import { Evaluator } from '../../expr/evaluate.js';
import type { ExprArray } from '../../expr/array.js';
import type { Expr } from '../../expr/expr.js';
import { FastSolver } from '../layers/fast-solver.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { readSmt2Query, Smt2ReadError } from './smt2-reader.js';

export interface LogReplayTally {
  files: number;
  /** Questions the fast layer answered itself (two per file at most). */
  decided: number;
  /** Questions it passed on. */
  passed: number;
  /** Files not replayed, with why (no assertion, a quantifier, unsat constraints for validity). */
  skipped: { file: string; why: string }[];
  disagreements: string[];
}

class PassedOn extends Error {}

/** What the fast layer gets behind it: every question it passes on is refused. */
const REFUSE: Solver = {
  computeTruth: () => refuse(),
  computeValidity: () => refuse(),
  computeValue: () => refuse(),
  computeInitialValues: () => refuse(),
  stats: (): SolverStats[] => [],
  dispose: () => {},
};

function refuse(): never {
  throw new PassedOn('passed on');
}

/** fn's answer, or undefined when the fast layer passed the question on. */
function ask<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e instanceof PassedOn) return undefined;
    throw e;
  }
}

/** Replays `files` (name and text) through the fast layer and `reference`. */
export function replayLogsThroughFast(files: Iterable<{ name: string; text: string }>, reference: Solver, searchBudget?: number): LogReplayTally {
  const t: LogReplayTally = { files: 0, decided: 0, passed: 0, skipped: [], disagreements: [] };
  for (const { name, text } of files) {
    t.files++;
    let q;
    try {
      q = readSmt2Query(text);
    } catch (e) {
      if (e instanceof Smt2ReadError) {
        t.skipped.push({ file: name, why: e.message });
        continue;
      }
      throw e;
    }
    if (q.assertions.length === 0) {
      t.skipped.push({ file: name, why: 'no assertion' });
      continue;
    }
    const query: Query = { constraints: q.assertions.slice(0, -1), expr: q.assertions[q.assertions.length - 1]! };
    const fast = (): FastSolver => new FastSolver(REFUSE, searchBudget === undefined ? {} : { searchBudget });
    // a model
    const model = ask(() => fast().computeInitialValues(query, q.arrays));
    if (model === undefined) t.passed++;
    else {
      t.decided++;
      const refSat = reference.computeInitialValues(query, q.arrays) !== null;
      if (model === null && refSat) t.disagreements.push(`${name}: fast says unsat, the reference sat`);
      if (model !== null) {
        if (!refSat) t.disagreements.push(`${name}: fast gives a model, the reference says unsat`);
        const bad = falsified(model, q.arrays, q.assertions);
        if (bad !== null) t.disagreements.push(`${name}: fast's model falsifies assertion ${bad + 1}`);
      }
    }
    // a validity: meaningful only over satisfiable constraints (as every engine query's are)
    const v = ask(() => fast().computeValidity(query));
    if (v === undefined) t.passed++;
    else {
      t.decided++;
      if (reference.computeInitialValues({ constraints: query.constraints, expr: builder.bool(true) }, q.arrays) === null) {
        t.skipped.push({ file: name, why: 'constraints unsatisfiable (validity not compared)' });
      } else {
        const ref = reference.computeValidity(query);
        if (ref !== v) t.disagreements.push(`${name}: fast says ${Validity[v]}, the reference ${Validity[ref]}`);
      }
    }
  }
  return t;
}

/** The index of the first assertion the model makes false, or null. */
function falsified(model: InitialValues, arrays: readonly ExprArray[], assertions: readonly Expr[]): number | null {
  const ev = new Evaluator(new Map(arrays.map((a, i) => [a, model[i]!])));
  const i = assertions.findIndex((e) => !ev.isTrue(e));
  return i < 0 ? null : i;
}
