/**
 * Structured diagnostic logging (pino) to stderr. The level comes from the caller (the
 * CLI's --log-level), else TSKLEE_LOG, else 'warn', so normal runs print nothing.
 */
import { createRequire } from 'node:module';
import type { Logger as PinoLogger, pino as Pino } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
type MessageLevel = Exclude<LogLevel, 'silent'>;

/** Logs a message, with structured fields first if any (pino's argument order). */
export interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}

export type Logger = { readonly level: LogLevel; isLevelEnabled(level: MessageLevel): boolean } & Record<MessageLevel, LogFn>;

/** pino's numbers for the levels. */
const SEVERITY: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

function isLogLevel(s: string | undefined): s is LogLevel {
  return s !== undefined && (LOG_LEVELS as readonly string[]).includes(s);
}

/** The effective level: `level` if valid, else TSKLEE_LOG if valid, else 'warn'. */
export function resolveLogLevel(level?: string): LogLevel {
  if (isLogLevel(level)) return level;
  const env = process.env.TSKLEE_LOG?.toLowerCase();
  return isLogLevel(env) ? env : 'warn';
}

/**
 * A logger writing JSON lines to stderr (fd 2, synchronously, so nothing is lost on exit).
 * pino is loaded at the first message that is logged: most runs log none, and loading it
 * cost every command ~25 ms of start-up.
 */
export function createLogger(opts: { level?: string; name?: string } = {}): Logger {
  const level = resolveLogLevel(opts.level);
  let pinoLogger: PinoLogger | undefined;
  const open = (): PinoLogger => {
    const { pino } = createRequire(import.meta.url)('pino') as { pino: typeof Pino };
    return pino({ name: opts.name ?? 'tsklee', level, base: undefined }, pino.destination({ dest: 2, sync: true }));
  };
  const isLevelEnabled = (l: MessageLevel): boolean => SEVERITY[l] >= SEVERITY[level];
  const at =
    (l: MessageLevel): LogFn =>
    (...args: [object | string, string?]) => {
      if (!isLevelEnabled(l)) return;
      pinoLogger ??= open();
      (pinoLogger[l] as (...a: unknown[]) => void).apply(pinoLogger, args);
    };
  return { level, isLevelEnabled, fatal: at('fatal'), error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), trace: at('trace') };
}
