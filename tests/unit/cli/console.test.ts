/**
 * The run's console lines (src/cli/console.ts) and klee_error-style failures (KleeError in
 * src/cli/errors.ts): KLEE's `KLEE:` prefix by default, `tsklee:` under --console-prefix=tsklee.
 */
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { consoleLine, consoleText, DEFAULT_CONSOLE_PREFIX, setConsolePrefix } from '../../../src/cli/console.js';
import { KleeError, reportError, UsageError } from '../../../src/cli/errors.js';

function stderrOf(f: () => void): string {
  const chunks: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    chunks.push(String(c));
    return true;
  });
  try {
    f();
  } finally {
    spy.mockRestore();
  }
  return chunks.join('');
}

afterEach(() => setConsolePrefix(DEFAULT_CONSOLE_PREFIX));

describe('console lines', () => {
  it("are KLEE's by default and tsklee's on request", () => {
    expect(consoleLine('done: generated tests = 3')).toBe('KLEE: done: generated tests = 3\n');
    expect(consoleText('KLEE: done: a = 1\nKLEE: done: b = 2\n')).toBe('KLEE: done: a = 1\nKLEE: done: b = 2\n');
    setConsolePrefix('tsklee');
    expect(consoleLine('ERROR: a.c:3: memory error: null page access')).toBe('tsklee: ERROR: a.c:3: memory error: null page access\n');
    expect(consoleText('KLEE: done: a = 1\nKLEE: done: b = 2\n')).toBe('tsklee: done: a = 1\ntsklee: done: b = 2\n');
  });

  it("print KLEE's klee_error cases as KLEE: ERROR:, tsklee's own errors as tsklee: error:", () => {
    expect(stderrOf(() => reportError(new KleeError("Entry function 'main' not found in module.")))).toBe("KLEE: ERROR: Entry function 'main' not found in module.\n");
    expect(stderrOf(() => reportError(new UsageError('--jobs=0: expected an integer ≥ 1')))).toBe('tsklee: error: --jobs=0: expected an integer ≥ 1\n');
    setConsolePrefix('tsklee');
    expect(stderrOf(() => reportError(new KleeError("Entry function 'main' not found in module.")))).toBe("tsklee: error: Entry function 'main' not found in module.\n");
  });
});
