/** The info file against KLEE's main.cpp layout. */
import { formatElapsed, formatInfo, formatInfoHeader, formatLocalTime, HALT_TIMER_MESSAGE } from '../../../src/output/info.js';

const start = new Date(2026, 0, 2, 3, 4, 5, 900); // local time
const end = new Date(2026, 0, 2, 4, 5, 7, 100);

describe('info', () => {
  test('golden: a finished run', () => {
    const text = formatInfo({
      argv: ['tsklee', 'run', 'prog.bc', '--max-time=1h'],
      pid: 4242,
      start,
      searcher: 'DFSSearcher',
      end,
      haltReason: HALT_TIMER_MESSAGE,
      done: {
        forks: 4,
        queries: 12,
        queriesValid: 4,
        queriesInvalid: 8,
        queryCex: 8,
        queryConstructs: 211,
        instructions: 1234,
        completedPaths: 4,
        partiallyCompletedPaths: 1,
        generatedTests: 5,
      },
    });
    expect(text).toBe(
      'tsklee run prog.bc --max-time=1h\n' +
        'PID: 4242\n' +
        'Using monotonic steady clock with 1/1000000000s resolution\n' +
        'Started: 2026-01-02 03:04:05\n' +
        'BEGIN searcher description\nDFSSearcher\nEND searcher description\n' +
        'Finished: 2026-01-02 04:05:07\n' +
        'Elapsed: 01:01:02\n' +
        'Halted: HaltTimer invoked\n' +
        'KLEE: done: explored paths = 5\n' +
        'KLEE: done: avg. constructs per query = 17\n' +
        'KLEE: done: total queries = 12\n' +
        'KLEE: done: valid queries = 4\n' +
        'KLEE: done: invalid queries = 8\n' +
        'KLEE: done: query cex = 8\n' +
        '\n' +
        'KLEE: done: total instructions = 1234\n' +
        'KLEE: done: completed paths = 4\n' +
        'KLEE: done: partially completed paths = 1\n' +
        'KLEE: done: generated tests = 5\n',
    );
  });

  test('no queries: no average line; a run still going has only the header', () => {
    const done = { forks: 0, queries: 0, queriesValid: 0, queriesInvalid: 0, queryCex: 0, queryConstructs: 0, instructions: 3, completedPaths: 1, partiallyCompletedPaths: 0, generatedTests: 1 };
    const text = formatInfo({ argv: ['tsklee'], pid: 1, start, end: start, done });
    expect(text).not.toContain('avg. constructs');
    expect(text).toContain('Elapsed: 00:00:00\nKLEE: done: explored paths = 1\nKLEE: done: total queries = 0\n');
    expect(formatInfo({ argv: ['tsklee'], pid: 1, start })).toBe(formatInfoHeader({ argv: ['tsklee'], pid: 1, start }));
  });

  test('times', () => {
    expect(formatLocalTime(new Date(2026, 11, 31, 23, 59, 9))).toBe('2026-12-31 23:59:09');
    expect(formatElapsed(0)).toBe('00:00:00');
    expect(formatElapsed(3599.9)).toBe('00:59:59');
    expect(formatElapsed(100 * 3600 + 61)).toBe('100:01:01');
  });
});
