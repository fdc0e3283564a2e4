/* getopt, getopt_long, getopt_long_only with GNU behaviour:
 *  - argv is permuted so that options come first (default), unless the option string starts
 *    with '+' or POSIXLY_CORRECT is set (stop at the first non-option), or with '-' (each
 *    non-option is returned as the argument of option 1);
 *  - "--" ends the options; a leading ':' (after '+'/'-') silences diagnostics and makes a
 *    missing argument return ':';
 *  - long options may be abbreviated to any unambiguous prefix; "W;" in the option string
 *    makes "-W foo" mean "--foo";
 *  - diagnostics go to fd 2 with glibc's wording, through write() (POSIX model).
 * Setting optind to 0 restarts the scan and re-reads the option string flags.
 */
#include "../internal.h"
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

char *optarg;
int optind = 1;
int opterr = 1;
int optopt = '?';

enum order { PERMUTE, REQUIRE_ORDER, RETURN_IN_ORDER };

static struct {
  int initialized;
  enum order order;
  const char *next;  /* rest of the current cluster of short options, or NULL */
  int first_nonopt;  /* argv[first_nonopt, last_nonopt) are skipped non-options */
  int last_nonopt;
} st;

/* ---- diagnostics ---------------------------------------------------------------- */

static char msg[512];
static size_t msg_len;

static void m_reset(void) { msg_len = 0; }
static void m_str(const char *s) {
  while (*s) {
    if (msg_len + 1 >= sizeof msg) {
      msg[msg_len] = 0;
      __tsklee_write_stderr(msg);
      msg_len = 0;
    }
    msg[msg_len++] = *s++;
  }
}
static void m_chr(char c) {
  char b[2] = {c, 0};
  m_str(b);
}
static void m_flush(void) {
  msg[msg_len] = 0;
  __tsklee_write_stderr(msg);
  msg_len = 0;
}

/* "<argv0>: <what> '<prefix><name>'<tail>\n" */
static void complain_long(char *const *argv, const char *what, const char *prefix,
                          const char *name, const char *tail) {
  m_reset();
  m_str(argv[0]);
  m_str(": ");
  m_str(what);
  m_str(" '");
  m_str(prefix);
  m_str(name);
  m_str("'");
  m_str(tail);
  m_str("\n");
  m_flush();
}

static void complain_short(char *const *argv, const char *what, char c) {
  m_reset();
  m_str(argv[0]);
  m_str(": ");
  m_str(what);
  m_str(" -- '");
  m_chr(c);
  m_str("'\n");
  m_flush();
}

/* ---- permutation ---------------------------------------------------------------- */

static void reverse(char **argv, int lo, int hi) {
  while (lo < --hi) {
    char *t = argv[lo];
    argv[lo] = argv[hi];
    argv[hi] = t;
    lo++;
  }
}

/* Moves the options argv[last_nonopt, optind) before the skipped non-options
 * argv[first_nonopt, last_nonopt), keeping both groups in order (a block rotation). */
static void rotate_nonopts(char **argv) {
  int a = st.first_nonopt, b = st.last_nonopt, c = optind;
  reverse(argv, a, b);
  reverse(argv, b, c);
  reverse(argv, a, c);
  st.first_nonopt = a + (c - b);
  st.last_nonopt = c;
}

static int is_nonoption(char *const *argv, int i) { return argv[i][0] != '-' || argv[i][1] == 0; }

/* ---- long options --------------------------------------------------------------- */

/* st.next points at the name (after the prefix). Returns -1 only for getopt_long_only when
 * the word should be retried as short options. */
static int long_option(int argc, char *const *argv, const char *optstring,
                       const struct option *longopts, int *longind, int long_only, int verbose,
                       const char *prefix) {
  const char *name = st.next;
  size_t len = 0;
  while (name[len] && name[len] != '=') len++;

  int count = 0, found = -1;
  for (int i = 0; longopts[i].name; i++, count++)
    if (strncmp(longopts[i].name, name, len) == 0 && longopts[i].name[len] == 0) {
      found = i;
      break;
    }

  if (found < 0) {
    /* prefix matches: ambiguous unless all candidates are the same option */
    int ambiguous = 0;
    for (int i = 0; longopts[i].name; i++) {
      if (strncmp(longopts[i].name, name, len) != 0) continue;
      if (found < 0) {
        found = i;
      } else if (long_only || longopts[i].has_arg != longopts[found].has_arg ||
                 longopts[i].flag != longopts[found].flag || longopts[i].val != longopts[found].val) {
        ambiguous = 1;
      }
    }
    if (ambiguous) {
      if (verbose) {
        m_reset();
        m_str(argv[0]);
        m_str(": option '");
        m_str(prefix);
        m_str(name);
        m_str("' is ambiguous; possibilities:");
        const struct option *first = &longopts[found];
        for (int i = 0; longopts[i].name; i++) {
          if (strncmp(longopts[i].name, name, len) != 0) continue;
          int differs = long_only || longopts[i].has_arg != first->has_arg ||
                        longopts[i].flag != first->flag || longopts[i].val != first->val;
          if (i != found && !differs) continue;
          m_str(" '");
          m_str(prefix);
          m_str(longopts[i].name);
          m_str("'");
        }
        m_str("\n");
        m_flush();
      }
      st.next = NULL;
      optind++;
      optopt = 0;
      return '?';
    }
  }

  if (found < 0) {
    if (long_only && argv[optind][1] != '-' && strchr(optstring, *name) != NULL)
      return -1; /* let the caller read it as short options */
    if (verbose) complain_long(argv, "unrecognized option", prefix, name, "");
    st.next = NULL;
    optind++;
    optopt = 0;
    return '?';
  }

  const struct option *o = &longopts[found];
  optind++;
  st.next = NULL;
  if (name[len] == '=') {
    if (o->has_arg == no_argument) {
      if (verbose) complain_long(argv, "option", prefix, o->name, " doesn't allow an argument");
      optopt = o->val;
      return '?';
    }
    optarg = (char *)name + len + 1;
  } else if (o->has_arg == required_argument) {
    if (optind < argc) {
      optarg = argv[optind++];
    } else {
      if (verbose) complain_long(argv, "option", prefix, o->name, " requires an argument");
      optopt = o->val;
      return optstring[0] == ':' ? ':' : '?';
    }
  }
  if (longind) *longind = found;
  if (o->flag) {
    *o->flag = o->val;
    return 0;
  }
  return o->val;
}

/* ---- the scanner ---------------------------------------------------------------- */

static int scan(int argc, char *const *argv_c, const char *optstring, const struct option *longopts,
                int *longind, int long_only, int posix) {
  char **argv = (char **)argv_c; /* GNU getopt permutes argv despite the const */
  if (argc < 1) return -1;
  optarg = NULL;

  if (optind == 0 || !st.initialized) {
    if (optind == 0) optind = 1;
    st.first_nonopt = st.last_nonopt = optind;
    st.next = NULL;
    if (optstring[0] == '-') st.order = RETURN_IN_ORDER;
    else if (optstring[0] == '+') st.order = REQUIRE_ORDER;
    else if (posix || getenv("POSIXLY_CORRECT")) st.order = REQUIRE_ORDER;
    else st.order = PERMUTE;
    st.initialized = 1;
  }
  if (optstring[0] == '-' || optstring[0] == '+') optstring++;
  int verbose = opterr && optstring[0] != ':';

  if (st.next == NULL || *st.next == 0) {
    /* move on to the next argv element */
    if (st.last_nonopt > optind) st.last_nonopt = optind;
    if (st.first_nonopt > optind) st.first_nonopt = optind;

    if (st.order == PERMUTE) {
      if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind) rotate_nonopts(argv);
      else if (st.last_nonopt != optind) st.first_nonopt = optind;
      while (optind < argc && is_nonoption(argv, optind)) optind++;
      st.last_nonopt = optind;
    }

    if (optind != argc && strcmp(argv[optind], "--") == 0) {
      optind++;
      if (st.first_nonopt != st.last_nonopt && st.last_nonopt != optind) rotate_nonopts(argv);
      else if (st.first_nonopt == st.last_nonopt) st.first_nonopt = optind;
      st.last_nonopt = argc;
      optind = argc;
    }

    if (optind == argc) {
      /* point at the first non-option so the caller sees them */
      if (st.first_nonopt != st.last_nonopt) optind = st.first_nonopt;
      return -1;
    }

    if (is_nonoption(argv, optind)) {
      if (st.order == REQUIRE_ORDER) return -1;
      optarg = argv[optind++];
      return 1;
    }

    if (longopts) {
      if (argv[optind][1] == '-') {
        st.next = argv[optind] + 2;
        return long_option(argc, argv, optstring, longopts, longind, long_only, verbose, "--");
      }
      if (long_only && (argv[optind][2] || !strchr(optstring, argv[optind][1]))) {
        st.next = argv[optind] + 1;
        int r = long_option(argc, argv, optstring, longopts, longind, long_only, verbose, "-");
        if (r != -1) return r;
      }
    }
    st.next = argv[optind] + 1;
  }

  /* a short option from the current cluster */
  char c = *st.next++;
  const char *spec = strchr(optstring, c);
  if (*st.next == 0) optind++;
  if (spec == NULL || c == ':' || c == ';') {
    if (verbose) complain_short(argv, "invalid option", c);
    optopt = c;
    return '?';
  }

  if (spec[0] == 'W' && spec[1] == ';' && longopts != NULL) {
    /* -W foo / -Wfoo means --foo */
    const char *word;
    if (*st.next) {
      word = st.next;
    } else if (optind == argc) {
      if (verbose) complain_short(argv, "option requires an argument", c);
      optopt = c;
      return optstring[0] == ':' ? ':' : '?';
    } else {
      word = argv[optind];
    }
    st.next = word;
    optarg = NULL;
    return long_option(argc, argv, optstring, longopts, longind, 0, verbose, "-W ");
  }

  if (spec[1] == ':') {
    if (spec[2] == ':') { /* optional argument: only if attached */
      if (*st.next) {
        optarg = (char *)st.next;
        optind++;
      } else {
        optarg = NULL;
      }
    } else if (*st.next) {
      optarg = (char *)st.next;
      optind++;
    } else if (optind == argc) {
      if (verbose) complain_short(argv, "option requires an argument", c);
      optopt = c;
      c = optstring[0] == ':' ? ':' : '?';
    } else {
      optarg = argv[optind++];
    }
    st.next = NULL;
  }
  return c;
}

int getopt(int argc, char *const argv[], const char *optstring) {
  return scan(argc, argv, optstring, NULL, NULL, 0, 0);
}

/* What <unistd.h> maps getopt to in strict POSIX modes. */
int __posix_getopt(int argc, char *const argv[], const char *optstring) {
  return scan(argc, argv, optstring, NULL, NULL, 0, 1);
}

int getopt_long(int argc, char *const argv[], const char *optstring,
                const struct option *longopts, int *longind) {
  return scan(argc, argv, optstring, longopts, longind, 0, 0);
}

int getopt_long_only(int argc, char *const argv[], const char *optstring,
                     const struct option *longopts, int *longind) {
  return scan(argc, argv, optstring, longopts, longind, 1, 0);
}
