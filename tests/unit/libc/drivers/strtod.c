/* strtod/strtof/strtold: tsklee vs glibc, bit-exact results, errno and *endptr.
 * Categories (printed as "RATE <category> <checks> <mismatches>"):
 *   syntax     edge cases of the accepted syntax, inf/nan, hex, overflow/underflow
 *   decimal    random short decimals (%.Ng of random doubles, random digit strings)
 *   roundtrip  %.17g of random doubles (all exponents)
 *   hex        %a of random doubles and random hex strings
 *   halfway    strings within 1e-40 of the midpoint of two adjacent doubles (hardest)
 *   float      strtof on the decimal and roundtrip inputs
 *   longdouble strtold on the same inputs (known limit: not correctly rounded)
 */
#include "check.h"
#include <errno.h>
#include <float.h>
#include <math.h>

extern double tsklee_strtod(const char *, char **);
extern float tsklee_strtof(const char *, char **);
extern long double tsklee_strtold(const char *, char **);
extern int *tsklee___errno_location(void);
#define terrno (*tsklee___errno_location())

static long cat_checks[8], cat_mism[8];
static const char *cat_names[8] = {"syntax", "decimal", "roundtrip", "hex", "halfway", "float", "longdouble"};
static int cur;

static void rec(int same, const char *fn, const char *s, const char *what) {
  cat_checks[cur]++;
  if (!same) cat_mism[cur]++;
  checks++;
  if (!same) {
    mismatches++;
    printf("MISMATCH [%s] %s(\"%.80s\") %s\n", cat_names[cur], fn, s, what);
  }
}

static void test_d(const char *s) {
  char *eg, *eo;
  errno = 0; terrno = 0;
  double g = strtod(s, &eg);
  int errg = errno;
  double o = tsklee_strtod(s, &eo);
  char d[120];
  snprintf(d, sizeof d, "glibc=%a tsklee=%a", g, o);
  rec(memcmp(&g, &o, sizeof g) == 0, "strtod", s, d);
  snprintf(d, sizeof d, "end glibc=%ld tsklee=%ld", (long)(eg - s), (long)(eo - s));
  rec(eg == eo, "strtod", s, d);
  snprintf(d, sizeof d, "errno glibc=%d tsklee=%d", errg, terrno);
  rec(errg == terrno, "strtod", s, d);
}

static void test_f(const char *s) {
  char *eg, *eo;
  errno = 0; terrno = 0;
  float g = strtof(s, &eg);
  int errg = errno;
  float o = tsklee_strtof(s, &eo);
  char d[120];
  snprintf(d, sizeof d, "glibc=%a tsklee=%a", g, o);
  rec(memcmp(&g, &o, sizeof g) == 0, "strtof", s, d);
  rec(eg == eo, "strtof", s, "end");
  snprintf(d, sizeof d, "errno glibc=%d tsklee=%d", errg, terrno);
  rec(errg == terrno, "strtof", s, d);
}

static void test_ld(const char *s) {
  char *eg, *eo;
  errno = 0; terrno = 0;
  long double g = strtold(s, &eg);
  int errg = errno;
  long double o = tsklee_strtold(s, &eo);
  char d[120];
  snprintf(d, sizeof d, "glibc=%La tsklee=%La", g, o);
  rec(memcmp(&g, &o, 10) == 0, "strtold", s, d);
  rec(eg == eo, "strtold", s, "end");
  snprintf(d, sizeof d, "errno glibc=%d tsklee=%d", errg, terrno);
  rec(errg == terrno, "strtold", s, d);
}

static double rand_double(void) {
  uint64_t u;
  do {
    u = (uint64_t)rnd() << 32 | rnd();
  } while (((u >> 52) & 0x7ff) == 0x7ff);
  double d;
  memcpy(&d, &u, 8);
  return d;
}

int main(void) {
  static const char *syntax[] = {
      "", " ", "x", ".", "-", "+", "-.", ".e1", "e1", "0", "-0", "+0", "0.", ".0", "0.0e0", "1", "-1", "1.5", "  1.5x", "\t\n-2.25e+3junk",
      "1e", "1e+", "1e-", "1e5", "1E5", "1e-5", "1.e5", ".5e-1", "123.456e7", "1e308", "1.7976931348623157e308",
      "1.7976931348623158e308", "1.7976931348623159e308", "2e308", "1e309", "-1e309", "1e400", "1e99999999999", "1e-99999999999",
      "4.9406564584124654e-324", "5e-324", "2.4703282292062328e-324", "2.4703282292062327e-324", "2e-324", "3e-324",
      "1e-320", "2.2250738585072014e-308", "2.2250738585072011e-308", "2.225073858507201e-308", "1e-310", "1e-400",
      "inf", "INF", "-inf", "+Inf", "infinity", "INFINITY", "infinit", "infx", "in", "nan", "NAN", "-nan", "NaN(123)",
      "nan(0x1f)", "nan()", "nan(abc_1)", "nan(", "nan(1", "nan(12 3)", "nanx", "0x", "0x.", "0xg", "0x1", "0X1P3", "0x1.8p1",
      "0x.8p1", "0x1p", "0x1p+", "0x1p-1074", "0x1p-1075", "0x1.8p-1075", "0x1p-1076", "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7p1023",
      "0x1p1024", "-0x1p-1080", "0x1.0000000000000800000001p0", "0x1.00000000000008p0", "0x1.00000000000018p0",
      "0x123456789abcdef0123456789p-20", "0x0.000000000000000000000000000001p0", "0x0p0", "-0x0.0p99",
      "00000000000000000000000000000000000001", "0.000000000000000000000000000000000000001", "1000000000000000000000000000000000000000",
      "123456789012345678901234567890", "1.00000000000000011102230246251565404236316680908203125",
      "1.00000000000000011102230246251565404236316680908203124", "1.00000000000000011102230246251565404236316680908203126",
      "9007199254740993", "9007199254740993.0000000000000000001", "9007199254740995", "0.1", "0.2", "0.3", "3.14159265358979323846",
      "1e23", "8.589973e9", "5e-1", "123e-2", "1e22", "1e-22", "4503599627370496.5", "4503599627370497.5",
      "3.4028234663852886e38", "3.4028235677973366e38", "3.4028236e38", "1.17549435e-38", "1.4e-45", "7e-46", "1e-46",
  };
  cur = 0;
  for (unsigned i = 0; i < sizeof syntax / sizeof syntax[0]; i++) {
    test_d(syntax[i]);
    test_f(syntax[i]);
  }
  char buf[128];
  cur = 1;
  for (int iter = 0; iter < 30000; iter++) {
    if (iter % 2) {
      double d = rand_double();
      snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rnd() % 16), d);
    } else {
      int n = 1 + rnd() % 20, p = 0;
      if (rnd() % 4 == 0) buf[p++] = '-';
      for (int k = 0; k < n; k++) {
        buf[p++] = '0' + rnd() % 10;
        if (k == 0 && rnd() % 2) buf[p++] = '.';
      }
      p += snprintf(buf + p, 20, "e%d", (int)(rnd() % 640) - 330);
    }
    test_d(buf);
  }
  cur = 2;
  for (int iter = 0; iter < 30000; iter++) {
    snprintf(buf, sizeof buf, "%.17g", rand_double());
    test_d(buf);
  }
  cur = 3;
  for (int iter = 0; iter < 10000; iter++) {
    snprintf(buf, sizeof buf, "%a", rand_double());
    test_d(buf);
    int n = 1 + rnd() % 24, p = 0;
    buf[p++] = '0'; buf[p++] = 'x';
    for (int k = 0; k < n; k++) {
      buf[p++] = "0123456789abcdef"[rnd() % 16];
      if (k == 0 && rnd() % 2) buf[p++] = '.';
    }
    snprintf(buf + p, 20, "p%d", (int)(rnd() % 2200) - 1100);
    test_d(buf);
    test_f(buf);
  }
  cur = 4;
  for (int iter = 0; iter < 10000; iter++) {
    double d = fabs(rand_double());
    double next = nextafter(d, INFINITY);
    if (isinf(next)) continue;
    long double mid = ((long double)d + (long double)next) / 2;
    int digits = 17 + rnd() % 25;
    snprintf(buf, sizeof buf, "%.*Le", digits, mid);
    test_d(buf);
  }
  cur = 5;
  for (int iter = 0; iter < 20000; iter++) {
    if (iter % 2) snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rnd() % 12), (double)(float)rand_double());
    else snprintf(buf, sizeof buf, "%.9g", (double)(float)((rnd() % 2 ? 1e-30 : 1e10) * (rnd() / 4294967296.0)));
    test_f(buf);
  }
  cur = 6;
  for (int iter = 0; iter < 20000; iter++) {
    if (iter % 2) snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rnd() % 20), rand_double());
    else snprintf(buf, sizeof buf, "%La", (long double)rand_double() * (1.0L + rnd() / 1e12L));
    test_ld(buf);
  }
  /* long double extremes: huge/tiny exponents, subnormal long doubles, many digits */
  static const char *ldx[] = {"1e4932", "1.18973149535723176502e4932", "1.18973149535723176508e4932", "1.2e4932", "1e4933",
                              "3.36210314311209350626e-4932", "3.6451995318824746025e-4951", "1.8e-4951", "1.9e-4951", "3e-4951",
                              "1e-4950", "1e-4940", "5e-4900", "1e-5000", "0x1p-16445", "0x1p-16446", "0x1.8p-16446", "0x1p16383", "0x1p16384",
                              "123456789012345678901234567890123456789e4850", "0.000000000000000000000000000000000000001e-4900"};
  for (unsigned i = 0; i < sizeof ldx / sizeof ldx[0]; i++) {
    test_ld(ldx[i]);
    test_d(ldx[i]);
  }
  for (int iter = 0; iter < 3000; iter++) {
    int n = 1 + rnd() % 25, p = 0;
    for (int k = 0; k < n; k++) buf[p++] = '0' + rnd() % 10;
    snprintf(buf + p, 20, "e%d", (int)(rnd() % 9900) - 4950);
    test_ld(buf);
  }
  for (int c = 0; c < 7; c++) printf("RATE %s %ld %ld\n", cat_names[c], cat_checks[c], cat_mism[c]);
  return summary();
}
