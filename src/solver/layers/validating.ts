/**
 * A debugging layer (KLEE's ValidatingSolver, --debug-validate-solver): every answer of the
 * solver under test is cross-checked with an oracle (KLEE: the raw core solver), and a
 * disagreement throws a SolverValidationError naming the query.
 *
 *  - truth and validity: the oracle is asked the same question; answers must be equal;
 *  - value v: the oracle must find `expr == v` satisfiable (¬(expr ≠ v is valid));
 *  - initial values: a model must satisfy constraints ∧ expr — checked by evaluation when the
 *    query reads only the requested arrays, otherwise by asking the oracle whether the
 *    constraints, the expression and the model's bytes are satisfiable together; "no model"
 *    must be confirmed by the oracle.
 * Solver failures (timeouts…) pass through unchecked.
 */
import { builder, collectArraysOf, Evaluator, printKQuery, UpdateList, type Expr, type ExprArray } from '../../expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../solver.js';
import { LayerCounters } from './layer-stats.js';

export class SolverValidationError extends Error {
  constructor(
    readonly method: string,
    readonly query: Query,
    readonly detail: string,
  ) {
    super(`solver validation failed in ${method}: ${detail}\n${describe(query)}`);
    this.name = 'SolverValidationError';
  }
}

function describe(q: Query): string {
  const cs = q.constraints.map((c) => `  ${printKQuery(c)}`).join('\n');
  return `constraints:\n${cs || '  (none)'}\nexpr: ${printKQuery(q.expr)}`;
}

export class ValidatingSolver implements Solver {
  private readonly c = new LayerCounters('validating');

  /** @param ownsOracle dispose the oracle with this solver (false when it is the chain's own core). */
  constructor(
    private readonly primary: Solver,
    private readonly oracle: Solver,
    private readonly ownsOracle = false,
  ) {}

  computeTruth(q: Query): boolean {
    return this.c.time(() => {
      const a = this.primary.computeTruth(q);
      const b = this.oracle.computeTruth(q);
      if (a !== b) throw new SolverValidationError('computeTruth', q, `solver says ${a}, oracle says ${b}`);
      return a;
    });
  }

  computeValidity(q: Query): Validity {
    return this.c.time(() => {
      const a = this.primary.computeValidity(q);
      const b = this.oracle.computeValidity(q);
      if (a !== b) throw new SolverValidationError('computeValidity', q, `solver says ${Validity[a]}, oracle says ${Validity[b]}`);
      return a;
    });
  }

  computeValue(q: Query): bigint {
    return this.c.time(() => {
      const v = this.primary.computeValue(q);
      const ne = builder.ne(q.expr, builder.constant(v, q.expr.width));
      if (this.oracle.computeTruth({ constraints: q.constraints, expr: ne })) {
        throw new SolverValidationError('computeValue', q, `solver gave ${v}, which the expression cannot take`);
      }
      return v;
    });
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    return this.c.time(() => {
      const values = this.primary.computeInitialValues(q, arrays);
      if (values === null) {
        const o = this.oracle.computeInitialValues(q, []);
        if (o !== null) throw new SolverValidationError('computeInitialValues', q, 'solver says unsatisfiable, oracle found a model');
        return null;
      }
      arrays.forEach((a, i) => {
        if (values[i]!.length !== a.size) {
          throw new SolverValidationError('computeInitialValues', q, `${values[i]!.length} bytes for ${a.name} of size ${a.size}`);
        }
      });
      const all: Expr[] = [...q.constraints, q.expr];
      const requested = new Set(arrays);
      const covered = [...collectArraysOf(all)].every((a) => a.isConstant() || requested.has(a));
      if (covered) {
        const ev = new Evaluator(new Map(arrays.map((a, i) => [a, values[i]!])));
        const bad = all.find((e) => !ev.isTrue(e));
        if (bad !== undefined) throw new SolverValidationError('computeInitialValues', q, `the model falsifies ${printKQuery(bad)}`);
      } else {
        const pins: Expr[] = [];
        arrays.forEach((a, i) => {
          const bytes = values[i]!;
          for (let j = 0; j < bytes.length; j++) {
            pins.push(builder.eq(builder.constant(bytes[j]!, 8), builder.read(new UpdateList(a), builder.constant(j, 32))));
          }
        });
        if (this.oracle.computeInitialValues({ constraints: [...q.constraints, ...pins], expr: q.expr }, []) === null) {
          throw new SolverValidationError('computeInitialValues', q, 'the model cannot be extended to a model of the query');
        }
      }
      return values;
    });
  }

  stats(): SolverStats[] {
    return [this.c.snapshot(), ...this.primary.stats()];
  }

  dispose(): void {
    this.primary.dispose();
    if (this.ownsOracle) this.oracle.dispose();
  }
}
