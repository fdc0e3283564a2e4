/** Test support: path-shaped random workloads (as symbolic execution asks) and a differential checker. */
import { builder as b, Evaluator, type Expr } from '../../../../src/expr/index.js';
import { Validity, type Query, type Solver } from '../../../../src/solver/solver.js';
import { BruteForceSolver } from './fake-core.js';
import { Rng, SmallGen } from './gen.js';

export interface Op {
  kind: 'truth' | 'validity' | 'initial' | 'value';
  query: Query;
  /** The oracle's answers, memoised across the configurations checked. */
  memo?: Map<string, unknown>;
}

function memo<T>(op: Op, key: string, f: () => T): T {
  op.memo ??= new Map();
  if (!op.memo.has(key)) op.memo.set(key, f());
  return op.memo.get(key) as T;
}

/** Queries along random feasible paths: growing constraint lists, repeats and negations. */
export function pathWorkload(seed: number, paths: number, depth: number, oracle: BruteForceSolver, gen = new SmallGen(new Rng(seed))): Op[] {
  const rng = gen.rng;
  const ops: Op[] = [];
  for (let p = 0; p < paths; p++) {
    const cs: Expr[] = [];
    for (let d = 0; d < depth; d++) {
      const cond = gen.bool(2);
      cs.push(oracle.model([...cs, cond]) !== null ? cond : b.not(cond));
      const constraints = cs.slice();
      for (let k = 0; k < 5; k++) {
        const r = rng.int(10);
        if (r < 3 && ops.length > 0) {
          const old = rng.pick(ops); // a repeat, maybe negated, maybe under more constraints
          const expr = old.kind !== 'value' && rng.chance(0.5) ? b.not(old.query.expr) : old.query.expr;
          const oc = rng.chance(0.5) ? old.query.constraints : constraints;
          ops.push({ kind: old.kind, query: { constraints: oc, expr } }); // oc is a feasible path prefix
        } else if (r < 5) ops.push({ kind: 'truth', query: { constraints, expr: gen.bool(2) } });
        else if (r < 7) ops.push({ kind: 'validity', query: { constraints, expr: gen.bool(2) } });
        else if (r < 8) ops.push({ kind: 'value', query: { constraints, expr: rng.chance(0.5) ? gen.byte(2) : b.concat(gen.byte(1), gen.byte(1)) } });
        else ops.push({ kind: 'initial', query: { constraints, expr: rng.chance(0.2) ? b.constant(1, 1) : gen.bool(2) } });
      }
    }
  }
  return ops;
}

/** Runs the ops on `s` and checks every answer against the oracle; returns the number checked. */
export function checkAgainst(s: Solver, ops: readonly Op[], oracle: BruteForceSolver, gen: SmallGen): number {
  let n = 0;
  for (const op of ops) {
    const q = op.query;
    const where = (): string => `${op.kind} #${n}: ${q.constraints.map(String).join(' ∧ ')} ⊢ ${q.expr.toString()}`;
    switch (op.kind) {
      case 'truth': {
        const want = memo(op, 'w', () => oracle.model([...q.constraints, b.not(q.expr)]) === null);
        const got = s.computeTruth(q);
        if (got !== want) throw new Error(`${where()}: got ${got}, want ${want}`);
        break;
      }
      case 'validity': {
        const want = memo(op, 'w', () =>
          oracle.model([...q.constraints, b.not(q.expr)]) === null
            ? Validity.True
            : oracle.model([...q.constraints, q.expr]) === null
              ? Validity.False
              : Validity.Unknown,
        );
        const got = s.computeValidity(q);
        if (got !== want) throw new Error(`${where()}: got ${Validity[got]}, want ${Validity[want]}`);
        break;
      }
      case 'value': {
        const v = s.computeValue(q);
        if (!memo(op, String(v), () => oracle.model([...q.constraints, b.eq(q.expr, b.constant(v, q.expr.width))]) !== null)) {
          throw new Error(`${where()}: value ${v} is not attainable`);
        }
        break;
      }
      case 'initial': {
        const want = memo(op, 'w', () => oracle.model([...q.constraints, q.expr]) !== null);
        const got = s.computeInitialValues(q, gen.arrays);
        if ((got !== null) !== want) throw new Error(`${where()}: got ${got === null ? 'unsat' : 'a model'}, want ${want ? 'sat' : 'unsat'}`);
        if (got !== null) {
          const ev = new Evaluator(new Map(gen.arrays.map((a, i) => [a, got[i]!])));
          const bad = [...q.constraints, q.expr].find((e) => !ev.isTrue(e));
          if (bad !== undefined) throw new Error(`${where()}: the model falsifies ${bad.toString()}`);
        }
        break;
      }
    }
    n++;
  }
  return n;
}

/** Runs the ops without checking (for benchmarks over a backend the oracle does not model). */
export function run(s: Solver, ops: readonly Op[], gen: SmallGen): void {
  for (const op of ops) {
    const q = op.query;
    if (op.kind === 'truth') s.computeTruth(q);
    else if (op.kind === 'validity') s.computeValidity(q);
    else if (op.kind === 'value') s.computeValue(q);
    else s.computeInitialValues(q, gen.arrays);
  }
}
