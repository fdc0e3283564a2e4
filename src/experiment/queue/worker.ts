/**
 * `tsklee worker --queue redis://HOST:PORT`: takes cells from the experiments' queues and runs
 * them (a tsklee process each, as the local runner does), then sends the output directory
 * back: into the shared store when one is given (`--store DIR`, a path every machine mounts),
 * else packed in the job's result. A run that crashes (a signal, an internal error) throws:
 * BullMQ retries it once, and a worker that dies mid-cell loses its lock, so the cell goes back
 * to the queue (stalled) for another worker.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { runCell } from '../cell.js';
import { redisOptions, type CellJobData, type CellJobResult } from './connection.js';
import { copyDirAtomically, MAX_PAYLOAD_BYTES, packDir } from './tar.js';

export interface WorkerOptions {
  url: string;
  queue: string;
  store?: string;
  concurrency: number;
  /** Seconds a job's lock lasts without renewal: a dead worker's cell is requeued after it. */
  lockSeconds: number;
  name?: string;
  log?: (line: string) => void;
}

/** Exit statuses of tsklee that are no crash: 0 (done) and 1 (the cell's own error: bad options, bad input). */
const CLEAN_EXITS = new Set([0, 1]);

export async function processCell(job: Job<CellJobData>, opts: WorkerOptions, name: string): Promise<CellJobResult> {
  const d = job.data;
  const tmp = mkdtempSync(join(tmpdir(), 'tsklee-worker-'));
  try {
    const bc = join(tmp, d.programName);
    writeFileSync(bc, Buffer.from(d.bitcode, 'base64'));
    const cellDir = join(tmp, 'cell');
    mkdirSync(cellDir);
    opts.log?.(`${name}: ${d.experiment} ${d.key}: started (attempt ${job.attemptsMade + 1})`);
    const result = await runCell(d, bc, cellDir, { runner: name, attempts: job.attemptsMade + 1 });
    if (result.exitCode === null || !CLEAN_EXITS.has(result.exitCode)) throw new Error(`tsklee crashed: ${result.error ?? 'no exit status'}`);
    opts.log?.(`${name}: ${d.experiment} ${d.key}: ${result.status} in ${result.wallSeconds.toFixed(1)} s`);
    const out = join(cellDir, 'out');
    if (opts.store !== undefined) {
      const rel = join(d.experiment, ...d.key.split('/'), 'out');
      copyDirAtomically(out, join(opts.store, rel));
      return { result, stored: rel };
    }
    const packed = packDir(out);
    if (packed.length > MAX_PAYLOAD_BYTES) {
      throw new UnrecoverableError(`output directory is ${(packed.length / 2 ** 20).toFixed(1)} MB packed, over the queue's ${MAX_PAYLOAD_BYTES >> 20} MB: give the workers and the submitter a shared --store`);
    }
    return { result, outTarGz: packed.toString('base64') };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Starts serving; resolves to a function that stops (after the running cells). */
export async function startWorker(opts: WorkerOptions): Promise<{ close: () => Promise<void>; worker: Worker }> {
  const name = opts.name ?? `${hostname()}:${process.pid}`;
  const worker = new Worker<CellJobData, CellJobResult>(opts.queue, (job) => processCell(job, opts, name), {
    connection: redisOptions(opts.url),
    concurrency: opts.concurrency,
    lockDuration: opts.lockSeconds * 1000,
    stalledInterval: Math.max(1000, (opts.lockSeconds * 1000) / 2),
    maxStalledCount: 1,
    name,
  });
  worker.on('error', (e) => opts.log?.(`${name}: queue error: ${e.message}`));
  await worker.waitUntilReady();
  return { worker, close: () => worker.close() };
}
