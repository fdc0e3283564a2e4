/*
 * The modelled file system: nodes, path resolution, directories, the working directory,
 * stat/access, and the --max-fail failure injection.
 *
 * Layout: "/" , "/dev", "/dev/null", "/tmp" (the working directory), and the symbolic files
 * "/tmp/A", "/tmp/B", … Files the program creates (open with O_CREAT, mkdir) are concrete and
 * live in the model only. Any other host path does not exist (ENOENT).
 */
#include "internal.h"
#include <klee/klee.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

tk_env __tsklee_env = {
    .fds = {{TK_F_OPEN | TK_F_READ | TK_F_CONSOLE, O_RDONLY, 0, 0, -1, 0},
            {TK_F_OPEN | TK_F_WRITE | TK_F_CONSOLE, O_WRONLY, 1, 0, -1, 1},
            {TK_F_OPEN | TK_F_WRITE | TK_F_CONSOLE, O_WRONLY, 2, 0, -1, 2}},
    .offsets = {{0, 1}, {0, 1}, {0, 1}},
    .umask = 022,
};

/* ---- small helpers (no dependency on the libc) ---------------------------------------- */

int __tsklee_streq(const char *a, const char *b) {
  while (*a == *b) {
    if (!*a) return 1;
    a++;
    b++;
  }
  return 0;
}
size_t __tsklee_strlen(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}
void __tsklee_memcpy(void *d, const void *s, size_t n) {
  char *dd = d;
  const char *ss = s;
  while (n--) *dd++ = *ss++;
}
void __tsklee_memset(void *d, int c, size_t n) {
  char *dd = d;
  while (n--) *dd++ = (char)c;
}

static unsigned long next_ino = 2;

void __tsklee_fill_stat(struct stat *st, mode_t mode, unsigned size) {
  __tsklee_memset(st, 0, sizeof *st);
  st->st_dev = TK_DEV;
  st->st_ino = next_ino++;
  st->st_mode = mode;
  st->st_nlink = S_ISDIR(mode) ? 2 : 1;
  st->st_uid = TK_UID;
  st->st_gid = TK_GID;
  st->st_size = size;
  st->st_blksize = 4096;
  st->st_blocks = (size + 511) / 512;
  st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = TK_TIME;
}

tk_file *__tsklee_new_file(unsigned cap, mode_t mode) {
  tk_file *f = malloc(sizeof(tk_file));
  if (!f) return 0;
  f->size = 0;
  f->cap = cap;
  f->contents = cap ? malloc(cap) : 0;
  f->symbolic = 0;
  f->st = malloc(sizeof(struct stat));
  if (!f->st) return 0;
  __tsklee_fill_stat(f->st, mode, S_ISDIR(mode) ? 4096 : 0);
  return f;
}

int __tsklee_node_add(const char *abspath, enum tk_kind kind, tk_file *file) {
  tk_env *e = &__tsklee_env;
  int i;
  size_t n = __tsklee_strlen(abspath);
  if (n >= TK_PATH_MAX) return -ENAMETOOLONG;
  for (i = 0; i < TK_MAX_NODES; i++)
    if (e->nodes[i].kind == TK_NONE) {
      e->nodes[i].kind = kind;
      __tsklee_memcpy(e->nodes[i].path, abspath, n + 1);
      e->nodes[i].file = file;
      return i;
    }
  return -ENOSPC;
}

/* A character device node, mode 0666 (Linux's major/minor numbers in st_rdev). */
static void add_device(const char *path, enum tk_kind kind, unsigned major, unsigned minor) {
  tk_file *f = __tsklee_new_file(0, S_IFCHR | 0666);
  f->st->st_rdev = (major << 8) | minor; /* makedev(major, minor) for small numbers */
  f->st->st_uid = f->st->st_gid = 0;
  __tsklee_node_add(path, kind, f);
}

/* A directory of the system, owned by root: the user's chmod and chown of it fail with EPERM.
 * "/" is world-writable and sticky (01777), as the native replay's sandbox root is (the
 * model lets anyone create files there): `install -d //` then wants mode 0755, and fails. */
static void add_system_dir(const char *path, mode_t mode) {
  tk_file *f = __tsklee_new_file(0, S_IFDIR | mode);
  f->st->st_uid = f->st->st_gid = 0;
  __tsklee_node_add(path, TK_DIR, f);
}

void __tsklee_posix_setup(void) {
  tk_env *e = &__tsklee_env;
  if (e->initialised) return;
  e->initialised = 1;
  add_system_dir("/", 01777);
  add_system_dir("/dev", 0755);
  add_device("/dev/null", TK_DEVNULL, 1, 3);
  add_device("/dev/zero", TK_DEVZERO, 1, 5);
  add_device("/dev/random", TK_DEVRANDOM, 1, 8);
  add_device("/dev/urandom", TK_DEVRANDOM, 1, 9);
  add_device("/dev/tty", TK_DEVTTY, 5, 0);
  e->random_state = 0x9E3779B97F4A7C15ULL;
  e->cwd = __tsklee_node_add(TK_CWD, TK_DIR, __tsklee_new_file(0, S_IFDIR | 01777));
  e->clock_ns = (long long)TK_TIME * 1000000000LL;
}

/* ---- --max-fail ------------------------------------------------------------------------ */

/* KLEE's scheme: the symbolic int *which is the number (1, 2, …) of the call of this kind
 * that fails; n is this call's number (callers count every call, from their entry, as KLEE
 * does). Returns 1 (errno set) when this call fails. */
int __tsklee_fail(int *which, int n, int err) {
  tk_env *e = &__tsklee_env;
  if (!e->max_failures || !which) return 0;
  if (*which == n) {
    e->max_failures--;
    errno = err;
    return 1;
  }
  return 0;
}

/* ---- paths ----------------------------------------------------------------------------- */

/* Copies a path into buf (TK_PATH_MAX bytes), fixing every symbolic byte to one value it may
 * take on this path (klee_get_valuel + klee_assume), as KLEE's POSIX runtime does for names
 * that are not symbolic files: no fork per character. */
static int concretize_path(const char *path, char *buf) {
  size_t i;
  for (i = 0; i < TK_PATH_MAX; i++) {
    char c = path[i];
    if (klee_is_symbolic((uintptr_t)(unsigned char)c)) {
      char v = (char)klee_get_valuel((long)c);
      klee_assume(c == v);
      c = v;
    }
    buf[i] = c;
    if (!c) return 0;
  }
  return -ENAMETOOLONG;
}

/* Whether a concrete path's last component must be a directory: it ends in '/', or its last
 * component is "." or ".." (Linux: "file/" is ENOTDIR, open("new/", O_CREAT) EISDIR). */
static int names_dir(const char *path) {
  size_t n = __tsklee_strlen(path);
  if (n == 0) return 0;
  if (path[n - 1] == '/') return 1;
  if (path[n - 1] != '.') return 0;
  if (n == 1 || path[n - 2] == '/') return 1;
  return path[n - 2] == '.' && (n == 2 || path[n - 3] == '/');
}

static int resolve(int dirfd, const char *spath, char *out, int *must_dir);
/* Absolute, normalised path of path relative to dirfd (AT_FDCWD or a directory fd). */
int __tsklee_resolve(int dirfd, const char *spath, char *out) { return resolve(dirfd, spath, out, 0); }

/* The same; *must_dir (when given) says whether the path named a directory (names_dir). */
static int resolve(int dirfd, const char *spath, char *out, int *must_dir) {
  tk_env *e = &__tsklee_env;
  size_t o = 0, i = 0;
  char path[TK_PATH_MAX];
  int r;
  __tsklee_posix_setup();
  if (!spath) return -EFAULT;
  r = concretize_path(spath, path);
  if (r < 0) return r;
  if (!path[0]) return -ENOENT;
  if (must_dir) *must_dir = names_dir(path);
  if (path[0] != '/') {
    const char *base;
    size_t n;
    if (dirfd == AT_FDCWD) base = e->nodes[e->cwd].path;
    else {
      if (dirfd < 0 || dirfd >= TK_MAX_FDS || !(e->fds[dirfd].flags & TK_F_OPEN)) return -EBADF;
      if (e->fds[dirfd].node < 0 || e->nodes[e->fds[dirfd].node].kind != TK_DIR) return -ENOTDIR;
      base = e->nodes[e->fds[dirfd].node].path;
    }
    n = __tsklee_strlen(base);
    __tsklee_memcpy(out, base, n);
    o = n;
    if (o == 1) o = 0; /* "/" */
  }
  while (path[i]) {
    size_t s, len;
    while (path[i] == '/') i++;
    if (!path[i]) break;
    s = i;
    while (path[i] && path[i] != '/') i++;
    len = i - s;
    if (len > TK_NAME_MAX) return -ENAMETOOLONG;
    if (len == 1 && path[s] == '.') continue;
    if (len == 2 && path[s] == '.' && path[s + 1] == '.') {
      while (o > 0 && out[o - 1] != '/') o--;
      if (o > 0) o--;
      continue;
    }
    if (o + 1 + len >= TK_PATH_MAX) return -ENAMETOOLONG;
    out[o++] = '/';
    __tsklee_memcpy(out + o, path + s, len);
    o += len;
  }
  if (o == 0) out[o++] = '/';
  out[o] = 0;
  return 0;
}

static int find_node(const char *abspath) {
  tk_env *e = &__tsklee_env;
  int i;
  for (i = 0; i < TK_MAX_NODES; i++)
    if (e->nodes[i].kind != TK_NONE && __tsklee_streq(e->nodes[i].path, abspath)) return i;
  return -1;
}

/* Length of the parent part of an absolute path ("/tmp/A" -> 4, "/A" -> 1). */
static size_t parent_len(const char *abspath) {
  size_t n = __tsklee_strlen(abspath);
  while (n > 0 && abspath[n - 1] != '/') n--;
  return n > 1 ? n - 1 : 1;
}

/* -ENOENT, or -ENOTDIR when an ancestor is not a directory. */
static int missing(const char *abspath) {
  char p[TK_PATH_MAX];
  size_t n = parent_len(abspath);
  int idx;
  if (__tsklee_streq(abspath, "/")) return -ENOENT;
  __tsklee_memcpy(p, abspath, n);
  p[n] = 0;
  idx = find_node(p);
  if (idx >= 0) return __tsklee_env.nodes[idx].kind == TK_DIR ? -ENOENT : -ENOTDIR;
  return missing(p) == -ENOTDIR ? -ENOTDIR : -ENOENT;
}

/* 0 when the parent of an absolute path is a directory, else the error a creation there gets. */
static int parent_dir_error(const char *abspath) {
  char par[TK_PATH_MAX];
  size_t n = parent_len(abspath);
  int pi;
  __tsklee_memcpy(par, abspath, n);
  par[n] = 0;
  pi = find_node(par);
  if (pi < 0) return missing(par);
  return __tsklee_env.nodes[pi].kind == TK_DIR ? 0 : -ENOTDIR;
}

/* Symbolic links are followed at most this many times in one lookup (Linux: 40), then ELOOP. */
#define TK_MAX_HOPS 40

/*
 * Follows the symbolic links in abs (absolute, normalised; rewritten in place): in every
 * component, and in the last one when follow_last. A component that does not exist ends the
 * walk (the caller's lookup then fails with ENOENT or ENOTDIR). 0 or -ELOOP/-ENAMETOOLONG.
 */
static int follow_links(char *abs, int follow_last) {
  tk_env *e = &__tsklee_env;
  int hops = 0;
  size_t i = 1;
  if (!e->n_links) return 0;
  while (abs[i - 1] && abs[i]) {
    char tmp[TK_PATH_MAX], save;
    size_t j = i, o, k;
    int idx;
    tk_file *f;
    while (abs[j] && abs[j] != '/') j++;
    save = abs[j];
    abs[j] = 0;
    idx = find_node(abs);
    abs[j] = save;
    if (idx < 0) return 0;
    if (e->nodes[idx].kind != TK_LNK || (!save && !follow_last)) {
      i = j + 1;
      continue;
    }
    if (++hops > TK_MAX_HOPS) return -ELOOP;
    /* the target, relative to the link's directory, then the rest of the path */
    f = e->nodes[idx].file;
    o = 0;
    if (f->contents[0] != '/') {
      __tsklee_memcpy(tmp, abs, i);
      o = i;
    }
    if (o + f->size + __tsklee_strlen(abs + j) + 1 >= TK_PATH_MAX) return -ENAMETOOLONG;
    __tsklee_memcpy(tmp + o, f->contents, f->size);
    o += f->size;
    for (k = j; abs[k]; k++) tmp[o++] = abs[k];
    tmp[o] = 0;
    {
      int r = __tsklee_resolve(AT_FDCWD, tmp, abs);
      if (r < 0) return r;
    }
    i = 1;
  }
  return 0;
}

static int lookup(int dirfd, const char *path, int follow_last);
int __tsklee_lookup(int dirfd, const char *path) { return lookup(dirfd, path, 1); }
int __tsklee_lookup_nofollow(int dirfd, const char *path) { return lookup(dirfd, path, 0); }

/* 0 when path does not name a directory by its form (names_dir); else what open(O_CREAT) gets
 * for it: -EISDIR where the walk reaches the last component, the walk's error before that. */
int __tsklee_creat_dir_error(int dirfd, const char *path) {
  char abs[TK_PATH_MAX];
  int must_dir = 0, r = resolve(dirfd, path, abs, &must_dir);
  if (r < 0 || !must_dir) return 0; /* the lookup reports the resolution's error */
  r = follow_links(abs, 1);
  if (r < 0) return r;
  if (find_node(abs) >= 0) return -EISDIR;
  r = parent_dir_error(abs);
  return r < 0 ? r : -EISDIR;
}

static int lookup(int dirfd, const char *path, int follow_last) {
  tk_env *e = &__tsklee_env;
  char abs[TK_PATH_MAX];
  int r, idx, must_dir = 0;
  __tsklee_posix_setup();
  if (!path) return -EFAULT;
  /* KLEE's fast path: a one-character name in the working directory is one of the symbolic
   * files (this forks once per file on a symbolic name, not once per path character). */
  if (dirfd == AT_FDCWD && path[0] != 0 && path[1] == 0) {
    unsigned i;
    char c = path[0];
    for (i = 0; i < e->n_sym_files; i++)
      if (c == (char)('A' + i)) {
        char p[3] = {'/', (char)('A' + i), 0};
        size_t n = __tsklee_strlen(e->nodes[e->cwd].path);
        __tsklee_memcpy(abs, e->nodes[e->cwd].path, n);
        __tsklee_memcpy(abs + (n == 1 ? 0 : n), p, 3);
        idx = find_node(abs);
        if (idx < 0) return -ENOENT;
        if (e->nodes[idx].kind != TK_LNK) return idx;
        break; /* the program replaced the file with a link: the general path follows it */
      }
  }
  r = resolve(dirfd, path, abs, &must_dir);
  if (r < 0) return r;
  /* "link/" names the link's target, as "link/." would */
  r = follow_links(abs, follow_last || must_dir);
  if (r < 0) return r;
  idx = find_node(abs);
  if (idx >= 0 && must_dir && e->nodes[idx].kind != TK_DIR) return -ENOTDIR;
  return idx >= 0 ? idx : missing(abs);
}

/* Creates a node at path (which must not exist); the parent must be a directory. */
static int create_node(int dirfd, const char *path, enum tk_kind kind, mode_t mode) {
  tk_env *e = &__tsklee_env;
  char abs[TK_PATH_MAX];
  int r = __tsklee_resolve(dirfd, path, abs);
  tk_file *f;
  if (r < 0) return r;
  /* open(O_CREAT) through a dangling link creates its target; mkdir, mknod, symlink do not */
  r = follow_links(abs, kind == TK_REG);
  if (r < 0) return r;
  if (find_node(abs) >= 0) return -EEXIST;
  r = parent_dir_error(abs);
  if (r < 0) return r;
  if (kind == TK_LNK) f = __tsklee_new_file(mode, S_IFLNK | 0777); /* mode: the target's length */
  else f = __tsklee_new_file(kind == TK_REG ? 64 : 0, (kind == TK_DIR ? S_IFDIR : S_IFREG) | (mode & 07777 & ~e->umask));
  if (!f) return -ENOMEM;
  return __tsklee_node_add(abs, kind, f);
}

int __tsklee_create(int dirfd, const char *path, mode_t mode) { return create_node(dirfd, path, TK_REG, mode); }

int __tsklee_symlink(const char *target, int dirfd, const char *path) {
  tk_env *e = &__tsklee_env;
  char t[TK_PATH_MAX];
  size_t n;
  int idx;
  __tsklee_posix_setup();
  if (!target) return -EFAULT;
  idx = concretize_path(target, t);
  if (idx < 0) return idx;
  n = __tsklee_strlen(t);
  if (n == 0) return -ENOENT;
  idx = create_node(dirfd, path, TK_LNK, (mode_t)n);
  if (idx < 0) return idx;
  __tsklee_memcpy(e->nodes[idx].file->contents, t, n);
  e->nodes[idx].file->size = (unsigned)n;
  e->nodes[idx].file->st->st_size = (off_t)n;
  e->n_links++;
  return 0;
}

/* A second name for node src (a hard link): the same file, one more link. */
int __tsklee_link_node(int src, int dirfd, const char *path) {
  tk_env *e = &__tsklee_env;
  char abs[TK_PATH_MAX];
  int r = __tsklee_resolve(dirfd, path, abs);
  if (r < 0) return r;
  if (e->nodes[src].kind == TK_DIR) return -EPERM; /* as Linux: no hard links to directories */
  if (find_node(abs) >= 0) return -EEXIST;
  r = parent_dir_error(abs);
  if (r < 0) return r;
  r = __tsklee_node_add(abs, e->nodes[src].kind, e->nodes[src].file);
  if (r >= 0 && e->nodes[src].file && e->nodes[src].file->st) e->nodes[src].file->st->st_nlink++;
  return r;
}

static int has_children(int idx) {
  tk_env *e = &__tsklee_env;
  const char *p = e->nodes[idx].path;
  size_t n = __tsklee_strlen(p);
  int i;
  for (i = 0; i < TK_MAX_NODES; i++) {
    const char *q = e->nodes[i].path;
    size_t j;
    if (i == idx || e->nodes[i].kind == TK_NONE) continue;
    for (j = 0; j < n && q[j] == p[j]; j++) {}
    if (j == n && (n == 1 || q[n] == '/')) return 1;
  }
  return 0;
}

#define RET(r)            \
  do {                    \
    int r_ = (r);         \
    if (r_ < 0) {         \
      errno = -r_;        \
      return -1;          \
    }                     \
  } while (0)

/* ---- stat ------------------------------------------------------------------------------ */

int __tsklee_stat_node(int idx, struct stat *buf) {
  tk_file *f = __tsklee_env.nodes[idx].file;
  __tsklee_memcpy(buf, f->st, sizeof *buf);
  if (!f->symbolic && (__tsklee_env.nodes[idx].kind == TK_REG || __tsklee_env.nodes[idx].kind == TK_LNK)) {
    buf->st_size = f->size;
    buf->st_blocks = (f->size + 511) / 512;
  }
  return 0;
}

int fstatat(int dirfd, const char *path, struct stat *buf, int flags) {
  int idx;
  if ((flags & AT_EMPTY_PATH) && path && !path[0]) return fstat(dirfd, buf);
  idx = (flags & AT_SYMLINK_NOFOLLOW) ? __tsklee_lookup_nofollow(dirfd, path) : __tsklee_lookup(dirfd, path);
  RET(idx);
  return __tsklee_stat_node(idx, buf);
}
int stat(const char *path, struct stat *buf) { return fstatat(AT_FDCWD, path, buf, 0); }
int lstat(const char *path, struct stat *buf) { return fstatat(AT_FDCWD, path, buf, AT_SYMLINK_NOFOLLOW); }
/* struct stat64 has the layout of struct stat on x86-64 */
int stat64(const char *path, struct stat64 *buf) { return stat(path, (struct stat *)buf); }
int lstat64(const char *path, struct stat64 *buf) { return lstat(path, (struct stat *)buf); }
int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags) {
  return fstatat(dirfd, path, (struct stat *)buf, flags);
}
/* pre-2.33 glibc header wrappers */
int __xstat(int ver, const char *path, struct stat *buf) { return stat(path, buf); }
int __lxstat(int ver, const char *path, struct stat *buf) { return lstat(path, buf); }
int __fxstat(int ver, int fd, struct stat *buf) { return fstat(fd, buf); }
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags) {
  return fstatat(dirfd, path, buf, flags);
}
int __xstat64(int ver, const char *path, struct stat64 *buf) { return stat64(path, buf); }
int __lxstat64(int ver, const char *path, struct stat64 *buf) { return lstat64(path, buf); }
int __fxstat64(int ver, int fd, struct stat64 *buf) { return fstat64(fd, buf); }
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags) {
  return fstatat64(dirfd, path, buf, flags);
}

/* access: existence, and the permission bits of any class (the process may be anyone). */
int faccessat(int dirfd, const char *path, int mode, int flags) {
  struct stat st;
  int idx = __tsklee_lookup(dirfd, path);
  RET(idx);
  if (mode == F_OK) return 0;
  __tsklee_stat_node(idx, &st);
  /* R_OK is never refused, as open never refuses a read (KLEE's model does neither; a symbolic
     mode without read bits would otherwise make access and open disagree) */
  if ((mode & W_OK) && !(st.st_mode & 0222)) RET(-EACCES);
  if ((mode & X_OK) && !(st.st_mode & 0111)) RET(-EACCES);
  return 0;
}
int access(const char *path, int mode) { return faccessat(AT_FDCWD, path, mode, 0); }
int euidaccess(const char *path, int mode) { return faccessat(AT_FDCWD, path, mode, AT_EACCESS); }
int eaccess(const char *path, int mode) { return faccessat(AT_FDCWD, path, mode, AT_EACCESS); }

/* ---- directories and names ------------------------------------------------------------- */

static int getcwd_calls;

char *getcwd(char *buf, size_t size) {
  tk_env *e = &__tsklee_env;
  const char *p;
  size_t n;
  __tsklee_posix_setup();
  if (__tsklee_fail(e->getcwd_fail, ++getcwd_calls, ERANGE)) return 0;
  p = e->nodes[e->cwd].path;
  n = __tsklee_strlen(p);
  if (!buf) {
    size_t want = size > n ? size : n + 1;
    buf = malloc(want);
    if (!buf) {
      errno = ENOMEM;
      return 0;
    }
    size = want;
  }
  if (size == 0) {
    errno = EINVAL;
    return 0;
  }
  if (n + 1 > size) {
    errno = ERANGE;
    return 0;
  }
  __tsklee_memcpy(buf, p, n + 1);
  return buf;
}

char *get_current_dir_name(void) { return getcwd(0, 0); }

int chdir(const char *path) {
  int idx = __tsklee_lookup(AT_FDCWD, path);
  RET(idx);
  if (__tsklee_env.nodes[idx].kind != TK_DIR) RET(-ENOTDIR);
  __tsklee_env.cwd = idx;
  return 0;
}

int fchdir(int fd) {
  tk_env *e = &__tsklee_env;
  if (fd < 0 || fd >= TK_MAX_FDS || !(e->fds[fd].flags & TK_F_OPEN)) RET(-EBADF);
  if (e->fds[fd].node < 0 || e->nodes[e->fds[fd].node].kind != TK_DIR) RET(-ENOTDIR);
  e->cwd = e->fds[fd].node;
  return 0;
}

int mkdirat(int dirfd, const char *path, mode_t mode) {
  int r = create_node(dirfd, path, TK_DIR, mode);
  RET(r);
  return 0;
}
int mkdir(const char *path, mode_t mode) { return mkdirat(AT_FDCWD, path, mode); }

static int node_in_use(int idx) {
  tk_env *e = &__tsklee_env;
  return idx == e->cwd;
}

int unlinkat(int dirfd, const char *path, int flags) {
  tk_env *e = &__tsklee_env;
  int idx = __tsklee_lookup_nofollow(dirfd, path);
  RET(idx);
  if (flags & AT_REMOVEDIR) {
    if (e->nodes[idx].kind != TK_DIR) RET(-ENOTDIR);
    if (__tsklee_streq(e->nodes[idx].path, "/") || node_in_use(idx)) RET(-EBUSY);
    if (has_children(idx)) RET(-ENOTEMPTY);
  } else if (e->nodes[idx].kind == TK_DIR)
    RET(-EISDIR);
  else if (TK_IS_DEVICE(e->nodes[idx].kind))
    RET(-EACCES);
  /* open descriptors keep the file (they point at it, not at the node) */
  e->nodes[idx].kind = TK_NONE;
  e->nodes[idx].path[0] = 0;
  return 0;
}
int unlink(const char *path) { return unlinkat(AT_FDCWD, path, 0); }
int rmdir(const char *path) { return unlinkat(AT_FDCWD, path, AT_REMOVEDIR); }

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size) {
  int idx = __tsklee_lookup_nofollow(dirfd, path);
  tk_file *f;
  RET(idx);
  if (__tsklee_env.nodes[idx].kind != TK_LNK || size == 0) RET(-EINVAL);
  f = __tsklee_env.nodes[idx].file;
  if (size > f->size) size = f->size;
  __tsklee_memcpy(buf, f->contents, size);
  return (ssize_t)size;
}
ssize_t readlink(const char *path, char *buf, size_t size) { return readlinkat(AT_FDCWD, path, buf, size); }

mode_t umask(mode_t mask) {
  mode_t old = __tsklee_env.umask;
  __tsklee_env.umask = mask & 0777;
  return old;
}

int fchmodat(int dirfd, const char *path, mode_t mode, int flags) {
  tk_file *f;
  int idx = (flags & AT_SYMLINK_NOFOLLOW) ? __tsklee_lookup_nofollow(dirfd, path) : __tsklee_lookup(dirfd, path);
  RET(idx);
  if (__tsklee_env.nodes[idx].kind == TK_LNK) RET(-EOPNOTSUPP); /* Linux: a link's mode is fixed */
  f = __tsklee_env.nodes[idx].file;
  if (f->st->st_uid != TK_UID) RET(-EPERM); /* only the owner changes a mode */
  f->st->st_mode = (f->st->st_mode & S_IFMT) | (mode & 07777);
  return 0;
}
int chmod(const char *path, mode_t mode) { return fchmodat(AT_FDCWD, path, mode, 0); }

/* ---- opendir/readdir ------------------------------------------------------------------- */

struct __dirstream {
  int fd;
  int pos; /* 0: ".", 1: "..", then node indices from pos - 2 */
  struct dirent ent;
};

DIR *fdopendir(int fd) {
  tk_env *e = &__tsklee_env;
  DIR *d;
  if (fd < 0 || fd >= TK_MAX_FDS || !(e->fds[fd].flags & TK_F_OPEN)) {
    errno = EBADF;
    return 0;
  }
  if (e->fds[fd].node < 0 || e->nodes[e->fds[fd].node].kind != TK_DIR) {
    errno = ENOTDIR;
    return 0;
  }
  d = malloc(sizeof *d);
  if (!d) {
    errno = ENOMEM;
    return 0;
  }
  d->fd = fd;
  d->pos = 0;
  return d;
}

DIR *opendir(const char *path) {
  DIR *d;
  int fd = open(path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return 0;
  d = fdopendir(fd);
  if (!d) close(fd);
  return d;
}

struct dirent *readdir(DIR *d) {
  tk_env *e = &__tsklee_env;
  int dir = e->fds[d->fd].node;
  const char *p = e->nodes[dir].path;
  size_t n = __tsklee_strlen(p);
  for (;;) {
    const char *name = 0;
    unsigned char type = DT_UNKNOWN;
    unsigned long ino = 0;
    if (d->pos == 0) {
      name = ".";
      type = DT_DIR;
      ino = e->nodes[dir].file->st->st_ino;
    } else if (d->pos == 1) {
      name = "..";
      type = DT_DIR;
      ino = 1;
    } else {
      int i = d->pos - 2;
      const char *q;
      size_t j;
      if (i >= TK_MAX_NODES) return 0;
      q = e->nodes[i].path;
      if (e->nodes[i].kind != TK_NONE && i != dir) {
        for (j = 0; j < n && q[j] == p[j]; j++) {}
        if (j == n && (n == 1 ? q[0] == '/' : q[n] == '/')) {
          const char *rest = q + (n == 1 ? 1 : n + 1);
          size_t k;
          for (k = 0; rest[k] && rest[k] != '/'; k++) {}
          if (rest[k] == 0) {
            name = rest;
            type = e->nodes[i].kind == TK_DIR ? DT_DIR : e->nodes[i].kind == TK_LNK ? DT_LNK : TK_IS_DEVICE(e->nodes[i].kind) ? DT_CHR : DT_REG;
            ino = e->nodes[i].file->st->st_ino;
          }
        }
      }
    }
    d->pos++;
    if (name) {
      size_t len = __tsklee_strlen(name);
      d->ent.d_ino = ino;
      d->ent.d_off = d->pos;
      d->ent.d_reclen = sizeof d->ent;
      d->ent.d_type = type;
      __tsklee_memcpy(d->ent.d_name, name, len + 1);
      return &d->ent;
    }
  }
}
struct dirent64 *readdir64(DIR *d) { return (struct dirent64 *)readdir(d); }

int closedir(DIR *d) {
  int fd = d->fd;
  free(d);
  return close(fd);
}
void rewinddir(DIR *d) { d->pos = 0; }
int dirfd(DIR *d) { return d->fd; }

/* ---- _FORTIFY_SOURCE variants ---------------------------------------------------------- */

char *__getcwd_chk(char *buf, size_t size, size_t buflen) {
  if (size > buflen) klee_report_error(__FILE__, __LINE__, "buffer overflow detected in getcwd", "user.err");
  return getcwd(buf, size);
}
ssize_t __readlink_chk(const char *path, char *buf, size_t size, size_t buflen) {
  if (size > buflen) klee_report_error(__FILE__, __LINE__, "buffer overflow detected in readlink", "user.err");
  return readlink(path, buf, size);
}
ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t size, size_t buflen) {
  if (size > buflen) klee_report_error(__FILE__, __LINE__, "buffer overflow detected in readlinkat", "user.err");
  return readlinkat(dirfd, path, buf, size);
}
