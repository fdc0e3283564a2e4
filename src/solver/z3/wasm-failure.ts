// Telling a failure of the z3 wasm instance (trap, abort, out of memory) from a bug of our own.
import { SolverFailureKind } from '../solver.js';

/**
 * Whether an exception came out of the wasm instance (so the instance is unusable), and
 * what to call it. Checked by name: the error may come from another realm (jest's vm).
 */
export function wasmFailureKind(e: unknown): SolverFailureKind | null {
  if (e === null || typeof e !== 'object') return null;
  const name = String((e as { name?: unknown }).name ?? '');
  const message = String((e as { message?: unknown }).message ?? '');
  const tag = Object.prototype.toString.call(e);
  const fromWasm =
    name === 'RuntimeError' || // traps and Emscripten aborts
    tag === '[object WebAssembly.Exception]' || // a C++ exception escaping z3
    message.startsWith('Aborted(') ||
    (name === 'RangeError' && /call stack/i.test(message)); // wasm stack overflow
  if (!fromWasm) return null;
  return /OOM|out of memory|Cannot enlarge memory|bad_alloc/i.test(message)
    ? SolverFailureKind.OutOfMemory
    : SolverFailureKind.Crash;
}
