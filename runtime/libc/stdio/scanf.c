/*
 * tsklee libc — the scanf family. One scanner over a FILE; sscanf/vsscanf wrap the string
 * in a read-only string stream. Numbers are collected into a buffer (respecting the field
 * width) and converted with strtoull/strtoll/strtod/strtold/strtof. %n, %[...] (ranges,
 * ^, leading ]), '*' suppression, the 'm' allocation flag, all length modifiers.
 * The __isoc99_ names (what <stdio.h> redirects to in C99+ modes) are the same functions.
 */
#include "stdio_impl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct in {
  FILE *f;
  size_t count; /* characters consumed */
};

static int get(struct in *in) {
  int c = fgetc(in->f);
  if (c != EOF) in->count++;
  return c;
}
static void unget(struct in *in, int c) {
  if (c == EOF) return;
  ungetc(c, in->f);
  in->count--;
}

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_BIGL };

static void store_int(void *p, int lm, unsigned long long v) {
  switch (lm) {
  case L_HH: *(char *)p = (char)v; break;
  case L_H: *(short *)p = (short)v; break;
  case L_L: case L_Z: case L_T: *(long *)p = (long)v; break;
  case L_LL: case L_J: case L_BIGL: *(long long *)p = (long long)v; break;
  default: *(int *)p = (int)v;
  }
}

#define NBUF 512

int __tsklee_vfscanf(FILE *f, const char *fmt, va_list ap) {
  struct in in = { f, 0 };
  int assigned = 0;
  const unsigned char *p = (const unsigned char *)fmt;
  char nb[NBUF + 1];
  while (*p) {
    if (__tsklee_isspace(*p)) {
      int c;
      while ((c = get(&in)) != EOF && __tsklee_isspace(c)) {}
      unget(&in, c);
      while (__tsklee_isspace(*p)) p++;
      continue;
    }
    if (*p != '%' || p[1] == '%') {
      int c;
      if (*p == '%') {
        p++;
        while ((c = get(&in)) != EOF && __tsklee_isspace(c)) {}
      } else c = get(&in);
      if (c == EOF) goto input_failure;
      if (c != *p) { unget(&in, c); goto done; }
      p++;
      continue;
    }
    p++;
    int suppress = 0, alloc = 0;
    size_t width = 0;
    /* positional n$ is accepted and ignored (arguments are taken in order) */
    {
      const unsigned char *q = p;
      while (*q >= '0' && *q <= '9') q++;
      if (*q == '$' && q != p) p = q + 1;
    }
    if (*p == '*') { suppress = 1; p++; }
    while (*p >= '0' && *p <= '9') { width = width * 10 + (*p - '0'); p++; }
    if (*p == 'm') { alloc = 1; p++; }
    int lm = L_NONE;
    switch (*p) {
    case 'h': p++; if (*p == 'h') { p++; lm = L_HH; } else lm = L_H; break;
    case 'l': p++; if (*p == 'l') { p++; lm = L_LL; } else lm = L_L; break;
    case 'q': case 'L': p++; lm = L_BIGL; break;
    case 'j': p++; lm = L_J; break;
    case 'z': p++; lm = L_Z; break;
    case 't': p++; lm = L_T; break;
    }
    int conv = *p;
    if (!conv) goto done;
    p++;
    if (conv == 'n') {
      if (!suppress) store_int(va_arg(ap, void *), lm, in.count);
      continue;
    }
    int c;
    if (conv != 'c' && conv != '[') {
      while ((c = get(&in)) != EOF && __tsklee_isspace(c)) {}
      if (c == EOF) goto input_failure;
      unget(&in, c);
    }
    switch (conv) {
    case 'c': case 's': case '[': {
      unsigned char set[256];
      if (conv == '[') {
        int neg = 0;
        if (*p == '^') { neg = 1; p++; }
        memset(set, neg, sizeof set);
        if (*p == ']') { set[']'] = (unsigned char)!neg; p++; }
        while (*p && *p != ']') {
          if (p[1] == '-' && p[2] && p[2] != ']' && p[2] >= p[0]) {
            for (int k = p[0]; k <= p[2]; k++) set[k] = (unsigned char)!neg;
            p += 3;
          } else { set[*p] = (unsigned char)!neg; p++; }
        }
        if (*p == ']') p++;
      }
      if (conv == 'c' && width == 0) width = 1;
      if (conv != 'c' && width == 0) width = (size_t)-1;
      char *dst = NULL, **allocp = NULL;
      size_t cap = 0, n = 0;
      if (!suppress) {
        if (alloc) {
          allocp = va_arg(ap, char **);
          cap = conv == 'c' ? width : 32;
          dst = malloc(cap + 1);
          if (!dst) goto done;
        } else dst = va_arg(ap, char *);
      }
      for (; n < width; ) {
        c = get(&in);
        if (c == EOF) break;
        if ((conv == 's' && __tsklee_isspace(c)) || (conv == '[' && !set[c])) { unget(&in, c); break; }
        if (dst) {
          if (alloc && n >= cap) {
            char *nd = malloc(cap * 2 + 1);
            if (!nd) { free(dst); goto done; }
            memcpy(nd, dst, n);
            free(dst);
            dst = nd;
            cap *= 2;
          }
          dst[n] = (char)c;
        }
        n++;
      }
      if (n == 0) {
        if (dst && alloc) free(dst);
        if (c == EOF) goto input_failure;
        goto done;
      }
      if (dst && conv != 'c') dst[n] = 0;
      if (!suppress) {
        if (alloc) *allocp = dst;
        assigned++;
      }
      break;
    }
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': case 'b': {
      int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : conv == 'b' ? 2 : 16;
      size_t lim = width && width < NBUF ? width : NBUF;
      size_t n = 0;
      int digits = 0;
      c = get(&in);
      if ((c == '+' || c == '-') && n < lim) { nb[n++] = (char)c; c = get(&in); }
      if (c == '0' && n < lim) {
        nb[n++] = '0';
        digits = 1;
        c = get(&in);
        if ((base == 0 || base == 16) && (c == 'x' || c == 'X') && n < lim) {
          nb[n++] = (char)c;
          digits = 0;
          base = 16;
          c = get(&in);
        } else if (base == 0) base = 8;
      }
      if (base == 0) base = 10;
      while (c != EOF && n < lim && __tsklee_digitval(c) < base) { nb[n++] = (char)c; digits = 1; c = get(&in); }
      unget(&in, c);
      if (!digits) {
        /* "0x" alone: glibc takes it as 0 */
        if (n >= 2 && (nb[n - 1] == 'x' || nb[n - 1] == 'X') && nb[n - 2] == '0') { nb[n - 1] = 0; n--; }
        else goto done;
      }
      nb[n] = 0;
      unsigned long long v;
      if (conv == 'd' || conv == 'i') v = (unsigned long long)strtoll(nb, NULL, base);
      else v = strtoull(nb, NULL, base);
      if (!suppress) {
        void *dst = va_arg(ap, void *);
        if (conv == 'p') *(void **)dst = (void *)(uintptr_t)v;
        else store_int(dst, lm, v);
        assigned++;
      }
      break;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
      size_t lim = width && width < NBUF ? width : NBUF;
      size_t n = 0;
      c = get(&in);
      if ((c == '+' || c == '-') && n < lim) { nb[n++] = (char)c; c = get(&in); }
      int lc = c | 0x20;
      if (lc == 'i' || lc == 'n') {
        const char *word = lc == 'i' ? "infinity" : "nan";
        size_t k = 0;
        while (word[k] && c != EOF && n < lim && (c | 0x20) == word[k]) { nb[n++] = (char)c; k++; c = get(&in); }
        /* glibc's scanf takes no nan(payload) */
        unget(&in, c);
        if (!(k == 3 || k == 8)) goto done;
      } else {
        int hex = 0, digits = 0;
        if (c == '0' && n < lim) {
          nb[n++] = '0';
          digits = 1;
          c = get(&in);
          if ((c == 'x' || c == 'X') && n < lim) { hex = 1; digits = 0; nb[n++] = (char)c; c = get(&in); }
        }
        int base = hex ? 16 : 10;
        while (c != EOF && n < lim && __tsklee_digitval(c) < base) { nb[n++] = (char)c; digits = 1; c = get(&in); }
        if (c == '.' && n < lim) {
          nb[n++] = '.';
          c = get(&in);
          while (c != EOF && n < lim && __tsklee_digitval(c) < base) { nb[n++] = (char)c; digits = 1; c = get(&in); }
        }
        if (digits && n < lim && ((!hex && (c | 0x20) == 'e') || (hex && (c | 0x20) == 'p'))) {
          nb[n++] = (char)c;
          c = get(&in);
          if ((c == '+' || c == '-') && n < lim) { nb[n++] = (char)c; c = get(&in); }
          while (c != EOF && n < lim && __tsklee_isdigit(c)) { nb[n++] = (char)c; c = get(&in); }
        }
        unget(&in, c);
        if (!digits) {
          if (hex && n >= 2 && width && n >= lim) { n--; } /* "0x" cut by the width reads as 0, like glibc */
          else goto done;
        }
      }
      nb[n] = 0;
      char *end;
      if (!suppress) {
        void *dst = va_arg(ap, void *);
        if (lm == L_BIGL) *(long double *)dst = strtold(nb, &end);
        else if (lm == L_L || lm == L_LL) *(double *)dst = strtod(nb, &end);
        else *(float *)dst = strtof(nb, &end);
        if (end == nb) goto done;
        assigned++;
      } else {
        (void)strtod(nb, &end);
        if (end == nb) goto done;
      }
      break;
    }
    default:
      goto done;
    }
  }
  goto done;
input_failure:
  if (assigned == 0) return EOF;
done:
  return assigned;
}

int vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  va_list cp;
  va_copy(cp, ap);
  int r = __tsklee_vfscanf(f, fmt, cp);
  va_end(cp);
  return r;
}
int vscanf(const char *restrict fmt, va_list ap) { return vfscanf(stdin, fmt, ap); }
int vsscanf(const char *restrict s, const char *restrict fmt, va_list ap) {
  FILE sf;
  __tsklee_string_file(&sf, s, strlen(s));
  return vfscanf(&sf, fmt, ap);
}
int fscanf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(f, fmt, ap); va_end(ap); return r;
}
int scanf(const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(stdin, fmt, ap); va_end(ap); return r;
}
int sscanf(const char *restrict s, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vsscanf(s, fmt, ap); va_end(ap); return r;
}
/* With the host headers in C99+ modes the names above are asm-redirected to
 * __isoc99_vfscanf, __isoc99_sscanf…; the plain symbols (for C89/-std=gnu89 programs) are
 * defined here under asm labels. */
int plain_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) __asm__("vfscanf");
int plain_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) { return vfscanf(f, fmt, ap); }
int plain_vscanf(const char *restrict fmt, va_list ap) __asm__("vscanf");
int plain_vscanf(const char *restrict fmt, va_list ap) { return vfscanf(stdin, fmt, ap); }
int plain_vsscanf(const char *restrict s, const char *restrict fmt, va_list ap) __asm__("vsscanf");
int plain_vsscanf(const char *restrict s, const char *restrict fmt, va_list ap) { return vsscanf(s, fmt, ap); }
int plain_fscanf(FILE *restrict f, const char *restrict fmt, ...) __asm__("fscanf");
int plain_fscanf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(f, fmt, ap); va_end(ap); return r;
}
int plain_scanf(const char *restrict fmt, ...) __asm__("scanf");
int plain_scanf(const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(stdin, fmt, ap); va_end(ap); return r;
}
int plain_sscanf(const char *restrict s, const char *restrict fmt, ...) __asm__("sscanf");
int plain_sscanf(const char *restrict s, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vsscanf(s, fmt, ap); va_end(ap); return r;
}
int __isoc23_sscanf(const char *restrict s, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vsscanf(s, fmt, ap); va_end(ap); return r;
}
int __isoc23_fscanf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(f, fmt, ap); va_end(ap); return r;
}
int __isoc23_scanf(const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfscanf(stdin, fmt, ap); va_end(ap); return r;
}
