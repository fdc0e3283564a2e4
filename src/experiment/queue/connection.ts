/**
 * The job queue's names and connection: BullMQ on Redis. One queue, `tsklee-cells` (or
 * --queue-name), holds the cells of every experiment submitted to it, so a worker needs only
 * the address; a cell's job id is its experiment, key and a hash of what it runs, so a
 * resubmitted matrix finds the jobs already done and a changed cell is a new job. Cells the
 * queue gave up on go to a Redis list, the dead-letter list (`<queue>:dead`), as well as to
 * the results directory.
 */
import { createHash } from 'node:crypto';
import type { RedisOptions } from 'bullmq';

export class QueueUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUrlError';
  }
}

/** ioredis options for `redis://[user:password@]HOST:PORT[/DB]`. */
export function redisOptions(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueUrlError(`--queue=${url}: expected redis://HOST:PORT`);
  }
  if (u.protocol !== 'redis:' || u.hostname === '') throw new QueueUrlError(`--queue=${url}: expected redis://HOST:PORT`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw new QueueUrlError(`--queue=${url}: the database number after the / must be an integer`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    ...(u.username !== '' ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password !== '' ? { password: decodeURIComponent(u.password) } : {}),
    db,
    // BullMQ's workers block on Redis: commands must wait for a reconnection, not fail
    maxRetriesPerRequest: null,
  };
}

export const DEFAULT_QUEUE = 'tsklee-cells';
export const deadLetterKey = (queue: string): string => `${queue}:dead`;

/** A cell's job id: experiment, key and a hash of what it runs (BullMQ ids may not hold ':'). */
export function jobId(experiment: string, key: string, signature: string): string {
  return `${experiment}/${key}#${createHash('sha256').update(signature).digest('hex').slice(0, 12)}`.replaceAll(':', '_');
}

/** A crashed cell is retried once; a second crash sends it to the dead-letter list. */
export const CELL_ATTEMPTS = 2;

/** What a job carries: enough to run the cell on a machine that has nothing but tsklee. */
export interface CellJobData {
  experiment: string;
  key: string;
  options: string[];
  args: string[];
  killAfterSeconds: number | null;
  /** The program's file name, and its bitcode (base64). */
  programName: string;
  bitcode: string;
}

/** What a worker returns: the result, and the output directory (packed, or in the shared store). */
export interface CellJobResult {
  result: import('../cell.js').CellResult;
  /** The output directory as a gzipped tar (base64), when no store is shared. */
  outTarGz?: string;
  /** Its path relative to the shared store. */
  stored?: string;
}
