/**
 * QCE's ite term (merging/similarity.ts, the digest's §3.4 Eq. 7): variables that feed memory
 * addresses (FunctionQce.addressDeps) are hot at any count and must not become an ite, while
 * arithmetic values still merge when one side is symbolic (the paper's `sleep` case).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { compileC, disposeSolver, exitValueOf, objectBytes, runC, valueUnder } from '../support/run-c.js';
import { loadModule } from '../../../../src/index.js';
import { KModule } from '../../../../src/engine/prepare/kmodule.js';
import { callBindings } from '../../../../src/engine/bindings.js';
import { QceAnalysis } from '../../../../src/engine/merging/qce.js';
import { Opcode } from '../../../../src/ir/opcodes.js';

afterAll(() => disposeSolver());

/** The analysis of `name`, and the cell of each alloca (in source order). */
function analyse(src: string, name = 'main') {
  const km = new KModule(loadModule([compileC(src)]), callBindings);
  const kf = km.kfunction(km.module.getFunction(name)!)!;
  const fq = new QceAnalysis(km, { alpha: 1e-12, beta: 0.8, kappa: 10 }).of(kf)!;
  const allocas = kf.insts.filter((k) => k.inst.opcode === Opcode.Alloca).map((k) => k.dest);
  const cellOf = (alloca: number): number => {
    for (let k = 0; k < fq.cells.length; k++) if (fq.cells[k]!.alloca === alloca && fq.cells[k]!.offset === 0) return fq.numRegs + k;
    throw new Error(`no cell for alloca register ${alloca}`);
  };
  return { fq, allocas, cellOf };
}

describe('QCE address dependences', () => {
  it('a pointer read through, a pointer given to memcpy and one given to a callee that reads through it feed addresses; a counter does not', () => {
    const { fq, allocas, cellOf } = analyse(`#include <klee/klee.h>
#include <string.h>
static int first(const char *q) { return *q; }
int main(void) {
  char s[8]; klee_make_symbolic(s, sizeof s, "s");
  char d[8];
  const char *p = s; const char *m = s + 1; const char *c = s + 2; int n = 0;
  while (*p) { p++; n++; }
  memcpy(d, m, 4);
  return first(c) + n + d[0];
}`);
    // allocas in order: retval, s, d, p, m, c, n
    const [, , , p, m, c, n] = allocas as number[];
    expect(fq.addressDeps.has(cellOf(p!))).toBe(true);
    expect(fq.addressDeps.has(cellOf(m!))).toBe(true);
    expect(fq.addressDeps.has(cellOf(c!))).toBe(true);
    expect(fq.addressDeps.has(cellOf(n!))).toBe(false);
  });
});

/** Two paths whose pointer p differs, symbolic on one side, then reads through p. */
const POINTER = `#include <klee/klee.h>
int main(void) {
  char s[8]; klee_make_symbolic(s, sizeof s, "s");
  unsigned char x; klee_make_symbolic(&x, 1, "x");
  const char *p;
  if (x > 100) p = s + (x & 3); else p = s + 4;
  int n = 0;
  for (int i = 0; i < 3; i++) if (p[i] == 'a') n++;
  return n;
}`;

/** sleep-like accumulation: sec is symbolic in the "digit" state, concrete in the other. */
const ACCUMULATE = `#include <klee/klee.h>
int main(void) {
  char s[3]; klee_make_symbolic(s, sizeof s, "s");
  unsigned sec = 0;
  for (int i = 0; i < 3; i++)
    if (s[i] >= '0' && s[i] <= '9') sec = sec * 10 + (s[i] - '0'); else sec += 1;
  return sec >= 1000;
}`;

describe("QCE's ite term", () => {
  it('keeps apart states whose address-feeding pointer would become an ite; the paper\'s prototype merges them', async () => {
    const withTerm = await runC(POINTER, { stateMerging: 'static' });
    const without = await runC(POINTER, { stateMerging: 'static', qceIteTerm: false });
    // the join after the if/else: p is symbolic on one side (s + (x & 3)), concrete on the other
    expect(withTerm.merging!.refusedBySimilarity).toBeGreaterThan(0);
    expect(without.merging!.refusedBySimilarity).toBe(0);
    // every test's exit value is its own path's count
    for (const r of [withTerm, without]) {
      expect(r.tests.length).toBeGreaterThan(0);
      for (const t of r.tests) {
        const sb = objectBytes(t, 's');
        const x = objectBytes(t, 'x')[0]!;
        const off = x > 100 ? x & 3 : 4;
        const n = [0, 1, 2].filter((i) => sb[off + i] === 'a'.charCodeAt(0)).length;
        expect(Number(valueUnder(exitValueOf(r, t.id), t))).toBe(n);
      }
    }
  });

  it('still merges arithmetic accumulation (symbolic in one state) into one state', async () => {
    const r = await runC(ACCUMULATE, { stateMerging: 'static' });
    expect(r.merging!.refusedByIte).toBe(0);
    expect(r.completedPaths).toBeLessThanOrEqual(2);
    expect(r.merging!.pathMultiplicity).toBeGreaterThanOrEqual(27);
  });
});
