/**
 * Which function definitions come from tsklee's own C runtime (runtime/build/*.bc) rather
 * than from the program. The bindings use it to keep fast engine versions of a few functions
 * the libc also defines (memcpy & co.) without overriding a program's own definitions.
 */
import type { Function } from '../../ir/globals.js';

const runtimeFunctions = new WeakSet<Function>();

export function markRuntimeFunction(fn: Function): void {
  runtimeFunctions.add(fn);
}

export function isRuntimeFunction(fn: Function): boolean {
  return runtimeFunctions.has(fn);
}
