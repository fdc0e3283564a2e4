/* string.h / strings.h: tsklee vs glibc on edge cases and random buffers. */
#include "check.h"
#include <strings.h>

#define D(ret, name, args) extern ret tsklee_##name args;
D(void *, memcpy, (void *, const void *, size_t))
D(void *, mempcpy, (void *, const void *, size_t))
D(void *, memmove, (void *, const void *, size_t))
D(void *, memset, (void *, int, size_t))
D(int, memcmp, (const void *, const void *, size_t))
D(void *, memchr, (const void *, int, size_t))
D(void *, memrchr, (const void *, int, size_t))
D(void *, rawmemchr, (const void *, int))
D(void *, memmem, (const void *, size_t, const void *, size_t))
D(void *, memccpy, (void *, const void *, int, size_t))
D(size_t, strlen, (const char *))
D(size_t, strnlen, (const char *, size_t))
D(int, strcmp, (const char *, const char *))
D(int, strncmp, (const char *, const char *, size_t))
D(int, strcasecmp, (const char *, const char *))
D(int, strncasecmp, (const char *, const char *, size_t))
D(int, strcoll, (const char *, const char *))
D(size_t, strxfrm, (char *, const char *, size_t))
D(char *, strcpy, (char *, const char *))
D(char *, stpcpy, (char *, const char *))
D(char *, strncpy, (char *, const char *, size_t))
D(char *, stpncpy, (char *, const char *, size_t))
D(char *, strcat, (char *, const char *))
D(char *, strncat, (char *, const char *, size_t))
D(char *, strchr, (const char *, int))
D(char *, strrchr, (const char *, int))
D(char *, strchrnul, (const char *, int))
D(char *, index, (const char *, int))
D(char *, rindex, (const char *, int))
D(char *, strstr, (const char *, const char *))
D(char *, strcasestr, (const char *, const char *))
D(size_t, strspn, (const char *, const char *))
D(size_t, strcspn, (const char *, const char *))
D(char *, strpbrk, (const char *, const char *))
D(char *, strtok, (char *, const char *))
D(char *, strtok_r, (char *, const char *, char **))
D(char *, strsep, (char **, const char *))
D(char *, strdup, (const char *))
D(char *, strndup, (const char *, size_t))
D(char *, strerror, (int))
D(char *, strerror_r, (int, char *, size_t))
D(int, __xpg_strerror_r, (int, char *, size_t))
D(char *, strsignal, (int))
D(int, strverscmp, (const char *, const char *))
D(void, bzero, (void *, size_t))
D(void, explicit_bzero, (void *, size_t))
D(void, bcopy, (const void *, void *, size_t))
D(int, bcmp, (const void *, const void *, size_t))

static const char alphabet[] = "abcABC-= \xe9\xff";

static void rand_str(char *buf, size_t maxlen) {
  size_t n = rnd() % (maxlen + 1);
  for (size_t i = 0; i < n; i++) buf[i] = alphabet[rnd() % (sizeof alphabet - 1)];
  buf[n] = 0;
}

static long off(const void *p, const void *base) { return p ? (const char *)p - (const char *)base : -1; }

#define NAME(fmt, ...) (snprintf(name, sizeof name, fmt, __VA_ARGS__), name)

int main(void) {
  char name[200];
  verbose_ok = 0;
  static const char *fixed[] = {"", "a", "abc", "ABC", "abd", "ab", "abcd", "Abc", "a-b=c", " ", "\xe9", "\xff\xe9", "bca", "cab", "aaa", "aa"};
  int nf = sizeof fixed / sizeof fixed[0];

  /* comparisons, searches on all pairs of fixed strings */
  for (int i = 0; i < nf; i++) {
    const char *a = fixed[i];
    CHECK_INT(NAME("strlen(%d)", i), strlen(a), tsklee_strlen(a));
    for (size_t k = 0; k < 6; k++) CHECK_INT(NAME("strnlen(%d,%zu)", i, k), strnlen(a, k), tsklee_strnlen(a, k));
    for (int c = 0; c < 256; c += 1) {
      if (c > 5 && !strchr("abcABC-= d\xe9\xff", c)) continue;
      CHECK_INT(NAME("strchr(%d,%d)", i, c), off(strchr(a, c), a), off(tsklee_strchr(a, c), a));
      CHECK_INT(NAME("strrchr(%d,%d)", i, c), off(strrchr(a, c), a), off(tsklee_strrchr(a, c), a));
      CHECK_INT(NAME("strchrnul(%d,%d)", i, c), off(strchrnul(a, c), a), off(tsklee_strchrnul(a, c), a));
      CHECK_INT(NAME("index(%d,%d)", i, c), off(index(a, c), a), off(tsklee_index(a, c), a));
      CHECK_INT(NAME("rindex(%d,%d)", i, c), off(rindex(a, c), a), off(tsklee_rindex(a, c), a));
      size_t n = strlen(a) + 1;
      CHECK_INT(NAME("memchr(%d,%d)", i, c), off(memchr(a, c, n), a), off(tsklee_memchr(a, c, n), a));
      CHECK_INT(NAME("memrchr(%d,%d)", i, c), off(memrchr(a, c, n), a), off(tsklee_memrchr(a, c, n), a));
      CHECK_INT(NAME("memchr-int(%d,%d)", i, c + 256), off(memchr(a, c + 256, n), a), off(tsklee_memchr(a, c + 256, n), a));
      if (memchr(a, c, n)) CHECK_INT(NAME("rawmemchr(%d,%d)", i, c), off(rawmemchr(a, c), a), off(tsklee_rawmemchr(a, c), a));
    }
    for (int j = 0; j < nf; j++) {
      const char *b = fixed[j];
      CHECK_SIGN(NAME("strcmp(%d,%d)", i, j), strcmp(a, b), tsklee_strcmp(a, b));
      CHECK_SIGN(NAME("strcoll(%d,%d)", i, j), strcoll(a, b), tsklee_strcoll(a, b));
      CHECK_SIGN(NAME("strcasecmp(%d,%d)", i, j), strcasecmp(a, b), tsklee_strcasecmp(a, b));
      CHECK_SIGN(NAME("strverscmp(%d,%d)", i, j), strverscmp(a, b), tsklee_strverscmp(a, b));
      for (size_t k = 0; k < 6; k++) {
        CHECK_SIGN(NAME("strncmp(%d,%d,%zu)", i, j, k), strncmp(a, b, k), tsklee_strncmp(a, b, k));
        CHECK_SIGN(NAME("strncasecmp(%d,%d,%zu)", i, j, k), strncasecmp(a, b, k), tsklee_strncasecmp(a, b, k));
      }
      size_t n = strlen(a) < strlen(b) ? strlen(a) : strlen(b);
      CHECK_SIGN(NAME("memcmp(%d,%d)", i, j), memcmp(a, b, n + 1), tsklee_memcmp(a, b, n + 1));
      CHECK_INT(NAME("bcmp0(%d,%d)", i, j), bcmp(a, b, n + 1) == 0, tsklee_bcmp(a, b, n + 1) == 0);
      CHECK_INT(NAME("strstr(%d,%d)", i, j), off(strstr(a, b), a), off(tsklee_strstr(a, b), a));
      CHECK_INT(NAME("strcasestr(%d,%d)", i, j), off(strcasestr(a, b), a), off(tsklee_strcasestr(a, b), a));
      CHECK_INT(NAME("memmem(%d,%d)", i, j), off(memmem(a, strlen(a), b, strlen(b)), a), off(tsklee_memmem(a, strlen(a), b, strlen(b)), a));
      CHECK_INT(NAME("strspn(%d,%d)", i, j), strspn(a, b), tsklee_strspn(a, b));
      CHECK_INT(NAME("strcspn(%d,%d)", i, j), strcspn(a, b), tsklee_strcspn(a, b));
      CHECK_INT(NAME("strpbrk(%d,%d)", i, j), off(strpbrk(a, b), a), off(tsklee_strpbrk(a, b), a));
      char g[64], o[64];
      for (size_t k = 0; k < 7; k++) {
        memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
        strcpy(g, a); strcpy(o, a);
        CHECK_INT(NAME("strncat-ret(%d,%d,%zu)", i, j, k), strncat(g, b, k) - g, tsklee_strncat(o, b, k) - o);
        CHECK_MEM(NAME("strncat(%d,%d,%zu)", i, j, k), g, o, sizeof g);
        memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
        CHECK_INT(NAME("strncpy-ret(%d,%zu)", j, k), strncpy(g, b, k) - g, tsklee_strncpy(o, b, k) - o);
        CHECK_MEM(NAME("strncpy(%d,%zu)", j, k), g, o, sizeof g);
        memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
        CHECK_INT(NAME("stpncpy-ret(%d,%zu)", j, k), stpncpy(g, b, k) - g, tsklee_stpncpy(o, b, k) - o);
        CHECK_MEM(NAME("stpncpy(%d,%zu)", j, k), g, o, sizeof g);
        memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
        CHECK_INT(NAME("strxfrm-ret(%d,%zu)", j, k), strxfrm(g, b, k), tsklee_strxfrm(o, b, k));
        CHECK_MEM(NAME("strxfrm(%d,%zu)", j, k), g, o, k);
        memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
        void *rg = memccpy(g, b, 'c', k), *ro = tsklee_memccpy(o, b, 'c', k);
        CHECK_INT(NAME("memccpy-ret(%d,%zu)", j, k), off(rg, g), off(ro, o));
        CHECK_MEM(NAME("memccpy(%d,%zu)", j, k), g, o, sizeof g);
      }
      memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
      strcpy(g, a); strcpy(o, a);
      CHECK_INT(NAME("strcat-ret(%d,%d)", i, j), strcat(g, b) - g, tsklee_strcat(o, b) - o);
      CHECK_MEM(NAME("strcat(%d,%d)", i, j), g, o, sizeof g);
    }
    char g[64], o[64];
    memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
    CHECK_INT(NAME("strcpy-ret(%d)", i), strcpy(g, a) - g, tsklee_strcpy(o, a) - o);
    CHECK_MEM(NAME("strcpy(%d)", i), g, o, sizeof g);
    memset(g, 'X', sizeof g); memset(o, 'X', sizeof o);
    CHECK_INT(NAME("stpcpy-ret(%d)", i), stpcpy(g, a) - g, tsklee_stpcpy(o, a) - o);
    CHECK_MEM(NAME("stpcpy(%d)", i), g, o, sizeof g);
    char *dg = strdup(a), *dn = tsklee_strdup(a);
    CHECK_STR(NAME("strdup(%d)", i), dg, dn);
    free(dg); free(dn);
    for (size_t k = 0; k < 5; k++) {
      dg = strndup(a, k); dn = tsklee_strndup(a, k);
      CHECK_STR(NAME("strndup(%d,%zu)", i, k), dg, dn);
      free(dg); free(dn);
    }
  }

  /* random buffers: mem* functions, including overlapping memmove */
  for (int iter = 0; iter < 3000; iter++) {
    unsigned char src[96], g[96], o[96];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(rnd() % 4 ? 'a' + rnd() % 3 : rnd());
    size_t n = rnd() % 48, so = rnd() % 48, doff = rnd() % 48;
    memcpy(g, src, sizeof g); memcpy(o, src, sizeof o);
    CHECK_INT(NAME("memmove-ret#%d", iter), (unsigned char *)memmove(g + doff, g + so, n) - g, (unsigned char *)tsklee_memmove(o + doff, o + so, n) - o);
    CHECK_MEM(NAME("memmove#%d(d=%zu,s=%zu,n=%zu)", iter, doff, so, n), g, o, sizeof g);
    memcpy(g, src, sizeof g); memcpy(o, src, sizeof o);
    bcopy(g + so, g + doff, n); tsklee_bcopy(o + so, o + doff, n);
    CHECK_MEM(NAME("bcopy#%d", iter), g, o, sizeof g);
    memcpy(g, src, sizeof g); memcpy(o, src, sizeof o);
    if (doff + n <= so || so + n <= doff) {
      CHECK_INT(NAME("memcpy-ret#%d", iter), (unsigned char *)memcpy(g + doff, g + so, n) - g, (unsigned char *)tsklee_memcpy(o + doff, o + so, n) - o);
      CHECK_MEM(NAME("memcpy#%d", iter), g, o, sizeof g);
      CHECK_INT(NAME("mempcpy-ret#%d", iter), (unsigned char *)mempcpy(g + doff, g + so, n) - g, (unsigned char *)tsklee_mempcpy(o + doff, o + so, n) - o);
    }
    int c = (int)(rnd() % 512) - 128;
    CHECK_INT(NAME("memset-ret#%d", iter), (unsigned char *)memset(g + doff, c, n) - g, (unsigned char *)tsklee_memset(o + doff, c, n) - o);
    CHECK_MEM(NAME("memset#%d", iter), g, o, sizeof g);
    bzero(g + so, n); tsklee_bzero(o + so, n);
    CHECK_MEM(NAME("bzero#%d", iter), g, o, sizeof g);
    explicit_bzero(g + doff, n); tsklee_explicit_bzero(o + doff, n);
    CHECK_MEM(NAME("explicit_bzero#%d", iter), g, o, sizeof g);
    CHECK_SIGN(NAME("memcmp#%d", iter), memcmp(src + so, src + doff, n), tsklee_memcmp(src + so, src + doff, n));
    int ch = src[rnd() % sizeof src];
    CHECK_INT(NAME("memchr#%d", iter), off(memchr(src + so, ch, n), src), off(tsklee_memchr(src + so, ch, n), src));
    CHECK_INT(NAME("memrchr#%d", iter), off(memrchr(src + so, ch, n), src), off(tsklee_memrchr(src + so, ch, n), src));
    size_t nn = rnd() % 4;
    CHECK_INT(NAME("memmem#%d", iter), off(memmem(src + so, n, src + doff, nn), src), off(tsklee_memmem(src + so, n, src + doff, nn), src));
  }

  /* random strings: strtok, strtok_r, strsep, strspn … */
  for (int iter = 0; iter < 2000; iter++) {
    char s[40], d[6], g[40], o[40];
    rand_str(s, 30);
    rand_str(d, 3);
    strcpy(g, s); strcpy(o, s);
    char *pg = strtok(g, d), *po = tsklee_strtok(o, d);
    for (int k = 0; k < 20; k++) {
      CHECK_INT(NAME("strtok#%d.%d", iter, k), off(pg, g), off(po, o));
      if (!pg || !po) break;
      pg = strtok(NULL, d); po = tsklee_strtok(NULL, d);
    }
    CHECK_MEM(NAME("strtok-buf#%d", iter), g, o, strlen(s) + 1);
    strcpy(g, s); strcpy(o, s);
    char *sg, *so_;
    pg = strtok_r(g, d, &sg); po = tsklee_strtok_r(o, d, &so_);
    for (int k = 0; k < 20; k++) {
      CHECK_INT(NAME("strtok_r#%d.%d", iter, k), off(pg, g), off(po, o));
      if (!pg || !po) break;
      pg = strtok_r(NULL, d, &sg); po = tsklee_strtok_r(NULL, d, &so_);
    }
    strcpy(g, s); strcpy(o, s);
    char *rg = g, *ro = o;
    for (int k = 0; k < 40; k++) {
      char *tg = strsep(&rg, d), *to = tsklee_strsep(&ro, d);
      CHECK_INT(NAME("strsep#%d.%d", iter, k), off(tg, g), off(to, o));
      CHECK_INT(NAME("strsep-rest#%d.%d", iter, k), off(rg, g), off(ro, o));
      if (!tg || !to) break;
    }
    CHECK_INT(NAME("strspn#%d", iter), strspn(s, d), tsklee_strspn(s, d));
    CHECK_INT(NAME("strcspn#%d", iter), strcspn(s, d), tsklee_strcspn(s, d));
    CHECK_INT(NAME("strstr#%d", iter), off(strstr(s, d), s), off(tsklee_strstr(s, d), s));
    CHECK_SIGN(NAME("strcmp#%d", iter), strcmp(s, d), tsklee_strcmp(s, d));
    CHECK_SIGN(NAME("strcasecmp#%d", iter), strcasecmp(s, d), tsklee_strcasecmp(s, d));
  }

  /* strverscmp on version-like strings */
  static const char *vers[] = {"", "0", "00", "000", "01", "010", "09", "1", "1.0", "1.01", "1.1", "1.10", "1.9", "9", "10", "11", "a", "a0", "a00", "a01", "a1", "a10", "a9", "abc", "item#99", "item#100", "item#0099", "foo.zml-1", "foo.zml-2", "foo.zml-10", "alpha1", "alpha001", "x.01.2", "x.1.2", "0a", "00a", "1a"};
  int nv = sizeof vers / sizeof vers[0];
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < nv; j++)
      CHECK_SIGN(NAME("strverscmp(\"%s\",\"%s\")", vers[i], vers[j]), strverscmp(vers[i], vers[j]), tsklee_strverscmp(vers[i], vers[j]));
  for (int iter = 0; iter < 3000; iter++) {
    char a[12], b[12];
    static const char va[] = "0019a.";
    int la = rnd() % 8, lb = rnd() % 8;
    for (int k = 0; k < la; k++) a[k] = va[rnd() % 6];
    for (int k = 0; k < lb; k++) b[k] = va[rnd() % 6];
    a[la] = 0; b[lb] = 0;
    CHECK_SIGN(NAME("strverscmp(\"%s\",\"%s\")", a, b), strverscmp(a, b), tsklee_strverscmp(a, b));
  }

  /* strerror / strsignal */
  for (int e = -2; e < 140; e++) {
    CHECK_STR(NAME("strerror(%d)", e), strerror(e), tsklee_strerror(e));
    char bg[64], bo[64];
    CHECK_STR(NAME("strerror_r(%d)", e), strerror_r(e, bg, sizeof bg), tsklee_strerror_r(e, bo, sizeof bo));
    char xg[16], xo[16];
    extern int __xpg_strerror_r(int, char *, size_t);
    int rg2 = __xpg_strerror_r(e, xg, sizeof xg), ro2 = tsklee___xpg_strerror_r(e, xo, sizeof xo);
    CHECK_INT(NAME("__xpg_strerror_r-ret(%d)", e), rg2, ro2);
    CHECK_STR(NAME("__xpg_strerror_r(%d)", e), xg, xo);
  }
  for (int s = -1; s < 70; s++) CHECK_STR(NAME("strsignal(%d)", s), strsignal(s), tsklee_strsignal(s));
  return summary();
}
