/* fnmatch (POSIX shell patterns) in the C locale: '*', '?', bracket expressions with '!'/'^',
 * ranges, [:class:], [=c=] and [.c.] for single characters, backslash escapes, and the
 * flags FNM_NOESCAPE, FNM_PATHNAME, FNM_PERIOD, FNM_LEADING_DIR, FNM_CASEFOLD.
 * FNM_EXTMATCH (ksh patterns) is not supported: such patterns match literally.
 * An unterminated '[' matches a literal '['; a trailing backslash matches nothing;
 * FNM_CASEFOLD applies to characters and ranges, not to [:class:] or [=c=]. Backtracking on
 * '*' is recursive. */
#include "../internal.h"
#include <ctype.h>
#include <fnmatch.h>
#include <string.h>

static int fold(int c, int flags) {
  return (flags & FNM_CASEFOLD) ? __tsklee_tolower(c) : c;
}

static int period_must_match(const char *s, const char *start, int flags) {
  if (*s != '.' || !(flags & FNM_PERIOD)) return 0;
  return s == start || ((flags & FNM_PATHNAME) && s[-1] == '/');
}

static int class_match(const char *name, size_t len, int c) {
  static const char *const names[] = {"alnum", "alpha", "blank", "cntrl", "digit", "graph",
                                      "lower", "print", "punct", "space", "upper", "xdigit"};
  for (int i = 0; i < 12; i++) {
    if (strlen(names[i]) != len || strncmp(names[i], name, len) != 0) continue;
    switch (i) {
    case 0: return isalnum(c) != 0;
    case 1: return isalpha(c) != 0;
    case 2: return isblank(c) != 0;
    case 3: return iscntrl(c) != 0;
    case 4: return isdigit(c) != 0;
    case 5: return isgraph(c) != 0;
    case 6: return islower(c) != 0;
    case 7: return isprint(c) != 0;
    case 8: return ispunct(c) != 0;
    case 9: return isspace(c) != 0;
    case 10: return isupper(c) != 0;
    default: return isxdigit(c) != 0;
    }
  }
  return -1; /* unknown class */
}

/* p points after '['. Returns the pattern position after the closing ']', or NULL when the
 * bracket is not terminated (then '[' is literal); *ok = whether c is matched; *bad = an
 * invalid class name was used. */
static const char *bracket(const char *p, unsigned char c, int flags, int *ok, int *bad) {
  int neg = 0, found = 0, first = 1;
  if (*p == '!' || *p == '^') neg = 1, p++;
  for (;;) {
    unsigned char lo = (unsigned char)*p;
    if (lo == 0) return NULL;
    if (lo == ']' && !first) {
      p++;
      break;
    }
    first = 0;
    if (lo == '[' && (p[1] == ':' || p[1] == '=' || p[1] == '.')) {
      char kind = p[1];
      const char *q = p + 2;
      while (*q && !(q[0] == kind && q[1] == ']')) q++;
      if (*q) {
        size_t len = (size_t)(q - (p + 2));
        if (kind == ':') {
          int m = class_match(p + 2, len, c);
          if (m < 0) *bad = 1;
          else if (m) found = 1; /* classes ignore FNM_CASEFOLD, as in glibc */
          p = q + 2;
          continue;
        }
        if (len == 1) { /* [=c=] / [.c.]: the character itself */
          lo = (unsigned char)p[2];
          p = q + 2;
          if (lo == c) found = 1; /* not case-folded, as in glibc */
          continue;
        }
        *bad = 1;
        p = q + 2;
        continue;
      }
    }
    if (lo == '\\' && !(flags & FNM_NOESCAPE)) {
      p++;
      lo = (unsigned char)*p;
      if (lo == 0) return NULL;
    }
    p++;
    unsigned char hi = lo;
    if (*p == '-' && p[1] != ']' && p[1] != 0) {
      p++;
      hi = (unsigned char)*p;
      if (hi == '\\' && !(flags & FNM_NOESCAPE)) {
        p++;
        hi = (unsigned char)*p;
        if (hi == 0) return NULL;
      }
      if (hi == '[' && (p[1] == '.' || p[1] == '=') && p[2] && p[3] == p[1] && p[4] == ']') {
        hi = (unsigned char)p[2];
        p += 4;
      }
      p++;
    }
    if (lo <= c && c <= hi) found = 1;
    else if (flags & FNM_CASEFOLD) {
      int l = __tsklee_tolower(c), u = (c >= 'a' && c <= 'z') ? c - 32 : c;
      if ((lo <= l && l <= hi) || (lo <= u && u <= hi)) found = 1;
    }
  }
  *ok = found ^ neg;
  return p;
}

static int match(const char *p, const char *s, const char *start, int flags) {
  const int pathname = flags & FNM_PATHNAME;
  for (;;) {
    unsigned char pc = (unsigned char)*p++;
    unsigned char sc = (unsigned char)*s;
    switch (pc) {
    case 0:
      if (sc == 0) return 0;
      if ((flags & FNM_LEADING_DIR) && sc == '/') return 0;
      return FNM_NOMATCH;
    case '?':
      if (sc == 0 || (pathname && sc == '/') || period_must_match(s, start, flags)) return FNM_NOMATCH;
      s++;
      break;
    case '*': {
      if (period_must_match(s, start, flags)) return FNM_NOMATCH;
      while (*p == '*') p++;
      if (*p == 0) {
        if (!pathname || (flags & FNM_LEADING_DIR)) return 0;
        return strchr(s, '/') ? FNM_NOMATCH : 0;
      }
      for (const char *t = s;; t++) {
        if (match(p, t, start, flags) == 0) return 0;
        if (*t == 0 || (pathname && *t == '/')) return FNM_NOMATCH;
      }
    }
    case '[': {
      if (sc == 0) return FNM_NOMATCH;
      int ok = 0, bad = 0;
      const char *end = bracket(p, sc, flags, &ok, &bad);
      if (end == NULL) { /* literal '[' */
        if (sc != '[') return FNM_NOMATCH;
        s++;
        break;
      }
      if (bad) return FNM_NOMATCH;
      if ((pathname && sc == '/') || period_must_match(s, start, flags) || !ok) return FNM_NOMATCH;
      p = end;
      s++;
      break;
    }
    case '\\':
      if (!(flags & FNM_NOESCAPE)) {
        if (*p == 0) return FNM_NOMATCH; /* a trailing backslash never matches (glibc) */
        pc = (unsigned char)*p++;
      }
      /* fall through */
    default:
      if (fold(pc, flags) != fold(sc, flags)) return FNM_NOMATCH;
      s++;
      break;
    }
  }
}

int fnmatch(const char *pattern, const char *string, int flags) {
  return match(pattern, string, string, flags);
}
