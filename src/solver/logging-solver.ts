/**
 * A layer that writes every query passing through it as an SMT-LIB2 file (--write-smt2s),
 * then forwards it unchanged. Placed right above the backend, it records exactly what the
 * backend was asked; each file can be replayed with `z3 file.smt2` or any QF_ABV solver.
 *
 * One file per satisfiability check the query stands for: computeTruth asks whether
 * constraints ∧ ¬expr is satisfiable (valid iff unsat); computeValidity is that check and
 * constraints ∧ expr; computeValue and computeInitialValues ask for a model and get the
 * bytes of the arrays involved. The file is written before the query runs (so a query that
 * kills the process is still on disk) and the answer is appended as a comment afterwards. A
 * comment line gives each array's size (`; tsklee arrays: name:size …`).
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { builder, collectArraysOf, toSmtLib2, type Expr, type ExprArray } from '../expr/index.js';
import { isSolverFailure, Validity, type InitialValues, type Query, type Solver, type SolverStats } from './solver.js';

export interface LoggingSolverOptions {
  /** Directory for the files (created if missing). */
  dir: string;
  /** File name prefix; default 'query'. */
  prefix?: string;
  /** The layer's name in stats() (run.stats columns); default 'smt2-log'. */
  layer?: string;
}

export class LoggingSolver implements Solver {
  private count = 0;
  private timeMs = 0;

  constructor(
    private readonly inner: Solver,
    private readonly opts: LoggingSolverOptions,
  ) {
    mkdirSync(opts.dir, { recursive: true });
  }

  computeTruth(q: Query): boolean {
    const f = this.write('computeTruth: valid iff unsat', [...q.constraints, builder.not(q.expr)]);
    return this.answer([f], () => this.inner.computeTruth(q), (v) => (v ? 'valid (unsat)' : 'not valid (sat)'));
  }

  computeValidity(q: Query): Validity {
    const f1 = this.write('computeValidity 1/2: must be true iff unsat', [...q.constraints, builder.not(q.expr)]);
    const f2 = this.write('computeValidity 2/2: must be false iff unsat', [...q.constraints, q.expr]);
    return this.answer([f1, f2], () => this.inner.computeValidity(q), (v) => Validity[v]);
  }

  computeValue(q: Query): bigint {
    const arrays = [...collectArraysOf([q.expr])];
    const f = this.write(`computeValue of ${q.expr.toString()}`, q.constraints, arrays);
    return this.answer([f], () => this.inner.computeValue(q), (v) => `value ${v}`);
  }

  computeInitialValues(q: Query, arrays: readonly ExprArray[]): InitialValues | null {
    const f = this.write('computeInitialValues', [...q.constraints, q.expr], arrays);
    const show = (v: InitialValues | null): string =>
      v === null ? 'unsat' : `sat: ${arrays.map((a, i) => `${a.name} = [${v[i]!.join(' ')}]`).join('; ')}`;
    return this.answer([f], () => this.inner.computeInitialValues(q, arrays), show);
  }

  stats(): SolverStats[] {
    return [{ layer: this.opts.layer ?? 'smt2-log', queries: this.count, hits: 0, timeMs: this.timeMs }, ...this.inner.stats()];
  }

  dispose(): void {
    this.inner.dispose();
  }

  private write(what: string, assertions: readonly Expr[], getValue: readonly ExprArray[] = []): string {
    const n = ++this.count;
    const file = join(this.opts.dir, `${this.opts.prefix ?? 'query'}${String(n).padStart(6, '0')}.smt2`);
    // a constant-true assertion prints as (assert true): harmless, keeps the script uniform
    const { text, arrayNames } = toSmtLib2(assertions, { getValue });
    // the arrays' sizes, which SMT-LIB's arrays do not have (smtlib/smt2-reader.ts reads them back)
    const sizes = [...arrayNames].map(([a, name]) => ` ${name}:${a.size}`).join('');
    writeFileSync(file, `; tsklee ${what.replace(/\n/g, ' ')}\n; tsklee arrays:${sizes}\n${text}`);
    return file;
  }

  private answer<T>(files: readonly string[], ask: () => T, show: (v: T) => string): T {
    const start = performance.now();
    let note = '';
    try {
      const v = ask();
      note = show(v);
      return v;
    } catch (e) {
      note = isSolverFailure(e) ? `solver failure (${e.kind}): ${e.message}` : `error: ${String(e)}`;
      throw e;
    } finally {
      const ms = performance.now() - start;
      this.timeMs += ms;
      for (const f of files) appendFileSync(f, `; answer: ${note.replace(/\n/g, ' ')} (${ms.toFixed(1)} ms)\n`);
    }
  }
}
