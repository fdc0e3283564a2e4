/*
 * The rest of what coreutils-style programs call: rename, ownership and times on the model,
 * file-system statistics, temporary files, realpath, the users/groups databases (two fixed
 * users), and the process calls that cannot succeed in one symbolic process (fork, exec*,
 * waitpid, pipes elsewhere) — they fail with the errno a restricted system gives.
 */
#include "internal.h"
#include <klee/klee.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <mntent.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int __tsklee_stat_node(int idx, struct stat *buf);
int __tsklee_create(int dirfd, const char *path, mode_t mode);
int __tsklee_link_node(int src, int dirfd, const char *path);

#define RET(r)    \
  do {            \
    int r_ = (r); \
    if (r_ < 0) { \
      errno = -r_; \
      return -1;  \
    }             \
  } while (0)

/* ---- rename ---------------------------------------------------------------------------- */

static int is_prefix_dir(const char *dir, const char *p) {
  size_t n = __tsklee_strlen(dir), i;
  for (i = 0; i < n; i++)
    if (dir[i] != p[i]) return 0;
  return p[n] == '/' || (n == 1 && dir[0] == '/');
}

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags) {
  tk_env *e = &__tsklee_env;
  char dst[TK_PATH_MAX], par[TK_PATH_MAX];
  int src = __tsklee_lookup_nofollow(olddirfd, oldpath), tgt, pi, i;
  size_t n, srclen, dstlen;
  RET(src);
  RET(__tsklee_resolve(newdirfd, newpath, dst));
  if (flags & ~(unsigned)RENAME_NOREPLACE) RET(-EINVAL);
  if (__tsklee_streq(e->nodes[src].path, dst)) return 0;
  if (is_prefix_dir(e->nodes[src].path, dst)) RET(-EINVAL);
  if (__tsklee_streq(e->nodes[src].path, "/") || src == e->cwd) RET(-EBUSY);
  n = __tsklee_strlen(dst);
  while (n > 0 && dst[n - 1] != '/') n--;
  n = n > 1 ? n - 1 : 1;
  __tsklee_memcpy(par, dst, n);
  par[n] = 0;
  pi = __tsklee_lookup(AT_FDCWD, par);
  RET(pi);
  if (e->nodes[pi].kind != TK_DIR) RET(-ENOTDIR);
  tgt = __tsklee_lookup_nofollow(AT_FDCWD, dst);
  if (tgt >= 0) {
    if (flags & RENAME_NOREPLACE) RET(-EEXIST);
    if (e->nodes[src].kind == TK_DIR && e->nodes[tgt].kind != TK_DIR) RET(-ENOTDIR);
    if (e->nodes[src].kind != TK_DIR && e->nodes[tgt].kind == TK_DIR) RET(-EISDIR);
    if (e->nodes[tgt].kind == TK_DIR) {
      for (i = 0; i < TK_MAX_NODES; i++)
        if (i != tgt && e->nodes[i].kind != TK_NONE && is_prefix_dir(e->nodes[tgt].path, e->nodes[i].path))
          RET(-ENOTEMPTY);
      if (tgt == e->cwd) RET(-EBUSY);
    }
    e->nodes[tgt].kind = TK_NONE;
    e->nodes[tgt].path[0] = 0;
  }
  srclen = __tsklee_strlen(e->nodes[src].path);
  dstlen = __tsklee_strlen(dst);
  for (i = 0; i < TK_MAX_NODES; i++) {
    char tmp[TK_PATH_MAX];
    size_t rest;
    if (e->nodes[i].kind == TK_NONE || (i != src && !is_prefix_dir(e->nodes[src].path, e->nodes[i].path))) continue;
    if (i == src) continue;
    rest = __tsklee_strlen(e->nodes[i].path) - srclen;
    if (dstlen + rest >= TK_PATH_MAX) RET(-ENAMETOOLONG);
    __tsklee_memcpy(tmp, dst, dstlen);
    __tsklee_memcpy(tmp + dstlen, e->nodes[i].path + srclen, rest + 1);
    __tsklee_memcpy(e->nodes[i].path, tmp, dstlen + rest + 1);
  }
  __tsklee_memcpy(e->nodes[src].path, dst, dstlen + 1);
  return 0;
}
int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
  return renameat2(olddirfd, oldpath, newdirfd, newpath, 0);
}
int rename(const char *oldpath, const char *newpath) { return renameat2(AT_FDCWD, oldpath, AT_FDCWD, newpath, 0); }

/* A hard link to a symbolic link is a link to the link itself unless AT_SYMLINK_FOLLOW (Linux). */
int linkat(int od, const char *o, int nd, const char *n, int flags) {
  int src = (flags & AT_SYMLINK_FOLLOW) ? __tsklee_lookup(od, o) : __tsklee_lookup_nofollow(od, o);
  RET(src);
  RET(__tsklee_link_node(src, nd, n));
  return 0;
}
int link(const char *o, const char *n) { return linkat(AT_FDCWD, o, AT_FDCWD, n, 0); }
int symlinkat(const char *target, int nd, const char *n) {
  RET(__tsklee_symlink(target, nd, n));
  return 0;
}
int symlink(const char *target, const char *n) { return symlinkat(target, AT_FDCWD, n); }
/* A FIFO is a name with S_IFIFO in its mode (opening it reads and writes like an empty regular
   file: no second process could be at the other end); devices need privileges the model's
   user does not have (EPERM, as natively). */
int mknodat(int d, const char *p, mode_t m, dev_t dev) {
  int idx;
  if (!S_ISFIFO(m) && !S_ISREG(m) && (m & S_IFMT) != 0) RET(-EPERM);
  idx = __tsklee_create(d, p, m & 07777);
  RET(idx);
  if (S_ISFIFO(m)) {
    struct stat *st = __tsklee_env.nodes[idx].file->st;
    st->st_mode = (st->st_mode & ~S_IFMT) | S_IFIFO;
  }
  return 0;
}
int mknod(const char *p, mode_t m, dev_t dev) { return mknodat(AT_FDCWD, p, m, dev); }
int mkfifoat(int d, const char *p, mode_t m) { return mknodat(d, p, S_IFIFO | (m & 07777), 0); }
int mkfifo(const char *p, mode_t m) { return mkfifoat(AT_FDCWD, p, m); }

/* ---- ownership, modes, times ----------------------------------------------------------- */

static struct stat *node_stat(int idx) { return __tsklee_env.nodes[idx].file->st; }

static int fd_node(int fd) {
  tk_env *e = &__tsklee_env;
  if (fd < 0 || fd >= TK_MAX_FDS || !(e->fds[fd].flags & TK_F_OPEN)) return -EBADF;
  if (e->fds[fd].node < 0) return -EPERM; /* the console */
  return e->fds[fd].node;
}

static int set_owner(int idx, uid_t uid, gid_t gid) {
  struct stat *st;
  RET(idx);
  if ((uid != (uid_t)-1 && uid != TK_UID) || (gid != (gid_t)-1 && gid != TK_GID)) RET(-EPERM);
  st = node_stat(idx);
  /* an unprivileged user changes the owner or group of its own files only */
  if ((uid != (uid_t)-1 || gid != (gid_t)-1) && st->st_uid != TK_UID) RET(-EPERM);
  if (uid != (uid_t)-1) st->st_uid = uid;
  if (gid != (gid_t)-1) st->st_gid = gid;
  return 0;
}
int fchownat(int d, const char *p, uid_t u, gid_t g, int flags) {
  return set_owner((flags & AT_SYMLINK_NOFOLLOW) ? __tsklee_lookup_nofollow(d, p) : __tsklee_lookup(d, p), u, g);
}
int chown(const char *p, uid_t u, gid_t g) { return fchownat(AT_FDCWD, p, u, g, 0); }
int lchown(const char *p, uid_t u, gid_t g) { return fchownat(AT_FDCWD, p, u, g, AT_SYMLINK_NOFOLLOW); }
int fchown(int fd, uid_t u, gid_t g) { return set_owner(fd_node(fd), u, g); }

int fchmod(int fd, mode_t mode) {
  int idx = fd_node(fd);
  struct stat *st;
  RET(idx);
  st = node_stat(idx);
  if (st->st_uid != TK_UID) RET(-EPERM);
  st->st_mode = (st->st_mode & S_IFMT) | (mode & 07777);
  return 0;
}
int lchmod(const char *p, mode_t mode) { return fchmodat(AT_FDCWD, p, mode, AT_SYMLINK_NOFOLLOW); }

static long long now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec;
}

static int set_times(int idx, const struct timespec t[2]) {
  struct stat *st;
  long long now;
  RET(idx);
  st = node_stat(idx);
  now = now_sec();
  if (!t) {
    st->st_atim.tv_sec = st->st_mtim.tv_sec = now;
    st->st_atim.tv_nsec = st->st_mtim.tv_nsec = 0;
  } else {
    if (t[0].tv_nsec != UTIME_OMIT) {
      st->st_atim.tv_sec = t[0].tv_nsec == UTIME_NOW ? now : t[0].tv_sec;
      st->st_atim.tv_nsec = t[0].tv_nsec == UTIME_NOW ? 0 : t[0].tv_nsec;
    }
    if (t[1].tv_nsec != UTIME_OMIT) {
      st->st_mtim.tv_sec = t[1].tv_nsec == UTIME_NOW ? now : t[1].tv_sec;
      st->st_mtim.tv_nsec = t[1].tv_nsec == UTIME_NOW ? 0 : t[1].tv_nsec;
    }
  }
  st->st_ctim.tv_sec = now;
  return 0;
}
int utimensat(int d, const char *p, const struct timespec t[2], int flags) {
  /* glibc declares p nonnull */
  return set_times((flags & AT_SYMLINK_NOFOLLOW) ? __tsklee_lookup_nofollow(d, p) : __tsklee_lookup(d, p), t);
}
/* the console is a pipe the program owns: its times can be set (nothing records them) */
int futimens(int fd, const struct timespec t[2]) { return fd_node(fd) == -EPERM ? 0 : set_times(fd_node(fd), t); }
static int set_timevals(int idx, const struct timeval tv[2]) {
  struct timespec ts[2];
  if (!tv) return set_times(idx, 0);
  ts[0].tv_sec = tv[0].tv_sec;
  ts[0].tv_nsec = tv[0].tv_usec * 1000;
  ts[1].tv_sec = tv[1].tv_sec;
  ts[1].tv_nsec = tv[1].tv_usec * 1000;
  return set_times(idx, ts);
}
int utimes(const char *p, const struct timeval tv[2]) { return set_timevals(__tsklee_lookup(AT_FDCWD, p), tv); }
int futimesat(int d, const char *p, const struct timeval tv[2]) {
  return set_timevals(p ? __tsklee_lookup(d, p) : fd_node(d), tv);
}

/* ---- file-system statistics ------------------------------------------------------------ */

static void fill_statfs(struct statfs *s) {
  __tsklee_memset(s, 0, sizeof *s);
  s->f_type = 0xEF53; /* ext4 */
  s->f_bsize = 4096;
  s->f_blocks = 262144;
  s->f_bfree = s->f_bavail = 131072;
  s->f_files = 65536;
  s->f_ffree = 65000;
  s->f_namelen = 255;
  s->f_frsize = 4096;
}
int statfs(const char *p, struct statfs *s) {
  RET(__tsklee_lookup(AT_FDCWD, p));
  fill_statfs(s);
  return 0;
}
int fstatfs(int fd, struct statfs *s) {
  if (fd < 0 || fd >= TK_MAX_FDS || !(__tsklee_env.fds[fd].flags & TK_F_OPEN)) RET(-EBADF);
  fill_statfs(s);
  return 0;
}
static void fill_statvfs(struct statvfs *v) {
  struct statfs s;
  fill_statfs(&s);
  __tsklee_memset(v, 0, sizeof *v);
  v->f_bsize = s.f_bsize;
  v->f_frsize = s.f_frsize;
  v->f_blocks = s.f_blocks;
  v->f_bfree = s.f_bfree;
  v->f_bavail = s.f_bavail;
  v->f_files = s.f_files;
  v->f_ffree = v->f_favail = s.f_ffree;
  v->f_namemax = 255;
}
int statvfs(const char *p, struct statvfs *v) {
  RET(__tsklee_lookup(AT_FDCWD, p));
  fill_statvfs(v);
  return 0;
}
int fstatvfs(int fd, struct statvfs *v) {
  if (fd < 0 || fd >= TK_MAX_FDS || !(__tsklee_env.fds[fd].flags & TK_F_OPEN)) RET(-EBADF);
  fill_statvfs(v);
  return 0;
}
void sync(void) {}
int syncfs(int fd) { return 0; }
int fallocate(int fd, int mode, off_t off, off_t len) {
  RET(-EOPNOTSUPP);
  return -1;
}

/* mount table: none */
FILE *setmntent(const char *file, const char *mode) {
  errno = ENOENT;
  return 0;
}
struct mntent *getmntent(FILE *f) { return 0; }
int endmntent(FILE *f) { return 1; }
char *hasmntopt(const struct mntent *m, const char *opt) { return 0; }

/* ---- paths ----------------------------------------------------------------------------- */

char *realpath(const char *path, char *resolved) {
  char abs[TK_PATH_MAX];
  int r, idx;
  if (!path) {
    errno = EINVAL;
    return 0;
  }
  idx = __tsklee_lookup(AT_FDCWD, path);
  if (idx < 0) {
    errno = -idx;
    return 0;
  }
  /* the name the lookup ended at: symbolic links followed */
  r = (int)__tsklee_strlen(__tsklee_env.nodes[idx].path);
  __tsklee_memcpy(abs, __tsklee_env.nodes[idx].path, (size_t)r + 1);
  if (!resolved) {
    resolved = malloc(__tsklee_strlen(abs) + 1);
    if (!resolved) {
      errno = ENOMEM;
      return 0;
    }
  }
  __tsklee_memcpy(resolved, abs, __tsklee_strlen(abs) + 1);
  return resolved;
}
char *canonicalize_file_name(const char *path) { return realpath(path, 0); }

static unsigned tmp_counter;

int mkostemps(char *tmpl, int suffixlen, int flags) {
  size_t n = __tsklee_strlen(tmpl);
  int tries, i;
  if (suffixlen < 0 || n < (size_t)suffixlen + 6) RET(-EINVAL);
  for (i = 0; i < 6; i++)
    if (tmpl[n - suffixlen - 6 + i] != 'X') RET(-EINVAL);
  for (tries = 0; tries < 100; tries++) {
    unsigned v = ++tmp_counter;
    int fd;
    for (i = 5; i >= 0; i--) {
      tmpl[n - suffixlen - 6 + i] = "abcdefghijklmnopqrstuvwxyz0123456789"[v % 36];
      v /= 36;
    }
    fd = open(tmpl, O_RDWR | O_CREAT | O_EXCL | (flags & ~O_ACCMODE), 0600);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  RET(-EEXIST);
  return -1;
}
int mkstemp(char *tmpl) { return mkostemps(tmpl, 0, 0); }
int mkostemp(char *tmpl, int flags) { return mkostemps(tmpl, 0, flags); }
int mkstemps(char *tmpl, int suffixlen) { return mkostemps(tmpl, suffixlen, 0); }
char *mkdtemp(char *tmpl) {
  size_t n = __tsklee_strlen(tmpl);
  int tries, i;
  if (n < 6) {
    errno = EINVAL;
    return 0;
  }
  for (tries = 0; tries < 100; tries++) {
    unsigned v = ++tmp_counter;
    for (i = 5; i >= 0; i--) {
      tmpl[n - 6 + i] = "abcdefghijklmnopqrstuvwxyz0123456789"[v % 36];
      v /= 36;
    }
    if (mkdir(tmpl, 0700) == 0) return tmpl;
    if (errno != EEXIST) return 0;
  }
  return 0;
}

/* ---- users and groups: root (0) and user (1000) ---------------------------------------- */

static struct passwd pw_root = {"root", "x", 0, 0, "root", "/root", "/bin/sh"};
static struct passwd pw_user = {"user", "x", TK_UID, TK_GID, "user", "/home/user", "/bin/sh"};
static struct group gr_root = {"root", "x", 0, 0};
static struct group gr_user = {"user", "x", TK_GID, 0};
static int pw_pos, gr_pos;

struct passwd *getpwuid(uid_t uid) { return uid == 0 ? &pw_root : uid == TK_UID ? &pw_user : 0; }
struct passwd *getpwnam(const char *name) {
  if (__tsklee_streq(name, "root")) return &pw_root;
  if (__tsklee_streq(name, "user")) return &pw_user;
  return 0;
}
struct passwd *getpwent(void) { return pw_pos == 0 ? (pw_pos++, &pw_root) : pw_pos == 1 ? (pw_pos++, &pw_user) : 0; }
void setpwent(void) { pw_pos = 0; }
void endpwent(void) { pw_pos = 0; }
struct group *getgrgid(gid_t gid) { return gid == 0 ? &gr_root : gid == TK_GID ? &gr_user : 0; }
struct group *getgrnam(const char *name) {
  if (__tsklee_streq(name, "root")) return &gr_root;
  if (__tsklee_streq(name, "user")) return &gr_user;
  return 0;
}
struct group *getgrent(void) { return gr_pos == 0 ? (gr_pos++, &gr_root) : gr_pos == 1 ? (gr_pos++, &gr_user) : 0; }
void setgrent(void) { gr_pos = 0; }
void endgrent(void) { gr_pos = 0; }
int getgrouplist(const char *user, gid_t group, gid_t *groups, int *ngroups) {
  if (*ngroups < 1) {
    *ngroups = 1;
    return -1;
  }
  groups[0] = group;
  *ngroups = 1;
  return 1;
}
/* no terminal, no login records: getlogin fails as it does for a process without a session */
char *getlogin(void) {
  errno = ENOTTY;
  return 0;
}
long gethostid(void) { return 0x007f0101; }

/* ---- process calls that cannot succeed here --------------------------------------------- */

int setuid(uid_t u) { return u == TK_UID ? 0 : (errno = EPERM, -1); }
int setgid(gid_t g) { return g == TK_GID ? 0 : (errno = EPERM, -1); }
int setgroups(size_t n, const gid_t *l) { return errno = EPERM, -1; }
int setpgid(pid_t p, pid_t g) { return 0; }
int getpriority(int which, id_t who) { return 0; }
int setpriority(int which, id_t who, int prio) { return prio >= 0 ? 0 : (errno = EACCES, -1); }
int chroot(const char *p) { return errno = EPERM, -1; }
int sethostname(const char *n, size_t l) { return errno = EPERM, -1; }
int settimeofday(const struct timeval *tv, const struct timezone *tz) { return errno = EPERM, -1; }
int clock_settime(clockid_t id, const struct timespec *ts) { return errno = EPERM, -1; }
pid_t fork(void) { return errno = EAGAIN, -1; }
pid_t waitpid(pid_t p, int *status, int options) { return errno = ECHILD, -1; }
pid_t wait(int *status) { return errno = ECHILD, -1; }
int execvp(const char *file, char *const argv[]) { return errno = ENOENT, -1; }
int execv(const char *file, char *const argv[]) { return errno = ENOENT, -1; }
int execve(const char *file, char *const argv[], char *const envp[]) { return errno = ENOENT, -1; }
int execl(const char *file, const char *arg, ...) { return errno = ENOENT, -1; }
int execlp(const char *file, const char *arg, ...) { return errno = ENOENT, -1; }
char *ttyname(int fd) {
  errno = (fd >= 0 && fd < TK_MAX_FDS && (__tsklee_env.fds[fd].flags & TK_F_OPEN)) ? ENOTTY : EBADF;
  return 0;
}
int ttyname_r(int fd, char *buf, size_t len) {
  return (fd >= 0 && fd < TK_MAX_FDS && (__tsklee_env.fds[fd].flags & TK_F_OPEN)) ? ENOTTY : EBADF;
}
pid_t tcgetpgrp(int fd) { return errno = ENOTTY, -1; }
int getloadavg(double loadavg[], int n) {
  int i;
  for (i = 0; i < n && i < 3; i++) loadavg[i] = 0.0;
  return i;
}

/* statx over fstatat (no birth time). */
int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx) {
  struct stat st;
  int r = (flags & AT_EMPTY_PATH) && path && !path[0] ? fstat(dirfd, &st) : fstatat(dirfd, path, &st, flags & AT_SYMLINK_NOFOLLOW);
  if (r < 0) return r;
  __tsklee_memset(sx, 0, sizeof *sx);
  sx->stx_mask = STATX_BASIC_STATS;
  sx->stx_blksize = (unsigned)st.st_blksize;
  sx->stx_nlink = (unsigned)st.st_nlink;
  sx->stx_uid = st.st_uid;
  sx->stx_gid = st.st_gid;
  sx->stx_mode = (unsigned short)st.st_mode;
  sx->stx_ino = st.st_ino;
  sx->stx_size = (unsigned long long)st.st_size;
  sx->stx_blocks = (unsigned long long)st.st_blocks;
  sx->stx_atime.tv_sec = st.st_atim.tv_sec;
  sx->stx_atime.tv_nsec = (unsigned)st.st_atim.tv_nsec;
  sx->stx_mtime.tv_sec = st.st_mtim.tv_sec;
  sx->stx_mtime.tv_nsec = (unsigned)st.st_mtim.tv_nsec;
  sx->stx_ctime.tv_sec = st.st_ctim.tv_sec;
  sx->stx_ctime.tv_nsec = (unsigned)st.st_ctim.tv_nsec;
  sx->stx_rdev_major = (unsigned)(st.st_rdev >> 8) & 0xfff;
  sx->stx_rdev_minor = (unsigned)(st.st_rdev & 0xff);
  sx->stx_dev_major = (unsigned)(st.st_dev >> 8) & 0xfff;
  sx->stx_dev_minor = (unsigned)(st.st_dev & 0xff);
  return 0;
}
