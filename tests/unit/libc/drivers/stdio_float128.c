/* __float128 text: tsklee_strfromf128 against glibc's strfromf128 and tsklee_quadmath_snprintf
 * against libquadmath's quadmath_snprintf, bit-exact, on edge and random values × formats
 * (linked with -lquadmath). */
#include "check.h"

typedef __float128 Q;

int strfromf128(char *restrict, size_t, const char *restrict, Q);
int quadmath_snprintf(char *, size_t, const char *, ...);
int tsklee_strfromf128(char *restrict, size_t, const char *restrict, Q);
int tsklee_quadmath_snprintf(char *, size_t, const char *, ...);

static char g[6000], o[6000];

static Q q_of(uint64_t hi, uint64_t lo) {
  uint64_t u[2] = {lo, hi};
  Q x;
  memcpy(&x, u, 16);
  return x;
}

static Q rand_q(void) {
  uint64_t hi = ((uint64_t)rnd() << 32) | rnd(), lo = ((uint64_t)rnd() << 32) | rnd();
  switch (rnd() % 4) {
  case 0: hi = (hi & 0x8000ffffffffffffULL) | ((uint64_t)(0x3fff + (int)(rnd() % 400) - 200) << 48); break; /* moderate */
  case 1: hi = (hi & 0x8000ffffffffffffULL) | ((uint64_t)(0x3fff + (int)(rnd() % 8) - 4) << 48); lo &= ~0ULL << (rnd() % 64); break;
  default: break; /* any pattern */
  }
  return q_of(hi, lo);
}

static void one_from(const char *fmt, Q x, size_t cap) {
  memset(g, 'X', 64);
  memset(o, 'X', 64);
  int rg = strfromf128(g, cap, fmt, x);
  int ro = tsklee_strfromf128(o, cap, fmt, x);
  char d[700];
  snprintf(d, sizeof d, "strfromf128 fmt=[%s] cap=%zu glibc=%d[%.250s] tsklee=%d[%.250s]", fmt, cap, rg, cap ? g : "", ro, cap ? o : "");
  result(rg == ro && (cap == 0 || strcmp(g, o) == 0), "strfromf128", d);
}

#define QSN(fmt, ...)                                                                          \
  do {                                                                                         \
    memset(g, 'X', 64);                                                                        \
    memset(o, 'X', 64);                                                                        \
    int rg_ = quadmath_snprintf(g, sizeof g, fmt, __VA_ARGS__);                                \
    int ro_ = tsklee_quadmath_snprintf(o, sizeof o, fmt, __VA_ARGS__);                         \
    char d_[700];                                                                              \
    snprintf(d_, sizeof d_, "quadmath_snprintf fmt=[%s] libquadmath=%d[%.250s] tsklee=%d[%.250s]", fmt, rg_, rg_ >= 0 ? g : "", ro_, ro_ >= 0 ? o : ""); \
    result(rg_ == ro_ && (rg_ < 0 || strcmp(g, o) == 0), "quadmath_snprintf", d_);            \
  } while (0)

int main(void) {
  verbose_ok = 0;
  Q edges[] = {
      q_of(0, 0), q_of(0x8000000000000000ULL, 0), q_of(0, 1), q_of(0x0000ffffffffffffULL, ~0ULL), q_of(0x0001000000000000ULL, 0),
      q_of(0x7ffeffffffffffffULL, ~0ULL), q_of(0x7fff000000000000ULL, 0), q_of(0xffff000000000000ULL, 0),
      q_of(0x7fff800000000000ULL, 5), q_of(0xffff800000000000ULL, 0), q_of(0x3fff000000000000ULL, 0),
      q_of(0x3ffd555555555555ULL, 0x5555555555555555ULL), q_of(0x3ffb999999999999ULL, 0x999999999999999aULL), /* ≈ 0.1 */
      q_of(0x4000000000000000ULL, 0x8000000000000000ULL), q_of(0x3ffe000000000000ULL, 0), q_of(0x4002400000000000ULL, 0),
      q_of(0x4070000000000000ULL, 0), q_of(0x406fffffffffffffULL, ~0ULL), q_of(0x3fffffffffffffffULL, ~0ULL), /* 2 − ulp */
      q_of(0x3ffef00000000000ULL, 0), q_of(0x4009f40000000000ULL, 0), /* 0.96875, 2000 */
  };
  const char *from_fmts[] = {"%a", "%A", "%.0a", "%.3a", "%.27a", "%.28a", "%.40a", "%e", "%E", "%.0e", "%.20e", "%.34e", "%.40e",
                             "%f", "%F", "%.0f", "%.3f", "%.40f", "%g", "%G", "%.0g", "%.1g", "%.17g", "%.33g", "%.36g", "%.50g", "%.e"};
  size_t nf = sizeof from_fmts / sizeof from_fmts[0];
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    for (size_t j = 0; j < nf; j++) one_from(from_fmts[j], edges[i], sizeof g);
  for (int i = 0; i < 3000; i++) {
    Q x = rand_q();
    one_from(from_fmts[rnd() % nf], x, sizeof g);
  }
  /* truncation and size 0 (the macros above evaluate their arguments twice: no rnd() in them) */
  /* (not size 1: glibc 2.36's strfromf128 then sets up its string stream with size 0, which libio
   * reads as "up to the NUL already in dest", and writes the whole text past the buffer) */
  for (size_t cap = 0; cap < 12; cap++)
    if (cap != 1) one_from("%.10e", edges[11], cap);

  const char *qs[] = {"%Qa", "%QA", "%.3Qa", "%Qe", "%+.20Qe", "%-40.30Qe", "%Qf", "% .5Qf", "%#.0Qf", "%040.10Qf", "%-+12Qg",
                      "%#Qg", "%.36Qg", "%QG", "%'Qf", "%I Qf", "%010QA", "x%Qf", "%Qf ", "%Lf", "%Q", "%QQf", "%Qd", "%.Qe"};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
    for (size_t j = 0; j < sizeof qs / sizeof qs[0]; j++) QSN(qs[j], edges[i]);
  for (int i = 0; i < 1000; i++) {
    Q x = rand_q();
    const char *f = qs[rnd() % 17];
    int w = (int)(rnd() % 50) - 10, p = (int)(rnd() % 40) - 3;
    QSN(f, x);
    QSN("%*.*Qg", w, p, x);
  }
  return summary();
}
