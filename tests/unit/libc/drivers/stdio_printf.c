/* printf family: tsklee_snprintf & co. against glibc, bit-exact, on many formats × values. */
#include "check.h"
#include <stdarg.h>
#include <math.h>
#include <float.h>
#include <limits.h>
#include <errno.h>
#include <wchar.h>
#include <stddef.h>
#include <sys/types.h>

int tsklee_snprintf(char *, size_t, const char *, ...);
int *tsklee___errno_location(void);
int tsklee_sprintf(char *, const char *, ...);
int tsklee_vsnprintf(char *, size_t, const char *, va_list);
int tsklee_asprintf(char **, const char *, ...);
int tsklee___snprintf_chk(char *, size_t, int, size_t, const char *, ...);
int tsklee___sprintf_chk(char *, int, size_t, const char *, ...);

static char g[8192], o[8192];

#define CMP(what, fmt, ...)                                                              \
  do {                                                                                   \
    memset(g, 'X', 64); memset(o, 'X', 64);                                              \
    int rg_ = snprintf(g, sizeof g, fmt, __VA_ARGS__);                                   \
    int ro_ = tsklee_snprintf(o, sizeof o, fmt, __VA_ARGS__);                            \
    char d_[700];                                                                        \
    snprintf(d_, sizeof d_, "fmt=[%s] glibc=%d[%.300s] tsklee=%d[%.300s]", fmt, rg_, g, ro_, o); \
    result(rg_ == ro_ && strcmp(g, o) == 0, what, d_);                                   \
  } while (0)

static double rand_double(void) {
  uint64_t b = ((uint64_t)rnd() << 32) | rnd();
  double d;
  memcpy(&d, &b, 8);
  return d;
}
static long double rand_ldouble(void) {
  unsigned char b[16] = {0};
  uint64_t m = ((uint64_t)rnd() << 32) | rnd();
  m |= 1ULL << 63;
  memcpy(b, &m, 8);
  unsigned e = rnd() & 0x7fff;
  if (e == 0x7fff) e = 0x3fff;
  if ((rnd() & 7) == 0) e = 0x3fff + (int)(rnd() % 200) - 100; /* moderate magnitudes */
  if (e == 0) m &= ~(1ULL << 63), memcpy(b, &m, 8);
  b[8] = (unsigned char)e;
  b[9] = (unsigned char)((e >> 8) | ((rnd() & 1) << 7));
  long double x;
  memcpy(&x, b, sizeof x);
  return x;
}
static double nice_double(void) {
  /* values with few digits, ties, powers of ten */
  switch (rnd() % 6) {
  case 0: return (double)(int)(rnd() % 100000) / 1000.0;
  case 1: return (double)(rnd() % 1000) + 0.5;
  case 2: return ldexp((double)(rnd() % 4096), (int)(rnd() % 40) - 20);
  case 3: return pow(10.0, (int)(rnd() % 40) - 20);
  case 4: return (double)(rnd() % 10) * 0.125;
  default: return rand_double();
  }
}

int main(void) {
  char fmt[64];
  verbose_ok = 0;
  /* integers: flags × width × precision × conversions × lengths */
  static const char *flagsets[] = {"", "-", "+", " ", "#", "0", "-0", "+0", " 0", "#0", "-#", "+ ", "-+#0 ", "'"};
  static const char *widths[] = {"", "1", "5", "12", "25", "*"};
  static const char *precs[] = {"", ".", ".0", ".1", ".3", ".10", ".*", ".25"};
  static const char convs[] = "diouxX";
  long long ivals[] = {0, 1, -1, 7, -7, 42, 255, 256, -128, 32767, -32768, 65535, INT_MAX, INT_MIN, UINT_MAX,
                       LLONG_MAX, LLONG_MIN, 1234567890123LL, -987654321LL, 0x7f, 0x80, 0xdeadbeefLL};
  for (size_t fi = 0; fi < sizeof flagsets / sizeof *flagsets; fi++)
    for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
      for (size_t pi = 0; pi < sizeof precs / sizeof *precs; pi++)
        for (const char *c = convs; *c; c++)
          for (int lm = 0; lm < 6; lm++) {
            static const char *lms[] = {"", "hh", "h", "l", "ll", "j"};
            snprintf(fmt, sizeof fmt, "<%%%s%s%s%s%c>", flagsets[fi], widths[wi], precs[pi], lms[lm], *c);
            for (size_t vi = 0; vi < sizeof ivals / sizeof *ivals; vi++) {
              long long v = ivals[vi];
              int star = widths[wi][0] == '*', pstar = strstr(precs[pi], "*") != NULL;
              int wv = (int)(vi % 7) - 2, pv = (int)(vi % 5) - 1;
              if (lm >= 3) {
                if (star && pstar) CMP("int", fmt, wv * 4, pv * 3, v);
                else if (star) CMP("int", fmt, wv * 4, v);
                else if (pstar) CMP("int", fmt, pv * 3, v);
                else CMP("int", fmt, v);
              } else {
                int iv = (int)v;
                if (star && pstar) CMP("int", fmt, wv * 4, pv * 3, iv);
                else if (star) CMP("int", fmt, wv * 4, iv);
                else if (pstar) CMP("int", fmt, pv * 3, iv);
                else CMP("int", fmt, iv);
              }
            }
          }
  /* z, t, q, L on integers */
  CMP("zu", "%zu %zd %zx", (size_t)123456789, (ssize_t)-5, (size_t)-1);
  CMP("t", "%td %tx", (ptrdiff_t)-77, (ptrdiff_t)77);
  CMP("q", "%qd %qu %Ld", -5LL, 5ULL, -9LL);
  /* strings, chars, pointers, %%, %n, %m */
  static const char *strs[] = {"", "a", "hello", "hello world, this is long", NULL};
  static const char *sfl[] = {"%s", "%10s", "%-10s", "%.3s", "%10.2s", "%-10.0s", "%.0s", "%.5s", "%.6s", "%20.6s", "%*.*s"};
  for (size_t i = 0; i < 5; i++)
    for (size_t j = 0; j < sizeof sfl / sizeof *sfl; j++) {
      if (j == sizeof sfl / sizeof *sfl - 1) CMP("str", sfl[j], -8, 4, strs[i]);
      else CMP("str", sfl[j], strs[i]);
    }
  for (int ch = 0; ch < 256; ch += 7) { CMP("chr", "%c|%5c|%-3c|", ch ? ch : 'z', ch ? ch : 'y', 'q'); }
  CMP("lc", "%lc %ls %5ls %.2ls", (wint_t)'A', L"wide", L"ab", L"xyz");
  void *ptrs[] = {NULL, (void *)1, (void *)0xdeadbeef, (void *)-1L, &g};
  static const char *pfl[] = {"%p", "%20p", "%-20p", "%+p", "% p", "%#p", "%020p", "%.20p", "%5p"};
  for (size_t i = 0; i < 5; i++) for (size_t j = 0; j < 9; j++) CMP("ptr", pfl[j], ptrs[i]);
  CMP("pct", "100%% %5%|%-5%|", 0);
  {
    int ng = -1, no = -1; signed char hg = 0, ho = 0; long lg = 0, lo = 0;
    snprintf(g, sizeof g, "abc%ndef%hhn%s%ln", &ng, &hg, "xyz", &lg);
    tsklee_snprintf(o, sizeof o, "abc%ndef%hhn%s%ln", &no, &ho, "xyz", &lo);
    CHECK_INT("%n", ng, no); CHECK_INT("%hhn", hg, ho); CHECK_INT("%ln", lg, lo); CHECK_STR("%n out", g, o);
  }
  for (int e = 0; e < 40; e += 3) { errno = e; snprintf(g, sizeof g, "[%m]"); *tsklee___errno_location() = e; tsklee_snprintf(o, sizeof o, "[%m]"); CHECK_STR("%m", g, o); }
  /* truncation and return values */
  for (size_t n = 0; n < 20; n++) {
    char gb[32], ob[32];
    memset(gb, 'X', 32); memset(ob, 'X', 32);
    int rg = snprintf(gb, n, "%s-%d-%f", "truncate", 12345, 3.25);
    int ro = tsklee_snprintf(ob, n, "%s-%d-%f", "truncate", 12345, 3.25);
    CHECK_INT("trunc ret", rg, ro);
    CHECK_MEM("trunc buf", gb, ob, 32);
  }
  {
    char *ga = NULL, *oa = NULL;
    int rg = asprintf(&ga, "%s %d %.3e %0*d", "asprintf", 99, 1e100, 300, 7);
    int ro = tsklee_asprintf(&oa, "%s %d %.3e %0*d", "asprintf", 99, 1e100, 300, 7);
    CHECK_INT("asprintf ret", rg, ro); CHECK_STR("asprintf", ga, oa);
    free(ga); free(oa);
    rg = sprintf(g, "%s|%5.1f", "sp", 2.25); ro = tsklee_sprintf(o, "%s|%5.1f", "sp", 2.25);
    CHECK_INT("sprintf ret", rg, ro); CHECK_STR("sprintf", g, o);
    ro = tsklee___sprintf_chk(o, 1, sizeof o, "%s|%5.1f", "sp", 2.25); CHECK_STR("__sprintf_chk", g, o);
    ro = tsklee___snprintf_chk(o, 10, 1, sizeof o, "%s|%5.1f", "sp", 2.25); snprintf(g, 10, "%s|%5.1f", "sp", 2.25);
    CHECK_STR("__snprintf_chk", g, o);
  }
  /* floating point: edge values */
  double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 0.125, 0.1, 1e-300, 1e300, DBL_MAX, -DBL_MAX, DBL_MIN,
                    DBL_TRUE_MIN, 4.9406564584124654e-324 * 3, 2.2250738585072009e-308, INFINITY, -INFINITY, NAN, -NAN,
                    9.5, 99.5, 999.5, 0.05, 0.15, 0.25, 0.35, 1e15, 1e16, 1e17, 1e21, 1e22, 1e23, 123456789.0, 5e-5,
                    0.0001, 0.00001, 1e-5, 9.999999e-5, 0.000099999, 999999.5, 9999995.0, 0.9999995, 1.0 / 3, 2.0 / 3,
                    M_PI, M_E, 4503599627370496.5, 9007199254740993.0};
  static const char *ffl[] = {"", "-", "+", " ", "#", "0", "+0", "-#", "#0", " #"};
  static const char fconv[] = "eEfFgGaA";
  static const char *fwid[] = {"", "1", "12", "30"};
  for (size_t ei = 0; ei < sizeof edges / sizeof *edges; ei++)
    for (size_t fi = 0; fi < sizeof ffl / sizeof *ffl; fi++)
      for (size_t wi = 0; wi < 4; wi++)
        for (const char *c = fconv; *c; c++) {
          snprintf(fmt, sizeof fmt, "%%%s%s%c", ffl[fi], fwid[wi], *c);
          CMP("fp edge", fmt, edges[ei]);
          for (int p = 0; p <= 20; p += (p < 4 ? 1 : 5)) {
            snprintf(fmt, sizeof fmt, "%%%s%s.%d%c", ffl[fi], fwid[wi], p, *c);
            CMP("fp edge", fmt, edges[ei]);
          }
        }
  /* huge precisions */
  for (size_t ei = 0; ei < sizeof edges / sizeof *edges; ei++) {
    CMP("fp huge", "%.1100f", edges[ei]);
    CMP("fp huge", "%.800e", edges[ei]);
    CMP("fp huge", "%.800g", edges[ei]);
    CMP("fp huge", "%#.800g", edges[ei]);
    CMP("fp huge", "%.40a", edges[ei]);
  }
  /* random doubles at precisions 0..20 */
  long nrand = 0;
  for (int i = 0; i < 20000; i++) {
    double d = (i & 1) ? rand_double() : nice_double();
    int p = (int)(rnd() % 21);
    char c = fconv[rnd() % 8];
    snprintf(fmt, sizeof fmt, "%%.%d%c", p, c);
    CMP("fp random", fmt, d);
    CMP("fp random", "%g|%e|%a", d, d, d);
    nrand++;
  }
  CMP("fp f big", "%f|%.0f", 1e308, DBL_MAX);
  /* long doubles */
  long double ledges[] = {0.0L, -0.0L, 1.0L, 0.1L, 1e4000L, 1e-4000L, LDBL_MAX, LDBL_MIN, LDBL_TRUE_MIN, 2.5L, 0.5L,
                          (long double)INFINITY, -(long double)INFINITY, (long double)NAN, 3.141592653589793238L};
  for (size_t ei = 0; ei < sizeof ledges / sizeof *ledges; ei++)
    for (const char *c = fconv; *c; c++)
      for (int p = -1; p <= 20; p += 3) {
        if (p < 0) snprintf(fmt, sizeof fmt, "%%L%c", *c);
        else snprintf(fmt, sizeof fmt, "%%#+.%dL%c", p, *c);
        CMP("ldbl edge", fmt, ledges[ei]);
      }
  for (size_t ei = 0; ei < sizeof ledges / sizeof *ledges; ei++) { CMP("ldbl huge", "%.200Lf|%.300Le", ledges[ei], ledges[ei]); }
  CMP("ldbl max f", "%Lf", LDBL_MAX);
  CMP("ldbl min f", "%.16500Lf", LDBL_TRUE_MIN);
  for (int i = 0; i < 5000; i++) {
    long double x = rand_ldouble();
    int p = (int)(rnd() % 21);
    char c = fconv[rnd() % 8];
    snprintf(fmt, sizeof fmt, "%%.%dL%c", p, c);
    CMP("ldbl random", fmt, x);
    CMP("ldbl random", "%Lg|%Le|%La", x, x, x);
  }
  /* a float through varargs, mixed */
  CMP("mixed", "%d %s %.2f %c %x %e %%", 5, "x", 3.14159f, 'c', 255u, 1e-10);
  CMP("unknown conv", "a%yb%5yc", 0);
  /* %a rounding and carries */
  {
    double av[] = {1.5, 2.5, 0x1.f8p0, 0x1.fffffffffffffp0, 0x1.08p0, 0x1.18p0, 0x1.28p0, 0x0.8p-1022, 0x0.fffffffffffffp-1022, 0x1.8p-1074 * 2};
    for (int i = 0; i < 10; i++) for (int p = 0; p < 15; p++) { snprintf(fmt, sizeof fmt, "%%.%da|%%#.%dA", p, p); CMP("a round", fmt, av[i], av[i]); }
    long double lv[] = {1.5L, 0xf.8p0L, 0xf.fffffffffffffffp0L, 0x8.8p0L, 0x9.8p0L, 0x1p-16445L, 0x1.8p-16400L, 0xf.fp+16380L};
    for (int i = 0; i < 8; i++) for (int p = 0; p < 17; p++) { snprintf(fmt, sizeof fmt, "%%.%dLa|%%#.%dLA", p, p); CMP("La round", fmt, lv[i], lv[i]); }
  }
  /* random flags/width/precision/conversion on random doubles */
  for (int i = 0; i < 20000; i++) {
    double d = (i & 1) ? rand_double() : nice_double();
    static const char *fl[] = {"", "-", "+", " ", "#", "0", "-+", "+0", "#0", "- #", "0 "};
    int w = (int)(rnd() % 30), p = (int)(rnd() % 25) - 1;
    char pr[8] = "";
    if (p >= 0) snprintf(pr, sizeof pr, ".%d", p);
    snprintf(fmt, sizeof fmt, "%%%s%d%s%c", fl[rnd() % 11], w, pr, fconv[rnd() % 8]);
    CMP("fp random fmt", fmt, d);
  }
  /* small values around the last printed place of %f (rounding to 0 or up to one unit) */
  for (int i = 0; i < 20000; i++) {
    double v = (double)(rnd() % 1000) * pow(10.0, -(int)(rnd() % 14));
    if (rnd() & 1) v = -v;
    snprintf(fmt, sizeof fmt, "%%.%df|%%.%dg|%%.%de", (int)(rnd() % 13), (int)(rnd() % 6), (int)(rnd() % 4));
    CMP("fp small", fmt, v, v, v);
  }
  /* positional arguments */
  CMP("pos", "%2$s %1$d", 42, "str");
  CMP("pos", "%3$*1$.*2$f|%4$s|%3$e", 12, 3, 3.14159, "again");
  CMP("pos", "%1$lld %2$Lg %3$p %1$llx %4$c %5$hhd", -5LL, 2.5L, (void *)0x1234, 'q', 300);
  CMP("pos", "%2$-*1$d|", 6, 77);
  CMP("pos", "%1$s %1$s %2$.2f", "twice", 1.005);
  return summary();
}
