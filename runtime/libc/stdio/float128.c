/*
 * tsklee libc — text of __float128 values. glibc's printf has no conversion for them; a program
 * formats them with glibc's strfromf128 (<stdlib.h>) or libquadmath's quadmath_snprintf
 * (<quadmath.h>), both provided here on the exact formatter of printf_float.c.
 */
#include "stdio_impl.h"
#include <string.h>

/* Copies text (len bytes) into dest (size bytes) as snprintf does; returns len. */
static int store(char *dest, size_t size, const char *text, size_t len) {
  if (size) {
    size_t n = len < size - 1 ? len : size - 1;
    memcpy(dest, text, n);
    dest[n] = 0;
  }
  return len > INT_MAX ? -1 : (int)len;
}

static int convert(char *dest, size_t size, __float128 x, int conv, int prec, int flags, long width) {
  struct __tsklee_fpval v;
  __tsklee_fp_float128(x, &v);
  size_t len;
  char *text = __tsklee_float_text(&v, conv, prec, flags, width, &len);
  if (!text) return -1;
  int r = store(dest, size, text, len);
  free(text);
  return r;
}

static int read_int(const char **p) {
  long v = 0;
  while (**p >= '0' && **p <= '9') {
    if (v < INT_MAX) v = v * 10 + (**p - '0');
    (*p)++;
  }
  return v > INT_MAX ? INT_MAX : (int)v;
}

static int is_float_conv(int c) {
  return c == 'a' || c == 'A' || c == 'e' || c == 'E' || c == 'f' || c == 'F' || c == 'g' || c == 'G';
}

/* glibc: format is "%[.precision]conversion"; anything else aborts (as glibc's does). */
int strfromf128(char *restrict dest, size_t size, const char *restrict format, __float128 f) {
  const char *p = format;
  int prec = -1;
  if (*p++ != '%') abort();
  if (*p == '.') {
    p++;
    prec = read_int(&p);
  }
  if (!is_float_conv(*p)) abort();
  return convert(dest, size, f, *p, prec, 0, 0);
}

/*
 * libquadmath: format is exactly one conversion, "%[flags][width][.precision]Q<conversion>"
 * (flags among "-+ #0'I", width and precision numbers or '*'), else -1.
 */
int quadmath_snprintf(char *str, size_t size, const char *format, ...) {
  const char *p = format;
  int flags = 0, prec = -1;
  long width = 0;
  va_list ap;
  if (*p != '%') return -1;
  va_start(ap, format);
  for (p++;; p++) {
    if (*p == ' ') flags |= F_SPACE;
    else if (*p == '+') flags |= F_PLUS;
    else if (*p == '-') flags |= F_MINUS;
    else if (*p == '#') flags |= F_HASH;
    else if (*p == '0') flags |= F_ZERO;
    else if (*p != '\'' && *p != 'I') break; /* grouping and locale digits: nothing in the C locale */
  }
  if (*p == '*') {
    p++;
    width = va_arg(ap, int);
  } else width = read_int(&p);
  if (*p == '.') {
    p++;
    if (*p == '*') {
      p++;
      prec = va_arg(ap, int);
      if (prec < 0) prec = -1;
    } else prec = read_int(&p);
  }
  int conv = p[0] == 'Q' ? p[1] : 0;
  if (!is_float_conv(conv) || p[2] != 0) {
    va_end(ap);
    return -1;
  }
  __float128 x = va_arg(ap, __float128);
  va_end(ap);
  return convert(str, size, x, conv, prec, flags, width);
}
