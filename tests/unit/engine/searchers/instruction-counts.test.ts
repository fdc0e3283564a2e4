/**
 * The counts behind nurs:icnt and nurs:cpicnt: how often each instruction has run (over all
 * states) and how many instructions ran per call path (KLEE's CallPathNode statistics), as the
 * interpreter records them, and what the coverage oracle gives the weighted searcher.
 */
import { describe, expect, it } from '@jest/globals';
import { loadModule } from '../../../../src/load.js';
import { explore } from '../../../../src/engine/explore.js';
import { CallPathCounts, CoverageTracker } from '../../../../src/engine/coverage.js';
import type { Executor } from '../../../../src/engine/executor.js';
import type { ExecutionState, StackFrame } from '../../../../src/engine/state.js';
import type { KFunction } from '../../../../src/engine/prepare/kinst.js';
import { SolverFailure, SolverFailureKind, type Solver } from '../../../../src/solver/solver.js';
import { kleeWeight } from '../../../../src/engine/searchers/weighted.js';
import { compileC } from '../support/run-c.js';

/** The programs here are concrete: a query would be a bug. */
const noSolver: Solver = {
  computeTruth: () => {
    throw new SolverFailure(SolverFailureKind.Unknown, 'no query expected');
  },
  computeValidity: () => {
    throw new SolverFailure(SolverFailureKind.Unknown, 'no query expected');
  },
  computeValue: () => {
    throw new SolverFailure(SolverFailureKind.Unknown, 'no query expected');
  },
  computeInitialValues: () => {
    throw new SolverFailure(SolverFailureKind.Unknown, 'no query expected');
  },
  stats: () => [],
  dispose: () => {},
};

const PROG = `
int f(int k) {
  int s = 0;
  for (int i = 0; i < k; i++)
    s += i;                       /* line 5: runs k times per call */
  return s;
}
int g(void) { return f(3); }
int main(void) {
  int a = f(3);
  int b = f(3);
  return a + b + g();
}
`;

/** Records, per chain of function names, what the interpreter attributes. */
class RecordingCallPaths extends CallPathCounts {
  readonly byNames = new Map<string, number>();
  override addInstructions(st: ExecutionState, n: number): void {
    super.addInstructions(st, n);
    if (n === 0) return;
    const key = st.stack.map((f) => f.kf.name).join('>');
    this.byNames.set(key, (this.byNames.get(key) ?? 0) + n);
  }
}

describe('instruction counts recorded by the engine', () => {
  it('counts every execution of every instruction, and attributes each to its call path', async () => {
    const module = loadModule([compileC(PROG)]);
    let ex!: Executor;
    let rec!: RecordingCallPaths;
    const r = await explore(module, { search: ['nurs:cpicnt'], maxMemory: 0 }, {
      solver: noSolver,
      onStart: (e) => {
        ex = e;
        expect(e.callPaths).not.toBeNull(); // nurs:cpicnt asks for call-path counts
        rec = new RecordingCallPaths();
        e.callPaths = rec;
      },
    });
    expect(r.completedPaths).toBe(1);
    // nurs:icnt's counts: the loop body ran 3 times in each of the 3 calls
    const f = [...ex.km.functions.values()].find((k: KFunction) => k.name === 'f')!;
    const body = f.insts.filter((ki) => ki.line === 5);
    expect(body.length).toBeGreaterThan(0);
    for (const ki of body) expect(ex.covered[ki.gid]).toBe(9);
    const main = [...ex.km.functions.values()].find((k: KFunction) => k.name === 'main')!;
    for (const ki of main.insts) expect(ex.covered[ki.gid]).toBe(1);
    // nurs:cpicnt's counts: every instruction attributed once, to the right call path
    const total = [...rec.byNames.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(r.instructions);
    expect([...rec.byNames.keys()].sort()).toEqual(['main', 'main>f', 'main>g', 'main>g>f']);
    expect(rec.byNames.get('main>f')).toBe(2 * rec.byNames.get('main>g>f')!); // two calls from main, one from g
    expect(rec.byNames.get('main')).toBe(main.insts.length);
  });

  it('is not kept when no searcher needs it', async () => {
    const module = loadModule([compileC('int main(void) { return 0; }')]);
    let ex!: Executor;
    await explore(module, { search: ['dfs'], maxMemory: 0 }, { solver: noSolver, onStart: (e) => (ex = e) });
    expect(ex.callPaths).toBeNull();
  });
});

describe('CallPathCounts', () => {
  const kf = (name: string): KFunction => ({ name }) as unknown as KFunction;
  const frame = (k: KFunction, callerPc: number): StackFrame => ({ kf: k, callerPc }) as unknown as StackFrame;
  const state = (...frames: StackFrame[]): ExecutionState => ({ stack: frames }) as unknown as ExecutionState;
  const main = kf('main');
  const f = kf('f');

  it('shares a call path between states (and frame copies), and separates call sites', () => {
    const cp = new CallPathCounts();
    const a = state(frame(main, -1), frame(f, 3));
    cp.addInstructions(a, 5);
    // another state in the same call path, with its own frame objects (a fork's copies)
    const b = state(frame(main, -1), frame(f, 3));
    expect(cp.countOf(b)).toBe(5);
    cp.addInstructions(b, 2);
    expect(cp.countOf(a)).toBe(7);
    // f called from another call site of main: another path
    expect(cp.countOf(state(frame(main, -1), frame(f, 9)))).toBe(0);
    // only main's own instructions count for main (not its callees')
    expect(cp.countOf(state(frame(main, -1)))).toBe(0);
    // recursion: f → f is a deeper path
    expect(cp.countOf(state(frame(main, -1), frame(f, 3), frame(f, 4)))).toBe(0);
  });

  it('feeds nurs:cpicnt and nurs:icnt through the coverage oracle', () => {
    const cp = new CallPathCounts();
    const covered = new Float64Array(8);
    const fk = { name: 'f', insts: [{ gid: 6 }, { gid: 7 }] } as unknown as KFunction;
    const ex = { callPaths: cp, covered } as unknown as Executor;
    const oracle = new CoverageTracker(ex);
    const st = { stack: [frame(main, -1), frame(fk, 2)], pc: 1, depth: 0, queryCostMs: 0, instsSinceCovNew: 0, id: 1, ptreeNode: null } as unknown as ExecutionState;
    Object.defineProperty(st, 'top', { get: () => st.stack[st.stack.length - 1] });
    covered[7] = 4;
    cp.addInstructions(st, 8);
    expect(oracle.instructionCount(st)).toBe(4);
    expect(oracle.callPathInstructionCount(st)).toBe(8);
    expect(kleeWeight('icnt', st, oracle)).toBe(1 / 16);
    expect(kleeWeight('cpicnt', st, oracle)).toBe(1 / 8);
  });
});
