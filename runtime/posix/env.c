/*
 * Environment setup: the --sym-arg/--sym-args/--sym-files/--sym-stdin/--sym-stdout/--max-fail
 * options of KLEE's POSIX runtime, parsed from the program's argv before main.
 *
 * ktest objects are created in KLEE's order and with KLEE's names and sizes:
 *   while parsing argv, left to right:
 *     --sym-arg N          "argNN"  (N+1 bytes; the last byte is then set to 0)
 *     --sym-args MIN MAX N "n_args" (4 bytes, klee_range(MIN, MAX+1)), then that many "argNN"
 *   then (klee_init_fds):
 *     "A_data" (SIZE), "A_data_stat" (sizeof(struct stat64) = 144), "B_data", … for --sym-files
 *     "stdin", "stdin_stat"                                     for --sym-stdin
 *     "read_fail" "write_fail" "close_fail" "ftruncate_fail" "getcwd_fail" (4 each) for --max-fail
 *     "stdout" (1024), "stdout_stat"                            for --sym-stdout
 *     "model_version" (4 bytes, assumed == 1)
 * argNN counts all symbolic arguments (arg00, arg01, …, at most 100).
 */
#include "internal.h"
#include <klee/klee.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

static void emit_error(const char *msg) {
  klee_report_error(__FILE__, __LINE__, msg, "user.err");
}

/* Decimal or 0x-hexadecimal; anything else is a user error. */
static long parse_int(const char *s, const char *msg) {
  long v = 0;
  int base = 10;
  if (!*s) emit_error(msg);
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s += 2;
    if (!*s) emit_error(msg);
  }
  for (; *s; s++) {
    int d;
    char c = *s;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else {
      emit_error(msg);
      return 0;
    }
    v = v * base + d;
  }
  return v;
}

static int is_opt(const char *arg, const char *name) {
  /* name without dashes; accepts "--name" and "-name" */
  if (arg[0] != '-') return 0;
  arg++;
  if (arg[0] == '-') arg++;
  return __tsklee_streq(arg, name);
}

static char *sym_string(unsigned max_len, const char *name) {
  unsigned i;
  char *s = malloc(max_len + 1);
  if (!s) emit_error("out of memory in klee_init_env");
  klee_mark_global(s);
  klee_make_symbolic(s, max_len + 1, name);
  for (i = 0; i < max_len; i++) klee_posix_prefer_cex(s, 32 <= s[i] && s[i] <= 126);
  s[max_len] = '\0';
  return s;
}

#define MAX_ARGS 1024

static void add_arg(int *argc, char **argv, char *arg) {
  if (*argc == MAX_ARGS) emit_error("too many arguments for klee_init_env");
  else argv[(*argc)++] = arg;
}

void klee_init_env(int *argcp, char ***argvp) {
  int argc = *argcp;
  char **argv = *argvp;
  char *new_argv[MAX_ARGS];
  int new_argc = 0;
  unsigned sym_files = 0, sym_file_len = 0, sym_stdin_len = 0, max_fail = 0;
  int sym_stdout = 0, save_all_writes = 0;
  unsigned sym_arg_num = 0;
  char name[6] = "arg";
  int k = 0;

  if (argc == 2 && __tsklee_streq(argv[1], "--help"))
    emit_error("klee_init_env\n\n"
               "usage: (klee_init_env) [options] [program arguments]\n"
               "  -sym-arg <N>              - Replace by a symbolic argument with length N\n"
               "  -sym-args <MIN> <MAX> <N> - Replace by at least MIN arguments and at most\n"
               "                              MAX arguments, each with maximum length N\n"
               "  -sym-files <NUM> <N>      - Make NUM symbolic files ('A', 'B', 'C', etc.),\n"
               "                              each with size N\n"
               "  -sym-stdin <N>            - Make stdin symbolic with size N.\n"
               "  -sym-stdout               - Make stdout symbolic.\n"
               "  -save-all-writes          - Allow write operations to execute as expected\n"
               "                              even if they exceed the file size.\n"
               "  -max-fail <N>             - Allow up to N injected failures\n"
               "  -fd-fail                  - Shortcut for '-max-fail 1'\n\n");

  while (k < argc) {
    const char *a = argv[k];
    if (k > 0 && is_opt(a, "sym-arg")) {
      const char *msg = "--sym-arg expects an integer argument <max-len>";
      unsigned len;
      if (++k == argc) emit_error(msg);
      len = (unsigned)parse_int(argv[k++], msg);
      if (sym_arg_num > 99) emit_error("No more than 100 symbolic arguments allowed.");
      name[3] = (char)('0' + sym_arg_num / 10);
      name[4] = (char)('0' + sym_arg_num % 10);
      sym_arg_num++;
      add_arg(&new_argc, new_argv, sym_string(len, name));
    } else if (k > 0 && is_opt(a, "sym-args")) {
      const char *msg = "--sym-args expects three integer arguments <min-argvs> <max-argvs> <max-len>";
      unsigned lo, hi, len;
      int n, i;
      if (k + 3 >= argc) emit_error(msg);
      k++;
      lo = (unsigned)parse_int(argv[k++], msg);
      hi = (unsigned)parse_int(argv[k++], msg);
      len = (unsigned)parse_int(argv[k++], msg);
      if (lo > hi || (lo == 0 && hi == 0)) emit_error("Invalid range to --sym-args");
      n = klee_range((int)lo, (int)hi + 1, "n_args");
      if (sym_arg_num + hi > 99) emit_error("No more than 100 symbolic arguments allowed.");
      for (i = 0; i < n; i++) {
        name[3] = (char)('0' + sym_arg_num / 10);
        name[4] = (char)('0' + sym_arg_num % 10);
        sym_arg_num++;
        add_arg(&new_argc, new_argv, sym_string(len, name));
      }
    } else if (k > 0 && is_opt(a, "sym-files")) {
      const char *msg = "--sym-files expects two integer arguments <no-sym-files> <sym-file-len>";
      if (k + 2 >= argc) emit_error(msg);
      k++;
      sym_files = (unsigned)parse_int(argv[k++], msg);
      sym_file_len = (unsigned)parse_int(argv[k++], msg);
      if (sym_files > 26) emit_error("--sym-files: at most 26 symbolic files (A to Z)");
    } else if (k > 0 && is_opt(a, "sym-stdin")) {
      const char *msg = "--sym-stdin expects one integer argument <sym-stdin-len>";
      if (++k == argc) emit_error(msg);
      sym_stdin_len = (unsigned)parse_int(argv[k++], msg);
    } else if (k > 0 && is_opt(a, "sym-stdout")) {
      sym_stdout = 1;
      k++;
    } else if (k > 0 && is_opt(a, "save-all-writes")) {
      save_all_writes = 1;
      k++;
    } else if (k > 0 && is_opt(a, "fd-fail")) {
      max_fail = 1;
      k++;
    } else if (k > 0 && is_opt(a, "max-fail")) {
      const char *msg = "--max-fail expects an integer argument <max-failures>";
      if (++k == argc) emit_error(msg);
      max_fail = (unsigned)parse_int(argv[k++], msg);
    } else {
      add_arg(&new_argc, new_argv, argv[k++]);
    }
  }

  {
    char **final_argv = malloc((size_t)(new_argc + 1) * sizeof(char *));
    if (!final_argv) emit_error("out of memory in klee_init_env");
    klee_mark_global(final_argv);
    __tsklee_memcpy(final_argv, new_argv, (size_t)new_argc * sizeof(char *));
    final_argv[new_argc] = 0;
    *argcp = new_argc;
    *argvp = final_argv;
  }

  klee_init_fds(sym_files, sym_file_len, sym_stdin_len, sym_stdout, save_all_writes, max_fail);
}

/* ---- symbolic files ------------------------------------------------------------------- */

static void make_sym_file(tk_file *f, unsigned size, const char *name) {
  char sname[64];
  size_t n = __tsklee_strlen(name);
  struct stat *s = malloc(sizeof(struct stat));
  if (!s) emit_error("out of memory in klee_init_env");
  __tsklee_memcpy(sname, name, n);
  __tsklee_memcpy(sname + n, "_stat", 6);

  f->size = size;
  f->cap = size;
  f->symbolic = 1;
  f->contents = malloc(size ? size : 1);
  if (!f->contents) emit_error("out of memory in klee_init_env");
  if (size) klee_make_symbolic(f->contents, size, name);
  klee_make_symbolic(s, sizeof(struct stat), sname);

  /* as KLEE: a non-zero inode (readdir skips inode 0) and a sane block size */
  klee_assume((s->st_ino & 0x7FFFFFFF) != 0);
  klee_assume((s->st_blksize & ~0xFFFF) == 0);
  /* Unlike KLEE, only what a replay can build (klee-replay and tsklee replay --native create the
     files and stdin as regular files of the replaying user): A, B, … and stdin are regular
     files without setuid/setgid/sticky bits, owned by the model's user, with one link, on the
     model's device, each with an inode of its own (1000 + 'A', …, 1000 + 's' for stdin, 1000 +
     'o' for stdout). KLEE leaves all of it free, so its paths include "A is a directory", "A
     is /", "stdin is stdout", which no replay reproduces. stdout (--sym-stdout) keeps a free
     type: natively it is a pipe. */
  klee_assume(s->st_ino == 1000 + (unsigned char)(__tsklee_streq(name, "stdout") ? 'o' : name[0]));
  klee_assume(s->st_dev == TK_DEV);
  if (!__tsklee_streq(name, "stdout")) {
    klee_assume(S_ISREG(s->st_mode));
    klee_assume((s->st_mode & 07000) == 0);
    klee_assume(s->st_uid == TK_UID);
    klee_assume(s->st_gid == TK_GID);
    klee_assume(s->st_nlink == 1);
  }
  klee_prefer_cex(s, !(s->st_mode & ~(S_IFMT | 0777)));
  klee_prefer_cex(s, s->st_dev == TK_DEV);
  klee_prefer_cex(s, s->st_rdev == 0);
  klee_prefer_cex(s, (s->st_mode & 0700) == 0600);
  klee_prefer_cex(s, (s->st_mode & 0070) == 0040);
  klee_prefer_cex(s, (s->st_mode & 0007) == 0004);
  klee_prefer_cex(s, (s->st_mode & S_IFMT) == S_IFREG);
  klee_prefer_cex(s, s->st_nlink == 1);
  klee_prefer_cex(s, s->st_uid == TK_UID);
  klee_prefer_cex(s, s->st_gid == TK_GID);
  klee_prefer_cex(s, s->st_blksize == 4096);
  klee_prefer_cex(s, s->st_atime == TK_TIME);
  klee_prefer_cex(s, s->st_mtime == TK_TIME);
  klee_prefer_cex(s, s->st_ctime == TK_TIME);
  s->st_size = size;
  s->st_blocks = 8;
  f->st = s;
}

static int *sym_int(const char *name) {
  int *p = malloc(sizeof(int));
  if (!p) emit_error("out of memory in klee_init_env");
  klee_make_symbolic(p, sizeof(int), name);
  return p;
}

void klee_init_fds(unsigned n_files, unsigned file_length, unsigned stdin_length, int sym_stdout_flag,
                   int save_all_writes_flag, unsigned max_failures) {
  tk_env *e = &__tsklee_env;
  unsigned k;
  char name[7] = "?_data";
  char path[TK_PATH_MAX];

  __tsklee_posix_setup();
  e->n_sym_files = n_files;
  e->sym_files = n_files ? malloc(sizeof(tk_file) * n_files) : 0;
  if (n_files && !e->sym_files) emit_error("out of memory in klee_init_env");
  for (k = 0; k < n_files; k++) {
    size_t cl = __tsklee_strlen(e->nodes[e->cwd].path);
    name[0] = (char)('A' + k);
    make_sym_file(&e->sym_files[k], file_length, name);
    __tsklee_memcpy(path, e->nodes[e->cwd].path, cl);
    path[cl] = '/';
    path[cl + 1] = (char)('A' + k);
    path[cl + 2] = 0;
    if (__tsklee_node_add(path, TK_REG, &e->sym_files[k]) < 0) emit_error("too many files in the model");
  }

  if (stdin_length) {
    e->sym_stdin = malloc(sizeof(tk_file));
    if (!e->sym_stdin) emit_error("out of memory in klee_init_env");
    make_sym_file(e->sym_stdin, stdin_length, "stdin");
    e->fds[0].file = e->sym_stdin;
    e->fds[0].flags &= ~(unsigned)TK_F_CONSOLE;
  } else
    e->sym_stdin = 0;

  e->max_failures = max_failures;
  if (max_failures) {
    e->read_fail = sym_int("read_fail");
    e->write_fail = sym_int("write_fail");
    e->close_fail = sym_int("close_fail");
    e->ftruncate_fail = sym_int("ftruncate_fail");
    e->getcwd_fail = sym_int("getcwd_fail");
  }

  if (sym_stdout_flag) {
    e->sym_stdout = malloc(sizeof(tk_file));
    if (!e->sym_stdout) emit_error("out of memory in klee_init_env");
    make_sym_file(e->sym_stdout, 1024, "stdout");
    e->fds[1].file = e->sym_stdout;
    e->fds[1].flags &= ~(unsigned)TK_F_CONSOLE;
    e->stdout_writes = 0;
  } else
    e->sym_stdout = 0;

  e->save_all_writes = save_all_writes_flag;
  {
    unsigned v;
    klee_make_symbolic(&v, sizeof v, "model_version");
    klee_assume(v == 1);
    e->version = v;
  }
}

/* The program's main, renamed by the engine (KLEE: __klee_posix_wrapped_main). */
extern int __user_main(int argc, char **argv, char **envp);

/* Called by the engine instead of main under --posix-runtime. */
int __tsklee_posix_main(int argc, char **argv, char **envp) {
  klee_init_env(&argc, &argv);
  return __user_main(argc, argv, envp);
}
