// The first state's globals: each global variable's object bound and its initializer written.
import { TypeKind, ValueKind, type StructType, type Type, type Value } from '../../ir/index.js';
import type { ObjectState } from '../../memory/index.js';
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import { ConstantError } from './constants.js';
import type { KModule } from './kmodule.js';

export function initializeGlobals(ex: Executor, st: ExecutionState): void {
  const km = ex.km;
  for (const gv of km.module.globals) {
    const mo = km.globalObjects.get(gv)!;
    const os = st.memory.bindObject(mo);
    if (gv.initializer === null) {
      ex.warning(`undefined reference to variable: ${gv.name} (zero-initialised)`);
      continue;
    }
    try {
      writeConstant(km, os, 0, gv.initializer);
    } catch (e) {
      if (!(e instanceof ConstantError)) throw e;
      ex.warning(`cannot initialise global ${gv.name}: ${e.message} (zero-initialised)`);
    }
    if (gv.isConstantGlobal) os.readOnly = true;
  }
  for (const fn of km.module.functions) {
    if (fn.isDeclaration && !fn.name.startsWith('llvm.') && km.bindCallee(fn).handler === null) {
      ex.warning(`undefined reference to function: ${fn.name}`);
    }
  }
}

/** Write a constant's bytes at `off` (zero, undef and poison parts are left as they are: zero). */
export function writeConstant(km: KModule, os: ObjectState, off: number, c: Value): void {
  switch (c.vkind) {
    case ValueKind.ConstantAggregateZero:
    case ValueKind.Undef:
    case ValueKind.Poison:
      return;
    case ValueKind.ConstantArray:
    case ValueKind.ConstantVector: {
      const els = (c as unknown as { elements: Value[] }).elements;
      const et = (c.type as unknown as { element: Type }).element;
      const stride = c.type.kind === TypeKind.Vector ? km.dl.typeStoreSize(et) : km.dl.typeAllocSize(et);
      for (let i = 0; i < els.length; i++) writeConstant(km, os, off + i * stride, els[i]!);
      return;
    }
    case ValueKind.ConstantStruct: {
      const els = (c as unknown as { elements: Value[] }).elements;
      const layout = km.dl.structLayout(c.type as StructType);
      for (let i = 0; i < els.length; i++) writeConstant(km, os, off + layout.offsets[i]!, els[i]!);
      return;
    }
    default:
      km.io.write(os, off, c.type, km.constants.eval(c));
  }
}
