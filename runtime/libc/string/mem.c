/* memory functions of <string.h> and <strings.h>: byte-at-a-time loops, which is what a
 * symbolic executor wants (no word-sized tricks that mix symbolic bytes). */
#include "../internal.h"
#include <string.h>
#include <strings.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  return dst;
}

void *mempcpy(void *restrict dst, const void *restrict src, size_t n) {
  return (unsigned char *)memcpy(dst, src, n) + n;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if ((uintptr_t)d == (uintptr_t)s || n == 0) return dst;
  if ((uintptr_t)d < (uintptr_t)s) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  } else {
    for (size_t i = n; i > 0; i--) d[i - 1] = s[i - 1];
  }
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = (unsigned char)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}

int bcmp(const void *a, const void *b, size_t n) { return memcmp(a, b, n); }

void *memchr(const void *p, int c, size_t n) {
  const unsigned char *s = p;
  for (size_t i = 0; i < n; i++)
    if (s[i] == (unsigned char)c) return (void *)(s + i);
  return NULL;
}

void *memrchr(const void *p, int c, size_t n) {
  const unsigned char *s = p;
  while (n > 0) {
    n--;
    if (s[n] == (unsigned char)c) return (void *)(s + n);
  }
  return NULL;
}

void *rawmemchr(const void *p, int c) {
  const unsigned char *s = p;
  while (*s != (unsigned char)c) s++;
  return (void *)s;
}

void *memmem(const void *hay, size_t hn, const void *needle, size_t nn) {
  const unsigned char *h = hay, *n = needle;
  if (nn == 0) return (void *)h;
  if (hn < nn) return NULL;
  for (size_t i = 0; i + nn <= hn; i++) {
    size_t j = 0;
    while (j < nn && h[i + j] == n[j]) j++;
    if (j == nn) return (void *)(h + i);
  }
  return NULL;
}

void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++) {
    d[i] = s[i];
    if (s[i] == (unsigned char)c) return d + i + 1;
  }
  return NULL;
}

void bzero(void *p, size_t n) { memset(p, 0, n); }

/* Must not be optimised away: the volatile pointer forces the stores. */
void explicit_bzero(void *p, size_t n) {
  volatile unsigned char *d = p;
  for (size_t i = 0; i < n; i++) d[i] = 0;
}

void bcopy(const void *src, void *dst, size_t n) { memmove(dst, src, n); }
