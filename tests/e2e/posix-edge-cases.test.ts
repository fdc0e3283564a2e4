/**
 * Edge cases of the POSIX model where it once differed from the native program or from KLEE's
 * model (needs `npm run build`):
 *  - read(fd, NULL, n) on a file with data fails with EFAULT (it faulted inside the model);
 *    write(1, NULL, n) too;
 *  - fcntl(F_GETLK) answers that nothing conflicts (l_type = F_UNLCK) as a lone process's
 *    kernel does (it left the caller's l_type);
 * both replayed natively: same stdout and exit status. And, as KLEE's model: a symbolic stdout
 * is a terminal when its symbolic st_mode says character device, so isatty(1) and
 * ioctl(1, TIOCGWINSZ) fork (the terminal side gets KLEE's 24x80 window). A symbolic stdin is
 * a regular file, as every replay (klee-replay's, tsklee's) builds it: no terminal path.
 * The model's argv and its symbolic strings are klee_mark_global'ed as in KLEE's model, so each
 * free of one is "free of global" (free succeeded before: klee_mark_global did nothing).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';

const CLI = resolve('dist/cli/main.js');
let dir: string;

const FILES = `#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
int main(void) {
  int fd = open("A", O_RDONLY);
  if (fd < 0) { puts("no file"); return 2; }
  errno = 0;
  long r = read(fd, NULL, 1);
  printf("read %ld %s\\n", r, errno == EFAULT ? "EFAULT" : "other");
  errno = 0;
  r = write(1, NULL, 1);
  printf("write %ld %s\\n", r, errno == EFAULT ? "EFAULT" : "other");
  struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
  r = fcntl(fd, F_GETLK, &fl);
  printf("getlk %ld %s\\n", r, fl.l_type == F_UNLCK ? "unlocked" : "locked");
  char c;
  if (read(fd, &c, 1) == 1 && c == 'z') return 3;
  return 0;
}
`;

const FREE_ARGV = `#include <stdlib.h>
int main(int argc, char **argv) {
  if (argc == 1) free(argv[0]);
  else if (argc == 2) free(argv[1]);
  else free(argv);
  return 0;
}
`;

// FD is 0 or 1: which descriptor the program asks (it reports on stderr, as stdout may be symbolic)
const tty = (fd: number): string => `#include <stdio.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <unistd.h>
int main(void) {
  struct winsize ws = {0};
  if (isatty(${fd})) {
    int r = ioctl(${fd}, TIOCGWINSZ, &ws);
    fprintf(stderr, "tty %d %dx%d\\n", r, ws.ws_row, ws.ws_col);
    return 1;
  }
  int r = ioctl(${fd}, TIOCGWINSZ, &ws);
  fprintf(stderr, "notty %d %s\\n", r, errno == ENOTTY ? "ENOTTY" : "other");
  return 0;
}
`;
// comm - - closes stdin twice: glibc's second fclose fails (EOF)
const CLOSE_TWICE = `#include <stdio.h>
int main(void) {
  int c = getchar();
  int a = fclose(stdin), b = fclose(stdin);
  printf("%d %d %d\\n", c == 'x', a, b);
  return b == EOF;
}
`;
// prints what a program reads from its environment (dircolors reads SHELL)
const ENVIRONMENT = `#include <stdio.h>
#include <stdlib.h>
int main(void) {
  const char *v[] = {"SHELL", "HOME", "LANG", "USER", "TSKLEE_TEST_ONLY"};
  for (int i = 0; i < 5; i++) printf("%s=%s\\n", v[i], getenv(v[i]) ? getenv(v[i]) : "(unset)");
  return 0;
}
`;
function tsklee(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: dir, maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function outputs(out: string, ext = '.stdout'): string[] {
  return readdirSync(join(dir, out))
    .filter((f) => f.endsWith(ext))
    .map((f) => readFileSync(join(dir, out, f), 'utf8'))
    .sort();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tsklee-posix-edge-'));
  writeFileSync(join(dir, 'files.c'), FILES);
  writeFileSync(join(dir, 'tty0.c'), tty(0));
  writeFileSync(join(dir, 'tty1.c'), tty(1));
  writeFileSync(join(dir, 'free-argv.c'), FREE_ARGV);
  writeFileSync(join(dir, 'close2.c'), CLOSE_TWICE);
  execFileSync('cc', ['files.c', '-o', 'files'], { cwd: dir });
  execFileSync('cc', ['close2.c', '-o', 'close2'], { cwd: dir });
  writeFileSync(join(dir, 'environment.c'), ENVIRONMENT);
  execFileSync('cc', ['environment.c', '-o', 'environment'], { cwd: dir });
  execFileSync('cc', ['-w', resolve('fixtures/posix/symlinks.c'), '-o', 'symlinks'], { cwd: dir });
  execFileSync('cc', ['-w', resolve('fixtures/posix/long_names.c'), '-o', 'long_names'], { cwd: dir });
  execFileSync('cc', ['-w', resolve('fixtures/posix/trailing_slash.c'), '-o', 'trailing_slash'], { cwd: dir });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('read and write with a NULL buffer fail with EFAULT and F_GETLK reports no conflicting lock, as natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=files-out', 'files.c', '--sym-files', '1', '2']);
  expect(run.code).toBe(0);
  expect(readdirSync(join(dir, 'files-out')).filter((f) => f.endsWith('.err'))).toEqual([]);
  const body = 'read -1 EFAULT\nwrite -1 EFAULT\ngetlk 0 unlocked\n';
  expect(outputs('files-out')).toEqual([body, body]);
  const native = tsklee(['replay', '--native', './files', 'files-out']);
  expect(native.stderr).toBe('');
  expect(native.stdout).toContain('tsklee: replayed 2 tests natively: 2 as recorded, 0 different, 0 not compared\n');
}, 120_000);

it('isatty and TIOCGWINSZ on a symbolic stdout fork on its symbolic mode, as in KLEE', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=tty1-out', 'tty1.c', '--sym-stdout']);
  expect(run.code).toBe(0);
  expect(outputs('tty1-out', '.stderr')).toEqual(['notty -1 ENOTTY\n', 'tty 0 24x80\n']);
}, 120_000);

it('a symbolic stdin is a regular file, as every replay builds it (unlike KLEE, no terminal path no replay reproduces)', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=tty0-out', 'tty0.c', '--sym-stdin', '1']);
  expect(run.code).toBe(0);
  expect(outputs('tty0-out', '.stderr')).toEqual(['notty -1 ENOTTY\n']);
}, 120_000);

it('a second fclose of stdin fails with EOF, as glibc (comm - -)', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=close2-out', 'close2.c', '--sym-stdin', '1']);
  expect(run.code).toBe(0);
  expect(outputs('close2-out')).toEqual(['0 0 -1\n', '1 0 -1\n']);
  const native = tsklee(['replay', '--native', './close2', 'close2-out']);
  expect(native.stderr).toBe('');
  expect(native.stdout).toContain('tsklee: replayed 2 tests natively: 2 as recorded, 0 different, 0 not compared\n');
}, 120_000);

it('symbolic links: symlink, readlink, lstat, links in the middle of a path, dangling links, loops, O_NOFOLLOW, O_EXCL, rename, unlink, link, readdir, as natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--output-dir=links-out', resolve('fixtures/posix/symlinks.c')]);
  expect(run.code).toBe(0);
  const [out] = outputs('links-out');
  expect(out).toContain('lstat 0 - mode 120000 size 3\n');
  expect(out).toContain('loop -1 Too many levels of symbolic links');
  const native = tsklee(['replay', '--native', './symlinks', 'links-out']);
  expect(native.stderr).toBe('');
  expect(native.stdout).toContain('tsklee: replayed 1 tests natively: 1 as recorded, 0 different, 0 not compared\n');
}, 120_000);

it('names up to NAME_MAX (255) and paths up to PATH_MAX (4096) as Linux: ENOENT below, ENAMETOOLONG above, as natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--output-dir=names-out', resolve('fixtures/posix/long_names.c')]);
  expect(run.code).toBe(0);
  const [out] = outputs('names-out');
  expect(out).toContain('absent 251 -1 No such file or directory\n');
  expect(out).toContain('create 255 3 -\n');
  expect(out).toContain('create 256 -1 File name too long\n');
  const native = tsklee(['replay', '--native', './long_names', 'names-out']);
  expect(native.stderr).toBe('');
  expect(native.stdout).toContain('tsklee: replayed 1 tests natively: 1 as recorded, 0 different, 0 not compared\n');
}, 120_000);

it('a path ending in "/" (or "." or "..") names a directory: a file there is ENOTDIR, creating one EISDIR, as natively', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--output-dir=slash-out', resolve('fixtures/posix/trailing_slash.c')]);
  expect(run.code).toBe(0);
  const [out] = outputs('slash-out');
  expect(out).toContain('file/ read Not a directory\n');
  expect(out).toContain('new/ create Is a directory\n');
  expect(out).toContain('stat file/ Not a directory\n');
  expect(out).toContain('access n/ exists no\n');
  const native = tsklee(['replay', '--native', './trailing_slash', 'slash-out']);
  expect(native.stderr).toBe('');
  expect(native.stdout).toContain('tsklee: replayed 1 tests natively: 1 as recorded, 0 different, 0 not compared\n');
}, 120_000);

it('replay --native gives the program the environment tsklee run gave it (the fixed default, or --environ), not the replayer\'s', () => {
  const run = tsklee(['run', '--libc=tsklee', '--output-dir=env-out', 'environment.c']);
  expect(run.code).toBe(0);
  expect(outputs('env-out')).toEqual(['SHELL=/bin/sh\nHOME=/home/user\nLANG=C\nUSER=user\nTSKLEE_TEST_ONLY=(unset)\n']);
  const replayer = { ...process.env, SHELL: '/bin/bash', HOME: '/root', TSKLEE_TEST_ONLY: 'host' };
  const native = spawnSync(process.execPath, [CLI, 'replay', '--native', './environment', 'env-out'], { encoding: 'utf8', cwd: dir, env: replayer });
  expect(native.stdout).toContain('replayed 1 tests natively: 1 as recorded');
  // --environ: the same file for both
  writeFileSync(join(dir, 'my.environ'), 'SHELL=/bin/zsh\nTSKLEE_TEST_ONLY=yes\n');
  expect(tsklee(['run', '--libc=tsklee', '--environ=my.environ', '--output-dir=env2-out', 'environment.c']).code).toBe(0);
  expect(outputs('env2-out')).toEqual(['SHELL=/bin/zsh\nHOME=(unset)\nLANG=(unset)\nUSER=(unset)\nTSKLEE_TEST_ONLY=yes\n']);
  expect(tsklee(['replay', '--native', '--environ=my.environ', './environment', 'env2-out']).stdout).toContain('1 as recorded');
  expect(tsklee(['replay', '--native', './environment', 'env2-out']).stdout).toContain('0 as recorded, 1 different');
}, 120_000);

it('freeing argv or one of its strings is "free of global" at every such free, as in KLEE', () => {
  const run = tsklee(['run', '--libc=tsklee', '--posix-runtime', '--search=dfs', '--output-dir=free-out', 'free-argv.c', '--sym-args', '0', '2', '2']);
  expect(run.code).toBe(0);
  const errs = readdirSync(join(dir, 'free-out')).filter((f) => f.endsWith('.free.err'));
  expect(errs).toHaveLength(3);
  const reports = errs.map((f) => readFileSync(join(dir, 'free-out', f), 'utf8'));
  expect(reports.map((t) => t.split('\n')[0])).toEqual(Array(3).fill('Error: free of global'));
  expect(reports.map((t) => /^Line: (\d+)$/m.exec(t)?.[1]).sort()).toEqual(['3', '4', '5']);
}, 120_000);
