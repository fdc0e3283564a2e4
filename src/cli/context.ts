/** What every command gets: the global options and helpers for diagnostics. */
import { createLogger, type Logger } from '../util/logger.js';

/** Options accepted by every command. */
export interface GlobalArgs {
  logLevel?: string;
}

/** The logger for a command run, honouring --log-level and TSKLEE_LOG. */
export function commandLogger(argv: GlobalArgs, name: string): Logger {
  return createLogger({ level: argv.logLevel, name: `tsklee ${name}` });
}

/** A user-facing warning: one plain line on stderr. */
export function warnLine(message: string): void {
  process.stderr.write(`tsklee: warning: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
}
