/** `tsklee dis FILE...`: print the (linked) module as LLVM assembly, like llvm-dis. */
import { writeFileSync } from 'node:fs';
import type { Argv, CommandModule } from 'yargs';
import { loadModule } from '../../load.js';
import { printModule } from '../../ir/printer/index.js';
import { commandLogger, warnLine, type GlobalArgs } from '../context.js';
import { writeStdout } from '../errors.js';

interface DisArgs extends GlobalArgs {
  files: string[];
  output?: string;
}

export const disCommand: CommandModule<GlobalArgs, DisArgs> = {
  command: 'dis <files..>',
  describe: 'Print bitcode as LLVM assembly (several files, or an archive, are linked first)',
  builder: (y: Argv<GlobalArgs>) =>
    y
      .positional('files', { type: 'string', array: true, demandOption: true, describe: 'bitcode files or ar archives of bitcode' })
      .option('output', { alias: 'o', type: 'string', describe: 'write to this file instead of stdout' }) as unknown as Argv<DisArgs>,
  handler: async (argv) => {
    const log = commandLogger(argv, 'dis');
    const start = performance.now();
    const module = loadModule(argv.files, { onWarning: warnLine });
    log.debug({ files: argv.files, ms: Math.round(performance.now() - start) }, 'loaded');
    const text = printModule(module);
    if (argv.output !== undefined) writeFileSync(argv.output, text);
    else await writeStdout(text);
  },
};
