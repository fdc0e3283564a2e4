/**
 * `tsklee worker --queue redis://HOST:PORT [--store DIR] [--concurrency N]`: runs experiment
 * cells that `tsklee experiment run --queue` put on the queue, until stopped (SIGINT/SIGTERM:
 * it finishes the cells it is running first). src/experiment/queue/worker.ts.
 */
import { availableParallelism } from 'node:os';
import type { Argv, CommandModule } from 'yargs';
import type { GlobalArgs } from '../context.js';
import { UsageError } from '../errors.js';

interface WorkerArgs extends GlobalArgs {
  queue?: string;
  queueName?: string;
  store?: string;
  concurrency?: number;
  lockTime?: number;
  name?: string;
}

export const workerCommand: CommandModule<GlobalArgs, WorkerArgs> = {
  command: 'worker',
  describe: 'Run experiment cells from a job queue (see tsklee experiment run --queue)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .option('queue', { type: 'string', describe: 'redis://HOST:PORT of the queue (required)' })
      .option('queue-name', { type: 'string', describe: 'the queue (default tsklee-cells)' })
      .option('store', { type: 'string', describe: 'a directory the submitting machine also sees: output directories go there instead of into the queue' })
      .option('concurrency', { type: 'number', describe: 'cells at once (default: the number of cores)' })
      .option('lock-time', { type: 'number', describe: "seconds without a sign of life after which a cell goes back to the queue (default 30)" })
      .option('name', { type: 'string', describe: 'this worker in logs and cell.json (default HOST:PID)' }) as unknown as Argv<WorkerArgs>,
  handler: async (argv) => {
    if (argv.queue === undefined) throw new UsageError('worker: --queue redis://HOST:PORT is required');
    const concurrency = argv.concurrency ?? availableParallelism();
    if (!(Number.isInteger(concurrency) && concurrency >= 1)) throw new UsageError(`--concurrency=${argv.concurrency}: expected an integer ≥ 1`);
    const lockSeconds = argv.lockTime ?? 30;
    if (!(lockSeconds >= 1)) throw new UsageError(`--lock-time=${argv.lockTime}: expected seconds ≥ 1`);
    const { startWorker } = await import('../../experiment/queue/worker.js');
    const { redisOptions, QueueUrlError, DEFAULT_QUEUE } = await import('../../experiment/queue/connection.js');
    try {
      redisOptions(argv.queue);
    } catch (e) {
      if (e instanceof QueueUrlError) throw new UsageError(e.message);
      throw e;
    }
    const log = (line: string): void => void process.stderr.write(`tsklee: worker ${line}\n`);
    const w = await startWorker({ url: argv.queue, queue: argv.queueName ?? DEFAULT_QUEUE, store: argv.store, concurrency, lockSeconds, name: argv.name, log });
    log(`${argv.name ?? 'ready'}: serving ${argv.queueName ?? DEFAULT_QUEUE} on ${argv.queue} (${concurrency} at once)`);
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        log('stopping after the running cells');
        void w.close().then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  },
};
