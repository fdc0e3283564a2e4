#!/usr/bin/env node
/** The `tsklee` executable. */
import { hideBin } from 'yargs/helpers';
import { runCli } from './cli.js';
import { isEpipe } from './errors.js';

// A reader that goes away (`tsklee dis x.bc | head`) is not an error.
process.stdout.on('error', (e) => {
  if (isEpipe(e)) process.exit(0);
});

process.exitCode = await runCli(hideBin(process.argv));
