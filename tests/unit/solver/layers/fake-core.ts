/**
 * Test support: a brute-force core solver. It enumerates every assignment of the (tiny)
 * symbolic arrays a query reads, each byte ranging over `domain` (all 256 values by default,
 * which makes it exact; a smaller domain is a consistent restricted semantics that every
 * layer must also respect, and keeps random tests fast), and evaluates with src/expr.
 * It records every call, so tests can count what reaches the core.
 */
import { builder, collectArraysOf, Evaluator, type Assignment, type Expr, type ExprArray } from '../../../../src/expr/index.js';
import { Validity, type InitialValues, type Query, type Solver, type SolverStats } from '../../../../src/solver/solver.js';

export interface FakeCall {
  method: 'truth' | 'validity' | 'value' | 'initial';
  query: Query;
}

export class BruteForceSolver implements Solver {
  readonly calls: FakeCall[] = [];
  disposed = false;
  constructor(readonly domain: readonly number[] = Array.from({ length: 256 }, (_, i) => i)) {
    if (!domain.includes(0)) throw new Error('the domain must contain 0 (unbound arrays read as zeros)');
  }

  get count(): number {
    return this.calls.length;
  }

  /** The first model (in enumeration order) of all the expressions, or null. */
  model(exprs: readonly Expr[]): Assignment | null {
    const arrays = [...collectArraysOf(exprs)].filter((a) => a.isSymbolic()).sort((x, y) => x.id - y.id);
    const slots: [ExprArray, number][] = [];
    for (const a of arrays) for (let i = 0; i < a.size; i++) slots.push([a, i]);
    const D = this.domain.length;
    if (D ** slots.length > 2 ** 22) throw new Error(`brute force over ${slots.length} bytes is too big`);
    const digits = new Array<number>(slots.length).fill(0);
    const m = new Map<ExprArray, Uint8Array>(arrays.map((a) => [a, new Uint8Array(a.size)]));
    for (;;) {
      slots.forEach(([a, i], k) => (m.get(a)![i] = this.domain[digits[k]!]!));
      const ev = new Evaluator(m);
      if (exprs.every((e) => ev.isTrue(e))) return new Map([...m].map(([a, b]) => [a, b.slice()]));
      let k = 0;
      while (k < digits.length && ++digits[k]! === D) digits[k++] = 0;
      if (k === digits.length) return null;
    }
  }

  computeTruth(query: Query): boolean {
    this.calls.push({ method: 'truth', query });
    return this.model([...query.constraints, builder.not(query.expr)]) === null;
  }

  computeValidity(query: Query): Validity {
    this.calls.push({ method: 'validity', query });
    if (this.model([...query.constraints, builder.not(query.expr)]) === null) return Validity.True;
    if (this.model([...query.constraints, query.expr]) === null) return Validity.False;
    return Validity.Unknown;
  }

  computeValue(query: Query): bigint {
    this.calls.push({ method: 'value', query });
    const m = this.model(query.constraints);
    if (m === null) throw new Error('computeValue: unsatisfiable constraints');
    return new Evaluator(m).evaluate(query.expr);
  }

  computeInitialValues(query: Query, arrays: readonly ExprArray[]): InitialValues | null {
    this.calls.push({ method: 'initial', query });
    const m = this.model([...query.constraints, query.expr]);
    if (m === null) return null;
    return arrays.map((a) => {
      const out = new Uint8Array(a.size);
      const b = m.get(a);
      if (b !== undefined) out.set(b);
      return out;
    });
  }

  stats(): SolverStats[] {
    return [{ layer: 'brute-force', queries: this.calls.length, hits: 0, timeMs: 0 }];
  }

  dispose(): void {
    this.disposed = true;
  }
}
