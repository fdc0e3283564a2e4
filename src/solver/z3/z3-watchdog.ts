/**
 * Per-query time limits for the embedded z3 without z3's own timer threads.
 *
 * Why: z3's `timeout` parameter starts a timer thread per solver call (`scoped_timer`), and
 * in the wasm build every thread is an Emscripten pthread: a Node worker that loads all of
 * z3-built.js and instantiates the 35 MB module on the instance's shared 2 GB memory
 * (~0.4 s and tens of MB each, more on a loaded machine). Those workers were the moving part
 * behind the crashed/hung parallel jest runs: they keep a process alive after its tests, a
 * worker error is rethrown uncaught on the main thread, and each replacement instance (after
 * an out-of-memory) booted new ones. With the watchdog below, tsklee never makes z3 start a
 * thread.
 *
 * How: z3 stops a check as soon as its context's cancel counters (`reslimit::m_cancel`, a
 * std::atomic that `Z3_interrupt` increments) are non-zero, and reports "canceled". Their
 * addresses in the wasm heap are found once per context by calling `Z3_interrupt` and
 * seeing which words changed (`findCancelFlags`). A plain Node worker (a few lines of JS,
 * no z3 in it) holds the heap's SharedArrayBuffer: the main thread arms it before each check
 * with a deadline and disarms it after; if the deadline passes first, the worker stores 1 into
 * the counters and z3 gives up. The protocol is one compare-and-swap on a control word, so a
 * disarm and a firing can never both win. Cost per query: two stores and notifies (µs).
 */
import { Worker } from 'node:worker_threads';

/** Control words (Int32 indices) and the deadline (Float64 index) in the control buffer. */
const STATE = 0; // 0 idle; g > 0 armed with generation g; FIRING while the worker writes the flags; STOP
const FIRED = 1; // the last generation the worker fired
const DEADLINE = 1; // Float64 index (bytes 8..15): the Date.now() at which to fire
const FIRING = -2;
const STOP = -1;

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const ctrl = new Int32Array(workerData.ctrl);
const deadline = new Float64Array(workerData.ctrl, ${DEADLINE * 8}, 1);
const heap = new Int32Array(workerData.heap);
const flags = workerData.flags;
for (;;) {
  const g = Atomics.load(ctrl, ${STATE});
  if (g === ${STOP}) break;
  if (g <= 0) { Atomics.wait(ctrl, ${STATE}, g); continue; }
  const left = deadline[0] - Date.now();
  if (left > 0 && Atomics.wait(ctrl, ${STATE}, g, left) !== 'timed-out') continue;
  if (Atomics.compareExchange(ctrl, ${STATE}, g, ${FIRING}) !== g) continue;
  for (const f of flags) Atomics.store(heap, f, 1);
  Atomics.store(ctrl, ${FIRED}, g);
  Atomics.notify(ctrl, ${FIRED});
}
`;

/**
 * Word indices (into an Int32Array over the heap) of the cancel counters of context `ctx`.
 * `interrupt` must raise them (Z3_interrupt); they are set back to 0 here. Null if the
 * interrupt changed nothing recognisable (an unexpected z3 build).
 */
export function findCancelFlags(heap: Int32Array, ctx: number, interrupt: () => void): number[] | null {
  // the counters are members of the context object and of its ast_manager, allocated right after it
  const from = ctx >>> 2;
  const to = Math.min(heap.length, from + (1 << 16));
  const before = heap.slice(from, to);
  interrupt();
  const flags: number[] = [];
  for (let i = 0; i < before.length; i++) {
    if (heap[from + i] === before[i]) continue;
    if (before[i] !== 0 || heap[from + i] !== 1) return null;
    flags.push(from + i);
  }
  for (const f of flags) Atomics.store(heap, f, 0);
  return flags.length > 0 ? flags : null;
}

export class Z3Watchdog {
  private readonly ctrl: Int32Array;
  private readonly deadline: Float64Array;
  private readonly worker: Worker;
  private generation = 0;

  constructor(
    private readonly heap: Int32Array,
    private readonly flags: readonly number[],
  ) {
    const buffer = new SharedArrayBuffer(16);
    this.ctrl = new Int32Array(buffer, 0, 2);
    this.deadline = new Float64Array(buffer, DEADLINE * 8, 1);
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { ctrl: buffer, heap: heap.buffer, flags } });
    // it must never keep the process alive, nor take it down
    this.worker.unref();
    this.worker.on('error', () => undefined);
  }

  /** Starts the clock for one check: z3 is canceled `ms` from now unless `disarm` comes first. */
  arm(ms: number): void {
    this.generation = this.generation >= 0x7ffffffe ? 1 : this.generation + 1;
    this.deadline[0] = Date.now() + ms;
    Atomics.store(this.ctrl, STATE, this.generation);
    Atomics.notify(this.ctrl, STATE);
  }

  /** Stops the clock; true if it had already fired (the check was canceled). Leaves z3's flags clear. */
  disarm(): boolean {
    const g = this.generation;
    const prev = Atomics.compareExchange(this.ctrl, STATE, g, 0);
    if (prev === g) {
      Atomics.notify(this.ctrl, STATE);
      return false;
    }
    // the worker won: wait until it has written the flags, then clear them
    while (Atomics.load(this.ctrl, FIRED) !== g) Atomics.wait(this.ctrl, FIRED, Atomics.load(this.ctrl, FIRED), 10);
    for (const f of this.flags) Atomics.store(this.heap, f, 0);
    Atomics.store(this.ctrl, STATE, 0);
    Atomics.notify(this.ctrl, STATE);
    return true;
  }

  /** Ends the worker thread. */
  stop(): void {
    Atomics.store(this.ctrl, STATE, STOP);
    Atomics.notify(this.ctrl, STATE);
    void this.worker.terminate();
  }
}
