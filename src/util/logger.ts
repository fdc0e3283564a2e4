/**
 * Structured diagnostic logging (pino) to stderr. The level comes from the caller (the
 * CLI's --log-level), else TSKLEE_LOG, else 'warn', so normal runs print nothing.
 */
import { pino, type Logger } from 'pino';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function isLogLevel(s: string | undefined): s is LogLevel {
  return s !== undefined && (LOG_LEVELS as readonly string[]).includes(s);
}

/** The effective level: `level` if valid, else TSKLEE_LOG if valid, else 'warn'. */
export function resolveLogLevel(level?: string): LogLevel {
  if (isLogLevel(level)) return level;
  const env = process.env.TSKLEE_LOG?.toLowerCase();
  return isLogLevel(env) ? env : 'warn';
}

/** A logger writing JSON lines to stderr (fd 2, synchronously, so nothing is lost on exit). */
export function createLogger(opts: { level?: string; name?: string } = {}): Logger {
  return pino(
    { name: opts.name ?? 'tsklee', level: resolveLogLevel(opts.level), base: undefined },
    pino.destination({ dest: 2, sync: true }),
  );
}
