/**
 * The environment KLEE users expect: a fixed default environment and --environ, the POSIX
 * wrapper around a custom --entry-point, and the devices of the modelled file system.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { compileProgram, readOutDir, tsklee, type OutDir } from '../support/tsklee-cli.js';
import { DEFAULT_ENVIRONMENT } from '../../src/engine/options.js';

let dir: string;
let outs = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-klee-env-'));
});

function run(options: string[], bc: string, args: string[] = []): OutDir & { stderr: string } {
  const out = join(dir, `out${++outs}`);
  const r = tsklee(['run', '-search=dfs', `-output-dir=${out}`, ...options, bc, ...args], dir);
  if (r.code !== 0) throw new Error(`tsklee ${options.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return { ...readOutDir(out), stderr: r.stderr };
}

const stdoutOf = (o: OutDir): string => o.read('test000001.stdout');

describe('environment', () => {
  const SHOW = `#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv, char **envp) {
  int n = 0; while (envp[n]) n++;
  const char *names[] = {"HOME", "PATH", "PWD", "TERM", "LANG", "FOO"};
  printf("%d\\n", n);
  for (int i = 0; i < 6; i++) { const char *v = getenv(names[i]); printf("%s=%s\\n", names[i], v ? v : "(unset)"); }
  return 0;
}`;

  it('is a fixed, documented default (never the host\'s), in envp and getenv', () => {
    const bc = compileProgram(dir, 'show', SHOW);
    const o = run([], bc);
    expect(stdoutOf(o)).toBe(
      `${DEFAULT_ENVIRONMENT.length}\nHOME=/home/user\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/tmp\nTERM=dumb\nLANG=C\nFOO=(unset)\n`,
    );
    // the same under the POSIX model (environ set by the start-up code)
    expect(stdoutOf(run(['-posix-runtime', '-libc=tsklee'], bc))).toBe(stdoutOf(o));
  });

  it('--environ FILE (and KLEE\'s newer --env-file) replaces it', () => {
    const bc = compileProgram(dir, 'show2', SHOW);
    writeFileSync(join(dir, 'env.txt'), 'FOO=bar baz\n\nHOME=/root\n');
    const o = run(['-environ', 'env.txt'], bc);
    expect(stdoutOf(o)).toBe('2\nHOME=/root\nPATH=(unset)\nPWD=(unset)\nTERM=(unset)\nLANG=(unset)\nFOO=bar baz\n');
    expect(stdoutOf(run(['--env-file=env.txt'], bc))).toBe(stdoutOf(o));
    writeFileSync(join(dir, 'bad.txt'), 'NOEQUALS\n');
    const bad = tsklee(['run', '-environ=bad.txt', bc], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('tsklee: error: --environ=bad.txt:1: expected NAME=VALUE\n');
  });
});

describe('--posix-runtime with --entry-point', () => {
  it('wraps the named function as KLEE does (no main needed)', () => {
    const bc = compileProgram(dir, 'entry', `#include <string.h>
int my_main(int argc, char **argv) { return argc > 1 && strcmp(argv[1], "go") == 0 ? 3 : 0; }`);
    const o = run(['-posix-runtime', '-entry-point=my_main'], bc, ['--sym-arg', '2']);
    expect(o.errors).toEqual([]);
    const statuses = o.read('exit-status.txt').trim().split('\n').map((l) => l.split(' ')[1]);
    expect(new Set(statuses)).toEqual(new Set(['0', '3']));
    const missing = tsklee(['run', '-posix-runtime', '-entry-point=nope', bc], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^KLEE: ERROR: --posix-runtime: .*: Entry function 'nope' not found in module\.$/m);
  });
});

describe('devices', () => {
  it('/dev/null, /dev/zero, /dev/urandom (deterministic) and /dev/tty exist', () => {
    const bc = compileProgram(dir, 'dev', `#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
int main(void) {
  const char *devs[] = {"/dev/null", "/dev/zero", "/dev/urandom", "/dev/tty"};
  for (int i = 0; i < 4; i++) {
    struct stat s; int fd = open(devs[i], O_RDWR);
    unsigned char b[4] = {7, 7, 7, 7};
    int r = fd >= 0 ? (int)read(fd, b, 4) : -1;
    int w = fd >= 0 ? (int)write(fd, "x", 1) : -1;
    printf("%s fd=%d chr=%d read=%d %02x%02x%02x%02x write=%d\\n", devs[i], fd >= 0, stat(devs[i], &s) == 0 && S_ISCHR(s.st_mode), r, b[0], b[1], b[2], b[3], w);
    if (fd >= 0) close(fd);
  }
  return 0;
}`);
    const a = run(['-posix-runtime', '-libc=tsklee'], bc);
    const lines = stdoutOf(a).trim().split('\n');
    expect(lines[0]).toBe('/dev/null fd=1 chr=1 read=0 07070707 write=1');
    expect(lines[1]).toBe('/dev/zero fd=1 chr=1 read=4 00000000 write=1');
    expect(lines[2]).toMatch(/^\/dev\/urandom fd=1 chr=1 read=4 [0-9a-f]{8} write=1$/);
    expect(lines[2]).not.toContain('read=4 00000000');
    expect(lines[3]).toBe('/dev/tty fd=1 chr=1 read=0 07070707 write=1');
    // the same "random" bytes on every run
    expect(stdoutOf(run(['-posix-runtime', '-libc=tsklee'], bc))).toBe(stdoutOf(a));
  });
});
