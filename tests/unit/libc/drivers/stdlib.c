/* qsort/bsearch, environment, exit/atexit, rand, locale, time, strftime, signals, device
 * numbers, fortify checks: tsklee vs glibc (or vs the specification where glibc differs by
 * design, e.g. rand's sequence). */
#include "check.h"
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <ctype.h>

#define D(ret, name, args) extern ret tsklee_##name args;
D(void, qsort, (void *, size_t, size_t, int (*)(const void *, const void *)))
D(void, qsort_r, (void *, size_t, size_t, int (*)(const void *, const void *, void *), void *))
D(void *, bsearch, (const void *, const void *, size_t, size_t, int (*)(const void *, const void *)))
D(char *, getenv, (const char *)) D(int, setenv, (const char *, const char *, int))
D(int, unsetenv, (const char *)) D(int, putenv, (char *)) D(int, clearenv, (void))
D(int, atexit, (void (*)(void))) D(void, exit, (int)) D(int, on_exit, (void (*)(int, void *), void *))
D(int, rand, (void)) D(void, srand, (unsigned)) D(int, rand_r, (unsigned *))
D(char *, setlocale, (int, const char *)) D(struct lconv *, localeconv, (void)) D(char *, nl_langinfo, (nl_item))
D(locale_t, newlocale, (int, const char *, locale_t))
D(struct tm *, gmtime_r, (const time_t *, struct tm *)) D(struct tm *, localtime_r, (const time_t *, struct tm *))
D(time_t, mktime, (struct tm *)) D(time_t, timegm, (struct tm *))
D(size_t, strftime, (char *, size_t, const char *, const struct tm *))
D(int, sigemptyset, (sigset_t *)) D(int, sigfillset, (sigset_t *)) D(int, sigaddset, (sigset_t *, int))
D(int, sigdelset, (sigset_t *, int)) D(int, sigismember, (const sigset_t *, int))
D(int, sigaction, (int, const struct sigaction *, struct sigaction *))
D(__sighandler_t, signal, (int, __sighandler_t)) D(int, raise, (int))
D(int, sigprocmask, (int, const sigset_t *, sigset_t *))
D(unsigned long long, gnu_dev_makedev, (unsigned, unsigned)) D(unsigned, gnu_dev_major, (unsigned long long))
D(unsigned, gnu_dev_minor, (unsigned long long))
D(void *, __memcpy_chk, (void *, const void *, size_t, size_t))
D(char *, __strcpy_chk, (char *, const char *, size_t))
extern char **tsklee_environ;
extern int *tsklee___errno_location(void);
#define terrno (*tsklee___errno_location())

#define NAME(fmt, ...) (snprintf(name, sizeof name, fmt, __VA_ARGS__), name)
static char name[400];

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int cmp_key_r(const void *a, const void *b, void *arg) {
  int x = ((const int *)a)[0] % *(int *)arg, y = ((const int *)b)[0] % *(int *)arg;
  return (x > y) - (x < y);
}

static int sig_seen;
static void on_sig(int s) { sig_seen = s; }

static int exit_pipe;
static void h1(void) { write(exit_pipe, "1", 1); }
static void h2(void) { write(exit_pipe, "2", 1); }
static void h3(int st, void *arg) { char c = (char)('0' + st); write(exit_pipe, &c, 1); write(exit_pipe, arg, 1); }

int main(void) {
  verbose_ok = 0;
  /* ---- qsort / bsearch ---- */
  for (int iter = 0; iter < 400; iter++) {
    int n = rnd() % (iter < 200 ? 20 : 300);
    int a[300], b[300];
    for (int i = 0; i < n; i++) a[i] = b[i] = (int)(rnd() % (iter % 3 ? 1000 : 5)) - 2;
    qsort(a, n, sizeof a[0], cmp_int);
    tsklee_qsort(b, n, sizeof b[0], cmp_int);
    CHECK_MEM(NAME("qsort#%d(n=%d)", iter, n), a, b, n * sizeof a[0]);
    for (int k = -3; k < 1002; k += 1 + rnd() % 50) {
      int *pg = bsearch(&k, a, n, sizeof a[0], cmp_int), *po = tsklee_bsearch(&k, b, n, sizeof b[0], cmp_int);
      /* with duplicates either element may be found: compare found-ness and value */
      CHECK_INT(NAME("bsearch#%d(%d)", iter, k), pg ? *pg : -999, po ? *po : -999);
    }
    /* qsort_r: keys modulo m; stability is not required, compare the key sequence */
    int m = 7;
    for (int i = 0; i < n; i++) a[i] = b[i] = (int)(rnd() % 1000);
    qsort_r(a, n, sizeof a[0], cmp_key_r, &m);
    tsklee_qsort_r(b, n, sizeof b[0], cmp_key_r, &m);
    int same = 1;
    for (int i = 0; i < n; i++) if (a[i] % m != b[i] % m) same = 0;
    CHECK_INT(NAME("qsort_r#%d", iter), 1, same);
  }
  /* sort of wider elements */
  {
    char g[50][13], o[50][13];
    for (int i = 0; i < 50; i++) for (int j = 0; j < 13; j++) g[i][j] = o[i][j] = (char)('a' + rnd() % 26);
    for (int i = 0; i < 50; i++) g[i][12] = o[i][12] = 0;
    qsort(g, 50, 13, (int (*)(const void *, const void *))strcmp);
    tsklee_qsort(o, 50, 13, (int (*)(const void *, const void *))strcmp);
    CHECK_MEM("qsort(strings)", g, o, sizeof g);
  }

  /* ---- environment ---- */
  clearenv();
  tsklee_clearenv();
  static const char *names[] = {"A", "B", "PATH", "HOME", "AB", "A_B", "X"};
  for (int iter = 0; iter < 3000; iter++) {
    const char *n = names[rnd() % 7];
    char val[16];
    snprintf(val, sizeof val, "v%u", rnd() % 100);
    int op = rnd() % 4, rg, ro;
    errno = 0; terrno = 0;
    switch (op) {
    case 0: rg = setenv(n, val, 1); ro = tsklee_setenv(n, val, 1); break;
    case 1: rg = setenv(n, val, 0); ro = tsklee_setenv(n, val, 0); break;
    case 2: rg = unsetenv(n); ro = tsklee_unsetenv(n); break;
    default: {
      static char bufs[3000][24];
      snprintf(bufs[iter], 24, "%s=%s", n, val);
      rg = putenv(bufs[iter]); ro = tsklee_putenv(bufs[iter]);
    }
    }
    CHECK_INT(NAME("env-op%d#%d", op, iter), rg, ro);
    for (int k = 0; k < 7; k++) CHECK_STR(NAME("getenv(%s)#%d", names[k], iter), getenv(names[k]), tsklee_getenv(names[k]));
  }
  {
    /* an empty name: glibc's putenv accepts it, getenv("") finds nothing */
    static char e1[] = "=x", e2[] = "=y";
    CHECK_INT("putenv(=x)", putenv(e1), tsklee_putenv(e2));
    CHECK_STR("getenv(empty)", getenv(""), tsklee_getenv(""));
  }
  static const char *badnames[] = {"", "A=B", "="};
  for (int k = 0; k < 3; k++) {
    errno = 0; terrno = 0;
    CHECK_INT(NAME("setenv(bad %d)", k), setenv(badnames[k], "x", 1), tsklee_setenv(badnames[k], "x", 1));
    CHECK_INT(NAME("setenv-errno(bad %d)", k), errno, terrno);
    CHECK_INT(NAME("unsetenv(bad %d)", k), unsetenv(badnames[k]), tsklee_unsetenv(badnames[k]));
    CHECK_STR(NAME("getenv(bad %d)", k), getenv(badnames[k]), tsklee_getenv(badnames[k]));
  }
  {
    int ng = 0, no = 0;
    extern char **environ;
    for (char **e = environ; *e; e++) ng++;
    for (char **e = tsklee_environ; *e; e++) no++;
    CHECK_INT("environ-count", ng, no);
  }

  /* ---- exit / atexit / on_exit (in a child: exit ends the process) ---- */
  {
    int fds[2];
    pipe(fds);
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      exit_pipe = fds[1];
      tsklee_atexit(h1);
      tsklee_on_exit(h3, "x");
      tsklee_atexit(h2);
      tsklee_exit(5);
      _exit(99);
    }
    close(fds[1]);
    char buf[16] = {0};
    size_t got = 0;
    for (;;) {
      ssize_t r = read(fds[0], buf + got, sizeof buf - 1 - got);
      if (r <= 0) break;
      got += (size_t)r;
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK_STR("atexit-order", "25x1", buf);
    CHECK_INT("exit-status", 5, WEXITSTATUS(status));
  }

  /* ---- rand: deterministic, in range ---- */
  {
    tsklee_srand(7);
    int a1 = tsklee_rand(), a2 = tsklee_rand();
    tsklee_srand(7);
    CHECK_INT("rand-deterministic", a1 * 1000003LL + a2, tsklee_rand() * 1000003LL + tsklee_rand());
    int inrange = 1;
    unsigned seed = 3;
    for (int i = 0; i < 1000; i++) {
      int x = tsklee_rand(), y = tsklee_rand_r(&seed);
      if (x < 0 || x > RAND_MAX || y < 0 || y > RAND_MAX) inrange = 0;
    }
    CHECK_INT("rand-range", 1, inrange);
  }

  /* ---- locale ---- */
  {
    static const char *locs[] = {"C", "POSIX", "", "xx_YY", "C.UTF-8x"};
    clearenv(); /* so that "" means C for glibc too */
    int cats[] = {LC_ALL, LC_CTYPE, LC_NUMERIC, LC_TIME, LC_COLLATE, LC_MONETARY, LC_MESSAGES};
    for (int i = 0; i < 5; i++)
      for (int c = 0; c < 7; c++)
        CHECK_STR(NAME("setlocale(%d,\"%s\")", cats[c], locs[i]), setlocale(cats[c], locs[i]), tsklee_setlocale(cats[c], locs[i]));
    CHECK_STR("setlocale(query)", setlocale(LC_ALL, NULL), tsklee_setlocale(LC_ALL, NULL));
    setlocale(LC_ALL, "C");
    struct lconv *g = localeconv(), *o = tsklee_localeconv();
#define LS(f) CHECK_STR("localeconv." #f, g->f, o->f);
#define LI(f) CHECK_INT("localeconv." #f, g->f, o->f);
    LS(decimal_point) LS(thousands_sep) LS(grouping) LS(int_curr_symbol) LS(currency_symbol)
    LS(mon_decimal_point) LS(mon_thousands_sep) LS(mon_grouping) LS(positive_sign) LS(negative_sign)
    LI(int_frac_digits) LI(frac_digits) LI(p_cs_precedes) LI(p_sep_by_space) LI(n_cs_precedes)
    LI(n_sep_by_space) LI(p_sign_posn) LI(n_sign_posn) LI(int_p_cs_precedes) LI(int_n_sign_posn)
    nl_item items[] = {CODESET, RADIXCHAR, THOUSEP, D_T_FMT, D_FMT, T_FMT, T_FMT_AMPM, AM_STR, PM_STR,
                       DAY_1, DAY_7, ABDAY_1, ABDAY_7, MON_1, MON_12, ABMON_1, ABMON_12, YESEXPR, NOEXPR, ERA, ALT_DIGITS, CRNCYSTR};
    for (unsigned i = 0; i < sizeof items / sizeof items[0]; i++)
      CHECK_STR(NAME("nl_langinfo(%d)", items[i]), nl_langinfo(items[i]), tsklee_nl_langinfo(items[i]));
    locale_t lg = newlocale(LC_ALL_MASK, "C", (locale_t)0), lo = tsklee_newlocale(LC_ALL_MASK, "C", (locale_t)0);
    CHECK_INT("newlocale(C)!=0", lg != 0, lo != 0);
    for (int c = -128; c < 256; c++) CHECK_INT(NAME("isalpha_l(%d)", c), isalpha_l(c, lg) != 0, isalpha_l(c, lo) != 0);
    CHECK_INT("newlocale(bad)", newlocale(LC_ALL_MASK, "xx_YY", (locale_t)0) == 0, tsklee_newlocale(LC_ALL_MASK, "xx_YY", (locale_t)0) == 0);
  }

  /* ---- time (glibc with TZ=UTC) ---- */
  setenv("TZ", "UTC", 1);
  tzset();
  {
    time_t ts[] = {0, 1, -1, 86399, 86400, 951782400, 951868800, 1700000000, 2147483647, -2147483648LL, 4102444800LL,
                   -62135596800LL, 253402300799LL, 68256000000LL, -9999999999LL, 1234567890};
    static const char *fmts[] = {"%a %A %b %B %c %C %d %D %e %F %g %G %h %H %I %j %k %l %m %M %n %p %P %r %R %s %S %t %T %u %U %V %w %W %x %X %y %Y %z %Z %%",
                                 "%_d|%-d|%0e|%^a|%^B|%#Z|%#p|%10Y|%-H|%_H|%05d|%3j|%Ey|%Od|%+4Y|%q|%", "plain", "", "%Y-%m-%dT%H:%M:%S%z", "%10A|%-10B|%_5m"};
    for (unsigned i = 0; i < sizeof ts / sizeof ts[0]; i++) {
      struct tm g, o;
      memset(&g, 0, sizeof g); memset(&o, 0, sizeof o);
      struct tm *rg = gmtime_r(&ts[i], &g), *ro = tsklee_gmtime_r(&ts[i], &o);
      CHECK_INT(NAME("gmtime_r-null(%lld)", (long long)ts[i]), rg == 0, ro == 0);
#define TF(f) CHECK_INT(NAME("gmtime_r(%lld)." #f, (long long)ts[i]), g.f, o.f);
      TF(tm_sec) TF(tm_min) TF(tm_hour) TF(tm_mday) TF(tm_mon) TF(tm_year) TF(tm_wday) TF(tm_yday) TF(tm_isdst) TF(tm_gmtoff)
      memset(&g, 0, sizeof g); memset(&o, 0, sizeof o);
      localtime_r(&ts[i], &g); tsklee_localtime_r(&ts[i], &o);
      TF(tm_sec) TF(tm_min) TF(tm_hour) TF(tm_mday) TF(tm_mon) TF(tm_year) TF(tm_wday) TF(tm_yday)
      CHECK_STR(NAME("localtime_r(%lld).tm_zone", (long long)ts[i]), g.tm_zone, o.tm_zone);
      for (unsigned f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        char bg[512], bo[512];
        size_t ng = strftime(bg, sizeof bg, fmts[f], &g), no = tsklee_strftime(bo, sizeof bo, fmts[f], &g);
        CHECK_INT(NAME("strftime-len(%lld,%u)", (long long)ts[i], f), ng, no);
        CHECK_STR(NAME("strftime(%lld,\"%s\")", (long long)ts[i], fmts[f]), bg, bo);
      }
      char small[8];
      CHECK_INT(NAME("strftime-small(%lld)", (long long)ts[i]), strftime(small, sizeof small, "%Y-%m-%d", &g), tsklee_strftime(small, sizeof small, "%Y-%m-%d", &g));
    }
    /* odd years: negative, tiny, huge (%C %y %G %g padding and signs) */
    int years[] = {-1901, -1900, -1899, -1891, -1801, -1800, -901, -900, -1999, -2000, -2001, 8100, 98000, 0, 99, 100};
    for (unsigned i = 0; i < sizeof years / sizeof years[0]; i++)
      for (int yd = 0; yd < 366; yd += 61) {
        struct tm t;
        memset(&t, 0, sizeof t);
        t.tm_year = years[i];
        t.tm_yday = yd;
        t.tm_wday = yd % 7;
        t.tm_mday = 1 + yd % 28;
        char bg[256], bo[256];
        const char *f = "[%C|%y|%Y|%G|%g|%F|%_C|%-C|%4Y|%_Y|%V|%U|%W|%10F|%c|%D]";
        strftime(bg, sizeof bg, f, &t);
        tsklee_strftime(bo, sizeof bo, f, &t);
        CHECK_STR(NAME("strftime-year(%d,%d)", years[i] + 1900, yd), bg, bo);
      }
    /* gmtime_r is straight-line arithmetic (eras of 400 years): values of every magnitude and
       sign, and the edges of the years an int holds (glibc: NULL and EOVERFLOW past them) */
    {
      unsigned long long x = 0x9e3779b97f4a7c15ULL;
      long long edges[] = {67768036191676799LL, 67768036191676800LL, -67768040609740800LL, -67768040609740801LL,
                           -62167219200LL, -62167219201LL, 951782399LL, -11670912000LL, -11670911999LL};
      for (unsigned i = 0; i < 3000 + sizeof edges / sizeof edges[0]; i++) {
        long long t;
        if (i < sizeof edges / sizeof edges[0]) t = edges[i];
        else {
          x ^= x << 13; x ^= x >> 7; x ^= x << 17;
          unsigned bits = (unsigned)(x % 57);
          t = (long long)(x >> 7) & (long long)((1ULL << bits) - 1);
          if (x & 64) t = -t;
        }
        struct tm g, o;
        memset(&g, 0, sizeof g); memset(&o, 0, sizeof o);
        time_t tt = (time_t)t;
        struct tm *rg = gmtime_r(&tt, &g), *ro = tsklee_gmtime_r(&tt, &o);
        CHECK_INT(NAME("gmtime_r-null(%lld)", t), rg == 0, ro == 0);
#define TG(f) CHECK_INT(NAME("gmtime_r(%lld)." #f, t), g.f, o.f);
        if (rg && ro) { TG(tm_sec) TG(tm_min) TG(tm_hour) TG(tm_mday) TG(tm_mon) TG(tm_year) TG(tm_wday) TG(tm_yday) }
#undef TG
      }
      /* gmtime_r's 32-bit fields below its one 64-bit division: a day and a second past each
         step of a walk through years -2 to 100 (a digit loop's small years) and 800 years from the era before T_LO */
      long long starts[] = {-62230291200LL, -67768048556899200LL};
      for (unsigned k = 0; k < 2; k++)
        for (long long t = starts[k]; t < starts[k] + 102LL * 366 * 86400 * (k ? 8 : 1); t += 86400LL * (k ? 7 : 1) + 4801) {
          struct tm g, o;
          memset(&g, 0, sizeof g); memset(&o, 0, sizeof o);
          time_t tt = (time_t)t;
          struct tm *rg = gmtime_r(&tt, &g), *ro = tsklee_gmtime_r(&tt, &o);
          CHECK_INT(NAME("gmtime_r-null(%lld)", t), rg == 0, ro == 0);
          if (rg && ro && (g.tm_sec != o.tm_sec || g.tm_min != o.tm_min || g.tm_hour != o.tm_hour || g.tm_mday != o.tm_mday ||
                           g.tm_mon != o.tm_mon || g.tm_year != o.tm_year || g.tm_wday != o.tm_wday || g.tm_yday != o.tm_yday))
            CHECK_INT(NAME("gmtime_r-walk(%lld)", t), 0, 1);
        }
    }
    /* every day of a few years: ISO weeks etc. */
    for (long long t = 1230681600LL - 86400 * 400; t < 1230681600LL + 86400LL * 1500; t += 86400 + 3601) {
      struct tm g;
      time_t tt = (time_t)t;
      gmtime_r(&tt, &g);
      char bg[128], bo[128];
      strftime(bg, sizeof bg, "%G-%V-%u %g %U %W %j %a %s", &g);
      tsklee_strftime(bo, sizeof bo, "%G-%V-%u %g %U %W %j %a %s", &g);
      CHECK_STR(NAME("strftime-days(%lld)", t), bg, bo);
    }
    /* mktime / timegm normalisation */
    for (int iter = 0; iter < 3000; iter++) {
      struct tm a, b;
      memset(&a, 0, sizeof a);
      a.tm_year = (int)(rnd() % 300) - 100;
      a.tm_mon = (int)(rnd() % 40) - 14;
      a.tm_mday = (int)(rnd() % 80) - 20;
      a.tm_hour = (int)(rnd() % 60) - 10;
      a.tm_min = (int)(rnd() % 200) - 50;
      a.tm_sec = (int)(rnd() % 200) - 50;
      a.tm_isdst = 0;
      b = a;
      time_t tg = iter % 2 ? mktime(&a) : timegm(&a);
      time_t to = iter % 2 ? tsklee_mktime(&b) : tsklee_timegm(&b);
      CHECK_INT(NAME("mktime/timegm#%d", iter), tg, to);
      CHECK_INT(NAME("mktime-norm#%d", iter), a.tm_year * 100000000LL + a.tm_mon * 1000000 + a.tm_mday * 10000 + a.tm_hour * 100 + a.tm_min,
                b.tm_year * 100000000LL + b.tm_mon * 1000000 + b.tm_mday * 10000 + b.tm_hour * 100 + b.tm_min);
      CHECK_INT(NAME("mktime-wday#%d", iter), a.tm_wday * 1000 + a.tm_yday, b.tm_wday * 1000 + b.tm_yday);
    }
  }

  /* ---- signals ---- */
  {
    sigset_t g, o;
    sigemptyset(&g); tsklee_sigemptyset(&o);
    for (int iter = 0; iter < 2000; iter++) {
      int s = (int)(rnd() % 70) - 2, op = rnd() % 3;
      errno = 0; terrno = 0;
      int rg, ro;
      if (op == 0) { rg = sigaddset(&g, s); ro = tsklee_sigaddset(&o, s); }
      else if (op == 1) { rg = sigdelset(&g, s); ro = tsklee_sigdelset(&o, s); }
      else { rg = sigismember(&g, s); ro = tsklee_sigismember(&o, s); }
      CHECK_INT(NAME("sigset-op%d(%d)#%d", op, s, iter), rg, ro);
      CHECK_INT(NAME("sigset-errno%d(%d)#%d", op, s, iter), errno, terrno);
      if (iter % 500 == 499) { sigfillset(&g); tsklee_sigfillset(&o); }
    }
    /* sigaddset can't touch glibc-reserved 32/33 identically on all versions: compare members only */
    int same = 1;
    for (int s = 1; s < 65; s++) if ((sigismember(&g, s) == 1) != (tsklee_sigismember(&o, s) == 1) && s != 32 && s != 33) same = 0;
    CHECK_INT("sigset-members", 1, same);
    CHECK_INT("signal-first", tsklee_signal(SIGUSR1, on_sig) == SIG_DFL, 1);
    CHECK_INT("signal-prev", tsklee_signal(SIGUSR1, on_sig) == on_sig, 1);
    tsklee_raise(SIGUSR1);
    CHECK_INT("raise-handler", sig_seen, SIGUSR1);
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    CHECK_INT("sigaction", tsklee_sigaction(SIGTERM, &sa, &old), 0);
    CHECK_INT("sigaction-old", old.sa_handler == SIG_DFL, 1);
    CHECK_INT("raise-ignored", tsklee_raise(SIGTERM), 0);
    CHECK_INT("sigaction-SIGKILL", tsklee_sigaction(SIGKILL, &sa, NULL), -1);
    sigset_t m, prev;
    tsklee_sigemptyset(&m);
    tsklee_sigaddset(&m, SIGINT);
    tsklee_sigprocmask(SIG_BLOCK, &m, NULL);
    tsklee_sigprocmask(SIG_SETMASK, NULL, &prev);
    CHECK_INT("sigprocmask", tsklee_sigismember(&prev, SIGINT), 1);
    pid_t pid = fork();
    if (pid == 0) { tsklee_raise(SIGHUP); _exit(0); }
    int status;
    waitpid(pid, &status, 0);
    CHECK_INT("raise-default-terminates", WIFEXITED(status) ? WEXITSTATUS(status) : -1, 128 + SIGHUP);
  }

  /* ---- device numbers ---- */
  for (int iter = 0; iter < 1000; iter++) {
    unsigned ma = rnd() >> (rnd() % 32), mi = rnd() >> (rnd() % 32);
    CHECK_INT(NAME("makedev(%u,%u)", ma, mi), (long long)makedev(ma, mi), (long long)tsklee_gnu_dev_makedev(ma, mi));
    unsigned long long d = (unsigned long long)rnd() << 32 | rnd();
    CHECK_INT(NAME("major(%llx)", d), major(d), tsklee_gnu_dev_major(d));
    CHECK_INT(NAME("minor(%llx)", d), minor(d), tsklee_gnu_dev_minor(d));
  }

  /* ---- fortify: the passing path, and the failing path aborts ---- */
  {
    char buf[8];
    CHECK_INT("__memcpy_chk-ok", tsklee___memcpy_chk(buf, "abcdefg", 8, sizeof buf) == buf, 1);
    CHECK_STR("__strcpy_chk-ok", tsklee___strcpy_chk(buf, "1234567", sizeof buf), "1234567");
    pid_t pid = fork();
    if (pid == 0) {
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 2);
      tsklee___strcpy_chk(buf, "12345678", sizeof buf);
      _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    CHECK_INT("__strcpy_chk-overflow-aborts", WIFSIGNALED(status) ? WTERMSIG(status) : -1, SIGABRT);
  }
  return summary();
}
