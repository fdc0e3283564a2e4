/** --max-cpu-time's clock: read at most every CPU_CHECK_EVERY_MS of wall time, not per query. */
import { CPU_CHECK_EVERY_MS, CPU_LIMIT_MESSAGE, RunClock } from '../../../src/engine/run-clock.js';

describe('RunClock', () => {
  it('reads the CPU clock once per interval however often it is asked', () => {
    let reads = 0;
    let cpuUs = 0;
    const clock = new RunClock(0, 1, () => {
      reads++;
      return { user: cpuUs, system: 0 };
    });
    // 10 000 queries within one interval (the executor asks after every query)
    for (let i = 0; i < 10_000; i++) expect(clock.expired(1000 + (i * CPU_CHECK_EVERY_MS) / 20_000)).toBeNull();
    expect(reads).toBe(1);
    cpuUs = 1e6;
    // the budget is spent, but the next read waits for the interval
    expect(clock.expired(1000 + CPU_CHECK_EVERY_MS / 2)).toBeNull();
    expect(clock.expired(1000 + CPU_CHECK_EVERY_MS)).toBe(CPU_LIMIT_MESSAGE);
    expect(reads).toBe(2);
  });

  it('never reads the CPU clock without --max-cpu-time', () => {
    let reads = 0;
    const clock = new RunClock(0, 0, () => {
      reads++;
      return { user: 0, system: 0 };
    });
    for (let i = 0; i < 100; i++) expect(clock.expired(i * 100)).toBeNull();
    expect(reads).toBe(0);
  });

  it('halts by the real CPU clock', () => {
    const clock = new RunClock(0, 0.02);
    const t0 = Date.now();
    let why: string | null = null;
    while (why === null && Date.now() - t0 < 5000) why = clock.expired();
    expect(why).toBe(CPU_LIMIT_MESSAGE);
  });
});
