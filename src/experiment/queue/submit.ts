/**
 * `tsklee experiment run FILE --queue redis://HOST:PORT`: the matrix through the job queue.
 * The submitting machine compiles the programs, puts every cell not done yet on the queue
 * (the bitcode travels in the job: workers need nothing but tsklee), then waits: each finished
 * job's output directory is unpacked (or copied from the shared store) into the cell's
 * directory and its cell.json written, exactly as a local run leaves it. A job that failed
 * for good (a cell that crashed twice, or whose worker died twice) goes to the dead-letter
 * list. The progress bar shows the queue: cells waiting, running, and the workers connected.
 * Interrupted and started again, it picks up the jobs the workers finished meanwhile.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Experiment } from '../experiment-file.js';
import { pendingCells } from '../local-runner.js';
import { cellDir, type Cell } from '../matrix.js';
import { MatrixProgress } from '../progress-bar.js';
import { appendDeadLetter, cellSignature, writeCellResult, type DeadLetter } from '../results.js';
import { CELL_ATTEMPTS, deadLetterKey, DEFAULT_QUEUE, jobId, redisOptions, type CellJobData, type CellJobResult } from './connection.js';
import { copyDirAtomically, unpackInto } from './tar.js';

export interface SubmitOptions {
  url: string;
  queue?: string;
  store?: string;
  /** How often to look at the jobs (ms). */
  pollMs?: number;
  progress?: MatrixProgress;
}

export interface SubmitSummary {
  total: number;
  skipped: number;
  completed: number;
  dead: DeadLetter[];
}

type JobState = Awaited<ReturnType<Job['getState']>>;

/** Appends to the queue's dead-letter list (a Redis list: `LRANGE tsklee-cells:dead 0 -1`). */
async function pushDeadLetter(url: string, key: string, entry: string): Promise<void> {
  const redis = new Redis(redisOptions(url));
  try {
    await redis.rpush(key, entry);
  } finally {
    redis.disconnect();
  }
}

export async function submitExperiment(x: Experiment, opts: SubmitOptions): Promise<SubmitSummary> {
  const name = opts.queue ?? DEFAULT_QUEUE;
  const queue = new Queue<CellJobData, CellJobResult, 'cell'>(name, { connection: redisOptions(opts.url) });
  let bar: MatrixProgress | undefined;
  try {
    await queue.waitUntilReady();
    const { all, todo, bitcode } = pendingCells(x);
    const summary: SubmitSummary = { total: all.length, skipped: all.length - todo.length, completed: 0, dead: [] };
    bar = opts.progress ?? new MatrixProgress(all.length);
    bar.skip(summary.skipped);
    const pending = new Map<string, Cell>();
    const programBytes = new Map<string, string>();
    for (const cell of todo) {
      const bc = bitcode.get(cell.instance.key)!;
      const sig = cellSignature(cell, bc);
      const id = jobId(x.name, cell.key, sig);
      pending.set(id, cell);
      const old = await queue.getJob(id);
      const state: JobState | null = old === undefined ? null : await old.getState();
      // finished while the submitter was away: collected below; still queued or running: left as it is
      if (state === 'completed' || state === 'active' || state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') continue;
      if (old !== undefined) await old.remove();
      if (!programBytes.has(bc)) programBytes.set(bc, readFileSync(bc).toString('base64'));
      await queue.add(
        'cell',
        { experiment: x.name, key: cell.key, options: cell.options, args: cell.args, killAfterSeconds: cell.killAfterSeconds, programName: basename(bc), bitcode: programBytes.get(bc)! },
        { jobId: id, attempts: CELL_ATTEMPTS, removeOnComplete: false, removeOnFail: false },
      );
    }
    const poll = opts.pollMs ?? 500;
    while (pending.size > 0) {
      for (const [id, cell] of [...pending]) {
        const job = await queue.getJob(id);
        if (job === undefined) continue;
        const state = await job.getState();
        if (state === 'completed') {
          pending.delete(id);
          const r = job.returnvalue as CellJobResult;
          const out = join(cellDir(x, cell), 'out');
          if (r.outTarGz !== undefined) unpackInto(out, Buffer.from(r.outTarGz, 'base64'));
          else if (r.stored !== undefined) {
            if (opts.store === undefined) throw new Error(`${cell.key}: the worker put its output in a shared store; give the same --store here`);
            copyDirAtomically(join(opts.store, r.stored), out);
          }
          writeCellResult(x, cell, { ...r.result, attempts: job.attemptsStarted, signature: cellSignature(cell, bitcode.get(cell.instance.key)!) });
          summary.completed++;
          bar.finished(cell.key, r.result.status === 'ok', r.result.wallSeconds, `on ${r.result.runner}`);
        } else if (state === 'failed') {
          // failed for good: a job with a try left is back to waiting, not failed
          pending.delete(id);
          const entry: DeadLetter = { key: cell.key, error: job.failedReason ?? 'failed', attempts: job.attemptsMade, at: new Date().toISOString() };
          summary.dead.push(entry);
          appendDeadLetter(x, entry);
          await pushDeadLetter(opts.url, deadLetterKey(name), JSON.stringify({ experiment: x.name, job: id, ...entry }));
          writeCellResult(x, cell, {
            key: cell.key,
            status: 'dead',
            command: [],
            exitCode: null,
            signal: null,
            wallSeconds: 0,
            startedAt: entry.at,
            host: '',
            runner: 'queue',
            attempts: job.attemptsMade,
            error: entry.error,
            metrics: null,
            signature: cellSignature(cell, bitcode.get(cell.instance.key)!),
          });
          bar.finished(cell.key, false, 0, `dead: ${entry.error}`);
        }
      }
      if (pending.size === 0) break;
      const counts = await queue.getJobCounts('waiting', 'active', 'failed');
      const workers = await queue.getWorkersCount();
      bar.note = `queue: ${counts.waiting ?? 0} waiting, ${counts.active ?? 0} running, ${workers} worker${workers === 1 ? '' : 's'}`;
      await new Promise((r) => setTimeout(r, poll));
    }
    return summary;
  } finally {
    if (opts.progress === undefined) bar?.stop();
    await queue.close();
  }
}
