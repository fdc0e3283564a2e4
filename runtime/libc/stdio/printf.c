/*
 * tsklee libc — the printf family.
 *
 * One formatter (format()) writes to an output sink: a FILE, a fixed buffer (snprintf) or
 * a growing malloc'd buffer (asprintf). Floating point is exact: the value m·2^e is turned
 * into its complete decimal expansion with a base-10^9 big integer (m·5^-e or m·2^e), then
 * rounded half-to-even at the wanted digit, so every %e/%f/%g of a double or an x87 long
 * double is correctly rounded like glibc's (round-to-nearest mode; fesetround is ignored).
 * C locale: the ' flag groups nothing, the decimal point is '.'.
 */
#include "stdio_impl.h"
#include <errno.h>
#include <string.h>

struct out {
  FILE *f;        /* FILE sink, or NULL */
  char *buf;      /* string sinks */
  size_t cap;     /* fixed: size given to snprintf; dynamic: allocated size */
  int dyn;        /* asprintf: grow */
  int err;
  size_t len;     /* characters produced (the return value) */
};

static void emit(struct out *o, const char *s, size_t n) {
  if (n == 0) return;
  if (o->f) {
    if (__tsklee_fwrite(s, n, o->f) != n) o->err = 1;
  } else if (o->dyn) {
    if (o->err) return;
    if (o->len + n + 1 > o->cap) {
      size_t nc = o->cap * 2 + n + 64;
      char *nb = malloc(nc);
      if (!nb) { o->err = 1; return; }
      memcpy(nb, o->buf, o->len);
      free(o->buf);
      o->buf = nb;
      o->cap = nc;
    }
    memcpy(o->buf + o->len, s, n);
  } else if (o->cap) {
    if (o->len < o->cap - 1) {
      size_t room = o->cap - 1 - o->len;
      memcpy(o->buf + o->len, s, n < room ? n : room);
    }
  }
  o->len += n;
}

static void pad(struct out *o, char c, long n) {
  char b[64];
  if (n <= 0) return;
  memset(b, c, sizeof b);
  while (n > 0) {
    long k = n > 64 ? 64 : n;
    emit(o, b, (size_t)k);
    n -= k;
  }
}

/* Flags (F_*) and the floating-point formatter: stdio_impl.h, printf_float.c. */

/* ---------- positional arguments (%n$, *m$) ---------- */

#define MAXPOS 128
union parg { long long i; double d; long double ld; void *p; };
struct posargs { union parg tab[MAXPOS + 1]; };
enum { T_NONE, T_INT, T_LL, T_PTR, T_DBL, T_LDBL };

/* With A (positional mode) the value of argument argn, else the next va_arg. */
#define ARG(T, field) (A ? (T)A->tab[argn > 0 && argn <= MAXPOS ? argn : 0].field : va_arg(ap, T))

/* Parses "digits$" at *pp; returns the position (advancing *pp) or 0. */
static int dollar(const char **pp) {
  const char *q = *pp;
  int n = 0;
  while (*q >= '0' && *q <= '9') { if (n < 100000) n = n * 10 + (*q - '0'); q++; }
  if (*q == '$' && q != *pp && n > 0) { *pp = q + 1; return n > MAXPOS ? MAXPOS : n; }
  return 0;
}

static int uses_positions(const char *f) {
  for (; *f; f++) {
    if (*f != '%') continue;
    f++;
    if (*f == '%') continue;
    return dollar(&f) > 0;
  }
  return 0;
}

/* Reads every argument once, in position order, with the type its conversion gives it. */
static void collect_positions(const char *f, struct posargs *A, va_list ap) {
  unsigned char ty[MAXPOS + 1];
  int max = 0;
  memset(ty, 0, sizeof ty);
  memset(A, 0, sizeof *A);
  for (; *f; f++) {
    if (*f != '%') continue;
    f++;
    if (*f == '%') continue;
    int pos = dollar(&f);
    while (*f && strchr("-+ #0'I", *f)) f++;
    if (*f == '*') { f++; int sp = dollar(&f); if (sp) { ty[sp] = T_INT; if (sp > max) max = sp; } }
    else while (*f >= '0' && *f <= '9') f++;
    if (*f == '.') {
      f++;
      if (*f == '*') { f++; int sp = dollar(&f); if (sp) { ty[sp] = T_INT; if (sp > max) max = sp; } }
      else while (*f >= '0' && *f <= '9') f++;
    }
    int big = 0, ld = 0;
    for (;; f++) {
      if (*f == 'h') {}
      else if (*f == 'l' || *f == 'q' || *f == 'j' || *f == 'z' || *f == 'Z' || *f == 't') big = 1;
      else if (*f == 'L') { ld = 1; big = 1; }
      else break;
    }
    int t;
    switch (*f) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'b': case 'B': t = big ? T_LL : T_INT; break;
    case 'c': case 'C': t = T_INT; break;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': t = ld ? T_LDBL : T_DBL; break;
    case 's': case 'S': case 'p': case 'n': t = T_PTR; break;
    default: t = T_NONE;
    }
    if (!*f) break;
    if (pos && t != T_NONE) { ty[pos] = (unsigned char)t; if (pos > max) max = pos; }
  }
  for (int i = 1; i <= max; i++) {
    switch (ty[i]) {
    case T_LL: A->tab[i].i = va_arg(ap, long long); break;
    case T_PTR: A->tab[i].p = va_arg(ap, void *); break;
    case T_DBL: A->tab[i].d = va_arg(ap, double); break;
    case T_LDBL: A->tab[i].ld = va_arg(ap, long double); break;
    default: A->tab[i].i = va_arg(ap, int); break;
    }
  }
}

/* ---------- the formatter ---------- */

static const char *dig_lower = "0123456789abcdef";
static const char *dig_upper = "0123456789ABCDEF";

enum { L_NONE, L_HH, L_H, L_L, L_LL, L_J, L_Z, L_T, L_BIGL };

static int format(struct out *o, const char *fmt, va_list ap) {
  int saved_errno = errno;
  struct posargs *A = NULL;
  int argn = 0;
  if (uses_positions(fmt)) {
    A = malloc(sizeof *A);
    if (!A) { errno = ENOMEM; return -1; }
    collect_positions(fmt, A, ap);
  }
  const char *p = fmt;
  while (*p) {
    if (*p != '%') {
      const char *q = p;
      while (*q && *q != '%') q++;
      emit(o, p, (size_t)(q - p));
      p = q;
      continue;
    }
    const char *start = p;
    p++;
    argn = dollar(&p);
    int flags = 0;
    for (;; p++) {
      if (*p == '-') flags |= F_MINUS;
      else if (*p == '+') flags |= F_PLUS;
      else if (*p == ' ') flags |= F_SPACE;
      else if (*p == '#') flags |= F_HASH;
      else if (*p == '0') flags |= F_ZERO;
      else if (*p == '\'' || *p == 'I') {}
      else break;
    }
    long width = 0;
    if (*p == '*') {
      p++;
      int sp = dollar(&p);
      int w = sp ? (int)A->tab[sp].i : ARG(int, i);
      if (w < 0) { flags |= F_MINUS; width = -(long)w; } else width = w;
    } else while (*p >= '0' && *p <= '9') { width = width * 10 + (*p - '0'); if (width > INT_MAX) width = INT_MAX; p++; }
    long prec = -1;
    if (*p == '.') {
      p++;
      if (*p == '*') {
        p++;
        int sp = dollar(&p);
        int pr = sp ? (int)A->tab[sp].i : ARG(int, i);
        prec = pr < 0 ? -1 : pr;
      } else {
        prec = 0;
        while (*p >= '0' && *p <= '9') { prec = prec * 10 + (*p - '0'); if (prec > INT_MAX) prec = INT_MAX; p++; }
      }
    }
    int lm = L_NONE;
    switch (*p) {
    case 'h': p++; if (*p == 'h') { p++; lm = L_HH; } else lm = L_H; break;
    case 'l': p++; if (*p == 'l') { p++; lm = L_LL; } else lm = L_L; break;
    case 'q': p++; lm = L_LL; break;
    case 'L': p++; lm = L_BIGL; break;
    case 'j': p++; lm = L_J; break;
    case 'z': case 'Z': p++; lm = L_Z; break;
    case 't': p++; lm = L_T; break;
    }
    int c = *p;
    if (c) p++;
    switch (c) {
    case '%': emit(o, "%", 1); break;
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': case 'b': case 'B': {
      unsigned long long v;
      int neg = 0, sgn = (c == 'd' || c == 'i');
      if (c == 'p') {
        void *ptr = ARG(void *, p);
        if (!ptr) {
          long n = 5;
          if (!(flags & F_MINUS)) pad(o, ' ', width - n);
          emit(o, "(nil)", 5);
          if (flags & F_MINUS) pad(o, ' ', width - n);
          break;
        }
        v = (unsigned long long)(uintptr_t)ptr;
        flags |= F_HASH;
      } else if (sgn) {
        long long s;
        switch (lm) {
        case L_HH: s = (signed char)ARG(int, i); break;
        case L_H: s = (short)ARG(int, i); break;
        case L_L: s = ARG(long, i); break;
        case L_LL: case L_BIGL: s = ARG(long long, i); break;
        case L_J: s = ARG(intmax_t, i); break;
        case L_Z: s = ARG(long, i); break;
        case L_T: s = ARG(ptrdiff_t, i); break;
        default: s = ARG(int, i);
        }
        neg = s < 0;
        v = neg ? 0ULL - (unsigned long long)s : (unsigned long long)s;
      } else {
        switch (lm) {
        case L_HH: v = (unsigned char)ARG(unsigned, i); break;
        case L_H: v = (unsigned short)ARG(unsigned, i); break;
        case L_L: case L_Z: case L_T: v = ARG(unsigned long, i); break;
        case L_LL: case L_BIGL: case L_J: v = ARG(unsigned long long, i); break;
        default: v = ARG(unsigned, i);
        }
      }
      int base = (c == 'o') ? 8 : (c == 'x' || c == 'X' || c == 'p') ? 16 : (c == 'b' || c == 'B') ? 2 : 10;
      const char *dg = c == 'X' ? dig_upper : dig_lower;
      char buf[72];
      int n = 0;
      unsigned long long t = v;
      while (t) { buf[sizeof buf - 1 - n] = dg[t % (unsigned)base]; t /= (unsigned)base; n++; }
      char *digits = buf + sizeof buf - n;
      long zeros = prec > n ? prec - n : 0;
      if (c == 'o' && (flags & F_HASH) && zeros == 0 && (n == 0 || digits[0] != '0')) zeros = 1;
      if (prec < 0 && n == 0) zeros = 1; /* value 0 without precision prints "0" */
      char pre[3];
      int pl = 0;
      if (sgn || c == 'p') {
        if (neg) pre[pl++] = '-';
        else if (flags & F_PLUS) pre[pl++] = '+';
        else if (flags & F_SPACE) pre[pl++] = ' ';
      }
      if ((flags & F_HASH) && v != 0 && (base == 16 || base == 2)) {
        pre[pl++] = '0';
        pre[pl++] = c == 'p' ? 'x' : (char)c;
      }
      long total = pl + zeros + n;
      if ((flags & F_ZERO) && !(flags & F_MINUS) && prec < 0 && width > total) {
        zeros += width - total;
        total = width;
      }
      if (!(flags & F_MINUS)) pad(o, ' ', width - total);
      emit(o, pre, (size_t)pl);
      pad(o, '0', zeros);
      emit(o, digits, (size_t)n);
      if (flags & F_MINUS) pad(o, ' ', width - total);
      break;
    }
    case 'c': case 'C': {
      char ch[MB_LEN_MAX];
      size_t n = 1;
      if (lm == L_L || c == 'C') {
        wint_t wc = ARG(wint_t, i);
        mbstate_t st;
        memset(&st, 0, sizeof st);
        n = wcrtomb(ch, (wchar_t)wc, &st);
        if (n == (size_t)-1) { o->err = 2; goto done; }
      } else ch[0] = (char)ARG(int, i);
      if (!(flags & F_MINUS)) pad(o, ' ', width - (long)n);
      emit(o, ch, n);
      if (flags & F_MINUS) pad(o, ' ', width - (long)n);
      break;
    }
    case 's': case 'S': case 'm': {
      if ((lm == L_L || c == 'S') && c != 'm') {
        const wchar_t *ws = ARG(const wchar_t *, p);
        char tmp[MB_LEN_MAX];
        size_t n = 0;
        if (!ws) ws = (prec < 0 || prec >= 6) ? L"(null)" : L"";
        /* count bytes that fit the precision */
        const wchar_t *w;
        mbstate_t st;
        memset(&st, 0, sizeof st);
        for (w = ws; *w; w++) {
          size_t k = wcrtomb(tmp, *w, &st);
          if (k == (size_t)-1) { o->err = 2; goto done; }
          if (prec >= 0 && n + k > (size_t)prec) break;
          n += k;
        }
        if (!(flags & F_MINUS)) pad(o, ' ', width - (long)n);
        memset(&st, 0, sizeof st);
        size_t m = 0;
        for (w = ws; m < n; w++) { size_t k = wcrtomb(tmp, *w, &st); emit(o, tmp, k); m += k; }
        if (flags & F_MINUS) pad(o, ' ', width - (long)n);
        break;
      }
      const char *s = c == 'm' ? strerror(saved_errno) : ARG(const char *, p);
      if (!s) s = (prec < 0 || prec >= 6) ? "(null)" : "";
      size_t n = prec < 0 ? strlen(s) : strnlen(s, (size_t)prec);
      if (!(flags & F_MINUS)) pad(o, ' ', width - (long)n);
      emit(o, s, n);
      if (flags & F_MINUS) pad(o, ' ', width - (long)n);
      break;
    }
    case 'n': {
      void *ptr = ARG(void *, p);
      switch (lm) {
      case L_HH: *(signed char *)ptr = (signed char)o->len; break;
      case L_H: *(short *)ptr = (short)o->len; break;
      case L_L: case L_Z: case L_T: *(long *)ptr = (long)o->len; break;
      case L_LL: case L_J: case L_BIGL: *(long long *)ptr = (long long)o->len; break;
      default: *(int *)ptr = (int)o->len;
      }
      break;
    }
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
      struct __tsklee_fpval v;
      if (lm == L_BIGL) __tsklee_fp_ldouble(ARG(long double, ld), &v);
      else __tsklee_fp_double(ARG(double, d), &v);
      size_t tl;
      char *text = __tsklee_float_text(&v, c, (int)prec, flags, width, &tl);
      if (!text) { o->err = 3; goto done; }
      emit(o, text, tl);
      free(text);
      break;
    }
    default:
      /* unknown conversion: printed as is (glibc prints the whole spec) */
      emit(o, start, (size_t)(p - start));
      if (!c) goto done;
      break;
    }
  }
done:
  free(A);
  if (o->err) {
    if (o->err == 2) errno = EILSEQ;
    else if (o->err == 3) errno = ENOMEM;
    return -1;
  }
  if (o->len > INT_MAX) { errno = EOVERFLOW; return -1; }
  return (int)o->len;
}

/* ---------- public entry points ---------- */

int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  struct out o = { f, NULL, 0, 0, 0, 0 };
  va_list cp;
  va_copy(cp, ap);
  int r;
  if (f->_flags & SF_UNBUF) {
    /* like glibc, an unbuffered stream (stderr) gets one write per call */
    char *s;
    r = vasprintf(&s, fmt, cp);
    if (r >= 0) {
      if (r > 0 && __tsklee_fwrite(s, (size_t)r, f) != (size_t)r) r = -1;
      free(s);
    }
  } else r = format(&o, fmt, cp);
  va_end(cp);
  if (r >= 0 && (f->_flags & _IO_ERR_SEEN)) r = -1;
  return r;
}
int vprintf(const char *restrict fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }
int fprintf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfprintf(f, fmt, ap); va_end(ap); return r;
}
int printf(const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfprintf(stdout, fmt, ap); va_end(ap); return r;
}
int vsnprintf(char *restrict s, size_t n, const char *restrict fmt, va_list ap) {
  struct out o = { NULL, s, n, 0, 0, 0 };
  va_list cp;
  va_copy(cp, ap);
  int r = format(&o, fmt, cp);
  va_end(cp);
  if (n) s[o.len < n - 1 ? o.len : n - 1] = 0;
  return r;
}
int vsprintf(char *restrict s, const char *restrict fmt, va_list ap) { return vsnprintf(s, (size_t)INT_MAX + 1, fmt, ap); }
int snprintf(char *restrict s, size_t n, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vsnprintf(s, n, fmt, ap); va_end(ap); return r;
}
int sprintf(char *restrict s, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vsprintf(s, fmt, ap); va_end(ap); return r;
}
int vasprintf(char **restrict sp, const char *restrict fmt, va_list ap) {
  struct out o = { NULL, malloc(64), 64, 1, 0, 0 };
  if (!o.buf) return -1;
  va_list cp;
  va_copy(cp, ap);
  int r = format(&o, fmt, cp);
  va_end(cp);
  if (r < 0 || o.err) { free(o.buf); return -1; }
  o.buf[o.len] = 0;
  *sp = o.buf;
  return r;
}
int asprintf(char **restrict sp, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vasprintf(sp, fmt, ap); va_end(ap); return r;
}
int __asprintf(char **restrict sp, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vasprintf(sp, fmt, ap); va_end(ap); return r;
}
int vdprintf(int fd, const char *restrict fmt, va_list ap) {
  char *s;
  int r = vasprintf(&s, fmt, ap);
  if (r < 0) return r;
  size_t done = 0;
  while (done < (size_t)r) {
    long w = write(fd, s + done, (size_t)r - done);
    if (w <= 0) { free(s); return -1; }
    done += (size_t)w;
  }
  free(s);
  return r;
}
int dprintf(int fd, const char *restrict fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vdprintf(fd, fmt, ap); va_end(ap); return r;
}

/* fortify variants: flag > 0 would reject %n in writable formats; we accept it. */
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) { return vfprintf(f, fmt, ap); }
int __vprintf_chk(int flag, const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfprintf(f, fmt, ap); va_end(ap); return r;
}
int __printf_chk(int flag, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vfprintf(stdout, fmt, ap); va_end(ap); return r;
}
int __vsnprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, va_list ap) {
  if (n > slen) __tsklee_chk_fail("program");
  return vsnprintf(s, n, fmt, ap);
}
int __snprintf_chk(char *s, size_t n, int flag, size_t slen, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = __vsnprintf_chk(s, n, flag, slen, fmt, ap); va_end(ap); return r;
}
int __vsprintf_chk(char *s, int flag, size_t slen, const char *fmt, va_list ap) {
  if (slen == 0) __tsklee_chk_fail("program");
  va_list cp;
  va_copy(cp, ap);
  int r = vsnprintf(s, slen, fmt, cp);
  va_end(cp);
  if (r >= 0 && (size_t)r >= slen) __tsklee_chk_fail("program");
  return r;
}
int __sprintf_chk(char *s, int flag, size_t slen, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = __vsprintf_chk(s, flag, slen, fmt, ap); va_end(ap); return r;
}
int __vasprintf_chk(char **sp, int flag, const char *fmt, va_list ap) { return vasprintf(sp, fmt, ap); }
int __asprintf_chk(char **sp, int flag, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vasprintf(sp, fmt, ap); va_end(ap); return r;
}
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap) { return vdprintf(fd, fmt, ap); }
int __dprintf_chk(int fd, int flag, const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); int r = vdprintf(fd, fmt, ap); va_end(ap); return r;
}
