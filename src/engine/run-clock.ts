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

/**
 * Wall-clock ms between two reads of the CPU clock. expired() runs after every solver query;
 * process.cpuUsage() is a getrusage syscall (~1.5 µs here, mostly system time): on
 * apr_strnatcmp at N = 50, ~10% of a run's CPU went to reading the clock it was budgeted by.
 * The process's CPU time grows at most (threads) × wall, so the budget is overrun by a few ms.
 */
export const CPU_CHECK_EVERY_MS = 5;

export class RunClock {
  private readonly wallAt: number;
  private readonly cpuLimitUs: number;
  private readonly cpuStart: NodeJS.CpuUsage;
  private nextCpuCheck = -Infinity;

  /** Limits in seconds, 0 for none. `readCpu` is the CPU clock (replaced in tests). */
  constructor(maxTimeS: number, maxCpuTimeS: number, private readonly readCpu: (since: NodeJS.CpuUsage) => NodeJS.CpuUsage = (s) => cpuUsage(s)) {
    this.wallAt = maxTimeS > 0 ? nowMs() + maxTimeS * 1000 : Infinity;
    this.cpuLimitUs = maxCpuTimeS > 0 ? maxCpuTimeS * 1e6 : Infinity;
    this.cpuStart = cpuUsage();
  }

  /** The halt reason of the limit that ran out, or null. */
  expired(now = nowMs()): string | null {
    if (now >= this.wallAt) return HALT_TIMER_MESSAGE;
    if (this.cpuLimitUs !== Infinity && now >= this.nextCpuCheck) {
      this.nextCpuCheck = now + CPU_CHECK_EVERY_MS;
      const u = this.readCpu(this.cpuStart);
      if (u.user + u.system >= this.cpuLimitUs) return CPU_LIMIT_MESSAGE;
    }
    return null;
  }
}
