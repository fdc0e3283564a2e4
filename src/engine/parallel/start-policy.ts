// When `tsklee run --jobs N` starts its workers (coordinator.ts): worker 0 at once, in the main
// thread; one more each time the run has used --jobs-start-after of CPU per worker running and
// has a state to hand over; never more than the machine's cores, unless all start at once.
import { availableParallelism } from 'node:os';

/**
 * How many workers may run. One more worker costs its start-up, its isolate's JIT compilation
 * of the interpreter and solver, its heap's collections, and the replays of the prefixes it
 * adopts (about 1–2.5 s of CPU on cut.c), and gains only the CPU of a core nobody else of the
 * run uses: a worker beyond the machine's cores adds that cost for no CPU, so it is not started
 * (unless every worker is to start at once: startAfterCpuMs 0).
 */
export function startPolicy(jobs: number, startAfterCpuMs: number, cores = availableParallelism()): { limit: number; why: string } {
  if (startAfterCpuMs === 0 || jobs <= cores) return { limit: jobs, why: '' };
  return { limit: Math.max(1, cores), why: `no more workers than the machine's ${cores} cores` };
}
