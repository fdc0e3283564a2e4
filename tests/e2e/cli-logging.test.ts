/**
 * Diagnostic logging of the built CLI (`node dist/cli/main.js`, needs `npm run build`):
 * --log-level, else TSKLEE_LOG, else warn; JSON lines on stderr. pino is loaded only when a
 * message is logged, so these check that the lazy logger still logs what it should.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const CLI = resolve('dist/cli/main.js');
const HELLO = resolve('examples/hello.bc');

function disStderr(args: string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [CLI, ...args, 'dis', HELLO], { encoding: 'utf8', env: { ...process.env, TSKLEE_LOG: '', ...env } });
  expect(r.status).toBe(0);
  return r.stderr;
}

describe('tsklee log levels', () => {
  test('debug messages are JSON lines naming the command', () => {
    const lines = disStderr(['--log-level', 'debug']).trimEnd().split('\n');
    const loaded = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((m) => m.msg === 'loaded');
    expect(loaded).toMatchObject({ level: 20, name: 'tsklee dis', files: [HELLO] });
  });

  test('TSKLEE_LOG sets the level when --log-level is not given', () => {
    expect(disStderr([], { TSKLEE_LOG: 'DEBUG' })).toContain('"msg":"loaded"');
    expect(disStderr(['--log-level=warn'], { TSKLEE_LOG: 'debug' })).toBe('');
  });

  test('below the level nothing is written', () => {
    expect(disStderr([])).toBe('');
    expect(disStderr(['--log-level=info'])).toBe('');
  });
});
