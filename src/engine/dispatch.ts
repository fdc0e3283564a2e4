/**
 * The general path of every instruction: the hot loop (interpreter.ts) hands over here when
 * its inline fast path does not apply.
 */
import { Op, type KInst } from './prepare/kinst.js';
import type { Executor } from './executor.js';
import type { ExecutionState } from './state.js';
import { Termination } from './errors.js';
import { execPoison } from './exec-poison.js';
import { execCast, execFloat, execICmp, execIntBinary, execSelect } from './exec-arith.js';
import { execAlloca, execAtomicRMW, execCmpXchg, execGep, execLoad, execStore } from './exec-memory.js';
import { execBr, execCondBr, execIndirectBr, execRet, execSwitch, execUnreachable } from './exec-control.js';
import { execCallAsm, execCallDirect, execCallExternal, execCallIndirect, execCallSpecial, execVAArg } from './exec-call.js';
import {
  execExtractElement,
  execExtractValue,
  execInsertElement,
  execInsertValue,
  execShuffleVector,
  execVecOp,
} from './exec-aggregate.js';

export function execSlow(ex: Executor, st: ExecutionState, ki: KInst): void {
  switch (ki.op) {
    case Op.Nop:
      return;
    case Op.Ret:
      return execRet(ex, st, ki);
    case Op.Br:
      return execBr(ex, st, ki);
    case Op.CondBr:
      return execCondBr(ex, st, ki);
    case Op.CondBrSlow:
      return execCondBr(ex, st, ki);
    case Op.Switch:
      return execSwitch(ex, st, ki);
    case Op.IndirectBr:
      return execIndirectBr(ex, st, ki);
    case Op.Unreachable:
      return execUnreachable(ex, st);
    case Op.Add32:
    case Op.Sub32:
    case Op.Mul32:
    case Op.And32:
    case Op.Or32:
    case Op.Xor32:
    case Op.Shl32:
    case Op.LShr32:
    case Op.AShr32:
    case Op.UDiv32:
    case Op.SDiv32:
    case Op.URem32:
    case Op.SRem32:
    case Op.Add64:
    case Op.Sub64:
    case Op.IntBinWide:
      return execIntBinary(ex, st, ki);
    case Op.ICmp32:
    case Op.ICmpWide:
      return execICmp(ex, st, ki);
    case Op.FBin:
    case Op.FNeg:
    case Op.FCmp:
      return execFloat(ex, st, ki);
    case Op.Trunc:
    case Op.ZExt:
    case Op.SExt:
    case Op.FPToUI:
    case Op.FPToSI:
    case Op.UIToFP:
    case Op.SIToFP:
    case Op.FPTrunc:
    case Op.FPExt:
    case Op.BitCast:
    case Op.Copy:
    case Op.IntResize:
      return execCast(ex, st, ki);
    case Op.Select:
      return execSelect(ex, st, ki);
    case Op.Alloca:
      return execAlloca(ex, st, ki);
    case Op.Load:
      return execLoad(ex, st, ki);
    case Op.LoadSlow:
      return execLoad(ex, st, ki);
    case Op.Store:
      return execStore(ex, st, ki);
    case Op.GEP:
      return execGep(ex, st, ki);
    case Op.CmpXchg:
      return execCmpXchg(ex, st, ki);
    case Op.AtomicRMW:
      return execAtomicRMW(ex, st, ki);
    case Op.CallDirect:
      return execCallDirect(ex, st, ki);
    case Op.CallSpecial:
      return execCallSpecial(ex, st, ki);
    case Op.CallExternal:
      return execCallExternal(ex, st, ki);
    case Op.CallIndirect:
      return execCallIndirect(ex, st, ki);
    case Op.CallAsm:
      return execCallAsm(ex, st, ki);
    case Op.VAArg:
      return execVAArg(ex, st, ki);
    case Op.ExtractElement:
      return execExtractElement(ex, st, ki);
    case Op.InsertElement:
      return execInsertElement(ex, st, ki);
    case Op.ShuffleVector:
      return execShuffleVector(ex, st, ki);
    case Op.ExtractValue:
      return execExtractValue(ex, st, ki);
    case Op.InsertValue:
      return execInsertValue(ex, st, ki);
    case Op.VecOp:
      return execVecOp(ex, st, ki);
    case Op.Unsupported:
      ex.terminateOnError(st, String(ki.aux), Termination.Execution);
      return;
    case Op.Poison:
      return execPoison(ex, st, ki);
  }
}
