import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, runC } from '../unit/engine/support/run-c.js';
import { Termination } from '../../src/engine/errors.js';

afterAll(() => disposeSolver());

const FOUR = `#include <klee/klee.h>
int main(void) { unsigned char x[4]; klee_make_symbolic(x, sizeof x, "x"); int n = 0;
  for (int i = 0; i < 4; i++) if (x[i] > 10) n++; return n; }`;

describe('engine: limits and test selection', () => {
  it('--max-depth ends paths at the limit with .early tests', async () => {
    const r = await runC(FOUR, { maxDepth: 2 });
    expect(r.completedPaths).toBe(0);
    const early = r.tests.filter((t) => t.extras.early !== undefined);
    expect(early.length).toBe(r.tests.length);
    expect(early[0]!.extras.early).toBe('max-depth exceeded.\n');
  });

  it('--max-forks stops forking but finishes the paths', async () => {
    const r = await runC(FOUR, { maxForks: 2 });
    expect(r.forks).toBe(2);
    expect(r.completedPaths).toBe(3);
  });

  it('--max-instructions halts and dumps the remaining states as tests', async () => {
    const r = await runC(FOUR, { maxInstructions: 60 });
    expect(r.haltReason).toBe('max-instructions exceeded');
    expect(r.instructions).toBeLessThanOrEqual(60);
    const interrupted = r.ends.filter((e) => e.kind === Termination.Interrupted);
    expect(interrupted.length).toBeGreaterThan(0);
    expect(r.tests.some((t) => t.extras.early === 'Execution halting.\n')).toBe(true);
    expect(r.messages).toContain('halting execution, dumping remaining states');
  });

  it('--only-output-states-covering-new writes fewer tests', async () => {
    const all = await runC(FOUR);
    const some = await runC(FOUR, { onlyOutputStatesCoveringNew: true });
    expect(all.tests).toHaveLength(16);
    expect(some.tests.length).toBeLessThan(16);
    expect(some.completedPaths).toBe(16);
  });

  it('the same program, options and seed give the same tests', async () => {
    // a fresh solver each time: a warm query cache may pick other (equally valid) models
    disposeSolver();
    const a = await runC(FOUR, { search: ['random-path', 'nurs:covnew'], seed: 7 });
    disposeSolver();
    const b = await runC(FOUR, { search: ['random-path', 'nurs:covnew'], seed: 7 });
    const key = (r: typeof a): string[] => r.tests.map((t) => Buffer.from(t.ktest!.objects[0]!.bytes).toString('hex'));
    expect(key(b)).toEqual(key(a));
    expect(a.completedPaths).toBe(16);
  });

  it('static constructors run before main', async () => {
    const r = await runC(`int g = 1;
__attribute__((constructor)) static void init(void) { g = 41; }
int main(void) { return g + 1; }`);
    expect(r.ends[0]!.exitValue).toBe(42);
  });

  it('main(argc, argv) gets the program arguments', async () => {
    const r = await runC(`int main(int argc, char **argv) { int n = 0; for (int i = 0; i < argc; i++) for (char *p = argv[i]; *p; p++) n++; return argc * 100 + n + (argv[argc] == 0); }`, {
      programName: 'prog.bc',
      programArgs: ['ab', 'cde'],
    });
    expect(r.ends[0]!.exitValue).toBe(300 + 7 + 5 + 1);
    expect(r.tests[0]!.ktest!.args).toEqual(['prog.bc', 'ab', 'cde']);
  });
});

describe('engine: --max-time inside one instruction', () => {
  // A memcpy of symbolic length forks once per feasible length inside one instruction,
  // copying k bytes on the k-th path: hours of work with no turn of the event loop. The time
  // limit is checked after every solver query, so the run halts near its limit.
  const LONG_MEMCPY = `#include <klee/klee.h>
#include <string.h>
static char dst[200000], src[200000];
int main(void) { unsigned n; klee_make_symbolic(&n, sizeof n, "n"); klee_assume(n < sizeof dst);
  memcpy(dst, src, n); return dst[0]; }`;

  it('halts a memcpy of symbolic length at --max-time', async () => {
    const t0 = Date.now();
    const r = await runC(LONG_MEMCPY, { maxTime: 2 });
    expect(r.haltReason).toBe('HaltTimer invoked');
    // generous: without the check the instruction runs for hours (n up to 200 000)
    expect(Date.now() - t0).toBeLessThan(90_000);
    expect(r.ends.some((e) => e.kind === Termination.Interrupted)).toBe(true);
  }, 180_000);
});

describe('engine: --max-cpu-time', () => {
  it('halts after the CPU time the run used, whatever the wall clock', async () => {
    const cpu0 = process.cpuUsage();
    const r = await runC(`int main(void) { volatile unsigned n = 0; for (;;) n++; }`, { maxCpuTime: 1 });
    const used = process.cpuUsage(cpu0);
    expect(r.haltReason).toBe('max-cpu-time exceeded');
    expect((used.user + used.system) / 1e6).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
