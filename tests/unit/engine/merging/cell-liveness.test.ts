import { afterAll, describe, expect, it } from '@jest/globals';
import { compileC, disposeSolver } from '../support/run-c.js';
import { loadModule } from '../../../../src/index.js';
import { KModule } from '../../../../src/engine/prepare/kmodule.js';
import { callBindings } from '../../../../src/engine/bindings.js';
import { QceAnalysis } from '../../../../src/engine/merging/qce.js';
import { Opcode } from '../../../../src/ir/opcodes.js';

afterAll(() => disposeSolver());

/** The QCE analysis of main, and the register of the alloca of each named local (from its debug name order). */
function analyse(src: string) {
  const km = new KModule(loadModule([compileC(src)]), callBindings);
  const kf = km.kfunction(km.module.getFunction('main')!)!;
  const fq = new QceAnalysis(km, { alpha: 1e-12, beta: 0.8, kappa: 10 }).of(kf)!;
  const allocas = kf.insts.filter((k) => k.inst.opcode === Opcode.Alloca).map((k) => k.dest);
  const cellOf = (alloca: number): number => {
    for (let k = 0; k < fq.cells.length; k++) if (fq.cells[k]!.alloca === alloca && fq.cells[k]!.offset === 0) return fq.numRegs + k;
    throw new Error(`no cell for alloca register ${alloca}`);
  };
  return { kf, fq, allocas, cellOf };
}

describe('liveness of -O0 locals (QCE)', () => {
  it('an inner loop counter is dead where the next outer iteration starts, live inside its loop', () => {
    const { kf, fq, allocas, cellOf } = analyse(`#include <klee/klee.h>
int main(void) {
  char s[3][4]; klee_make_symbolic(s, sizeof s, "s");
  int n = 0;
  for (int k = 0; k < 3; k++) { int i = 0; while (s[k][i] != 0 && i < 3) i++; n += i; }
  return n;
}`);
    // allocas in order: retval, s, n, k, i
    const [, , , k, i] = allocas as [number, number, number, number, number];
    const iCell = cellOf(i);
    const kCell = cellOf(k);
    // the outer loop's header: the first block whose instructions load k and compare it
    const header = kf.insts.find((x) => x.inst.opcode === Opcode.Load && x.inst.ops[0] === kf.insts.find((y) => y.dest === k)!.inst)!;
    expect(fq.cellLive(header.index, iCell)).toBe(false); // overwritten (i = 0) before it is read
    expect(fq.cellLive(header.index, kCell)).toBe(true);
    // inside the inner loop i is read
    const readI = kf.insts.find((x) => x.inst.opcode === Opcode.Load && x.inst.ops[0] === kf.insts.find((y) => y.dest === i)!.inst)!;
    expect(fq.cellLive(readI.index, iCell)).toBe(true);
  });

  it('a local whose address escapes is always live', () => {
    const { kf, fq, allocas, cellOf } = analyse(`#include <klee/klee.h>
void touch(int *p);
int main(void) {
  int x = 0; int y = 1;
  klee_make_symbolic(&x, sizeof x, "x");
  y = 2;
  return x + y;
}`);
    const [, x, y] = allocas as [number, number, number];
    const ret = kf.insts.find((k) => k.inst.opcode === Opcode.Ret)!;
    expect(fq.cellLive(ret.index, cellOf(x))).toBe(true); // escaped: not tracked
    expect(fq.cellLive(ret.index, cellOf(y))).toBe(false); // nothing is read after the return
  });
});
