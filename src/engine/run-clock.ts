/**
 * The run's time limits: --max-time (wall clock, KLEE's) and --max-cpu-time (CPU time of the
 * whole process, user + system: a budget that a loaded machine does not shrink, for
 * experiments that compare configurations). `expired()` says which ran out, if any.
 */
import { cpuUsage } from 'node:process';
import { HALT_TIMER_MESSAGE } from '../output/info.js';
import { nowMs } from '../util/clock.js';

/** The halt reason of --max-cpu-time. */
export const CPU_LIMIT_MESSAGE = 'max-cpu-time exceeded';

export class RunClock {
  private readonly wallAt: number;
  private readonly cpuLimitUs: number;
  private readonly cpuStart: NodeJS.CpuUsage;

  /** Limits in seconds, 0 for none. */
  constructor(maxTimeS: number, maxCpuTimeS: number) {
    this.wallAt = maxTimeS > 0 ? nowMs() + maxTimeS * 1000 : Infinity;
    this.cpuLimitUs = maxCpuTimeS > 0 ? maxCpuTimeS * 1e6 : Infinity;
    this.cpuStart = cpuUsage();
  }

  /** The halt reason of the limit that ran out, or null. */
  expired(now = nowMs()): string | null {
    if (now >= this.wallAt) return HALT_TIMER_MESSAGE;
    if (this.cpuLimitUs !== Infinity) {
      const u = cpuUsage(this.cpuStart);
      if (u.user + u.system >= this.cpuLimitUs) return CPU_LIMIT_MESSAGE;
    }
    return null;
  }
}
