import { describe, expect, it } from '@jest/globals';
import { ExecutionState, StackFrame, StateStatus } from '../../../src/engine/state.js';
import type { KFunction } from '../../../src/engine/prepare/kinst.js';
import { ConstraintSet } from '../../../src/solver/layers/constraint-set.js';
import { ForkingMemory } from '../../../src/memory/index.js';
import { TRUE } from '../../../src/expr/index.js';

/** A state with one frame of `n` registers (the function is not looked at). */
function stateWithFrame(n: number): ExecutionState {
  const kf = { name: 'f' } as unknown as KFunction;
  const st = new ExecutionState(1, [new StackFrame(kf, new Array(n).fill(0), -1)], new ConstraintSet(), new ForkingMemory());
  return st;
}

describe('ExecutionState frames after a fork', () => {
  it('copies a shared frame before writing it, on both sides', () => {
    const a = stateWithFrame(4);
    const frame = a.top;
    const b = a.branch(2);
    expect(b.top).toBe(frame);
    const fa = a.thawTop();
    fa.regs[0] = 1;
    expect(fa).not.toBe(frame);
    expect(b.top.regs[0]).toBe(0);
    const fb = b.thawTop(); // a holds its own copy now: b is the frame's only holder
    expect(fb).toBe(frame);
  });

  it('lets the last holder write in place once the other side ended, never the ended one', () => {
    const a = stateWithFrame(4);
    const frame = a.top;
    const b = a.branch(2);
    a.status = StateStatus.Terminated;
    a.releaseFrames();
    const fb = b.thawTop();
    expect(fb).toBe(frame);
    fb.regs[1] = 7;
    // an ended state that still writes (it should not) gets a copy
    const fa = a.thawTop();
    expect(fa).not.toBe(frame);
    fa.regs[1] = 9;
    expect(b.top.regs[1]).toBe(7);
  });

  it('copies the lists a fork must not share', () => {
    const a = stateWithFrame(1);
    a.cexPreferences.push(TRUE);
    const b = a.branch(2);
    expect(b.cexPreferences).toEqual(a.cexPreferences);
    expect(b.cexPreferences).not.toBe(a.cexPreferences);
    expect(b.symbolics).not.toBe(a.symbolics);
    expect(b.entryQueue).not.toBe(a.entryQueue);
    expect(b.openMergeStack).not.toBe(a.openMergeStack);
    expect(b.depth).toBe(1);
    expect(a.depth).toBe(1);
  });
});
