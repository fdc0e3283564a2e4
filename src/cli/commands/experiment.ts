/**
 * `tsklee experiment run|table|plot FILE`: an experiment matrix (src/experiment/).
 *
 *   run FILE [--jobs N] [--queue redis://HOST:PORT [--store DIR]]
 *       the cells not done yet, on this machine's cores or through a job queue
 *   table FILE [--metric time,paths,…] [--format markdown|csv] [--output FILE]
 *   plot FILE [--kind coverage,speedup,scatter] [--metric time|cpu|solver] [--format svg|png] [--output-dir DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { ExperimentFileError, loadExperiment, type Experiment } from '../../experiment/experiment-file.js';
import { runExperimentLocally } from '../../experiment/local-runner.js';
import { csvTable, DEFAULT_TABLE_METRICS, markdownTable, METRICS } from '../../experiment/table.js';
import { defaultPlots, PLOT_KINDS, PLOT_TIME_METRICS, plotSvg, svgToPng, type PlotKind, type PlotTimeMetric } from '../../experiment/plots.js';
import type { GlobalArgs } from '../context.js';
import { UsageError, writeStdout } from '../errors.js';

interface ExperimentArgs extends GlobalArgs {
  file: string;
  jobs?: number;
  queue?: string;
  queueName?: string;
  store?: string;
  metric?: string;
  format?: string;
  output?: string;
  kind?: string;
  outputDir?: string;
}

function load(file: string): Experiment {
  try {
    return loadExperiment(file);
  } catch (e) {
    if (e instanceof ExperimentFileError) throw new UsageError(e.message);
    throw e;
  }
}

function names<T extends string>(v: string | undefined, known: readonly T[], option: string, dflt: readonly T[]): T[] {
  if (v === undefined) return [...dflt];
  const out = v.split(',').filter((s) => s !== '');
  for (const n of out) if (!(known as readonly string[]).includes(n)) throw new UsageError(`--${option}=${n}: expected one of ${known.join(', ')}`);
  return out as T[];
}

async function runHandler(argv: ExperimentArgs): Promise<void> {
  const x = load(argv.file);
  if (argv.jobs !== undefined && !(Number.isInteger(argv.jobs) && argv.jobs >= 1)) throw new UsageError(`--jobs=${argv.jobs}: expected an integer ≥ 1`);
  if (argv.queue !== undefined) {
    const { submitExperiment } = await import('../../experiment/queue/submit.js');
    const { QueueUrlError, redisOptions } = await import('../../experiment/queue/connection.js');
    try {
      redisOptions(argv.queue);
    } catch (e) {
      if (e instanceof QueueUrlError) throw new UsageError(e.message);
      throw e;
    }
    const s = await submitExperiment(x, { url: argv.queue, queue: argv.queueName, store: argv.store });
    await writeStdout(`tsklee: experiment ${x.name}: ${s.total} cells, ${s.skipped} already done, ${s.completed} finished by workers, ${s.dead.length} in the dead-letter list; results in ${x.outputDir}\n`);
    if (s.dead.length > 0) throw new UsageError(`experiment ${x.name}: ${s.dead.length} cell${s.dead.length === 1 ? '' : 's'} in the dead-letter list (${s.dead.map((d) => d.key).join(', ')}): see ${x.outputDir}/dead-letter.json`);
    return;
  }
  if (argv.store !== undefined || argv.queueName !== undefined) throw new UsageError(`--${argv.store !== undefined ? 'store' : 'queue-name'}: only with --queue`);
  let stop = false;
  const onSigint = (): void => {
    if (stop) process.exit(130);
    stop = true;
    process.stderr.write('\ntsklee: experiment: stopping after the running cells (Ctrl-C again to quit now)\n');
  };
  process.on('SIGINT', onSigint);
  try {
    const s = await runExperimentLocally(x, { jobs: argv.jobs, stopping: () => stop });
    await writeStdout(`tsklee: experiment ${x.name}: ${s.total} cells, ${s.skipped} already done, ${s.ran} run, ${s.failed.length} failed; results in ${x.outputDir}\n`);
    for (const f of s.failed) process.stderr.write(`tsklee: experiment: failed: ${f}\n`);
    if (s.failed.length > 0) throw new UsageError(`experiment ${x.name}: ${s.failed.length} cell${s.failed.length === 1 ? '' : 's'} failed (rerun to retry them)`);
    if (s.interrupted) throw new UsageError(`experiment ${x.name}: interrupted (rerun to go on)`);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function tableHandler(argv: ExperimentArgs): Promise<void> {
  const x = load(argv.file);
  const metrics = names(argv.metric, Object.keys(METRICS), 'metric', DEFAULT_TABLE_METRICS);
  const format = argv.format ?? 'markdown';
  if (format !== 'markdown' && format !== 'csv') throw new UsageError(`--format=${format}: expected markdown or csv`);
  const text = format === 'csv' ? csvTable(x, metrics) : `${metrics.map((m) => markdownTable(x, m)).join('\n\n')}\n`;
  if (argv.output === undefined || argv.output === '-') await writeStdout(text);
  else {
    writeFileSync(argv.output, text);
    await writeStdout(`tsklee: wrote ${argv.output}\n`);
  }
}

async function plotHandler(argv: ExperimentArgs): Promise<void> {
  const x = load(argv.file);
  const kinds = names<PlotKind>(argv.kind, PLOT_KINDS, 'kind', defaultPlots(x));
  const formats = names(argv.format, ['svg', 'png'] as const, 'format', ['svg']);
  const metrics = names<PlotTimeMetric>(argv.metric, PLOT_TIME_METRICS, 'metric', ['time']);
  if (metrics.length !== 1) throw new UsageError(`--metric=${argv.metric}: one of ${PLOT_TIME_METRICS.join(', ')}`);
  const dir = argv.outputDir ?? join(x.outputDir, 'plots');
  mkdirSync(dir, { recursive: true });
  let wrote = 0;
  for (const kind of kinds) {
    const svg = await plotSvg(x, kind, metrics[0]);
    if (svg === null) {
      process.stderr.write(`tsklee: experiment: no ${kind} plot: ${kind === 'speedup' ? 'no program has numeric sizes with results' : 'no results yet'}\n`);
      continue;
    }
    for (const f of formats) {
      const path = join(dir, `${x.name}-${kind}.${f}`);
      writeFileSync(path, f === 'svg' ? svg : svgToPng(svg));
      await writeStdout(`tsklee: wrote ${path}\n`);
      wrote++;
    }
  }
  if (wrote === 0) throw new UsageError(`${x.file}: nothing to plot (run the experiment first: tsklee experiment run ${argv.file})`);
}

const withFile = (y: Argv<GlobalArgs>): Argv<ExperimentArgs> => y.positional('file', { type: 'string', demandOption: true, describe: 'the experiment file (YAML or JSON)' }) as unknown as Argv<ExperimentArgs>;

export const experimentCommand: CommandModule<GlobalArgs, ExperimentArgs> = {
  command: 'experiment <action>',
  describe: 'Run a matrix of programs × configurations × repetitions, and tabulate and plot it',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .command<ExperimentArgs>({
        command: 'run <file>',
        describe: 'Run the cells not done yet (in parallel; resumable)',
        builder: (b) =>
          withFile(b)
            .option('jobs', { type: 'number', describe: 'cells at once (default: the file\'s jobs, else the number of cores)' })
            .option('queue', { type: 'string', describe: 'redis://HOST:PORT: put the cells on a job queue for `tsklee worker`s' })
            .option('store', { type: 'string', describe: 'with --queue: a directory the workers also see, where they put output directories' })
            .option('queue-name', { type: 'string', describe: 'with --queue: the queue (default tsklee-cells)' }),
        handler: runHandler,
      })
      .command<ExperimentArgs>({
        command: 'table <file>',
        describe: 'Tables: a row per program, a column per configuration (median, range, ratio to the baseline)',
        builder: (b) =>
          withFile(b)
            .option('metric', { type: 'string', describe: `comma-separated: ${Object.keys(METRICS).join(', ')} (default ${DEFAULT_TABLE_METRICS.join(',')})` })
            .option('format', { type: 'string', describe: 'markdown (default) or csv' })
            .option('output', { type: 'string', describe: 'write to FILE (default: standard output)' }),
        handler: tableHandler,
      })
      .command<ExperimentArgs>({
        command: 'plot <file>',
        describe: 'Plots: coverage over time, speed-up against input size, scatter of times',
        builder: (b) =>
          withFile(b)
            .option('kind', { type: 'string', describe: `comma-separated: ${PLOT_KINDS.join(', ')} (default: all that apply)` })
            .option('metric', { type: 'string', describe: `the time of the speed-up and scatter plots: ${PLOT_TIME_METRICS.join(', ')} (default time: wall seconds)` })
            .option('format', { type: 'string', describe: 'svg (default), png, or svg,png' })
            .option('output-dir', { type: 'string', describe: 'where to write (default: RESULTS/plots)' }),
        handler: plotHandler,
      })
      .demandCommand(1, 'experiment: expected run, table or plot') as unknown as Argv<ExperimentArgs>,
  handler: () => {},
};
