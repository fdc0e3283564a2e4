/**
 * The `tsklee` command line. Each command is one module under ./commands, registered in
 * COMMANDS below. Failures are reported by ./errors.ts as one line on stderr.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import type { CommandModule } from 'yargs';
import { LOG_LEVELS } from '../util/logger.js';
import { packageRoot } from '../util/package-root.js';
import type { GlobalArgs } from './context.js';
import { isEpipe, reportError, UsageError } from './errors.js';
import { ccArguments, ccCommand, runCc } from './commands/cc.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own argument type
type AnyCommand = CommandModule<GlobalArgs, any>;

/**
 * The commands, in help order. Each module is imported only when needed: loading every
 * command (the engine, the solvers, the replayer) cost every `tsklee dis` ~0.1 s.
 */
const COMMANDS: { name: string; load: () => Promise<AnyCommand> }[] = [
  { name: 'dis', load: async () => (await import('./commands/dis.js')).disCommand },
  { name: 'ktest', load: async () => (await import('./commands/ktest.js')).ktestCommand },
  { name: 'run', load: async () => (await import('./commands/run.js')).runCommand },
  { name: 'cc', load: async () => ccCommand },
  { name: 'replay', load: async () => (await import('./commands/replay.js')).replayCommand },
  { name: 'stats', load: async () => (await import('./commands/stats.js')).statsCommand },
  { name: 'report', load: async () => (await import('./commands/report.js')).reportCommand },
  { name: 'experiment', load: async () => (await import('./commands/experiment.js')).experimentCommand },
  { name: 'worker', load: async () => (await import('./commands/worker.js')).workerCommand },
];

/**
 * The commands yargs needs for `args`: only the named one when the command comes first
 * (after global options, as ccArguments reads them), else all (help, usage errors).
 */
function commandsFor(args: readonly string[]): typeof COMMANDS {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('--log-level')) i += args[i]!.includes('=') ? 1 : 2;
  const named = COMMANDS.find((c) => c.name === args[i]);
  return named !== undefined ? [named] : COMMANDS;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** A worker thread of `tsklee run --jobs N` (engine/parallel/coordinator.ts starts it through the launcher). */
export async function runParallelWorker(): Promise<void> {
  await (await import('../engine/parallel/thread-worker.js')).runThreadWorker();
}

/** The executable's work (main.ts loads this module): runs the CLI on `argv` (process.argv) and sets the exit code. */
export async function main(argv: string[]): Promise<void> {
  // A reader that goes away (`tsklee dis x.bc | head`) is not an error.
  process.stdout.on('error', (e) => {
    if (isEpipe(e)) process.exit(0);
  });
  process.exitCode = await runCli(hideBin(argv));
}

/** Runs the CLI on `args` (without node and the script) and returns the exit code. */
export async function runCli(args: string[]): Promise<number> {
  // `tsklee cc` takes clang's arguments, which yargs must not see.
  const ccArgs = ccArguments(args);
  if (ccArgs !== undefined) {
    try {
      return runCc(ccArgs);
    } catch (e) {
      return reportError(e);
    }
  }
  const needed = commandsFor(args);
  const commands = await Promise.all(needed.map((c) => c.load()));
  // the program's arguments after `run`'s input stay untouched (run.ts is loaded only for `run`)
  let yargsArgs = args;
  try {
    if (needed.some((c) => c.name === 'run')) yargsArgs = (await import('./commands/run.js')).separateProgramArgs(args);
    else if (needed.some((c) => c.name === 'stats')) yargsArgs = (await import('./commands/stats.js')).statsLongOptions(args);
  } catch (e) {
    return reportError(e);
  }
  const cli = yargs(yargsArgs)
    .scriptName('tsklee')
    .usage('$0 <command> [options]')
    .option('log-level', {
      type: 'string',
      choices: LOG_LEVELS,
      describe: 'diagnostic log level (default: $TSKLEE_LOG, else warn)',
      global: true,
    })
    .demandCommand(1, 'no command given')
    .strict()
    .recommendCommands()
    .version(packageVersion())
    .alias('V', 'version')
    .help()
    .alias('h', 'help')
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((msg, err) => {
      // Errors thrown by handlers pass through; yargs' own messages are usage errors.
      throw err ?? new UsageError(`${msg} (run 'tsklee --help' for usage)`);
    });
  for (const c of commands) cli.command(c);
  skipHelpCaching(cli);
  try {
    await cli.parseAsync();
    return 0;
  } catch (e) {
    return isEpipe(e) ? 0 : reportError(e);
  }
}

/**
 * yargs renders the whole help text before every command handler runs, only to keep it for
 * a later showHelp() from inside the handler. tsklee never does that (failures are one line),
 * and the rendering (string-width over every option) costs ~50 ms of each run's start-up.
 * `--help` is unaffected: it renders the text when asked.
 */
function skipHelpCaching(y: object): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internal = (y as { getInternalMethods?: () => { getUsageInstance?: () => Usage } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage !== undefined && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}
