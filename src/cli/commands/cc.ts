/**
 * `tsklee cc [--clang=PATH] CLANG-ARGS...`: clang that also builds bitcode for tsklee
 * (see src/cc/driver.ts). Its arguments are clang's, so the CLI hands them over before
 * yargs parses anything; this module is the entry for `tsklee --help`.
 */
import type { Argv, CommandModule } from 'yargs';
import { runCc } from '../../cc/driver.js';
import type { GlobalArgs } from '../context.js';

export { runCc };

export const ccCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'cc [clang-args..]',
  describe: "clang that also writes whole-program bitcode: 'CC=\"tsklee cc\" make' builds prog and prog.bc (like gllvm)",
  builder: (y: Argv<GlobalArgs>) => y,
  handler: () => {
    // Never reached: runCli dispatches `cc` before yargs (clang's options are not ours).
    throw new Error('tsklee cc must be dispatched before option parsing');
  },
};

/** The arguments for `cc` when it is the command (global options may come first), else undefined. */
export function ccArguments(args: string[]): string[] | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('--log-level')) i += args[i]!.includes('=') ? 1 : 2;
  return args[i] === 'cc' ? args.slice(i + 1) : undefined;
}
