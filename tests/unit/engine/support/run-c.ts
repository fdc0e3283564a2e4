/**
 * Test support: compile a small C program with clang-19 (KLEE-style: -g -O0, optnone off,
 * runtime/include on the path) and explore it with the engine, keeping the tests in memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModule } from '../../../../src/index.js';
import { explore, type ExploreResult } from '../../../../src/engine/explore.js';
import { MemoryOutput } from '../../../../src/engine/test-output.js';
import type { EngineOptions } from '../../../../src/engine/options.js';
import { createSolver, type Solver } from '../../../../src/solver/index.js';
import type { KTest } from '../../../../src/output/ktest.js';
import type { WriteTestExtras } from '../../../../src/output/output-dir.js';
import type { Module } from '../../../../src/ir/module.js';
import type { StateEndInfo } from '../../../../src/engine/executor.js';
import { collectArrays, evaluateExpr, type Expr, type ExprArray } from '../../../../src/expr/index.js';
import { fromExpr } from '../../../../src/engine/values.js';
import { REPO_ROOT } from '../../../support/fixtures.js';

export const INCLUDE = join(REPO_ROOT, 'runtime', 'include');

let dir: string | undefined;
let counter = 0;

/** Compile C source to bitcode; returns the .bc path. */
export function compileC(source: string, extraFlags: string[] = []): string {
  dir ??= mkdtempSync(join(tmpdir(), 'tsklee-e2e-'));
  const base = join(dir, `prog${++counter}`);
  writeFileSync(`${base}.c`, source);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', '-O0', '-Xclang', '-disable-O0-optnone', `-I${INCLUDE}`, ...extraFlags, `${base}.c`, '-o', `${base}.bc`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return `${base}.bc`;
}

/** Compile C source natively and run it; returns its exit status and stdout. */
export function runNative(source: string, extraFlags: string[] = []): { status: number; stdout: string } {
  dir ??= mkdtempSync(join(tmpdir(), 'tsklee-e2e-'));
  const base = join(dir, `native${++counter}`);
  writeFileSync(`${base}.c`, source);
  execFileSync('clang-19', ['-O0', `-I${INCLUDE}`, ...extraFlags, `${base}.c`, '-o', base, '-lm'], { stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const stdout = execFileSync(base, [], { encoding: 'utf8' });
    return { status: 0, stdout };
  } catch (e) {
    const err = e as { status: number; stdout: string };
    return { status: err.status, stdout: err.stdout };
  }
}

let solver: Solver | undefined;

export async function sharedSolver(): Promise<Solver> {
  solver ??= await createSolver({});
  return solver;
}

export function disposeSolver(): void {
  solver?.dispose();
  solver = undefined;
}

export interface TestCase {
  id: number;
  ktest: KTest | null;
  extras: WriteTestExtras;
  /** The error kind ('ptr', 'div', …) or undefined for a normal exit. */
  err?: string;
  errText?: string;
}

export interface RunResult extends ExploreResult {
  tests: TestCase[];
  /** Every ended state, in order. */
  ends: StateEndInfo[];
  messages: string[];
  warnings: string[];
  prints: string[];
  module: Module;
}

/** Compile and explore; DFS by default so that orders are stable. */
export async function runC(source: string, opts: Partial<EngineOptions> = {}): Promise<RunResult & { bc: string }> {
  const bc = compileC(source);
  return { ...(await runBitcode(bc, opts)), bc };
}

export async function runBitcode(bc: string, opts: Partial<EngineOptions> = {}): Promise<RunResult> {
  const module = loadModule([bc]);
  const output = new MemoryOutput();
  const prints: string[] = [];
  const ends: StateEndInfo[] = [];
  const r = await explore(
    module,
    // no memory cap unless a test asks: the cap counts the whole process, and a jest worker's
    // holds earlier tests' memory (a merging test once lost its states to it under load)
    { search: ['dfs'], programName: bc, maxMemory: 0, ...opts },
    {
      output,
      solver: await sharedSolver(),
      events: { onLog: (line, kind) => (kind === 'print' ? prints.push(line) : undefined), onStateEnd: (i) => ends.push(i) },
    },
  );
  const tests = output.tests.map((t) => ({
    ...t,
    err: t.extras.errKind ?? (t.extras.files !== undefined ? Object.keys(t.extras.files).find((k) => k.endsWith('.err') || k === 'user')?.replace(/\.err$/, '') : undefined),
    errText: t.extras.errText ?? (t.extras.files !== undefined ? Object.values(t.extras.files).find((v) => typeof v === 'string' && v.startsWith('Error:')) as string | undefined : undefined),
  }));
  return { ...r, tests, ends, messages: output.messages, warnings: output.warnings, prints, module };
}

/** Run the program again with a test's inputs (EngineOptions.replay): how does that path end? */
export async function replay(bc: string, t: TestCase, opts: Partial<EngineOptions> = {}): Promise<StateEndInfo> {
  const r = await runBitcode(bc, { ...opts, replay: { objects: t.ktest!.objects } });
  if (r.ends.length !== 1) throw new Error(`replay of test ${t.id} ended ${r.ends.length} states`);
  return r.ends[0]!;
}

/** The exit value of the state that wrote test `id`. */
export function exitValueOf(r: RunResult, id: number): unknown {
  return r.ends.find((e) => e.testId === id)?.exitValue;
}

/** The first error line ("Error: …") of a test's report. */
export function errorMessage(t: TestCase): string | undefined {
  return t.errText?.split('\n')[0]?.replace(/^Error: /, '');
}

/** The bytes of the named object of a test. */
export function objectBytes(t: TestCase, name: string): Uint8Array {
  const o = t.ktest?.objects.find((x) => x.name === name);
  if (o === undefined) throw new Error(`test ${t.id} has no object '${name}'`);
  return o.bytes;
}

export function int32(b: Uint8Array): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getInt32(0, true);
}

/** A value a state ended with, evaluated under a test's inputs (objects matched to arrays by name). */
export function valueUnder(v: unknown, t: TestCase): unknown {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
  const e = v as Expr;
  const assignment = new Map<ExprArray, Uint8Array>();
  for (const a of collectArrays(e)) {
    const o = t.ktest?.objects.find((x) => x.name === a.name.replace(/_\d+$/, ''));
    if (o !== undefined) assignment.set(a, o.bytes);
  }
  return fromExpr(evaluateExpr(e, assignment));
}
