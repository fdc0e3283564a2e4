/* strtol and friends, with glibc's behaviour in the C locale: leading isspace() skipped, an
 * optional sign, "0x"/"0X" accepted for base 16 and base 0, bases 2..36, ERANGE with the
 * limit value on overflow, *endptr = nptr when no digits were read. (No "0b" prefix: glibc
 * 2.36 does not accept it; the __isoc23_* names of newer headers share the same code.) */
#include "../internal.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

/* Parses the magnitude. *neg is the sign, *ovf is set when it does not fit in 64 bits.
 * Returns 0 and sets *ok = 0 when no conversion was done. */
static unsigned long long scan(const char *nptr, char **endptr, int base, int *neg, int *ovf,
                               int *ok) {
  const char *s = nptr;
  *neg = 0;
  *ovf = 0;
  *ok = 0;
  if (base < 0 || base == 1 || base > 36) {
    errno = EINVAL; /* *endptr is left alone, as glibc does */
    return 0;
  }
  while (__tsklee_isspace((unsigned char)*s)) s++;
  if (*s == '-') {
    *neg = 1;
    s++;
  } else if (*s == '+') {
    s++;
  }
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (__tsklee_digitval((unsigned char)s[2]) < 16) {
      s += 2;
      base = 16;
    } else {
      /* "0x" not followed by a hex digit: the "0" is the number */
      if (endptr) *endptr = (char *)s + 1;
      *ok = 1;
      return 0;
    }
  }
  if (base == 0) base = s[0] == '0' ? 8 : 10;
  unsigned long long v = 0;
  const char *start = s;
  for (;; s++) {
    int d = __tsklee_digitval((unsigned char)*s);
    if (d >= base) break;
    if (v > (ULLONG_MAX - (unsigned)d) / (unsigned)base) *ovf = 1;
    else v = v * (unsigned)base + (unsigned)d;
  }
  if (s == start) {
    if (endptr) *endptr = (char *)nptr;
    return 0;
  }
  *ok = 1;
  if (endptr) *endptr = (char *)s;
  return v;
}

long long strtoll(const char *restrict nptr, char **restrict endptr, int base) {
  int neg, ovf, ok;
  unsigned long long v = scan(nptr, endptr, base, &neg, &ovf, &ok);
  if (!ok) return 0;
  if (neg) {
    if (ovf || v > (unsigned long long)LLONG_MAX + 1) {
      errno = ERANGE;
      return LLONG_MIN;
    }
    return (long long)(0 - v);
  }
  if (ovf || v > (unsigned long long)LLONG_MAX) {
    errno = ERANGE;
    return LLONG_MAX;
  }
  return (long long)v;
}

unsigned long long strtoull(const char *restrict nptr, char **restrict endptr, int base) {
  int neg, ovf, ok;
  unsigned long long v = scan(nptr, endptr, base, &neg, &ovf, &ok);
  if (!ok) return 0;
  if (ovf) {
    errno = ERANGE;
    return ULLONG_MAX;
  }
  return neg ? 0 - v : v;
}

/* long and intmax_t are 64 bits on x86-64. */
long strtol(const char *restrict n, char **restrict e, int b) { return strtoll(n, e, b); }
unsigned long strtoul(const char *restrict n, char **restrict e, int b) { return strtoull(n, e, b); }
intmax_t strtoimax(const char *restrict n, char **restrict e, int b) { return strtoll(n, e, b); }
uintmax_t strtoumax(const char *restrict n, char **restrict e, int b) { return strtoull(n, e, b); }
long long strtoq(const char *restrict n, char **restrict e, int b) { return strtoll(n, e, b); }
unsigned long long strtouq(const char *restrict n, char **restrict e, int b) { return strtoull(n, e, b); }

/* Names that newer glibc headers (2.38+, C2x/GNU modes) redirect to. */
long __isoc23_strtol(const char *n, char **e, int b) { return strtoll(n, e, b); }
unsigned long __isoc23_strtoul(const char *n, char **e, int b) { return strtoull(n, e, b); }
long long __isoc23_strtoll(const char *n, char **e, int b) { return strtoll(n, e, b); }
unsigned long long __isoc23_strtoull(const char *n, char **e, int b) { return strtoull(n, e, b); }
intmax_t __isoc23_strtoimax(const char *n, char **e, int b) { return strtoll(n, e, b); }
uintmax_t __isoc23_strtoumax(const char *n, char **e, int b) { return strtoull(n, e, b); }
/* Internal names some older headers/inlines call. */
long __strtol_internal(const char *n, char **e, int b, int g) { (void)g; return strtoll(n, e, b); }
unsigned long __strtoul_internal(const char *n, char **e, int b, int g) { (void)g; return strtoull(n, e, b); }
long long __strtoll_internal(const char *n, char **e, int b, int g) { (void)g; return strtoll(n, e, b); }
unsigned long long __strtoull_internal(const char *n, char **e, int b, int g) { (void)g; return strtoull(n, e, b); }

/* The *_l variants: only the C locale exists. */
long strtol_l(const char *n, char **e, int b, locale_t l) { (void)l; return strtoll(n, e, b); }
unsigned long strtoul_l(const char *n, char **e, int b, locale_t l) { (void)l; return strtoull(n, e, b); }
long long strtoll_l(const char *n, char **e, int b, locale_t l) { (void)l; return strtoll(n, e, b); }
unsigned long long strtoull_l(const char *n, char **e, int b, locale_t l) { (void)l; return strtoull(n, e, b); }

int atoi(const char *s) { return (int)strtoll(s, NULL, 10); }
long atol(const char *s) { return strtoll(s, NULL, 10); }
long long atoll(const char *s) { return strtoll(s, NULL, 10); }

int abs(int x) { return x < 0 ? -x : x; }
long labs(long x) { return x < 0 ? -x : x; }
long long llabs(long long x) { return x < 0 ? -x : x; }
intmax_t imaxabs(intmax_t x) { return x < 0 ? -x : x; }

div_t div(int n, int d) { div_t r = {n / d, n % d}; return r; }
ldiv_t ldiv(long n, long d) { ldiv_t r = {n / d, n % d}; return r; }
lldiv_t lldiv(long long n, long long d) { lldiv_t r = {n / d, n % d}; return r; }
imaxdiv_t imaxdiv(intmax_t n, intmax_t d) { imaxdiv_t r = {n / d, n % d}; return r; }
