/**
 * The external SMT-LIB2 backend (src/solver/smtlib): reading solver replies, and the process
 * handling — a missing or too-old binary, a solver that dies, hangs or answers unknown —
 * with small fake solvers (shell scripts put first on PATH). Real solvers: smtlib-diff.test.ts.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { builder as b, ExprArray, UpdateList } from '../../../src/expr/index.js';
import { SolverFailureKind } from '../../../src/solver/solver.js';
import { errorMessage, literalValue, parseSExprs } from '../../../src/solver/smtlib/sexpr.js';
import { SmtLibSolver } from '../../../src/solver/smtlib/smtlib-solver.js';
import { resolveBackend, SolverSetupError } from '../../../src/solver/smtlib/backends.js';
import { failureOf } from '../../support/solver-failure.js';

describe('solver replies', () => {
  it('parses z3 and cvc5 get-value replies, statuses and errors', () => {
    const z3 = parseSExprs('sat\n(((select a #x00000000) #x10)\n ((select a #x00000001) #xff))\n');
    expect(z3[0]).toBe('sat');
    const pairs = z3[1] as string[][];
    expect(pairs.map((p) => literalValue(p[1]!))).toEqual([0x10n, 0xffn]);
    const cvc5 = parseSExprs('(((concat (select a #b0) (select a #b1)) #b0000000100000010))');
    expect(literalValue((cvc5[0] as string[][])[0]![1]!)).toBe(258n);
    expect(literalValue(parseSExprs('(_ bv123 72)')[0]!)).toBe(123n);
    expect(literalValue('true')).toBe(1n);
    expect(literalValue('false')).toBe(0n);
    const err = parseSExprs('unsat\n(error "line 8 column 34: model is ""not"" available")\n');
    expect(err[0]).toBe('unsat');
    expect(errorMessage(err[1]!)).toBe('line 8 column 34: model is "not" available');
    expect(parseSExprs('|odd sym| ; a comment\n"str"')).toEqual(['|odd sym|', '"str"']);
    expect(() => parseSExprs('((sat)')).toThrow(/unbalanced/);
    expect(() => literalValue('#q1')).toThrow(/not a bit-vector value/);
  });
});

describe('process handling (fake solvers on PATH)', () => {
  let bin: string;
  const savedPath = process.env['PATH'];
  let solver: SmtLibSolver | undefined;

  function fake(name: string, script: string): void {
    writeFileSync(join(bin, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(bin, name), 0o755);
  }

  beforeAll(() => {
    bin = mkdtempSync(join(tmpdir(), 'tsklee-fake-smt-'));
  });
  afterEach(() => {
    solver?.dispose();
    solver = undefined;
    process.env['PATH'] = savedPath;
  });
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  const a = new ExprArray('a', 4);
  const x = b.read(new UpdateList(a), b.constant(0, 32));
  const query = { constraints: [b.ult(x, b.constant(10, 8))], expr: b.ult(x, b.constant(11, 8)) };

  it('names a missing binary and where to get it in one line', () => {
    process.env['PATH'] = bin;
    expect(() => resolveBackend('z3-native')).toThrow(new SolverSetupError("--solver-backend=z3-native: 'z3' not found on PATH (install Debian's z3 package)"));
    expect(() => resolveBackend('cvc5')).toThrow(new SolverSetupError("--solver-backend=cvc5: 'cvc5' not found on PATH (install Debian's cvc5 package)"));
    expect(() => new SmtLibSolver({ backend: 'yices' })).toThrow("--solver-backend=yices: 'yices-smt2' not found on PATH (Debian 12 has no package: see https://yices.csl.sri.com)");
  });

  it('refuses a boolector too old to answer interactively', () => {
    fake('boolector', 'echo 1.5.118');
    process.env['PATH'] = bin;
    expect(() => resolveBackend('boolector')).toThrow(/^--solver-backend=boolector: boolector 1\.5\.118 cannot answer queries interactively/);
  });

  it('turns a dying solver into SolverFailure(Crash) and restarts it for the next query', () => {
    fake('z3', 'read line; echo "boom" >&2; exit 3');
    process.env['PATH'] = bin;
    solver = new SmtLibSolver({ backend: 'z3-native' });
    const f1 = failureOf(() => solver!.computeTruth(query));
    expect(f1.kind).toBe(SolverFailureKind.Crash);
    expect(f1.message).toMatch(/^z3-native: process died: it exited: boom/);
    const f2 = failureOf(() => solver!.computeValidity(query));
    expect(f2.kind).toBe(SolverFailureKind.Crash);
    expect(solver.counters.crashes).toBe(2);
    expect(solver.counters.processes).toBe(2);
  });

  it('kills a hanging solver at the time limit: SolverFailure(Timeout), then a new process', () => {
    fake('z3', 'exec sleep 30');
    process.env['PATH'] = bin;
    solver = new SmtLibSolver({ backend: 'z3-native', timeoutMs: 100 });
    const t0 = Date.now();
    const f = failureOf(() => solver!.computeTruth(query));
    const took = Date.now() - t0;
    expect(f.kind).toBe(SolverFailureKind.Timeout);
    expect(took).toBeGreaterThanOrEqual(100);
    expect(took).toBeLessThan(10_000); // killed, not left to sleep 30 s
    expect(failureOf(() => solver!.computeTruth(query)).kind).toBe(SolverFailureKind.Timeout);
    expect(solver.counters.processes).toBe(2);
  });

  it("maps the solver's own 'unknown' to Timeout under a time limit, to Unknown without one", () => {
    // answers every check-sat with unknown and echoes the end markers
    fake('z3', `while IFS= read -r l; do case "$l" in "(check-sat)") echo unknown;; "(echo "*) echo "$l" | sed 's/^(echo "\\(.*\\)")$/\\1/';; esac; done`);
    process.env['PATH'] = bin;
    solver = new SmtLibSolver({ backend: 'z3-native', timeoutMs: 5000 });
    expect(failureOf(() => solver!.computeTruth(query)).kind).toBe(SolverFailureKind.Timeout);
    solver.dispose();
    solver = new SmtLibSolver({ backend: 'z3-native' });
    const f = failureOf(() => solver!.computeTruth(query));
    expect(f.kind).toBe(SolverFailureKind.Unknown);
    expect(f.message).toBe('z3-native: the solver answered unknown');
    expect(solver.counters.processes).toBe(1);
    // after 'unknown' (cvc5 stays unknown once it hit a limit) the next query gets a new process
    expect(failureOf(() => solver!.computeValidity(query)).kind).toBe(SolverFailureKind.Unknown);
    expect(solver.counters.processes).toBe(2);
  });
});
