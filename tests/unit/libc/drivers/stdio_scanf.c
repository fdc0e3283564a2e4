/* scanf family: tsklee_sscanf (= what __isoc99_sscanf is) against glibc's on many inputs:
 * return values, assigned values, %n, %[...] sets, widths, failures. */
#include "check.h"
#include <stdarg.h>
#include <math.h>

int tsklee___isoc99_sscanf(const char *, const char *, ...);
int tsklee_sscanf(const char *, const char *, ...);

struct slots {
  long long ll[4];
  int i[4];
  short h; signed char hh; long l; unsigned u;
  double d[2]; float f; long double ld;
  char s[4][64];
  void *p;
  int n[2];
};

static void fill(struct slots *s) { memset(s, 0x5a, sizeof *s); }

#define SC(fmt, input, ...)                                                              \
  do {                                                                                   \
    struct slots G, O, *S;                                                               \
    fill(&G); fill(&O);                                                                  \
    S = &G; int rg = sscanf(input, fmt, __VA_ARGS__);                                    \
    S = &O; int ro = tsklee___isoc99_sscanf(input, fmt, __VA_ARGS__);                    \
    char d_[300];                                                                        \
    snprintf(d_, sizeof d_, "fmt=[%s] input=[%s] glibc=%d tsklee=%d", fmt, input, rg, ro); \
    result(rg == ro && memcmp(&G, &O, sizeof G) == 0, "sscanf", d_);                    \
  } while (0)

int main(void) {
  verbose_ok = 0;
  static const char *inputs[] = {"", " ", "0", "1", "-1", "+5", "42 17", "  123abc", "0x1F", "0X", "0x", "0xg", "-0x10",
    "077", "08", "0b101", "999999999999999999999", "-9223372036854775809", "4294967296", "3.14", "-2.5e3", "1e", "1e+",
    ".5", "-.5e-2", "inf", "-INFINITY", "nan", "nan(123)", "infx", "in", "0x1.8p3", "0x.8", "abc def", "hello, world",
    "a]b", "[x]", "12:34:56", "  \t\n 7", "1,2,3", "%5", "x%y", "1.5.5", "-", "+", "--1", "1e5000", "1e-5000",
    "0x1p-1080", "   ", "zz 12", "12 zz", "12345678901234567890123"};
  static const char *ifmts[] = {"%d", "%i", "%u", "%o", "%x", "%X", "%3d", "%1i", "%2x", "%hhd", "%hd", "%ld", "%lld", "%lli",
    "%jd", "%zu", "%*d%d", "%d%n", "%d %d", "%d,%d,%d", "%d:%d:%d", "%5i%n", "%lx", "%llo", "%p", "%%%d", "x%d", "%4lld%lld"};
  for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
    for (size_t j = 0; j < sizeof ifmts / sizeof *ifmts; j++) {
      const char *f = ifmts[j];
      if (strstr(f, "hhd")) SC(f, inputs[i], &S->hh);
      else if (strstr(f, "hd")) SC(f, inputs[i], &S->h);
      else if (strstr(f, "%ld") || strstr(f, "%zu") || strstr(f, "%lx")) SC(f, inputs[i], &S->l);
      else if (strstr(f, "ll") || strstr(f, "jd")) SC(f, inputs[i], &S->ll[0], &S->ll[1]);
      else if (strstr(f, "%p")) SC(f, inputs[i], &S->p);
      else SC(f, inputs[i], &S->i[0], &S->i[1], &S->i[2], &S->i[3]);
    }
    static const char *ffmts[] = {"%f", "%lf", "%Lf", "%e", "%lg", "%la", "%3lf", "%5lf%n", "%lf%lf", "%*f%f", "%4Lg"};
    for (size_t j = 0; j < sizeof ffmts / sizeof *ffmts; j++) {
      const char *f = ffmts[j];
      if (strstr(f, "L")) SC(f, inputs[i], &S->ld);
      else if (strstr(f, "l")) SC(f, inputs[i], &S->d[0], (strstr(f, "%n") ? (void *)&S->n[0] : (void *)&S->d[1]));
      else SC(f, inputs[i], &S->f, &S->f);
    }
    static const char *sfmts[] = {"%s", "%3s", "%s%s", "%c", "%3c", "%[a-z]", "%[^,]", "%[]a-c]", "%[^]]", "%2[0-9]",
      "%[a-z]%n", "%*s%s", "%s %n%s", "%[-a]", "%[a-]", "%[^ \t]%c", "%10c", "%[0-9]:%[0-9]", " %c", "%d%c%s", "%*[^:]:%s"};
    for (size_t j = 0; j < sizeof sfmts / sizeof *sfmts; j++) {
      const char *f = sfmts[j];
      if (strstr(f, "%d")) SC(f, inputs[i], &S->i[0], S->s[0], S->s[1]);
      else if (strstr(f, "%n")) SC(f, inputs[i], S->s[0], &S->n[0], S->s[1]);
      else SC(f, inputs[i], S->s[0], S->s[1], S->s[2]);
    }
  }
  /* random integers and doubles round trip through printed text */
  for (int k = 0; k < 20000; k++) {
    char in[128];
    uint64_t b = ((uint64_t)rnd() << 32) | rnd();
    double d;
    memcpy(&d, &b, 8);
    switch (k % 4) {
    case 0: snprintf(in, sizeof in, "%lld %llx", (long long)b, (unsigned long long)b); SC("%lld %llx", in, &S->ll[0], &S->ll[1]); break;
    case 1: snprintf(in, sizeof in, "%.17g", d); SC("%lf", in, &S->d[0]); break;
    case 2: snprintf(in, sizeof in, "%a", d); SC("%lg%n", in, &S->d[0], &S->n[0]); break;
    default: snprintf(in, sizeof in, "%.9e %d", d, (int)b); SC("%f%d", in, &S->f, &S->i[0]); break;
    }
  }
  /* %m allocation */
  {
    char *ga = NULL, *oa = NULL, *gb = NULL, *ob = NULL;
    int rg = sscanf("alloc me", "%ms %m[a-z]", &ga, &gb);
    int ro = tsklee___isoc99_sscanf("alloc me", "%ms %m[a-z]", &oa, &ob);
    CHECK_INT("%m ret", rg, ro); CHECK_STR("%ms", ga, oa); CHECK_STR("%m[", gb, ob);
    free(ga); free(oa); free(gb); free(ob);
  }
  /* the plain name too */
  { int a = 0, b = 0; CHECK_INT("plain sscanf", 1, tsklee_sscanf("12", "%d", &a)); b = 12; CHECK_INT("plain value", b, a); }
  return summary();
}
