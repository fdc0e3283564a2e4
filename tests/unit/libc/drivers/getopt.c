/* getopt / getopt_long / getopt_long_only: the same argv vectors through glibc's and
 * tsklee's implementation; compares every return value, optind, optarg, optopt, longindex,
 * flag variables, the final permutation of argv and what was written to stderr. */
#include "check.h"
#include <getopt.h>
#include <unistd.h>
#include <fcntl.h>

extern int tsklee_getopt(int, char *const[], const char *);
extern int tsklee_getopt_long(int, char *const[], const char *, const struct option *, int *);
extern int tsklee_getopt_long_only(int, char *const[], const char *, const struct option *, int *);
extern char *tsklee_optarg;
extern int tsklee_optind, tsklee_opterr, tsklee_optopt;
extern int tsklee_setenv(const char *, const char *, int);
extern int tsklee_unsetenv(const char *);

static int flag_g, flag_o;

/* longopts with flag pointers: two copies so that each implementation sets its own flag */
#define LONGOPTS(flagvar)                                                                   \
  {                                                                                         \
    {"verbose", no_argument, NULL, 'v'}, {"version", no_argument, NULL, 'V'},               \
    {"file", required_argument, NULL, 'f'}, {"files", required_argument, NULL, 'F'},        \
    {"color", optional_argument, NULL, 'c'}, {"colour", optional_argument, NULL, 'c'},      \
    {"flag", no_argument, &flagvar, 42}, {"help", no_argument, NULL, 'h'},                  \
    {"size", required_argument, NULL, 's'}, {"s", no_argument, NULL, 'S'},                 \
    {"debug", no_argument, NULL, 1000}, {"debug-all", no_argument, NULL, 1000},            \
    {"x", required_argument, NULL, 'x'}, {NULL, 0, NULL, 0}                                 \
  }

static struct option lg[] = LONGOPTS(flag_g);
static struct option lo[] = LONGOPTS(flag_o);

enum mode { SHORT, LONG, LONG_ONLY };

struct trace {
  char text[8192];
  size_t len;
};

static void tr(struct trace *t, const char *fmt, long a, const char *s) {
  if (t->len > sizeof t->text - 300) return;
  t->len += snprintf(t->text + t->len, sizeof t->text - t->len, fmt, a, s ? s : "(null)");
}

static int err_fd;

static void start_capture(int *saved) {
  fflush(stderr);
  *saved = dup(2);
  ftruncate(err_fd, 0);
  lseek(err_fd, 0, SEEK_SET);
  dup2(err_fd, 2);
}
static void end_capture(int saved, char *buf, size_t max) {
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  off_t n = lseek(err_fd, 0, SEEK_CUR);
  lseek(err_fd, 0, SEEK_SET);
  ssize_t r = read(err_fd, buf, n < (off_t)max - 1 ? (size_t)n : max - 1);
  buf[r < 0 ? 0 : r] = 0;
}

static void run(struct trace *t, int ours, enum mode mode, int argc, char **argv, const char *optstring, int opterr_v) {
  t->len = 0;
  int *pind = ours ? &tsklee_optind : &optind;
  int *perr = ours ? &tsklee_opterr : &opterr;
  int *popt = ours ? &tsklee_optopt : &optopt;
  char **parg = ours ? &tsklee_optarg : &optarg;
  int *flag = ours ? &flag_o : &flag_g;
  struct option *L = ours ? lo : lg;
  *pind = 0; /* full reset */
  *perr = opterr_v;
  *popt = '?';
  *flag = 0;
  for (int step = 0; step < 40; step++) {
    int idx = -1, r;
    if (mode == SHORT) r = ours ? tsklee_getopt(argc, argv, optstring) : getopt(argc, argv, optstring);
    else if (mode == LONG) r = ours ? tsklee_getopt_long(argc, argv, optstring, L, &idx) : getopt_long(argc, argv, optstring, L, &idx);
    else r = ours ? tsklee_getopt_long_only(argc, argv, optstring, L, &idx) : getopt_long_only(argc, argv, optstring, L, &idx);
    tr(t, "r=%ld", r, NULL);
    tr(t, " ind=%ld", *pind, NULL);
    tr(t, " arg=%ld:%s", *parg ? 1 : 0, *parg);
    if (r == '?' || r == ':') tr(t, " opt=%ld%s", *popt, "");
    tr(t, " idx=%ld flag=%s", idx, "");
    tr(t, "%ld;%s", *flag, "");
    if (r == -1) break;
  }
  for (int i = 0; i < argc; i++) tr(t, " [%ld]%s", i, argv[i]);
}

static char name[512];

static void compare(enum mode mode, const char *optstring, int opterr_v, int argc, const char **av) {
  char *ag[32], *ao[32];
  char storage_g[32][64], storage_o[32][64];
  for (int i = 0; i < argc; i++) {
    strcpy(storage_g[i], av[i]);
    strcpy(storage_o[i], av[i]);
    ag[i] = storage_g[i];
    ao[i] = storage_o[i];
  }
  ag[argc] = ao[argc] = NULL;
  static struct trace tg, to;
  static char eg[4096], eo[4096];
  int saved;
  start_capture(&saved);
  run(&tg, 0, mode, argc, ag, optstring, opterr_v);
  end_capture(saved, eg, sizeof eg);
  start_capture(&saved);
  run(&to, 1, mode, argc, ao, optstring, opterr_v);
  end_capture(saved, eo, sizeof eo);
  /* the argv strings are different copies: compare by content (done in the trace) */
  int n = snprintf(name, sizeof name, "%s optstring=\"%s\" opterr=%d argv=", mode == SHORT ? "getopt" : mode == LONG ? "getopt_long" : "getopt_long_only", optstring, opterr_v);
  for (int i = 0; i < argc && n < 400; i++) n += snprintf(name + n, sizeof name - n, "%s'%s'", i ? "," : "", av[i]);
  checks++;
  if (strcmp(tg.text, to.text) != 0) {
    mismatches++;
    printf("MISMATCH %s\n  glibc:  %s\n  tsklee: %s\n", name, tg.text, to.text);
  }
  CHECK_STR(name, eg, eo);
}

int main(void) {
  verbose_ok = 0;
  char tmpl[] = "/tmp/tsklee-getopt-XXXXXX";
  err_fd = mkstemp(tmpl);
  unlink(tmpl);
  static const char *optstrings[] = {"ab:c::d", "+ab:c::d", "-ab:c::d", ":ab:c::d", "+:ab:c::d", "-:ab:c::d", "abW;", "ab:c::dW;f:", "vVf:hs:x:"};
  static const char *words[] = {"prog", "-a", "-b", "-bval", "-c", "-cval", "-d", "-e", "-ab", "-ba", "-abx", "-adc",
                                "file1", "file2", "-", "--", "--verbose", "--verb", "--ver", "--v", "--file", "--file=x",
                                "--fil", "--files=y", "--color", "--color=always", "--col", "--col=never", "--colo", "--flag",
                                "--fl", "--help=x", "--nope", "--nope=1", "--size", "--s", "--debug", "--deb", "--debug-all",
                                "-W", "-Wverbose", "-Wfile=z", "-verbose", "-help", "-fx", "-s", "-x", "-vx", "-:", "-;", "-W;", "x=y", "---x"};
  int nw = sizeof words / sizeof words[0];
  /* hand-written vectors */
  static const char *fixed[][8] = {
      {"prog", NULL},
      {"prog", "-a", NULL},
      {"prog", "file", "-a", NULL},
      {"prog", "-b", NULL},
      {"prog", "-b", "val", "x", NULL},
      {"prog", "x", "-b", "val", "y", "-a", NULL},
      {"prog", "--", "-a", NULL},
      {"prog", "x", "--", "-a", NULL},
      {"prog", "-a", "x", "y", "--", "z", "-d", NULL},
      {"prog", "--verbose", "--file", NULL},
      {"prog", "--file", "f", "--color", "c", NULL},
      {"prog", "--ver", NULL},
      {"prog", "--co", "--colo=x", NULL},
      {"prog", "--deb", NULL},
      {"prog", "-Wfoo", NULL},
      {"prog", "-W", "file", "v", NULL},
      {"prog", "-e", "-a", NULL},
      {"prog", "-", "-a", "-", NULL},
  };
  enum mode modes[] = {SHORT, LONG, LONG_ONLY};
  for (unsigned f = 0; f < sizeof fixed / sizeof fixed[0]; f++) {
    int argc = 0;
    while (fixed[f][argc]) argc++;
    for (unsigned o = 0; o < sizeof optstrings / sizeof optstrings[0]; o++)
      for (int m = 0; m < 3; m++)
        for (int e = 0; e < 2; e++) compare(modes[m], optstrings[o], e, argc, fixed[f]);
  }
  /* random vectors */
  for (int iter = 0; iter < 6000; iter++) {
    const char *av[12];
    int argc = 1 + rnd() % 9;
    av[0] = "prog";
    for (int i = 1; i < argc; i++) av[i] = words[1 + rnd() % (nw - 1)];
    const char *os = optstrings[rnd() % (sizeof optstrings / sizeof optstrings[0])];
    compare(modes[rnd() % 3], os, rnd() % 4 != 0, argc, av);
  }
  /* POSIXLY_CORRECT */
  setenv("POSIXLY_CORRECT", "1", 1);
  tsklee_setenv("POSIXLY_CORRECT", "1", 1);
  for (int iter = 0; iter < 1000; iter++) {
    const char *av[12];
    int argc = 1 + rnd() % 8;
    av[0] = "prog";
    for (int i = 1; i < argc; i++) av[i] = words[1 + rnd() % (nw - 1)];
    compare(modes[rnd() % 3], optstrings[rnd() % 3], 1, argc, av);
  }
  unsetenv("POSIXLY_CORRECT");
  tsklee_unsetenv("POSIXLY_CORRECT");
  return summary();
}
