import { afterAll, describe, expect, it } from '@jest/globals';
import { compileC, disposeSolver } from '../support/run-c.js';
import { loadModule } from '../../../../src/index.js';
import { KModule } from '../../../../src/engine/prepare/kmodule.js';
import { callBindings } from '../../../../src/engine/bindings.js';
import { livenessOf } from '../../../../src/engine/merging/liveness.js';
import { Opcode } from '../../../../src/ir/opcodes.js';

afterAll(() => disposeSolver());

describe('register liveness (merging needs no ite for a dead register)', () => {
  it('a loop counter is live in the loop, its next value is dead at the header', () => {
    const bc = compileC(`int f(int n) { int s = 0; for (int i = 0; i < n; i++) s += i * 3; return s; }`, ['-O1']);
    const km = new KModule(loadModule([bc]), callBindings);
    const kf = km.kfunction(km.module.getFunction('f')!)!;
    const live = livenessOf(kf);
    const ret = kf.insts.find((k) => k.inst.opcode === Opcode.Ret)!;
    const retReg = kf.regOf.get(ret.inst.ops[0]!)!;
    // at the return only the returned value is live
    const atRet = live.liveAt(ret.index);
    expect(atRet.has(retReg)).toBe(true);
    const arg = kf.argBase;
    expect(atRet.has(arg)).toBe(false);
    // at the entry the argument n is live (the loop bound)
    expect(live.liveAt(kf.entryPc).has(arg)).toBe(true);
    // an add's result is dead before the add runs
    const add = kf.insts.find((k) => k.inst.opcode === Opcode.Add)!;
    expect(live.liveAt(add.index).has(kf.regOf.get(add.inst)!)).toBe(false);
  });

  it('reaches its fixed point when registers numbered 31 mod 32 are live across a loop (an unsigned word compare)', () => {
    const terms = Array.from({ length: 70 }, (_, i) => `s${i} = s${i} * 3 + ${i} + n;`).join(' ');
    const decls = Array.from({ length: 70 }, (_, i) => `s${i} = ${i}`).join(', ');
    const bc = compileC(`int f(int n) { int ${decls}; for (int i = 0; i < n; i++) { ${terms} } return ${Array.from({ length: 70 }, (_, i) => `s${i}`).join(' + ')}; }`, ['-O1']);
    const km = new KModule(loadModule([bc]), callBindings);
    const kf = km.kfunction(km.module.getFunction('f')!)!;
    expect(kf.numRegs).toBeGreaterThan(64);
    const live = livenessOf(kf);
    // every accumulator is live at the loop's entry block (the loop reads them all)
    const phis = [...kf.regOf.entries()].filter(([v]) => (v as unknown as { opcode?: Opcode }).opcode === Opcode.Phi).map(([, r]) => r);
    expect(phis.length).toBeGreaterThan(64);
    const ret = kf.insts.find((k) => k.inst.opcode === Opcode.Ret)!;
    expect(live.liveAt(ret.index).has(kf.argBase)).toBe(false);
  });
});
