/**
 * What C start-up code does around main for programs linked with tsklee's libc
 * (--libc=tsklee / --posix-runtime): `environ` points at main's envp (EngineOptions.environment:
 * a fixed default or --environ's; tsklee never passes the host's), and the value main returns goes to the libc's `exit`
 * (atexit handlers, stdio flush, then the engine's `_exit`), as `exit(main(argc, argv, envp))`
 * would — otherwise output still buffered in stdio would be lost when main returns.
 */
import type { Executor } from '../executor.js';
import type { ExecutionState } from '../state.js';
import type { KFunction } from './kinst.js';
import { isRuntimeFunction } from './runtime-functions.js';

/** Point the libc's `environ` at the envp the entry function receives (after argv's NULL in the same vector). */
export function setEnviron(ex: Executor, st: ExecutionState): void {
  const gv = ex.km.module.globals.find((g) => g.name === 'environ' && g.initializer !== null);
  if (gv === undefined || ex.envpAddress === 0) return;
  const mo = ex.globalObject(gv);
  const os = mo !== undefined ? st.addressSpace.writeableOf(mo) : null;
  if (os === null || os.size < 8) return;
  os.view.setBigUint64(0, BigInt(ex.envpAddress), true);
}

/** The libc's `exit`, run as the last entry function with main's result; null without the libc. */
export function libcExit(ex: Executor): KFunction | null {
  const fn = ex.km.module.getFunction('exit');
  if (fn === undefined || fn.isDeclaration || !isRuntimeFunction(fn) || fn.args.length !== 1) return null;
  return ex.km.kfunction(fn) ?? null;
}
