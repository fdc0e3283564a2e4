/* strtol family + atoi/abs/div: tsklee vs glibc (value, errno, *endptr). */
#include "check.h"
#include <errno.h>
#include <inttypes.h>
#include <limits.h>

#define D(ret, name, args) extern ret tsklee_##name args;
D(long, strtol, (const char *, char **, int))
D(unsigned long, strtoul, (const char *, char **, int))
D(long long, strtoll, (const char *, char **, int))
D(unsigned long long, strtoull, (const char *, char **, int))
D(intmax_t, strtoimax, (const char *, char **, int))
D(uintmax_t, strtoumax, (const char *, char **, int))
D(int, atoi, (const char *)) D(long, atol, (const char *)) D(long long, atoll, (const char *))
D(int, abs, (int)) D(long, labs, (long)) D(long long, llabs, (long long))
D(div_t, div, (int, int)) D(ldiv_t, ldiv, (long, long)) D(lldiv_t, lldiv, (long long, long long))
extern int *tsklee___errno_location(void);
#define terrno (*tsklee___errno_location())

#define NAME(fmt, ...) (snprintf(name, sizeof name, fmt, __VA_ARGS__), name)

static char name[300];

#define CMP(fn, s, base)                                                                     \
  do {                                                                                       \
    char *eg = (char *)0x1, *eo = (char *)0x1;                                               \
    errno = 0; terrno = 0;                                                                   \
    __typeof__(fn(s, &eg, base)) g = fn(s, &eg, base);                                       \
    int errg = errno;                                                                        \
    __typeof__(g) o = tsklee_##fn(s, &eo, base);                                             \
    CHECK_INT(NAME(#fn "(\"%s\",%d)", s, base), g, o);                                       \
    CHECK_INT(NAME(#fn "-end(\"%s\",%d)", s, base), eg == (char *)1 ? -7 : eg - s, eo == (char *)1 ? -7 : eo - s); \
    CHECK_INT(NAME(#fn "-errno(\"%s\",%d)", s, base), errg, terrno);                       \
  } while (0)

static void all(const char *s, int base) {
  CMP(strtol, s, base);
  CMP(strtoul, s, base);
  CMP(strtoll, s, base);
  CMP(strtoull, s, base);
  CMP(strtoimax, s, base);
  CMP(strtoumax, s, base);
}

int main(void) {
  verbose_ok = 0;
  static const char *fixed[] = {
      "", " ", "0", "-0", "+0", "1", "-1", "+1", "  42", "\t\n\v\f\r 42x", "42 ", "-", "+", "--1", "+-1", " - 1",
      "0x", "0X", "0x1f", "0XFF", "-0x10", "0xg", "0x 1", "00", "007", "08", "0777", "0b101", "1e5", "12abc", "z", "Z",
      "zz", "ZZ", "10", "11", "123456789", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
      "-9223372036854775809", "18446744073709551615", "18446744073709551616", "-18446744073709551615",
      "-18446744073709551616", "99999999999999999999999999", "-99999999999999999999999999",
      "0x7fffffffffffffff", "0x8000000000000000", "0xffffffffffffffff", "0x10000000000000000",
      "0x0000000000000000000000000000001", "1111111111111111111111111111111111111111111111111111111111111111",
      "11111111111111111111111111111111111111111111111111111111111111111", "zzzzzzzzzzzzz",
      "3w5e11264sgsf", "3w5e11264sgsg", "1y2p0ij32e8e7", "1y2p0ij32e8e8", "\xe9" "1", "1\xe9", "4294967295", "4294967296",
      "-2147483648", "2147483647", "2147483648", " +0x7f", "0x+1", "0x-1", "  -0x", "-077", "0_1",
  };
  static const int bases[] = {0, 2, 8, 10, 16, 36, 3, 7, 35, 1, -1, 37, 100};
  for (unsigned i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
    for (unsigned b = 0; b < sizeof bases / sizeof bases[0]; b++) all(fixed[i], bases[b]);

  /* random strings over a small alphabet */
  static const char alpha[] = " \t+-0123456789abcdefxXzZ";
  for (int iter = 0; iter < 20000; iter++) {
    char s[40];
    int n = rnd() % 30;
    for (int k = 0; k < n; k++) s[k] = alpha[rnd() % (sizeof alpha - 1)];
    s[n] = 0;
    int base = bases[rnd() % 6];
    all(s, base);
  }
  /* random numbers printed in various bases */
  for (int iter = 0; iter < 20000; iter++) {
    unsigned long long v = ((unsigned long long)rnd() << 32 | rnd()) >> (rnd() % 64);
    char s[80];
    int base = 2 + rnd() % 35, k = 0;
    char digits[70];
    do { int d = v % base; digits[k++] = d < 10 ? '0' + d : (rnd() & 1 ? 'a' : 'A') + d - 10; v /= base; } while (v);
    int p = 0;
    if (rnd() % 3 == 0) s[p++] = '-';
    while (k) s[p++] = digits[--k];
    s[p] = 0;
    all(s, base);
    if (base == 10 || base == 8 || base == 16) all(s, 0);
  }

  static const char *nums[] = {"0", "42", "-42", " 17x", "2147483647", "2147483648", "-2147483649", "99999999999", "", "abc", "9223372036854775808"};
  for (unsigned i = 0; i < sizeof nums / sizeof nums[0]; i++) {
    CHECK_INT(NAME("atoi(%s)", nums[i]), atoi(nums[i]), tsklee_atoi(nums[i]));
    CHECK_INT(NAME("atol(%s)", nums[i]), atol(nums[i]), tsklee_atol(nums[i]));
    CHECK_INT(NAME("atoll(%s)", nums[i]), atoll(nums[i]), tsklee_atoll(nums[i]));
  }
  int ints[] = {0, 1, -1, 7, -7, INT_MAX, INT_MIN + 1, 100, -100, 3};
  for (unsigned i = 0; i < 10; i++) {
    CHECK_INT(NAME("abs(%d)", ints[i]), abs(ints[i]), tsklee_abs(ints[i]));
    CHECK_INT(NAME("labs(%d)", ints[i]), labs(ints[i] * 3L), tsklee_labs(ints[i] * 3L));
    CHECK_INT(NAME("llabs(%d)", ints[i]), llabs(ints[i] * 5LL), tsklee_llabs(ints[i] * 5LL));
    for (unsigned j = 0; j < 10; j++) {
      if (ints[j] == 0) continue;
      div_t g = div(ints[i], ints[j]), o = tsklee_div(ints[i], ints[j]);
      CHECK_INT(NAME("div(%d,%d).quot", ints[i], ints[j]), g.quot, o.quot);
      CHECK_INT(NAME("div(%d,%d).rem", ints[i], ints[j]), g.rem, o.rem);
      ldiv_t lg = ldiv(ints[i], ints[j]), lo = tsklee_ldiv(ints[i], ints[j]);
      CHECK_INT(NAME("ldiv(%d,%d)", ints[i], ints[j]), lg.quot * 1000 + lg.rem, lo.quot * 1000 + lo.rem);
      lldiv_t llg = lldiv(ints[i], ints[j]), llo = tsklee_lldiv(ints[i], ints[j]);
      CHECK_INT(NAME("lldiv(%d,%d)", ints[i], ints[j]), llg.quot * 1000 + llg.rem, llo.quot * 1000 + llo.rem);
    }
  }
  return summary();
}
