/*
 * tsklee POSIX environment model — private header of runtime/posix.
 *
 * The model keeps, per execution state (it is ordinary program memory, so every fork gets
 * its own copy), a small in-memory file system (nodes: directories, regular files backed by
 * symbolic or concrete bytes, /dev/null) and a table of file descriptors over it. The
 * analysed program never touches the host file system (DESIGN decision 8).
 *
 * Externals expected from elsewhere:
 *   klee_make_symbolic, klee_range, klee_assume, klee_prefer_cex, klee_posix_prefer_cex,
 *   klee_is_symbolic, klee_mark_global, klee_report_error, klee_warning_once  — the engine
 *   malloc, free                                                            — the engine
 *   __tsklee_write_console(fd, buf, count)                                  — the engine
 *   __user_main(argc, argv, envp)      — the program's main, renamed by the engine
 */
#ifndef TSKLEE_POSIX_INTERNAL_H
#define TSKLEE_POSIX_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#ifndef _LARGEFILE64_SOURCE
#define _LARGEFILE64_SOURCE 1
#endif

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/stat.h>

#define TK_MAX_FDS 32
#define TK_MAX_NODES 64
/* Linux's PATH_MAX and NAME_MAX: a longer path or file name fails with ENAMETOOLONG */
#define TK_PATH_MAX 4096
#define TK_NAME_MAX 255

/* Fixed identity of the modelled process and of its files. */
#define TK_UID 1000
#define TK_GID 1000
#define TK_PID 42
#define TK_PPID 1
#define TK_DEV 2049
#define TK_TIME 1700000000L /* 2023-11-14T22:13:20Z: the clocks start here */
#define TK_CWD "/tmp"

/* Character devices: TK_DEVNULL and every kind after it (TK_IS_DEVICE). */
enum tk_kind { TK_NONE = 0, TK_DIR, TK_REG, TK_LNK, TK_DEVNULL, TK_DEVZERO, TK_DEVRANDOM, TK_DEVTTY };
#define TK_IS_DEVICE(k) ((k) >= TK_DEVNULL)

/* A file's contents. Symbolic files have a fixed size; concrete ones (created by the program)
 * grow. */
typedef struct tk_file {
  unsigned size;     /* bytes in use */
  unsigned cap;      /* bytes allocated */
  char *contents;
  struct stat *st;   /* stat data (symbolic for symbolic files) */
  int symbolic;      /* 1: --sym-files/--sym-stdin/--sym-stdout data (fixed size) */
} tk_file;

typedef struct tk_node {
  enum tk_kind kind;
  char path[TK_PATH_MAX]; /* absolute, normalised ("/", "/tmp", "/tmp/A") */
  tk_file *file;          /* TK_REG, TK_DIR (stat only), TK_DEVNULL; TK_LNK: the target (no NUL) */
} tk_node;

enum { TK_F_OPEN = 1, TK_F_CLOEXEC = 2, TK_F_READ = 4, TK_F_WRITE = 8, TK_F_APPEND = 16, TK_F_CONSOLE = 32 };

typedef struct tk_fd {
  unsigned flags;     /* TK_F_* */
  int status_flags;   /* O_NONBLOCK etc. as given to open (for F_GETFL) */
  int ofd;            /* index into tk_env.offsets: dup'ed descriptors share their offset */
  tk_file *file;      /* NULL for a console fd (0/1/2 not backed by a symbolic file) */
  int node;           /* index into the node table, -1 for console fds */
  int console;        /* for console fds: which stream (0, 1, 2) */
} tk_fd;

/* The offset of an open file description, shared by the descriptors dup'ed from it. */
typedef struct tk_offset {
  long long off;
  int refs;
} tk_offset;

#define TK_OFF(f) (__tsklee_env.offsets[(f)->ofd].off)

typedef struct tk_env {
  tk_fd fds[TK_MAX_FDS];
  tk_offset offsets[TK_MAX_FDS];
  tk_node nodes[TK_MAX_NODES];
  int cwd;            /* node index of the working directory */
  mode_t umask;
  unsigned n_sym_files;
  tk_file *sym_files; /* A, B, … */
  tk_file *sym_stdin, *sym_stdout;
  unsigned stdout_writes;
  unsigned max_failures;
  int *read_fail, *write_fail, *close_fail, *ftruncate_fail, *getcwd_fail;
  int save_all_writes;
  unsigned version;
  int initialised;
  long long clock_ns;  /* the model's clock: advances 1 ms per query */
  unsigned long long random_state; /* /dev/urandom's generator: fixed seed, so every run reads the same bytes */
  unsigned n_links;    /* symbolic links ever made: lookups follow links only when there are some */
} tk_env;

extern tk_env __tsklee_env;

/* env.c */
void klee_init_env(int *argcp, char ***argvp);
void klee_init_fds(unsigned n_files, unsigned file_length, unsigned stdin_length, int sym_stdout_flag,
                   int save_all_writes_flag, unsigned max_failures);
void __tsklee_posix_setup(void);

/* fs.c */
int __tsklee_resolve(int dirfd, const char *path, char *out); /* 0 or -errno */
int __tsklee_lookup(int dirfd, const char *path);              /* node index or -errno */
int __tsklee_lookup_nofollow(int dirfd, const char *path);     /* the same; a final symbolic link is not followed */
int __tsklee_creat_dir_error(int dirfd, const char *path);     /* open(O_CREAT) of "name/": -EISDIR (or the walk's error); 0 otherwise */
int __tsklee_symlink(const char *target, int dirfd, const char *path); /* 0 or -errno */
int __tsklee_node_add(const char *abspath, enum tk_kind kind, tk_file *file);
tk_file *__tsklee_new_file(unsigned cap, mode_t mode);
void __tsklee_fill_stat(struct stat *st, mode_t mode, unsigned size);
int __tsklee_fail(int *which, int n, int err); /* --max-fail injection */
int __tsklee_streq(const char *a, const char *b);
size_t __tsklee_strlen(const char *s);
void __tsklee_memcpy(void *d, const void *s, size_t n);
void __tsklee_memset(void *d, int c, size_t n);

/* The console the engine records. */
extern void __tsklee_write_console(int fd, const void *buf, size_t count);

#endif
