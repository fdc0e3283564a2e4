/**
 * What an ended state leaves behind (KLEE's KleeHandler::processTestCase and
 * Executor::terminateStateOn*): a .ktest with a model of its path condition, an .err report
 * for errors (one per (instruction, message) unless --emit-all-errors), an .early file for
 * states stopped early; and the counters of the final summary.
 */
import type { KTest, KTestObject } from '../output/ktest.js';
import { formatErrFile, type StackFrameInfo } from '../output/err-file.js';
import type { WriteTestExtras } from '../output/output-dir.js';
import { toSmtLib2 } from '../expr/smtlib.js';
import { printKQueryFile } from '../expr/kquery.js';
import { TRUE, type Expr } from '../expr/expr.js';
import type { ExprArray } from '../expr/array.js';
import { builder } from '../expr/builder.js';
import { isSolverFailure } from '../solver/solver.js';
import type { Executor } from './executor.js';
import { pathBits, type ExecutionState, type PathBit } from './state.js';
import { formatTestXml } from '../output/test-xml.js';
import { ERR_SUFFIX, EXIT_ON_ERROR_NAMES, Termination } from './errors.js';
import { toUBig, type Val } from './values.js';
import type { KInst } from './prepare/kinst.js';
import { TypeKind, type IntegerType } from '../ir/types.js';
import { Assembly, type AssemblyStore } from './assembly.js';
import { cacheDir } from './assembly-cache.js';
import type { EngineOptions } from './options.js';
import { consoleRecord } from './special/console.js';
import { firstCoveredLines } from './stats-source.js';
import { Evaluator } from '../expr/evaluate.js';
import { conjunction } from '../solver/layers/constraint-set.js';

/** Where tests and messages go: an OutputDir, or an in-memory collector (tests, library use). */
export interface RunOutput {
  writeTest(ktest: KTest | null, extras?: WriteTestExtras): number;
  appendMessage(text: string): void;
  appendWarning(text: string, kind?: 'WARNING' | 'WARNING ONCE' | 'ERROR'): void;
  /** Write a file of the run (assembly.ll), when the output can hold one. */
  writeFile?(name: string, text: string): void;
}

/** A RunOutput keeping everything in memory. */
export class MemoryOutput implements RunOutput {
  readonly tests: { id: number; ktest: KTest | null; extras: WriteTestExtras }[] = [];
  readonly messages: string[] = [];
  readonly warnings: string[] = [];

  writeTest(ktest: KTest | null, extras: WriteTestExtras = {}): number {
    const id = this.tests.length + 1;
    this.tests.push({ id, ktest, extras });
    return id;
  }

  appendMessage(text: string): void {
    this.messages.push(text);
  }

  appendWarning(text: string, kind: 'WARNING' | 'WARNING ONCE' | 'ERROR' = 'WARNING'): void {
    this.warnings.push(`${kind}: ${text}`);
  }
}

/** Starts the halt reason of a run stopped by --exit-on-error (KLEE's wording). */
export const EXIT_ON_ERROR_PREFIX = 'EXITING ON ERROR: ';

/** The cache assembly.ll may come from, when the run says what made its module and a cache directory is set. */
function assemblyStore(opts: EngineOptions): AssemblyStore | null {
  const key = opts.assemblyCacheKey;
  const dir = key !== undefined && opts.outputSource ? cacheDir() : null;
  if (key === undefined || dir === null) return null;
  // --function-alias rewrites the module before it is printed
  return { dir, key: { files: key.files, options: `${key.options}\naliases=${JSON.stringify(opts.functionAliases)}` } };
}

export class TestWriter {
  completedPaths = 0;
  exploredPaths = 0;
  generatedTests = 0;
  testsNumbered = 0;
  errors = 0;
  private readonly emittedErrors = new Set<string>();
  /** The module as assembly.ll, and each instruction's line in it. */
  readonly assembly: Assembly;
  private assemblyWritten = false;
  private readonly exitOn: Set<Termination>;

  constructor(
    readonly ex: Executor,
    readonly output: RunOutput,
  ) {
    this.assembly = new Assembly(ex.km.module, assemblyStore(ex.opts));
    this.exitOn = new Set(ex.opts.exitOnErrorType.map((n) => EXIT_ON_ERROR_NAMES[n]).filter((t): t is Termination => t !== undefined));
  }

  private shouldWriteTest(st: ExecutionState): boolean {
    // KLEE's --always-output-seeds: a state that follows seeds writes its test regardless
    return !this.ex.opts.onlyOutputStatesCoveringNew || st.coveredNew || (this.ex.seeding?.alwaysOutput(st) ?? false);
  }

  onExit(st: ExecutionState): void {
    this.completedPaths++;
    this.exploredPaths++;
    const id = this.shouldWriteTest(st) ? this.processTestCase(st, {}, true) : 0;
    this.ex.events.onStateEnd?.({ stateId: st.id, testId: id, kind: Termination.Exit, exitValue: st.exitValue });
    if (id !== 0) this.witnessTests(st, () => ({}), true, Termination.Exit);
  }

  onEarly(st: ExecutionState, message: string, kind: Termination): void {
    this.exploredPaths++;
    const id = this.shouldWriteTest(st) ? this.processTestCase(st, { early: `${message}\n` }) : 0;
    this.ex.events.onStateEnd?.({ stateId: st.id, testId: id, kind, message });
    if (id !== 0) this.witnessTests(st, () => ({ early: `${message}\n` }), false, kind, message);
  }

  /** The inputs of the test written last. */
  private lastKTest: KTest | null = null;
  /** Its values of the state's auxiliary arrays (quantified merges' counts), or null. */
  private lastAux: Map<ExprArray, Uint8Array> | null = null;

  /** Tests written for the witnesses of merged states (merging/core.ts keeps them). */
  witnessTestCount = 0;

  /**
   * A merged state stands for several paths: besides its own test, each witness (a merged-in
   * path that covered new code) the state's end still allows gets a test following it. Its
   * outcome (exit status, console) is the merged state's, evaluated under its own inputs.
   */
  private witnessTests(st: ExecutionState, extras: () => WriteTestExtras, exited: boolean, kind: Termination, message?: string): void {
    if (st.witnesses.length === 0) return;
    const done = this.ex.witnessEvents.done;
    // a witness some test already follows needs none of its own
    const addModel = (k: KTest | null): void => {
      if (k === null) return;
      const m = new Map<ExprArray, Uint8Array>(this.lastAux ?? []);
      st.symbolics.forEach((s, i) => m.set(s.array, k.objects[i]!.bytes));
      const ev = new Evaluator(m);
      for (const w of st.witnesses) if (!done.has(w.event) && w.constraints.every((c) => ev.isTrue(st.memory.solverView(c)))) done.add(w.event);
    };
    addModel(this.lastKTest);
    for (const w of st.witnesses) {
      if (done.has(w.event)) continue;
      let ok: boolean;
      try {
        // may the state's end and the witness's path hold at once?
        ok = !this.ex.solver.computeTruth({ constraints: this.ex.solverConstraints(st), expr: st.memory.solverView(builder.not(conjunction(w.constraints))) });
      } catch (e) {
        if (!isSolverFailure(e)) throw e;
        continue;
      }
      this.ex.queries++;
      if (!ok) continue; // this state's end excludes it: another state may still follow it
      const id = this.processTestCase(st, extras(), exited, w.constraints);
      this.witnessTestCount++;
      this.ex.events.onStateEnd?.({ stateId: st.id, testId: id, kind, message, exitValue: exited ? st.exitValue : undefined, witness: true });
      done.add(w.event);
      addModel(this.lastKTest);
    }
  }

  onError(st: ExecutionState, message: string, kind: Termination, info?: string, suffix?: string): void {
    this.exploredPaths++;
    const ki = this.ex.currentInst(st);
    const key = `${ki?.gid ?? -1}\u0000${message}`;
    if (!this.ex.opts.emitAllErrors && this.emittedErrors.has(key)) {
      this.ex.events.onStateEnd?.({ stateId: st.id, testId: 0, kind, message });
      return;
    }
    this.emittedErrors.add(key);
    this.errors++;
    const where = ki !== null && ki.file !== '' ? `${ki.file}:${ki.line}: ` : '(location information missing) ';
    this.ex.writer.output.appendMessage(`ERROR: ${where}${message}`);
    this.ex.events.onLog?.(`ERROR: ${where}${message}`, 'error');
    if (!this.ex.opts.emitAllErrors) this.ex.message('NOTE: now ignoring this error at this location');
    this.writeAssembly();
    const text = formatErrFile({
      message,
      file: ki?.file || undefined,
      line: ki?.line,
      assemblyLine: ki !== null ? this.assembly.lineOf(ki.inst) : undefined,
      stateId: st.id,
      stack: this.stackInfo(st),
      info,
    });
    const extras: WriteTestExtras = {};
    if (suffix !== undefined) {
      // klee_report_error chooses the whole suffix ("div.err", "user.err", or anything)
      if (suffix.endsWith('.err')) {
        extras.errKind = suffix.slice(0, -4);
        extras.errText = text;
      } else extras.files = { [suffix]: text };
    } else {
      extras.errKind = ERR_SUFFIX[kind] ?? 'exec';
      extras.errText = text;
    }
    const id = this.processTestCase(st, extras);
    this.ex.events.onStateEnd?.({ stateId: st.id, testId: id, kind, message });
    if (this.exitOn.has(kind)) this.ex.halt(`exit on error type: ${message}`);
    // KLEE's --exit-on-error: the run ends here, the other states without tests
    if (this.ex.opts.exitOnError) {
      this.ex.exitErrorReport = text;
      this.ex.halt(`${EXIT_ON_ERROR_PREFIX}${message}`, false);
    }
  }

  /** The stack of an error report, innermost frame first (KLEE's ExecutionState::dumpStack). */
  stackInfo(st: ExecutionState): StackFrameInfo[] {
    const out: StackFrameInfo[] = [];
    let pc = st.prevPc;
    for (let i = st.stack.length - 1; i >= 0; i--) {
      const f = st.stack[i]!;
      const ki: KInst | undefined = f.kf.insts[pc];
      const args = f.kf.fn.args.map((a, j) => {
        const v: Val = f.regs[f.kf.argBase + j]!;
        const w = a.type.kind === TypeKind.Integer ? (a.type as IntegerType).bits : 64;
        return { name: a.name, value: typeof v === 'number' || typeof v === 'bigint' ? printArg(v, w) : undefined };
      });
      out.push({ fn: f.kf.name, assemblyLine: ki !== undefined ? this.assembly.lineOf(ki.inst) : 0, file: ki?.file || undefined, line: ki?.line, args });
      pc = f.callerPc;
    }
    return out;
  }

  /** An instruction's 1-based line in assembly.ll (0 if unknown). */
  assemblyLineOf(ki: KInst): number {
    return this.assembly.lineOf(ki.inst);
  }

  /** assembly.ll, the first time a report (or run.istats) refers to it. */
  writeAssembly(): void {
    if (this.assemblyWritten || this.output.writeFile === undefined || !this.ex.opts.outputSource) return;
    this.assemblyWritten = true;
    this.output.writeFile('assembly.ll', this.assembly.text);
  }

  /** Write one test for st (a .ktest when its inputs can be computed, plus extras; `exited`: the path exited normally). */
  private processTestCase(st: ExecutionState, extras: WriteTestExtras, exited = false, witness?: readonly Expr[]): number {
    const ex = this.ex;
    // --write-no-tests: KLEE writes nothing for the test (not even its .err)
    if (ex.opts.writeNoTests) return 0;
    const t0 = Date.now();
    const ktest = this.symbolicSolution(st, witness);
    this.lastKTest = ktest;
    if (ktest === null) ex.warning('unable to get symbolic solution, losing test case');
    // the console output (.stdout, .stderr) and exit status (exit-status.txt) under this test's inputs
    const record = consoleRecord(st, ktest, exited, this.lastAux);
    // `extras` is the caller's fresh object: completed here rather than copied (once per test)
    const files: Record<string, string | Uint8Array> = record.files;
    if (extras.files !== undefined) Object.assign(files, extras.files);
    // the path condition as the solver sees it (the memory model's rewriting applied)
    if (ex.opts.writeSmt2s) files.smt2 = toSmtLib2(ex.solverConstraints(st).length > 0 ? [...ex.solverConstraints(st)] : [TRUE]).text;
    if (ex.opts.writeKQueries) files.kquery = printKQueryFile(ex.solverConstraints(st));
    if (ex.opts.writeCov) files.cov = firstCoveredLines(st, ex.km);
    if (ex.opts.writeCvcs) files.cvc = toSmtLib2(ex.solverConstraints(st).length > 0 ? [...ex.solverConstraints(st)] : [TRUE]).text;
    if (ex.opts.writePaths) files.path = pathFile(st.path);
    if (ex.opts.writeSymPaths) files['sym.path'] = pathFile(st.symPath);
    if (ex.opts.writeXmlTests && ktest !== null) files.xml = formatTestXml(ktest, extras.errKind !== undefined || extras.errText !== undefined);
    // KLEE writes .info only without --write-xml-tests
    if (ex.opts.writeTestInfo && !ex.opts.writeXmlTests) files.info = `Time to generate test case: ${((Date.now() - t0) / 1000).toFixed(3)}s\n`;
    if (record.exitStatus !== undefined) extras.exitStatus = record.exitStatus;
    extras.files = files;
    const id = this.output.writeTest(ktest, extras);
    this.testsNumbered = Math.max(this.testsNumbered, id);
    if (ktest !== null) this.generatedTests++;
    return id;
  }

  /** The test inputs of st: a model of its constraints (KLEE's getSymbolicSolution). */
  symbolicSolution(st: ExecutionState, witness?: readonly Expr[]): KTest | null {
    const ex = this.ex;
    const symbolics = st.symbolics;
    // plain loops, no spreads or map closures: this runs once per test and gets optimised in
    // every run; --trace-opt showed ~50 ms of compile for the closure version, ~30 for this
    const arrays: ExprArray[] = [];
    for (let i = 0; i < symbolics.length; i++) arrays.push(symbolics[i]!.array);
    // quantified merges' counts: no test objects, but the test's outputs may depend on them
    for (let i = 0; i < st.auxArrays.length; i++) arrays.push(st.auxArrays[i]!);
    this.lastAux = null;
    let values: Uint8Array[] | null = [];
    if (arrays.length > 0) {
      try {
        let constraints = ex.solverConstraints(st);
        // Try each preference (klee_prefer_cex) in turn; keep those the path allows.
        if (witness !== undefined) constraints = [...constraints, ...witness.map((c) => st.memory.solverView(c))];
        if (st.cexPreferences.length > 0) constraints = this.withPreferences(st, constraints);
        values = ex.solver.computeInitialValues({ constraints, expr: TRUE }, arrays);
        ex.queries++;
      } catch (e) {
        if (!isSolverFailure(e)) throw e;
        values = null;
      }
    }
    if (values === null) return null;
    if (st.auxArrays.length > 0) {
      this.lastAux = new Map();
      for (let i = 0; i < st.auxArrays.length; i++) this.lastAux.set(st.auxArrays[i]!, values[symbolics.length + i]!);
    }
    const objects: KTestObject[] = [];
    for (let i = 0; i < symbolics.length; i++) objects.push({ name: symbolics[i]!.mo.name, bytes: values[i] ?? new Uint8Array(symbolics[i]!.mo.size) });
    return { version: 3, args: this.ktestArgs(), symArgvs: 0, symArgvLen: 0, objects };
  }

  /** `constraints` with each klee_prefer_cex preference of st the path allows, in order. */
  private withPreferences(st: ExecutionState, constraints: readonly Expr[]): readonly Expr[] {
    const withPrefs = [...constraints];
    for (const p of st.cexPreferences) {
      const q = st.memory.solverView(p);
      const ok = !this.ex.solver.computeTruth({ constraints: withPrefs, expr: builder.not(q) });
      if (ok) withPrefs.push(q);
    }
    return withPrefs;
  }

  /** The program's argv as a .ktest records it (a fresh array: a test's fields are its own). */
  private ktestArgs(): string[] {
    const opts = this.ex.opts;
    const args = [opts.programName];
    for (let i = 0; i < opts.programArgs.length; i++) args.push(opts.programArgs[i]!);
    return args;
  }
}

/** A .path / .sym.path file: one decision a line, oldest first (KLEE's format). */
function pathFile(p: PathBit | null): string {
  const bits = pathBits(p);
  return bits.length === 0 ? '' : `${bits.join('\n')}\n`;
}

/** KLEE prints constant arguments as unsigned decimal. */
function printArg(v: number | bigint, w: number): string {
  return toUBig(v, w).toString();
}
