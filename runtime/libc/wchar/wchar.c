/* Multibyte and wide characters in the C locale, as glibc 2.36 defines it: the character set
 * is ASCII, one byte per character; bytes 0x80-0xff are invalid (EILSEQ) and wide
 * characters above 0x7f have no class and no multibyte form. mbstate_t is never used. */
#include "../internal.h"
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>
#include <wctype.h>

size_t mbrtowc(wchar_t *restrict pwc, const char *restrict s, size_t n, mbstate_t *restrict ps) {
  (void)ps;
  if (s == NULL) return 0;
  if (n == 0) return (size_t)-2;
  unsigned char c = (unsigned char)*s;
  if (c >= 0x80) {
    errno = EILSEQ;
    return (size_t)-1;
  }
  if (pwc) *pwc = c;
  return c ? 1 : 0;
}

size_t __mbrtowc(wchar_t *restrict pwc, const char *restrict s, size_t n, mbstate_t *restrict ps) {
  return mbrtowc(pwc, s, n, ps);
}

size_t mbrlen(const char *restrict s, size_t n, mbstate_t *restrict ps) {
  return mbrtowc(NULL, s, n, ps);
}

int mbsinit(const mbstate_t *ps) {
  (void)ps;
  return 1;
}

int mbtowc(wchar_t *restrict pwc, const char *restrict s, size_t n) {
  if (s == NULL) return 0; /* no shift states */
  if (*s == 0) { /* the NUL byte is complete even when n is 0 (as glibc) */
    if (pwc) *pwc = 0;
    return 0;
  }
  size_t r = mbrtowc(pwc, s, n, NULL);
  if (r == (size_t)-1 || r == (size_t)-2) {
    errno = EILSEQ;
    return -1;
  }
  return (int)r;
}

int mblen(const char *s, size_t n) { return mbtowc(NULL, s, n); }

size_t wcrtomb(char *restrict s, wchar_t wc, mbstate_t *restrict ps) {
  (void)ps;
  if (s == NULL) return 1;
  if ((unsigned)wc >= 0x80) {
    errno = EILSEQ;
    return (size_t)-1;
  }
  *s = (char)wc;
  return 1;
}

int wctomb(char *s, wchar_t wc) {
  if (s == NULL) return 0;
  size_t r = wcrtomb(s, wc, NULL);
  return r == (size_t)-1 ? -1 : (int)r;
}

wint_t btowc(int c) { return (c >= 0 && c < 0x80) ? (wint_t)c : WEOF; }
int wctob(wint_t c) { return c < 0x80 ? (int)c : -1 /* EOF */; }

size_t mbsrtowcs(wchar_t *restrict dst, const char **restrict src, size_t len,
                 mbstate_t *restrict ps) {
  (void)ps;
  const unsigned char *s = (const unsigned char *)*src;
  size_t n = 0;
  for (;;) {
    if (dst && n >= len) break;
    if (*s >= 0x80) {
      errno = EILSEQ;
      if (dst) *src = (const char *)s;
      return (size_t)-1;
    }
    if (dst) dst[n] = *s;
    if (*s == 0) {
      if (dst) *src = NULL;
      return n;
    }
    s++;
    n++;
  }
  *src = (const char *)s;
  return n;
}

size_t mbstowcs(wchar_t *restrict dst, const char *restrict src, size_t len) {
  const char *s = src;
  return mbsrtowcs(dst, &s, len, NULL);
}

size_t wcsrtombs(char *restrict dst, const wchar_t **restrict src, size_t len,
                 mbstate_t *restrict ps) {
  (void)ps;
  const wchar_t *s = *src;
  size_t n = 0;
  for (;;) {
    if (dst && n >= len) break;
    if ((unsigned)*s >= 0x80) {
      errno = EILSEQ;
      if (dst) *src = s;
      return (size_t)-1;
    }
    if (dst) dst[n] = (char)*s;
    if (*s == 0) {
      if (dst) *src = NULL;
      return n;
    }
    s++;
    n++;
  }
  *src = s;
  return n;
}

size_t wcstombs(char *restrict dst, const wchar_t *restrict src, size_t len) {
  const wchar_t *s = src;
  return wcsrtombs(dst, &s, len, NULL);
}

/* Wide classification: ASCII only, through the byte classification. */
#include <ctype.h>
#define ASCII(wc) ((wint_t)(wc) < 0x80)
int iswalnum(wint_t c) { return ASCII(c) && isalnum((int)c); }
int iswalpha(wint_t c) { return ASCII(c) && isalpha((int)c); }
int iswblank(wint_t c) { return ASCII(c) && isblank((int)c); }
int iswcntrl(wint_t c) { return ASCII(c) && iscntrl((int)c); }
int iswdigit(wint_t c) { return ASCII(c) && isdigit((int)c); }
int iswgraph(wint_t c) { return ASCII(c) && isgraph((int)c); }
int iswlower(wint_t c) { return ASCII(c) && islower((int)c); }
int iswprint(wint_t c) { return ASCII(c) && isprint((int)c); }
int iswpunct(wint_t c) { return ASCII(c) && ispunct((int)c); }
int iswspace(wint_t c) { return ASCII(c) && isspace((int)c); }
int iswupper(wint_t c) { return ASCII(c) && isupper((int)c); }
int iswxdigit(wint_t c) { return ASCII(c) && isxdigit((int)c); }
wint_t towlower(wint_t c) { return ASCII(c) ? (wint_t)tolower((int)c) : c; }
wint_t towupper(wint_t c) { return ASCII(c) ? (wint_t)toupper((int)c) : c; }

static const char *const class_names[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                          "lower", "print", "punct", "space", "upper", "xdigit"};

wctype_t wctype(const char *name) {
  for (unsigned i = 0; i < 12; i++) {
    const char *a = class_names[i], *b = name;
    while (*a && *a == *b) a++, b++;
    if (*a == 0 && *b == 0) return i + 1;
  }
  return 0;
}

int iswctype(wint_t c, wctype_t desc) {
  switch (desc) {
  case 1: return iswalnum(c);
  case 2: return iswalpha(c);
  case 3: return iswblank(c);
  case 4: return iswcntrl(c);
  case 5: return iswdigit(c);
  case 6: return iswgraph(c);
  case 7: return iswlower(c);
  case 8: return iswprint(c);
  case 9: return iswpunct(c);
  case 10: return iswspace(c);
  case 11: return iswupper(c);
  case 12: return iswxdigit(c);
  default: return 0;
  }
}

int wcwidth(wchar_t c) {
  if (c == 0) return 0;
  return ((unsigned)c < 0x80 && isprint((int)c)) ? 1 : -1;
}

int wcswidth(const wchar_t *s, size_t n) {
  int w = 0;
  for (size_t i = 0; i < n && s[i]; i++) {
    int k = wcwidth(s[i]);
    if (k < 0) return -1;
    w += k;
  }
  return w;
}

size_t wcslen(const wchar_t *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}
