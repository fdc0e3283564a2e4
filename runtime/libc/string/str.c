/* string functions of <string.h> and <strings.h> (C locale). */
#include "../internal.h"
#include <string.h>
#include <strings.h>
#include <stdlib.h>

size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}

size_t strnlen(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n]) n++;
  return n;
}

int strcmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  while (*x && *x == *y) x++, y++;
  return (*x > *y) - (*x < *y);
}

int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (; n > 0; n--, x++, y++) {
    if (*x != *y) return *x < *y ? -1 : 1;
    if (*x == 0) return 0;
  }
  return 0;
}

int strcasecmp(const char *a, const char *b) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (;; x++, y++) {
    int cx = __tsklee_tolower(*x), cy = __tsklee_tolower(*y);
    if (cx != cy) return cx - cy;
    if (cx == 0) return 0;
  }
}

int strncasecmp(const char *a, const char *b, size_t n) {
  const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
  for (; n > 0; n--, x++, y++) {
    int cx = __tsklee_tolower(*x), cy = __tsklee_tolower(*y);
    if (cx != cy) return cx - cy;
    if (cx == 0) return 0;
  }
  return 0;
}

/* The C locale collates by byte value. */
int strcoll(const char *a, const char *b) { return strcmp(a, b); }

size_t strxfrm(char *restrict dst, const char *restrict src, size_t n) {
  size_t len = strlen(src);
  if (n > 0) {
    size_t k = len < n ? len + 1 : n;
    memcpy(dst, src, k);
  }
  return len;
}

char *strcpy(char *restrict dst, const char *restrict src) {
  size_t i = 0;
  while ((dst[i] = src[i]) != 0) i++;
  return dst;
}

char *stpcpy(char *restrict dst, const char *restrict src) {
  while ((*dst = *src) != 0) dst++, src++;
  return dst;
}

char *strncpy(char *restrict dst, const char *restrict src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i]; i++) dst[i] = src[i];
  for (; i < n; i++) dst[i] = 0;
  return dst;
}

char *stpncpy(char *restrict dst, const char *restrict src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i]; i++) dst[i] = src[i];
  char *end = dst + i;
  for (; i < n; i++) dst[i] = 0;
  return end;
}

char *strcat(char *restrict dst, const char *restrict src) {
  strcpy(dst + strlen(dst), src);
  return dst;
}

char *strncat(char *restrict dst, const char *restrict src, size_t n) {
  char *d = dst + strlen(dst);
  size_t i = 0;
  for (; i < n && src[i]; i++) d[i] = src[i];
  d[i] = 0;
  return dst;
}

size_t strlcpy(char *restrict dst, const char *restrict src, size_t n) {
  size_t len = strlen(src);
  if (n > 0) {
    size_t k = len < n - 1 ? len : n - 1;
    memcpy(dst, src, k);
    dst[k] = 0;
  }
  return len;
}

size_t strlcat(char *restrict dst, const char *restrict src, size_t n) {
  size_t dl = strnlen(dst, n);
  if (dl == n) return n + strlen(src);
  return dl + strlcpy(dst + dl, src, n - dl);
}

char *strchr(const char *s, int c) {
  for (;; s++) {
    if (*s == (char)c) return (char *)s;
    if (*s == 0) return NULL;
  }
}

char *strchrnul(const char *s, int c) {
  while (*s && *s != (char)c) s++;
  return (char *)s;
}

char *strrchr(const char *s, int c) {
  const char *last = NULL;
  for (;; s++) {
    if (*s == (char)c) last = s;
    if (*s == 0) return (char *)last;
  }
}

char *index(const char *s, int c) { return strchr(s, c); }
char *rindex(const char *s, int c) { return strrchr(s, c); }

char *strstr(const char *hay, const char *needle) {
  if (*needle == 0) return (char *)hay;
  for (; *hay; hay++) {
    size_t j = 0;
    while (needle[j] && hay[j] == needle[j]) j++;
    if (needle[j] == 0) return (char *)hay;
  }
  return NULL;
}

char *strcasestr(const char *hay, const char *needle) {
  if (*needle == 0) return (char *)hay;
  for (; *hay; hay++) {
    size_t j = 0;
    while (needle[j] && __tsklee_tolower((unsigned char)hay[j]) ==
                            __tsklee_tolower((unsigned char)needle[j]))
      j++;
    if (needle[j] == 0) return (char *)hay;
  }
  return NULL;
}

size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (s[n] && strchr(accept, s[n])) n++;
  return n;
}

size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while (s[n] && !strchr(reject, s[n])) n++;
  return n;
}

char *strpbrk(const char *s, const char *accept) {
  s += strcspn(s, accept);
  return *s ? (char *)s : NULL;
}

char *strtok_r(char *restrict s, const char *restrict delim, char **restrict save) {
  if (s == NULL) s = *save;
  if (s == NULL) return NULL;
  s += strspn(s, delim);
  if (*s == 0) {
    *save = s;
    return NULL;
  }
  char *end = s + strcspn(s, delim);
  if (*end) {
    *end = 0;
    *save = end + 1;
  } else {
    *save = end;
  }
  return s;
}

char *strtok(char *restrict s, const char *restrict delim) {
  static char *save;
  return strtok_r(s, delim, &save);
}

char *strsep(char **sp, const char *delim) {
  char *s = *sp;
  if (s == NULL) return NULL;
  char *end = s + strcspn(s, delim);
  if (*end) {
    *end = 0;
    *sp = end + 1;
  } else {
    *sp = NULL;
  }
  return s;
}

char *strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}
char *__strdup(const char *s) { return strdup(s); }

char *strndup(const char *s, size_t max) {
  size_t n = strnlen(s, max);
  char *p = malloc(n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = 0;
  }
  return p;
}
char *__strndup(const char *s, size_t max) { return strndup(s, max); }

/* strverscmp: compares like strcmp, except that runs of digits compare as numbers, and a
 * run with leading zeros as a fraction ("000" < "00" < "01" < "010" < "09" < "0" < "1" <
 * "9" < "10"), with glibc's results in the corner cases. The common prefix is scanned with a
 * small state (outside digits, in an integer, in leading zeros, in a fraction); the first
 * differing pair of bytes decides, depending on that state. */
enum vstate { V_TEXT, V_INT, V_ZEROS, V_FRAC };

static int vclass(unsigned char c) { return c == '0' ? 2 : (c >= '1' && c <= '9') ? 1 : 0; }

int strverscmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  enum vstate st = V_TEXT;
  while (*p == *q) {
    if (*p == 0) return 0;
    int k = vclass(*p);
    if (k == 0) st = V_TEXT;
    else if (st == V_TEXT) st = k == 2 ? V_ZEROS : V_INT;
    else if (st == V_ZEROS && k == 1) st = V_FRAC;
    p++, q++;
  }
  int diff = (int)*p - (int)*q;
  int ka = vclass(*p), kb = vclass(*q);
  int da = ka != 0, db = kb != 0;
  switch (st) {
  case V_TEXT:
    if (ka == 1 && kb == 1) break; /* two integers start here: compare lengths */
    return diff;
  case V_INT:
    if (!da && !db) return diff;
    if (!da) return -1; /* a's number is shorter */
    if (!db) return 1;
    break;
  case V_ZEROS:
    if (!da && !db) return diff;
    if (!da) return 1; /* fewer leading zeros: larger */
    if (!db) return -1;
    return diff;
  case V_FRAC:
    return diff;
  }
  /* same leading part of two integers: the longer digit run is larger, else the first
   * differing digit decides */
  p++, q++;
  while (__tsklee_isdigit(*p)) {
    if (!__tsklee_isdigit(*q)) return 1;
    p++, q++;
  }
  return __tsklee_isdigit(*q) ? -1 : diff;
}
