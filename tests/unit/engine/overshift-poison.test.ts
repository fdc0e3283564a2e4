/**
 * Over-wide shifts (prepare/poison.ts): in optimised code an over-wide shift is poison,
 * reported only where the program observes it; in clang -O0 code (optnone) every shift the IR
 * runs is one the C program runs, so it is reported at the shift, as KLEE does.
 * --overshift-at=shift|use overrides the choice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { disposeSolver, errorMessage, INCLUDE, runBitcode } from './support/run-c.js';

const dir = mkdtempSync(join(tmpdir(), 'tsklee-overshift-'));
let counter = 0;

/** Bitcode with exactly these optimisation flags (run-c's compileC always drops optnone). */
function compileC(source: string, flags: string[]): string {
  const base = join(dir, `p${++counter}`);
  writeFileSync(`${base}.c`, source);
  execFileSync('clang-19', ['-emit-llvm', '-c', '-g', `-I${INCLUDE}`, ...flags, `${base}.c`, '-o', `${base}.bc`], { stdio: ['ignore', 'ignore', 'pipe'] });
  return `${base}.bc`;
}

afterAll(() => disposeSolver());

/** A shift by 40 whose value the program discards: well defined in LLVM, undefined in C. */
const DISCARDED = `
int main(void) {
  volatile int vr = 40;
  int r = vr, x = 3;
  (void)(x << r);
  return 0;
}`;

/** The guard that clang -O2 turns into a speculated shift and a select. */
const GUARDED = `#include <klee/klee.h>
__attribute__((noinline)) static int shifted(short x, unsigned r) { return (r >= 32 || x > (127 >> r)) ? x : x << r; }
int main(void) {
  volatile unsigned vr = 40;
  volatile short vx = 5;
  return shifted(vx, vr) == 5 ? 0 : 1;
}`;

/** The shifted value decides a branch: observed. */
const OBSERVED = `#include <klee/klee.h>
volatile int sink;
int main(void) {
  unsigned r = (unsigned)klee_int("r");
  int x = klee_int("x");
  if ((x << r) > 5) sink = 1;
  return 0;
}`;

const O0_OPTNONE = ['-O0'];
const O0_PLAIN = ['-O0', '-Xclang', '-disable-O0-optnone'];
const O2 = ['-O2'];

function overshifts(r: Awaited<ReturnType<typeof runBitcode>>): number {
  return r.tests.filter((t) => errorMessage(t) === 'overshift error').length;
}

describe('over-wide shifts', () => {
  it('at -O0 (optnone) are reported at the shift, even when the value is discarded', async () => {
    const r = await runBitcode(compileC(DISCARDED, O0_OPTNONE));
    expect(overshifts(r)).toBe(1);
    expect(r.completedPaths).toBe(0);
  });

  it('without optnone are poison: a discarded one is no error (unless --overshift-at=shift)', async () => {
    const bc = compileC(DISCARDED, O0_PLAIN);
    const r = await runBitcode(bc);
    expect(overshifts(r)).toBe(0);
    expect(r.completedPaths).toBe(1);
    expect(overshifts(await runBitcode(bc, { overshiftAt: 'shift' }))).toBe(1);
    // and --overshift-at=use makes optnone code track poison too
    expect(overshifts(await runBitcode(compileC(DISCARDED, O0_OPTNONE), { overshiftAt: 'use' }))).toBe(0);
  });

  it('speculated by -O2 before their guard are no error', async () => {
    const r = await runBitcode(compileC(GUARDED, O2));
    expect(overshifts(r)).toBe(0);
    expect(r.completedPaths).toBe(1);
    expect(r.ends[0]!.exitValue).toBe(0);
    expect(overshifts(await runBitcode(compileC(GUARDED, O2), { overshiftAt: 'shift' }))).toBe(1);
  });

  it.each([
    ['-O0', O0_PLAIN],
    ['-O2', O2],
  ])('observed by a branch at %s: the state forks and the over-wide side reports', async (_name, flags) => {
    const r = await runBitcode(compileC(OBSERVED, flags));
    expect(overshifts(r)).toBe(1);
    expect(r.completedPaths).toBe(2);
    const bad = r.tests.find((t) => errorMessage(t) === 'overshift error')!;
    const rBytes = bad.ktest!.objects.find((o) => o.name === 'r')!.bytes;
    expect(new DataView(rBytes.buffer, rBytes.byteOffset).getUint32(0, true)).toBeGreaterThanOrEqual(32);
  });
});
