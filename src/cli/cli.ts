/**
 * The `tsklee` command line. Each command is one module under ./commands, registered in
 * COMMANDS below. Failures are reported by ./errors.ts as one line on stderr.
 */
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import type { CommandModule } from 'yargs';
import { LOG_LEVELS } from '../util/logger.js';
import type { GlobalArgs } from './context.js';
import { isEpipe, reportError, UsageError } from './errors.js';
import { disCommand } from './commands/dis.js';
import { ktestCommand } from './commands/ktest.js';
import { runCommand } from './commands/run.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own argument type
const COMMANDS: CommandModule<GlobalArgs, any>[] = [disCommand, ktestCommand, runCommand];

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the CLI on `args` (without node and the script) and returns the exit code. */
export async function runCli(args: string[]): Promise<number> {
  const cli = yargs(args)
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
  for (const c of COMMANDS) cli.command(c);
  try {
    await cli.parseAsync();
    return 0;
  } catch (e) {
    return isEpipe(e) ? 0 : reportError(e);
  }
}
