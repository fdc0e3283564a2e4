/*
 * File descriptors over the modelled file system: open/read/write/lseek/close/dup/fcntl/ioctl.
 *
 * fds 0, 1, 2 start as "console" descriptors: reading fd 0 gives end of file (empty stdin)
 * unless --sym-stdin made it a symbolic file; writing fd 1 or 2 goes to the engine's record of
 * the state's output through __tsklee_write_console (unless --sym-stdout). Console fds behave
 * like pipes: lseek fails with ESPIPE, they are not terminals (isatty = 0). A symbolic file
 * is a terminal when its symbolic st_mode says character device, as in KLEE's model: isatty,
 * tcgetattr and TIOCGWINSZ fork on it. Only --sym-stdout's mode is free (env.c makes stdin and
 * the --sym-files regular files, as a replay builds them).
 */
#include "internal.h"
#include <klee/klee.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

int __tsklee_create(int dirfd, const char *path, mode_t mode);
int __tsklee_stat_node(int idx, struct stat *buf);

#define RET(r)    \
  do {            \
    int r_ = (r); \
    if (r_ < 0) { \
      errno = -r_; \
      return -1;  \
    }             \
  } while (0)

static tk_fd *get_fd(int fd) {
  if (fd < 0 || fd >= TK_MAX_FDS) return 0;
  if (!(__tsklee_env.fds[fd].flags & TK_F_OPEN)) return 0;
  return &__tsklee_env.fds[fd];
}

static int alloc_fd(int from) {
  int i;
  for (i = from < 0 ? 0 : from; i < TK_MAX_FDS; i++)
    if (!(__tsklee_env.fds[i].flags & TK_F_OPEN)) return i;
  return -EMFILE;
}

static enum tk_kind fd_kind(const tk_fd *f) {
  if (f->node >= 0) return __tsklee_env.nodes[f->node].kind == TK_NONE ? TK_REG : __tsklee_env.nodes[f->node].kind;
  return f->file ? TK_REG : TK_NONE; /* TK_NONE: console */
}

/* Whether fd is a terminal: only a symbolic file can be, when its symbolic mode says character
 * device (KLEE's model asks S_ISCHR of the file's stat for TCGETS and TIOCGWINSZ, so isatty
 * forks on --sym-stdin/--sym-stdout). */
static int is_terminal(const tk_fd *f) {
  return f->file && f->file->symbolic && S_ISCHR(f->file->st->st_mode);
}

/* ---- open ------------------------------------------------------------------------------ */

/* Whether open has a mode argument (glibc's __OPEN_NEEDS_MODE): O_TMPFILE includes the
   O_DIRECTORY bit, so O_DIRECTORY alone (opendir) must not read one. */
#define NEEDS_MODE(flags) (((flags) & O_CREAT) != 0 || ((flags) & O_TMPFILE) == O_TMPFILE)

int openat(int dirfd, const char *path, int flags, ...) {
  tk_env *e = &__tsklee_env;
  mode_t mode = 0;
  int idx, fd, acc = flags & O_ACCMODE;
  tk_node *n;
  if (NEEDS_MODE(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  __tsklee_posix_setup();
  fd = alloc_fd(0);
  RET(fd);
  if (flags & (O_NOFOLLOW | O_EXCL)) {
    /* the last component itself: O_NOFOLLOW refuses a link (ELOOP), O_CREAT|O_EXCL any name */
    int own = __tsklee_lookup_nofollow(dirfd, path);
    if (own >= 0 && (flags & O_CREAT) && (flags & O_EXCL)) RET(-EEXIST);
    if (own >= 0 && (flags & O_NOFOLLOW) && e->nodes[own].kind == TK_LNK) RET(-ELOOP);
  }
  if (flags & O_CREAT) {
    /* "name/" with O_CREAT: Linux refuses to make a file there (EISDIR) */
    int r = __tsklee_creat_dir_error(dirfd, path);
    RET(r);
  }
  idx = __tsklee_lookup(dirfd, path);
  if (idx >= 0) {
    if ((flags & O_CREAT) && (flags & O_EXCL)) RET(-EEXIST);
    n = &e->nodes[idx];
    if (n->kind == TK_DIR && acc != O_RDONLY) RET(-EISDIR);
    if ((flags & O_DIRECTORY) && n->kind != TK_DIR) RET(-ENOTDIR);
    /* write access needs a write bit in some class (KLEE does not model the process's
     * identity either); read access is not checked, as in KLEE, so that opening a
     * symbolic file for reading does not fork on its mode */
    if (acc != O_RDONLY && n->kind == TK_REG && !(n->file->st->st_mode & 0222)) RET(-EACCES);
    if ((flags & O_TRUNC) && n->kind == TK_REG && acc != O_RDONLY) {
      if (n->file->symbolic) klee_warning_once("O_TRUNC on a symbolic file: truncation ignored");
      else n->file->size = 0;
    }
  } else {
    if (idx != -ENOENT || !(flags & O_CREAT)) RET(idx);
    idx = __tsklee_create(dirfd, path, mode);
    RET(idx);
    n = &e->nodes[idx];
  }
  e->fds[fd].flags = TK_F_OPEN | (acc != O_WRONLY ? TK_F_READ : 0) | (acc != O_RDONLY ? TK_F_WRITE : 0) |
                     ((flags & O_APPEND) ? TK_F_APPEND : 0) | ((flags & O_CLOEXEC) ? TK_F_CLOEXEC : 0);
  e->fds[fd].status_flags = flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
  {
    int o;
    for (o = 0; o < TK_MAX_FDS && e->offsets[o].refs; o++) {}
    /* there are never more open descriptions than descriptors */
    e->fds[fd].ofd = o;
    e->offsets[o].refs = 1;
    e->offsets[o].off = 0;
  }
  e->fds[fd].file = n->file;
  e->fds[fd].node = idx;
  e->fds[fd].console = -1;
  return fd;
}

int open(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (NEEDS_MODE(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return openat(AT_FDCWD, path, flags, mode);
}
int open64(const char *path, int flags, ...) {
  mode_t mode = 0;
  if (NEEDS_MODE(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return openat(AT_FDCWD, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
  mode_t mode = 0;
  if (NEEDS_MODE(flags)) {
    va_list ap;
    va_start(ap, flags);
    mode = (mode_t)va_arg(ap, int);
    va_end(ap);
  }
  return openat(dirfd, path, flags, mode);
}
int __open_2(const char *path, int flags) { return openat(AT_FDCWD, path, flags); }
int __open64_2(const char *path, int flags) { return openat(AT_FDCWD, path, flags); }
int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
int __openat64_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
int creat(const char *path, mode_t mode) { return openat(AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char *path, mode_t mode) { return creat(path, mode); }

static int close_calls;

static void release(tk_fd *f) {
  __tsklee_env.offsets[f->ofd].refs--;
  __tsklee_memset(f, 0, sizeof *f);
  f->node = -1;
}

int close(int fd) {
  tk_env *e = &__tsklee_env;
  tk_fd *f = get_fd(fd);
  int n = ++close_calls;
  if (!f) RET(-EBADF);
  if (__tsklee_fail(e->close_fail, n, EIO)) return -1;
  release(f);
  return 0;
}

/* ---- read/write ------------------------------------------------------------------------ */

static int read_calls, write_calls;

/* /dev/urandom and /dev/random: xorshift64* from a fixed seed — "random" bytes that are the
 * same on every run and path, so tests stay reproducible. */
static void random_bytes(tk_env *e, void *buf, size_t count) {
  unsigned char *out = buf;
  size_t i;
  for (i = 0; i < count; i++) {
    unsigned long long x = e->random_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    e->random_state = x;
    out[i] = (unsigned char)((x * 0x2545F4914F6CDD1DULL) >> 56);
  }
}

ssize_t read(int fd, void *buf, size_t count) {
  tk_env *e = &__tsklee_env;
  tk_fd *f = get_fd(fd);
  tk_file *file;
  size_t n;
  int call = ++read_calls;
  if (count == 0) return 0;
  if (!f || !(f->flags & TK_F_READ)) RET(-EBADF);
  if (__tsklee_fail(e->read_fail, call, EIO)) return -1;
  switch (fd_kind(f)) {
  case TK_NONE: /* console stdin: empty */
  case TK_DEVNULL:
  case TK_DEVTTY: /* the terminal's input is the console's: empty */
    return 0;
  case TK_DEVZERO:
    __tsklee_memset(buf, 0, count);
    return (ssize_t)count;
  case TK_DEVRANDOM:
    random_bytes(e, buf, count);
    return (ssize_t)count;
  case TK_DIR:
    RET(-EISDIR);
  default:
    break;
  }
  file = f->file;
  if (TK_OFF(f) >= file->size) return 0;
  n = file->size - (size_t)TK_OFF(f);
  if (count < n) n = count;
  /* as the kernel: bytes to copy to an invalid buffer fail (at end of file nothing is copied) */
  if (!buf) RET(-EFAULT);
  __tsklee_memcpy(buf, file->contents + TK_OFF(f), n);
  TK_OFF(f) += (long long)n;
  return (ssize_t)n;
}

static int grow(tk_file *file, size_t want) {
  char *c;
  size_t cap = file->cap ? file->cap : 64;
  if (want <= file->cap) return 0;
  while (cap < want) cap *= 2;
  c = malloc(cap);
  if (!c) return -ENOMEM;
  __tsklee_memcpy(c, file->contents, file->size);
  free(file->contents);
  file->contents = c;
  file->cap = (unsigned)cap;
  return 0;
}

ssize_t write(int fd, const void *buf, size_t count) {
  tk_env *e = &__tsklee_env;
  tk_fd *f = get_fd(fd);
  tk_file *file;
  int call = ++write_calls;
  if (!f || !(f->flags & TK_F_WRITE)) RET(-EBADF);
  if (__tsklee_fail(e->write_fail, call, EIO)) return -1;
  switch (fd_kind(f)) {
  case TK_NONE:
    if (count && !buf) RET(-EFAULT);
    if (count) __tsklee_write_console(f->console, buf, count);
    return (ssize_t)count;
  case TK_DEVNULL:
  case TK_DEVZERO:
  case TK_DEVRANDOM:
  case TK_DEVTTY: /* accepted and dropped: a native run shows it on the terminal, not on stdout */
    return (ssize_t)count;
  case TK_DIR:
    RET(-EISDIR);
  default:
    break;
  }
  if (count && !buf) RET(-EFAULT);
  file = f->file;
  if (f->flags & TK_F_APPEND) TK_OFF(f) = file->size;
  if (file->symbolic && !e->save_all_writes) {
    /* as KLEE: a symbolic file keeps its size; bytes past the end are dropped, the offset
     * still advances by count */
    size_t n = 0;
    if (TK_OFF(f) < file->size) {
      n = file->size - (size_t)TK_OFF(f);
      if (count < n) n = count;
    }
    __tsklee_memcpy(file->contents + TK_OFF(f), buf, n);
    if (file == e->sym_stdout) e->stdout_writes += (unsigned)n;
  } else {
    size_t end = (size_t)TK_OFF(f) + count;
    int r = grow(file, end);
    RET(r);
    if ((size_t)TK_OFF(f) > file->size) __tsklee_memset(file->contents + file->size, 0, (size_t)TK_OFF(f) - file->size);
    __tsklee_memcpy(file->contents + TK_OFF(f), buf, count);
    if (end > file->size) {
      file->size = (unsigned)end;
      if (file->symbolic) file->st->st_size = (off_t)end;
    }
  }
  TK_OFF(f) += (long long)count;
  return (ssize_t)count;
}

ssize_t __read_chk(int fd, void *buf, size_t count, size_t buflen) {
  if (count > buflen) {
    klee_report_error(__FILE__, __LINE__, "buffer overflow detected in read", "user.err");
  }
  return read(fd, buf, count);
}

/* ---- seeking --------------------------------------------------------------------------- */

off_t lseek(int fd, off_t offset, int whence) {
  tk_fd *f = get_fd(fd);
  long long base;
  if (!f) RET(-EBADF);
  switch (fd_kind(f)) {
  case TK_NONE:
  case TK_DEVTTY:
    RET(-ESPIPE);
  case TK_DEVNULL:
  case TK_DEVZERO:
  case TK_DEVRANDOM:
    return 0;
  default:
    break;
  }
  switch (whence) {
  case SEEK_SET: base = 0; break;
  case SEEK_CUR: base = TK_OFF(f); break;
  case SEEK_END: base = f->file ? (long long)f->file->size : 0; break;
  default: RET(-EINVAL);
  }
  if (base + offset < 0) RET(-EINVAL);
  TK_OFF(f) = base + offset;
  return (off_t)TK_OFF(f);
}
off64_t lseek64(int fd, off64_t offset, int whence) { return lseek(fd, offset, whence); }

ssize_t pread(int fd, void *buf, size_t count, off_t off) {
  tk_fd *f = get_fd(fd);
  long long saved;
  ssize_t r;
  if (!f) RET(-EBADF);
  if (fd_kind(f) == TK_NONE) RET(-ESPIPE);
  if (off < 0) RET(-EINVAL);
  saved = TK_OFF(f);
  TK_OFF(f) = off;
  r = read(fd, buf, count);
  TK_OFF(f) = saved;
  return r;
}
ssize_t pread64(int fd, void *buf, size_t count, off64_t off) { return pread(fd, buf, count, off); }

ssize_t pwrite(int fd, const void *buf, size_t count, off_t off) {
  tk_fd *f = get_fd(fd);
  long long saved;
  unsigned flags;
  ssize_t r;
  if (!f) RET(-EBADF);
  if (fd_kind(f) == TK_NONE) RET(-ESPIPE);
  if (off < 0) RET(-EINVAL);
  saved = TK_OFF(f);
  flags = f->flags;
  TK_OFF(f) = off;
  f->flags &= ~(unsigned)TK_F_APPEND;
  r = write(fd, buf, count);
  TK_OFF(f) = saved;
  f->flags = flags;
  return r;
}
ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t off) { return pwrite(fd, buf, count, off); }

static int ftruncate_calls;

int ftruncate(int fd, off_t length) {
  tk_env *e = &__tsklee_env;
  tk_fd *f = get_fd(fd);
  int call = ++ftruncate_calls;
  if (!f) RET(-EBADF);
  if (__tsklee_fail(e->ftruncate_fail, call, EIO)) return -1;
  if (fd_kind(f) != TK_REG || !(f->flags & TK_F_WRITE)) RET(-EINVAL);
  if (length < 0) RET(-EINVAL);
  if (f->file->symbolic) { /* as KLEE */
    klee_warning_once("ftruncate of a symbolic file: EIO");
    RET(-EIO);
  }
  if ((size_t)length > f->file->size) {
    int r = grow(f->file, (size_t)length);
    RET(r);
    __tsklee_memset(f->file->contents + f->file->size, 0, (size_t)length - f->file->size);
  }
  f->file->size = (unsigned)length;
  return 0;
}
int ftruncate64(int fd, off64_t length) { return ftruncate(fd, length); }

int fsync(int fd) { return get_fd(fd) ? 0 : (errno = EBADF, -1); }
int fdatasync(int fd) { return fsync(fd); }
int posix_fadvise(int fd, off_t off, off_t len, int advice) {
  tk_fd *f = get_fd(fd);
  if (!f) return EBADF;
  if (fd_kind(f) == TK_NONE) return ESPIPE;
  return 0;
}
int posix_fadvise64(int fd, off64_t off, off64_t len, int advice) { return posix_fadvise(fd, off, len, advice); }

/* ---- fstat ----------------------------------------------------------------------------- */

int fstat(int fd, struct stat *buf) {
  tk_fd *f = get_fd(fd);
  if (!f) RET(-EBADF);
  if (f->node >= 0 && __tsklee_env.nodes[f->node].kind != TK_NONE) return __tsklee_stat_node(f->node, buf);
  if (f->file) { /* symbolic stdin/stdout, or an unlinked file */
    __tsklee_memcpy(buf, f->file->st, sizeof *buf);
    if (!f->file->symbolic) buf->st_size = f->file->size;
    return 0;
  }
  /* console: a pipe */
  __tsklee_memset(buf, 0, sizeof *buf);
  buf->st_dev = 12;
  buf->st_ino = 100 + (unsigned)f->console;
  buf->st_mode = S_IFIFO | 0600;
  buf->st_nlink = 1;
  buf->st_uid = TK_UID;
  buf->st_gid = TK_GID;
  buf->st_blksize = 4096;
  buf->st_atim.tv_sec = buf->st_mtim.tv_sec = buf->st_ctim.tv_sec = TK_TIME;
  return 0;
}
int fstat64(int fd, struct stat64 *buf) { return fstat(fd, (struct stat *)buf); }

/* ---- descriptors ----------------------------------------------------------------------- */

static int dup_to(int oldfd, int newfd, int cloexec) {
  tk_env *e = &__tsklee_env;
  e->fds[newfd] = e->fds[oldfd];
  e->offsets[e->fds[oldfd].ofd].refs++;
  e->fds[newfd].flags &= ~(unsigned)TK_F_CLOEXEC;
  if (cloexec) e->fds[newfd].flags |= TK_F_CLOEXEC;
  return newfd;
}

int dup(int fd) {
  int n;
  if (!get_fd(fd)) RET(-EBADF);
  n = alloc_fd(0);
  RET(n);
  return dup_to(fd, n, 0);
}

int dup3(int oldfd, int newfd, int flags) {
  if (!get_fd(oldfd) || newfd < 0 || newfd >= TK_MAX_FDS) RET(-EBADF);
  if (oldfd == newfd || (flags & ~O_CLOEXEC)) RET(-EINVAL);
  if (get_fd(newfd)) release(get_fd(newfd)); /* silently, as dup2 does */
  return dup_to(oldfd, newfd, flags & O_CLOEXEC);
}

int dup2(int oldfd, int newfd) {
  if (!get_fd(oldfd) || newfd < 0 || newfd >= TK_MAX_FDS) RET(-EBADF);
  if (oldfd == newfd) return newfd;
  return dup3(oldfd, newfd, 0);
}

int fcntl(int fd, int cmd, ...) {
  tk_fd *f = get_fd(fd);
  long arg = 0;
  va_list ap;
  va_start(ap, cmd);
  if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_SETFD || cmd == F_SETFL || cmd == F_GETLK || cmd == F_SETLK || cmd == F_SETLKW)
    arg = va_arg(ap, long);
  va_end(ap);
  if (!f) RET(-EBADF);
  switch (cmd) {
  case F_DUPFD:
  case F_DUPFD_CLOEXEC: {
    int n;
    if (arg < 0 || arg >= TK_MAX_FDS) RET(-EINVAL);
    n = alloc_fd((int)arg);
    RET(n);
    return dup_to(fd, n, cmd == F_DUPFD_CLOEXEC);
  }
  case F_GETFD:
    return (f->flags & TK_F_CLOEXEC) ? FD_CLOEXEC : 0;
  case F_SETFD:
    if (arg & FD_CLOEXEC) f->flags |= TK_F_CLOEXEC;
    else f->flags &= ~(unsigned)TK_F_CLOEXEC;
    return 0;
  case F_GETFL:
    return f->status_flags;
  case F_SETFL: {
    int changeable = O_APPEND | O_NONBLOCK | O_ASYNC | O_DIRECT | O_NOATIME;
    f->status_flags = (f->status_flags & ~changeable) | ((int)arg & changeable);
    if (arg & O_APPEND) f->flags |= TK_F_APPEND;
    else f->flags &= ~(unsigned)TK_F_APPEND;
    return 0;
  }
  case F_GETLK:
    /* one process: no other lock can conflict, so the lock could be placed (l_type says so) */
    if (!arg) RET(-EFAULT);
    ((struct flock *)arg)->l_type = F_UNLCK;
    return 0;
  case F_SETLK:
  case F_SETLKW:
    return 0; /* one process: locks always succeed */
  default:
    RET(-EINVAL);
  }
  return -1;
}
int fcntl64(int fd, int cmd, ...) {
  long arg;
  va_list ap;
  va_start(ap, cmd);
  arg = va_arg(ap, long);
  va_end(ap);
  return fcntl(fd, cmd, arg);
}

int ioctl(int fd, unsigned long request, ...) {
  tk_fd *f = get_fd(fd);
  va_list ap;
  void *arg;
  va_start(ap, request);
  arg = va_arg(ap, void *);
  va_end(ap);
  if (!f) RET(-EBADF);
  if (request == FIONREAD) {
    int avail = 0;
    if (fd_kind(f) == TK_REG && TK_OFF(f) < f->file->size) avail = (int)(f->file->size - TK_OFF(f));
    *(int *)arg = avail;
    return 0;
  }
  if (request == FIONBIO || request == FIOCLEX || request == FIONCLEX) {
    if (request == FIOCLEX) f->flags |= TK_F_CLOEXEC;
    if (request == FIONCLEX) f->flags &= ~(unsigned)TK_F_CLOEXEC;
    return 0;
  }
  if (request == TCGETS || request == TIOCGWINSZ) {
    /* as KLEE: a symbolic file (--sym-stdin, --sym-stdout, --sym-files) is a terminal when its
     * symbolic st_mode says character device (this forks); the console and model files never */
    if (!is_terminal(f)) RET(-ENOTTY);
    if (!arg) RET(-EFAULT);
    if (request == TIOCGWINSZ) {
      struct winsize *ws = arg;
      klee_warning_once("(TIOCGWINSZ) ioctl on a symbolic file: a 24x80 terminal");
      ws->ws_row = 24;
      ws->ws_col = 80;
      ws->ws_xpixel = 0;
      ws->ws_ypixel = 0;
    } else {
      klee_warning_once("(TCGETS) ioctl on a symbolic file: default terminal settings");
      __tsklee_memset(arg, 0, sizeof(struct termios));
      ((struct termios *)arg)->c_iflag = ICRNL | IXON;
      ((struct termios *)arg)->c_oflag = OPOST | ONLCR;
      ((struct termios *)arg)->c_cflag = B38400 | CS8 | CREAD;
      ((struct termios *)arg)->c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | IEXTEN;
    }
    return 0;
  }
  /* other terminal requests: no descriptor is a terminal the model can drive */
  RET(-ENOTTY);
  return -1;
}

int isatty(int fd) {
  tk_fd *f = get_fd(fd);
  if (!f) {
    errno = EBADF;
    return 0;
  }
  if (is_terminal(f)) return 1;
  errno = ENOTTY;
  return 0;
}

int tcgetattr(int fd, struct termios *t) {
  return ioctl(fd, TCGETS, t);
}

int tcsetattr(int fd, int act, const struct termios *t) {
  if (!get_fd(fd)) RET(-EBADF);
  RET(-ENOTTY);
  return -1;
}

int pipe2(int fds[2], int flags) {
  RET(-ENFILE); /* no pipes in the model */
  return -1;
}
int pipe(int fds[2]) { return pipe2(fds, 0); }

ssize_t __pread_chk(int fd, void *buf, size_t count, off_t off, size_t buflen) {
  if (count > buflen) klee_report_error(__FILE__, __LINE__, "buffer overflow detected in pread", "user.err");
  return pread(fd, buf, count, off);
}
ssize_t __pread64_chk(int fd, void *buf, size_t count, off64_t off, size_t buflen) {
  return __pread_chk(fd, buf, count, off, buflen);
}
