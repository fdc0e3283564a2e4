/**
 * The whole loop for a program under the POSIX model (needs `npm run build`): `tsklee run
 * --libc=tsklee --posix-runtime` with symbolic argv, a symbolic file and stdin; then every test
 * replayed natively (`tsklee replay --native` on a plain build: argv, file A and stdin from the
 * test) gives the recorded exit status and stdout, and replayed in the interpreter ends with
 * the recorded exit status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { readExitStatuses } from '../../src/output/exit-status.js';

const CLI = resolve('dist/cli/main.js');
let dir: string;

const PROG = `#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char buf[4];
  int n = 0;
  if (argc > 1) {
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) { puts("no file"); return 2; }
    n = read(fd, buf, 3);
    close(fd);
    if (n > 0 && buf[0] == 'x') { puts("x file"); return 3; }
  }
  char c;
  if (read(0, &c, 1) == 1 && c == 'q') { puts("quit"); return 4; }
  printf("n=%d\\n", n);
  return 0;
}
`;

function tsklee(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-replay-posix-'));
  writeFileSync(join(dir, 'fio.c'), PROG);
  execFileSync('cc', ['fio.c', '-o', 'fio'], { cwd: dir });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('replays symbolic argv, file and stdin tests natively and in the interpreter as recorded', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=out', 'fio.c', '--sym-args', '0', '1', '1', '--sym-files', '1', '3', '--sym-stdin', '1']);
  expect(run.code).toBe(0);
  const files = readdirSync(join(dir, 'out'));
  const tests = files.filter((f) => f.endsWith('.ktest')).sort();
  // every outcome of the program is reached: through the file (x file), stdin (quit), argv (no file)
  const outputs = new Set(files.filter((f) => f.endsWith('.stdout')).map((f) => readFileSync(join(dir, 'out', f), 'utf8')));
  expect(outputs).toEqual(new Set(['n=0\n', 'n=3\n', 'no file\n', 'quit\n', 'x file\n']));

  const native = tsklee(['replay', '--native', './fio', 'out']);
  expect(native.stderr).toBe('');
  expect(native.code).toBe(0);
  expect(native.stdout).toContain(`tsklee: replayed ${tests.length} tests natively: ${tests.length} as recorded, 0 different, 0 not compared\n`);

  const interp = tsklee(['replay', '--libc=tsklee', '--posix-runtime', 'fio.c', 'out']);
  expect(interp.stderr).toBe('');
  expect(interp.code).toBe(0);
  const statuses = readExitStatuses(join(dir, 'out'));
  const expected = tests.map((t) => `${t}: exit ${statuses.get(t.replace('.ktest', ''))}\n`).join('');
  expect(interp.stdout).toBe(expected);
}, 120_000);

it('passes argument bytes 0x80-0xff to the native program as they are (not as UTF-8)', () => {
  // two bytes of one argument: 0x80 then '%' (a printf directive if the decoding were careless)
  writeFileSync(join(dir, 'hi.c'), `#include <stdio.h>
int main(int argc, char **argv) {
  if (argc > 1 && (unsigned char)argv[1][0] == 0x80 && argv[1][1] == '%') { puts("high"); return 5; }
  puts("low");
  return 0;
}
`);
  execFileSync('cc', ['hi.c', '-o', 'hi'], { cwd: dir });
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=out-hi', 'hi.c', '--sym-args', '1', '1', '2']);
  expect(run.code).toBe(0);
  const statuses = [...readExitStatuses(join(dir, 'out-hi')).values()];
  expect(statuses).toContain(5);
  const native = tsklee(['replay', '--native', './hi', 'out-hi']);
  expect(native.stderr).toBe('');
  expect(native.code).toBe(0);
  expect(native.stdout).toMatch(/: exit 5, stdout 5 bytes: as recorded/);
  expect(native.stdout).toContain(' 0 different');
}, 120_000);
