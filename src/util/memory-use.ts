/**
 * What tsklee has allocated, process-wide: the measure --max-memory and run.stats' MallocUsage
 * use (KLEE measures its malloc heap the same way, not the resident size).
 *
 *   in use = V8 heap used + memory V8 tracks outside its heap (buffers) + native heaps
 *
 * Native heaps are memories V8 does not see: the embedded z3's wasm memory is one fixed 2 GB
 * SharedArrayBuffer whose pages are committed as z3 touches them, and `process.memoryUsage()`
 * counts none of it (measured: `external` stays at 1 MB with an instance loaded). Each live
 * z3 instance registers an estimate of its committed pages here (z3-solver.ts).
 *
 * The resident size is not this measure: V8 keeps freed pages for a while and a wasm memory
 * never gives any back, so after states are ended to get under a cap the resident size would
 * stay over it and every state would go. The cap adds what is resident beyond this measure
 * with a rule for that (memory-cap.ts, residentOverhead). `heapUsed` counts garbage not yet
 * collected, so a measure over a limit is confirmed after a full collection (`collectGarbage`).
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A memory outside V8's accounting, e.g. a wasm instance's heap. */
export interface NativeHeap {
  /** Bytes it holds now (committed pages, or the best estimate of them). */
  bytes(): number;
}

const nativeHeaps = new Set<NativeHeap>();

/** Counts `heap` in memoryInUse() until the returned function is called. */
export function registerNativeHeap(heap: NativeHeap): () => void {
  nativeHeaps.add(heap);
  return () => void nativeHeaps.delete(heap);
}

export interface MemoryInUse {
  /** V8's heap, live objects and garbage not yet collected. */
  heap: number;
  /** ArrayBuffers and other memory V8 accounts for outside its heap. */
  external: number;
  /** The registered native heaps (z3's wasm memory). */
  native: number;
  total: number;
}

/**
 * Bytes in use now (see above). ~2 µs: V8's heap statistics, without process.memoryUsage()'s
 * resident-size system call (~25 µs), so the engine can check it every few steps.
 */
export function memoryInUse(): MemoryInUse {
  const h = getHeapStatistics();
  let native = 0;
  for (const n of nativeHeaps) native += n.bytes();
  return { heap: h.used_heap_size, external: h.external_memory, native, total: h.used_heap_size + h.external_memory + native };
}

let gc: (() => void) | null | undefined;

/**
 * Runs a full garbage collection, so that memoryInUse() counts live objects only. The
 * collector is reached through V8's --expose-gc, switched on here at run time rather than on
 * node's command line, where any V8 flag makes V8 reject the CLI's code cache (the flag only
 * exposes the function; it changes nothing else). Returns false where it is unavailable.
 *
 * It does not compact the whole heap (--compact-on-every-full-gc for this collection): that
 * gave back V8's sparse pages (coreutils `cat`: 1.33 → 0.94 GB of heap pages), but moving every
 * live object first takes as many new pages, and the resident size rose by ~1 GB while the
 * collection ran (2.98 GB under a 2000 MB cap).
 */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const f: unknown = runInNewContext('gc');
      gc = typeof f === 'function' ? (f as () => void) : null;
    } catch {
      gc = null;
    }
  }
  if (gc === null) return false;
  gc();
  return true;
}
