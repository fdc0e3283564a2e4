/*
 * Native driver for runtime/posix: the model compiled natively with every symbol renamed
 * tsklee_NAME (libtsklee-posix-test.a), and fake klee_* functions that give fixed values:
 *   - data objects ("A_data", "stdin", "stdout"): byte i = 'a' + i % 26
 *   - "argNN": 'x' bytes;  "*_stat": a plausible regular-file stat;  "model_version": 1
 *   - "*_fail": the value of $FAKE_<NAME> (default 0: never fail); klee_range: $FAKE_RANGE
 * Every klee_make_symbolic/klee_range call is printed as "OBJ name size".
 * Usage: model <scenario>; prints CHECK lines on failure and "SUMMARY checks=N mismatches=M".
 */
#define _GNU_SOURCE 1
#include <ctype.h>
#include <dirent.h>
#include <pwd.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <signal.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <termios.h>
#include <unistd.h>

int tsklee___tsklee_posix_main(int argc, char **argv, char **envp);
int tsklee_open(const char *, int, ...);
int tsklee_openat(int, const char *, int, ...);
int tsklee_creat(const char *, mode_t);
int tsklee_close(int);
ssize_t tsklee_read(int, void *, size_t);
ssize_t tsklee_write(int, const void *, size_t);
ssize_t tsklee_pread(int, void *, size_t, off_t);
off_t tsklee_lseek(int, off_t, int);
int tsklee_stat(const char *, struct stat *);
int tsklee_fstat(int, struct stat *);
int tsklee_lstat(const char *, struct stat *);
int tsklee_fstatat(int, const char *, struct stat *, int);
int tsklee_access(const char *, int);
int tsklee_dup(int);
int tsklee_dup2(int, int);
int tsklee_fcntl(int, int, ...);
int tsklee_ioctl(int, unsigned long, ...);
int tsklee_isatty(int);
char *tsklee_getcwd(char *, size_t);
int tsklee_chdir(const char *);
int tsklee_mkdir(const char *, mode_t);
int tsklee_rmdir(const char *);
int tsklee_unlink(const char *);
int tsklee_link(const char *, const char *);
int tsklee_mkfifo(const char *, mode_t);
int tsklee_mknod(const char *, mode_t, dev_t);
char *tsklee_getlogin(void);
int tsklee_kill(pid_t, int);
int tsklee_futimens(int, const struct timespec *);
ssize_t tsklee_readlink(const char *, char *, size_t);
DIR *tsklee_opendir(const char *);
struct dirent *tsklee_readdir(DIR *);
int tsklee_closedir(DIR *);
time_t tsklee_time(time_t *);
int tsklee_ftruncate(int, off_t);
int tsklee_rename(const char *, const char *);
char *tsklee_realpath(const char *, char *);
int tsklee_mkstemp(char *);
struct passwd *tsklee_getpwuid(uid_t);
int tsklee_chown(const char *, uid_t, gid_t);
pid_t tsklee_fork(void);
int tsklee_poll(struct pollfd *, nfds_t, int);
ssize_t tsklee_copy_file_range(int, off_t *, int, off_t *, size_t, unsigned);
ssize_t tsklee_getrandom(void *, size_t, unsigned);
int tsklee_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int tsklee_pthread_mutex_lock(pthread_mutex_t *);
int tsklee_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
const char *tsklee_gai_strerror(int);

static int checks, mismatches;
#define CHECK(cond)                                                                 \
  do {                                                                              \
    checks++;                                                                       \
    if (!(cond)) {                                                                  \
      mismatches++;                                                                 \
      printf("CHECK failed line %d: %s (errno %d)\n", __LINE__, #cond, errno);      \
    }                                                                               \
  } while (0)

/* ---- fake engine ------------------------------------------------------------------------ */

static int assume_failures;
static char console[2][4096];
static size_t console_len[2];

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && strcmp(s + a - b, suf) == 0;
}

static int env_int(const char *name, int dflt) {
  char key[64];
  const char *v;
  size_t i;
  snprintf(key, sizeof key, "FAKE_%s", name);
  for (i = 5; key[i]; i++) key[i] = (char)toupper((unsigned char)key[i]);
  v = getenv(key);
  return v ? atoi(v) : dflt;
}

void klee_make_symbolic(void *addr, size_t n, const char *name) {
  unsigned char *p = addr;
  size_t i;
  printf("OBJ %s %zu\n", name, n);
  if (ends_with(name, "_stat")) {
    struct stat *s = addr;
    memset(s, 0, n);
    s->st_dev = 2049;
    s->st_ino = 1000 + (unsigned char)(strcmp(name, "stdout_stat") == 0 ? 'o' : name[0]);
    s->st_mode = S_IFREG | 0644;
    s->st_nlink = 1;
    s->st_uid = 1000;
    s->st_gid = 1000;
    s->st_blksize = 4096;
  } else if (strcmp(name, "model_version") == 0) {
    *(unsigned *)addr = 1;
  } else if (ends_with(name, "_fail")) {
    *(int *)addr = env_int(name, 0);
  } else if (strncmp(name, "arg", 3) == 0) {
    memset(p, 'x', n);
  } else {
    for (i = 0; i < n; i++) p[i] = (unsigned char)('a' + i % 26);
  }
}
int klee_range(int begin, int end, const char *name) {
  int v = env_int("range", begin);
  if (begin + 1 == end) return begin; /* as KLEE's klee_range: no object */
  printf("OBJ %s 4\n", name);
  if (v < begin || v >= end) v = begin;
  return v;
}
void klee_assume(unsigned long c) {
  if (!c) assume_failures++;
}
void klee_prefer_cex(void *o, unsigned long c) {}
void klee_posix_prefer_cex(void *o, unsigned long c) {}
void klee_mark_global(void *o) {}
unsigned klee_is_symbolic(uintptr_t v) { return 0; }
long klee_get_valuel(long v) { return v; }
void klee_warning_once(const char *m) {}
void klee_report_error(const char *file, int line, const char *msg, const char *suffix) {
  printf("REPORT_ERROR %s %s\n", suffix, msg);
  exit(3);
}
void __tsklee_write_console(int fd, const void *buf, size_t n) {
  int k = fd == 2 ? 1 : 0;
  memcpy(console[k] + console_len[k], buf, n);
  console_len[k] += n;
}

/* ---- scenarios -------------------------------------------------------------------------- */

static int user_argc;
static char **user_argv;
int __user_main(int argc, char **argv, char **envp) {
  int i;
  user_argc = argc;
  user_argv = argv;
  printf("ARGC %d\n", argc);
  for (i = 0; i < argc; i++) printf("ARGV %d %s\n", i, argv[i]);
  CHECK(argv[argc] == NULL);
  return 7;
}

static void run_env(int argc, char **argv) {
  int r = tsklee___tsklee_posix_main(argc, argv, NULL);
  CHECK(r == 7);
  CHECK(assume_failures == 0);
}

static void files(void) {
  char buf[64];
  struct stat st;
  int fd, fd2, fd3;
  DIR *d;
  struct dirent *de;
  int seenA = 0, seenB = 0, seenD = 0, seenDot = 0;
  char *argv[] = {"prog", "--sym-files", "2", "8", "--sym-stdin", "5", NULL};
  run_env(6, argv);

  fd = tsklee_open("A", O_RDONLY);
  CHECK(fd == 3);
  CHECK(tsklee_read(fd, buf, 5) == 5 && memcmp(buf, "abcde", 5) == 0);
  CHECK(tsklee_lseek(fd, 0, SEEK_CUR) == 5);
  CHECK(tsklee_read(fd, buf, 10) == 3 && memcmp(buf, "fgh", 3) == 0);
  CHECK(tsklee_read(fd, buf, 10) == 0);
  CHECK(tsklee_lseek(fd, -2, SEEK_END) == 6);
  CHECK(tsklee_read(fd, buf, 10) == 2 && memcmp(buf, "gh", 2) == 0);
  CHECK(tsklee_lseek(fd, -100, SEEK_SET) == -1 && errno == EINVAL);
  CHECK(tsklee_pread(fd, buf, 3, 1) == 3 && memcmp(buf, "bcd", 3) == 0);
  CHECK(tsklee_lseek(fd, 0, SEEK_CUR) == 8);
  CHECK(tsklee_write(fd, "zz", 2) == -1 && errno == EBADF);

  fd2 = tsklee_dup(fd);
  CHECK(fd2 == 4);
  CHECK(tsklee_lseek(fd2, 0, SEEK_SET) == 0);
  CHECK(tsklee_read(fd2, buf, 1) == 1 && buf[0] == 'a');
  CHECK(tsklee_lseek(fd, 0, SEEK_CUR) == 1); /* dup'ed descriptors share the offset */
  CHECK(tsklee_dup2(fd, 7) == 7 && tsklee_lseek(7, 3, SEEK_SET) == 3 && tsklee_lseek(fd2, 0, SEEK_CUR) == 3);
  CHECK(tsklee_dup2(fd, 7) == 7 && tsklee_close(7) == 0 && tsklee_lseek(fd, 0, SEEK_CUR) == 3);
  CHECK(tsklee_fcntl(fd, F_GETFL) == O_RDONLY);
  CHECK(tsklee_fcntl(fd, F_GETFD) == 0);
  CHECK(tsklee_fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 && tsklee_fcntl(fd, F_GETFD) == FD_CLOEXEC);
  fd3 = tsklee_fcntl(fd, F_DUPFD, 10);
  CHECK(fd3 == 10);
  CHECK(tsklee_fcntl(fd3, F_GETFD) == 0);
  CHECK(tsklee_close(fd3) == 0);
  CHECK(tsklee_close(fd3) == -1 && errno == EBADF);
  CHECK(tsklee_close(fd2) == 0);
  CHECK(tsklee_close(fd) == 0);
  CHECK(tsklee_read(fd, buf, 1) == -1 && errno == EBADF);

  /* names */
  CHECK((fd = tsklee_open("/tmp/A", O_RDONLY)) == 3 && tsklee_close(fd) == 0);
  CHECK((fd = tsklee_open("./B", O_RDONLY)) == 3 && tsklee_close(fd) == 0);
  CHECK((fd = tsklee_open("../tmp//B", O_RDONLY)) == 3 && tsklee_close(fd) == 0);
  CHECK(tsklee_open("C", O_RDONLY) == -1 && errno == ENOENT);
  CHECK(tsklee_open("/etc/passwd", O_RDONLY) == -1 && errno == ENOENT);
  CHECK(tsklee_open("A/x", O_RDONLY) == -1 && errno == ENOTDIR);
  CHECK(tsklee_open("A", O_RDONLY | O_DIRECTORY) == -1 && errno == ENOTDIR);
  CHECK(tsklee_open("A", O_RDONLY | O_CREAT | O_EXCL, 0600) == -1 && errno == EEXIST);
  CHECK(tsklee_open(".", O_WRONLY) == -1 && errno == EISDIR);

  /* stat */
  CHECK(tsklee_stat("A", &st) == 0 && st.st_size == 8 && S_ISREG(st.st_mode) && st.st_ino == 1000 + 'A');
  CHECK(tsklee_lstat("B", &st) == 0 && st.st_size == 8 && st.st_ino == 1000 + 'B');
  CHECK(tsklee_stat(".", &st) == 0 && S_ISDIR(st.st_mode));
  CHECK(tsklee_stat("/", &st) == 0 && S_ISDIR(st.st_mode));
  CHECK(tsklee_stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
  CHECK(tsklee_stat("nope", &st) == -1 && errno == ENOENT);
  CHECK(tsklee_fstatat(AT_FDCWD, "A", &st, 0) == 0 && st.st_size == 8);
  CHECK(tsklee_access("A", R_OK) == 0 && tsklee_access("Z", F_OK) == -1 && errno == ENOENT);
  {
    /* read is never refused (as open), the other permissions need a bit in some class */
    int m0 = tsklee_creat("m0", 0);
    CHECK(m0 >= 0 && tsklee_close(m0) == 0);
    CHECK(tsklee_access("m0", R_OK) == 0 && tsklee_access("m0", W_OK) == -1 && errno == EACCES);
    CHECK(tsklee_unlink("m0") == 0);
  }

  /* stdin is the symbolic file, stdout/stderr the console */
  CHECK(tsklee_fstat(0, &st) == 0 && st.st_size == 5 && st.st_ino == 1000 + 's');
  CHECK(tsklee_read(0, buf, 64) == 5 && memcmp(buf, "abcde", 5) == 0);
  CHECK(tsklee_read(0, buf, 64) == 0);
  CHECK(tsklee_write(1, "hello ", 6) == 6 && tsklee_write(1, "world", 5) == 5);
  CHECK(tsklee_write(2, "oops", 4) == 4);
  CHECK(console_len[0] == 11 && memcmp(console[0], "hello world", 11) == 0);
  CHECK(console_len[1] == 4 && memcmp(console[1], "oops", 4) == 0);
  CHECK(tsklee_fstat(1, &st) == 0 && S_ISFIFO(st.st_mode));
  CHECK(tsklee_lseek(1, 0, SEEK_SET) == -1 && errno == ESPIPE);
  CHECK(tsklee_isatty(0) == 0 && tsklee_isatty(1) == 0 && errno == ENOTTY);
  CHECK(tsklee_isatty(17) == 0 && errno == EBADF);
  {
    struct termios t;
    CHECK(tsklee_ioctl(1, TCGETS, &t) == -1 && errno == ENOTTY);
    CHECK(tsklee_ioctl(20, TCGETS, &t) == -1 && errno == EBADF);
  }
  CHECK(tsklee_read(1, buf, 1) == -1 && errno == EBADF);

  /* /dev/null */
  fd = tsklee_open("/dev/null", O_RDWR);
  CHECK(fd == 3 && tsklee_write(fd, "x", 1) == 1 && tsklee_read(fd, buf, 4) == 0 && tsklee_close(fd) == 0);

  /* concrete files the program creates */
  fd = tsklee_creat("new.txt", 0666);
  CHECK(fd == 3);
  CHECK(tsklee_write(fd, "hello", 5) == 5);
  CHECK(tsklee_read(fd, buf, 5) == -1 && errno == EBADF);
  CHECK(tsklee_close(fd) == 0);
  CHECK(tsklee_stat("new.txt", &st) == 0 && st.st_size == 5 && (st.st_mode & 0777) == 0644);
  fd = tsklee_open("new.txt", O_RDWR | O_APPEND);
  CHECK(tsklee_write(fd, "!!", 2) == 2);
  CHECK(tsklee_lseek(fd, 0, SEEK_SET) == 0 && tsklee_read(fd, buf, 64) == 7 && memcmp(buf, "hello!!", 7) == 0);
  CHECK(tsklee_ftruncate(fd, 2) == 0 && tsklee_fstat(fd, &st) == 0 && st.st_size == 2);
  CHECK(tsklee_close(fd) == 0);
  CHECK(tsklee_unlink("new.txt") == 0 && tsklee_stat("new.txt", &st) == -1 && errno == ENOENT);
  CHECK(tsklee_open("sub/x", O_WRONLY | O_CREAT, 0600) == -1 && errno == ENOENT);

  /* directories */
  CHECK(tsklee_mkdir("d", 0755) == 0 && tsklee_stat("d", &st) == 0 && S_ISDIR(st.st_mode));
  CHECK(tsklee_mkdir("d", 0755) == -1 && errno == EEXIST);
  CHECK((fd = tsklee_open("d/f", O_WRONLY | O_CREAT, 0600)) >= 0 && tsklee_close(fd) == 0);
  CHECK(tsklee_rmdir("d") == -1 && errno == ENOTEMPTY);
  d = tsklee_opendir(".");
  CHECK(d != NULL);
  while (d && (de = tsklee_readdir(d)) != NULL) {
    if (strcmp(de->d_name, "A") == 0) seenA = de->d_type == DT_REG;
    else if (strcmp(de->d_name, "B") == 0) seenB = 1;
    else if (strcmp(de->d_name, "d") == 0) seenD = de->d_type == DT_DIR;
    else if (strcmp(de->d_name, ".") == 0) seenDot = 1;
    else if (strcmp(de->d_name, "..") != 0) printf("unexpected entry %s\n", de->d_name), mismatches++;
  }
  CHECK(seenA && seenB && seenD && seenDot);
  CHECK(d && tsklee_closedir(d) == 0);
  CHECK(tsklee_unlink("d/f") == 0 && tsklee_rmdir("d") == 0);
  CHECK(tsklee_opendir("A") == NULL && errno == ENOTDIR);

  /* working directory */
  CHECK(tsklee_getcwd(buf, sizeof buf) == buf && strcmp(buf, "/tmp") == 0);
  CHECK(tsklee_getcwd(buf, 3) == NULL && errno == ERANGE);
  CHECK(tsklee_chdir("/") == 0 && tsklee_getcwd(buf, sizeof buf) && strcmp(buf, "/") == 0);
  CHECK(tsklee_open("A", O_RDONLY) == -1 && errno == ENOENT);
  CHECK((fd = tsklee_open("tmp/A", O_RDONLY)) == 3 && tsklee_close(fd) == 0);
  CHECK((fd = tsklee_open("tmp", O_RDONLY | O_DIRECTORY)) == 3);
  CHECK((fd2 = tsklee_openat(fd, "B", O_RDONLY)) == 4 && tsklee_close(fd2) == 0 && tsklee_close(fd) == 0);
  CHECK(tsklee_chdir("A") == -1);
  CHECK(tsklee_readlink("/tmp/A", buf, sizeof buf) == -1 && errno == EINVAL);
  /* hard links share the file; FIFOs are names with S_IFIFO; no devices; no login; console times */
  CHECK(tsklee_link("/tmp/A", "/tmp/hardA") == 0 && tsklee_stat("/tmp/hardA", &st) == 0 && st.st_ino == 1000 + 'A' && st.st_nlink == 2);
  CHECK(tsklee_link("/tmp/A", "/tmp/hardA") == -1 && errno == EEXIST);
  CHECK(tsklee_link("/tmp", "dirlink") == -1 && errno == EPERM);
  CHECK(tsklee_link("nope", "x") == -1 && errno == ENOENT);
  CHECK(tsklee_unlink("/tmp/hardA") == 0 && tsklee_stat("/tmp/A", &st) == 0);
  CHECK(tsklee_mkfifo("ff", 0644) == 0 && tsklee_stat("ff", &st) == 0 && S_ISFIFO(st.st_mode) && tsklee_unlink("ff") == 0);
  CHECK(tsklee_mknod("dev", S_IFCHR | 0644, 0) == -1 && errno == EPERM);
  CHECK(tsklee_getlogin() == NULL && errno == ENOTTY);
  CHECK(tsklee_futimens(1, NULL) == 0);
  /* kill: the parent exists, -1 reaches no one (Linux never signals the caller), others do not exist */
  CHECK(tsklee_kill(1, SIGTERM) == 0);
  CHECK(tsklee_kill(-1, SIGTERM) == -1 && errno == ESRCH);
  CHECK(tsklee_kill(4242, 0) == -1 && errno == ESRCH);
  CHECK(tsklee_kill(1, 999) == -1 && errno == EINVAL);

  /* rename, realpath, mkstemp, users, ownership */
  CHECK(tsklee_chdir("/tmp") == 0);
  CHECK((fd = tsklee_creat("r1", 0644)) >= 0 && tsklee_write(fd, "xyz", 3) == 3 && tsklee_close(fd) == 0);
  CHECK(tsklee_mkdir("rd", 0755) == 0);
  CHECK(tsklee_rename("r1", "rd/r2") == 0 && tsklee_stat("r1", &st) == -1 && tsklee_stat("rd/r2", &st) == 0 && st.st_size == 3);
  CHECK(tsklee_rename("rd", "rd2") == 0 && tsklee_stat("rd2/r2", &st) == 0 && st.st_size == 3);
  CHECK(tsklee_rename("rd2", "rd2/sub") == -1 && errno == EINVAL);
  CHECK(tsklee_rename("nope", "x") == -1 && errno == ENOENT);
  CHECK(tsklee_realpath("rd2/../rd2/./r2", buf) == buf && strcmp(buf, "/tmp/rd2/r2") == 0);
  CHECK(tsklee_realpath("missing", buf) == NULL && errno == ENOENT);
  CHECK(tsklee_unlink("rd2/r2") == 0 && tsklee_rmdir("rd2") == 0);
  {
    char tmpl[] = "tmpXXXXXX";
    CHECK((fd = tsklee_mkstemp(tmpl)) >= 0 && strncmp(tmpl, "tmp", 3) == 0 && strcmp(tmpl, "tmpXXXXXX") != 0);
    CHECK(tsklee_close(fd) == 0 && tsklee_unlink(tmpl) == 0);
  }
  CHECK(tsklee_getpwuid(1000) && strcmp(tsklee_getpwuid(1000)->pw_name, "user") == 0 && tsklee_getpwuid(5) == NULL);
  CHECK(tsklee_chown("A", 1000, -1) == 0 && tsklee_chown("A", 0, -1) == -1 && errno == EPERM);
  CHECK(tsklee_fork() == -1 && errno == EAGAIN);

  /* poll, copy_file_range, getrandom, threads, name service */
  {
    struct pollfd p[2] = {{1, POLLOUT, 0}, {29, POLLIN, 0}};
    CHECK(tsklee_poll(p, 2, 0) == 2 && p[0].revents == POLLOUT && p[1].revents == POLLNVAL);
    struct pollfd q = {1, 0, 0};
    CHECK(tsklee_poll(&q, 1, 0) == 0 && q.revents == 0);
    CHECK(tsklee_copy_file_range(0, NULL, 1, NULL, 8, 0) == -1 && errno == ENOSYS);
    unsigned char r1[16], r2[16];
    CHECK(tsklee_getrandom(r1, 16, 0) == 16 && tsklee_getrandom(r2, 16, 0) == 16 && memcmp(r1, r2, 16) != 0);
    pthread_t t;
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t c = PTHREAD_COND_INITIALIZER;
    CHECK(tsklee_pthread_create(&t, NULL, NULL, NULL) == EAGAIN && tsklee_pthread_mutex_lock(&m) == 0);
    CHECK(tsklee_pthread_cond_wait(&c, &m) == EDEADLK);
    CHECK(strcmp(tsklee_gai_strerror(EAI_NONAME), "Name or service not known") == 0);
  }

  /* clock */
  {
    time_t t1 = tsklee_time(NULL), t2 = tsklee_time(NULL);
    CHECK(t1 >= 1700000000 && t2 >= t1);
  }
}

static void readfail(void) {
  char buf[8];
  char *argv[] = {"prog", "--sym-files", "1", "4", "--max-fail", "1", NULL};
  int fd;
  run_env(6, argv);
  fd = tsklee_open("A", O_RDONLY);
  CHECK(fd == 3);
  CHECK(tsklee_read(fd, buf, 1) == 1);
  CHECK(tsklee_read(fd, buf, 1) == -1 && errno == EIO); /* FAKE_READ_FAIL=2 */
  CHECK(tsklee_read(fd, buf, 1) == 1);
  /* FAKE_GETCWD_FAIL=1, but the one allowed failure is spent */
  CHECK(tsklee_getcwd(buf, sizeof buf) == buf);
}

int main(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "";
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (strcmp(s, "args") == 0) {
    char *a[] = {"prog", "--sym-args", "0", "3", "3", "--sym-arg", "2", "plain", "-sym-files", "2", "8",
                 "--sym-stdin", "5", "--sym-stdout", "--max-fail", "1", NULL};
    run_env(16, a);
    CHECK(user_argc == 5);
  } else if (strcmp(s, "fixed") == 0) {
    char *a[] = {"prog", "--sym-args", "2", "2", "1", "-sym-arg", "0", NULL};
    run_env(7, a);
  } else if (strcmp(s, "files") == 0) {
    files();
  } else if (strcmp(s, "readfail") == 0) {
    readfail();
  } else if (strcmp(s, "bad") == 0) {
    char *a[] = {"prog", "--sym-args", "2", "1", "3", NULL};
    run_env(5, a);
  } else if (strcmp(s, "symstdout") == 0) {
    char *a[] = {"prog", "--sym-stdout", NULL};
    char buf[8];
    run_env(2, a);
    CHECK(tsklee_write(1, "hey", 3) == 3);
    CHECK(console_len[0] == 0);
    {
      struct stat st;
      CHECK(tsklee_fstat(1, &st) == 0 && st.st_size == 1024 && S_ISREG(st.st_mode));
      CHECK(tsklee_lseek(1, 0, SEEK_CUR) == 3);
      CHECK(tsklee_write(2, "e", 1) == 1 && console_len[1] == 1);
    }
    (void)buf;
  }
  printf("SUMMARY checks=%d mismatches=%d\n", checks, mismatches);
  return 0;
}
