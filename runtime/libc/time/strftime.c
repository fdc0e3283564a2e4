/* strftime for the C locale with glibc's extensions: the flags '_' (pad with spaces), '-'
 * (no padding), '0' (pad with zeros), '^' (upper case), '#' (swap case of names), a field
 * width, and the E/O modifiers (ignored), with glibc 2.36's results: no '+' flag, %C/%Y/%G
 * unpadded, unknown conversions copied literally. %Z prints tm_zone, %z uses tm_gmtoff, %s treats tm
 * as UTC (the model has no time zones). */
#include "../internal.h"
#include <string.h>
#include <time.h>

static const char *const wday_full[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday"};
static const char *const mon_full[] = {"January", "February", "March",     "April",
                                       "May",     "June",     "July",      "August",
                                       "September", "October", "November", "December"};

struct out {
  char *buf;
  size_t max, len;
  int overflow;
};

static void put(struct out *o, char c) {
  if (o->len + 1 < o->max) o->buf[o->len] = c;
  else o->overflow = 1;
  o->len++;
}

static int is_leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* Writes a text field: pad with spaces to width (glibc pads names with spaces or, with '0',
 * zeros); case: 1 upper, 0 as is, -1 lower. */
static void put_text(struct out *o, const char *s, size_t n, int width, char pad, int ucase) {
  /* names are always padded to the width ('-' and '_' included), with zeros for '0' */
  for (int i = (int)n; pad && i < width; i++) put(o, pad == '0' ? '0' : ' ');
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (ucase > 0 && c >= 'a' && c <= 'z') c -= 32;
    if (ucase < 0 && c >= 'A' && c <= 'Z') c += 32;
    put(o, c);
  }
}

/* A number with default padding defpad ('0' or ' ') to digits positions. */
static void put_num(struct out *o, long long v, int digits, char defpad, char flag, int width) {
  char tmp[32];
  int n = 0, neg = v < 0;
  unsigned long long u = neg ? 0ULL - (unsigned long long)v : (unsigned long long)v;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  char pad = defpad;
  if (flag == '_') pad = ' ';
  else if (flag == '0') pad = '0';
  else if (flag == '-') pad = 0;
  int w = width > 0 ? width : digits;
  int len = n + neg;
  if (pad == '0') {
    if (neg) put(o, '-');
    for (int i = len; i < w; i++) put(o, '0');
  } else if (pad == ' ') {
    for (int i = len; i < w; i++) put(o, ' ');
    if (neg) put(o, '-');
  } else if (neg) {
    put(o, '-');
  }
  while (n > 0) put(o, tmp[--n]);
}

/* ISO 8601 week-based year and week number. */
static void iso_week(const struct tm *tm, long *year, int *week) {
  long y = (long)tm->tm_year + 1900;
  int yday = tm->tm_yday, wday = tm->tm_wday;
  int wdm = (wday + 6) % 7; /* Monday = 0 */
  int w = (yday - wdm + 10) / 7;
  if (w < 1) {
    y--;
    int pyday = yday + (is_leap(y) ? 366 : 365);
    w = (pyday - wdm + 10) / 7;
  } else if (w == 53) {
    int days = is_leap(y) ? 366 : 365;
    if (yday - wdm + 3 >= days) { /* the Thursday of this week is next year */
      y++;
      w = 1;
    }
  }
  *year = y;
  *week = w;
}

static void format(struct out *o, const char *fmt, const struct tm *tm);

static void spec(struct out *o, char c, char flag, int width, int upper, int swapcase,
                 const struct tm *tm) {
  long year = (long)tm->tm_year + 1900;
  int hour12 = tm->tm_hour % 12 == 0 ? 12 : tm->tm_hour % 12;
  int uc = upper ? 1 : 0;
  switch (c) {
  case 'a': {
    const char *s = (unsigned)tm->tm_wday < 7 ? wday_full[tm->tm_wday] : "?";
    put_text(o, s, (unsigned)tm->tm_wday < 7 ? 3 : 1, width, flag ? flag : ' ', swapcase ? 1 : uc);
    break;
  }
  case 'A': {
    const char *s = (unsigned)tm->tm_wday < 7 ? wday_full[tm->tm_wday] : "?";
    put_text(o, s, strlen(s), width, flag ? flag : ' ', swapcase ? 1 : uc);
    break;
  }
  case 'b':
  case 'h': {
    const char *s = (unsigned)tm->tm_mon < 12 ? mon_full[tm->tm_mon] : "?";
    put_text(o, s, (unsigned)tm->tm_mon < 12 ? 3 : 1, width, flag ? flag : ' ', swapcase ? 1 : uc);
    break;
  }
  case 'B': {
    const char *s = (unsigned)tm->tm_mon < 12 ? mon_full[tm->tm_mon] : "?";
    put_text(o, s, strlen(s), width, flag ? flag : ' ', swapcase ? 1 : uc);
    break;
  }
  case 'c': format(o, "%a %b %e %H:%M:%S %Y", tm); break;
  case 'C': {
    long cc = year / 100 - (year % 100 < 0);
    put_num(o, cc, 1, '0', flag, width); /* glibc 2.36: no padding by default */
    break;
  }
  case 'd': put_num(o, tm->tm_mday, 2, '0', flag, width); break;
  case 'D': format(o, "%m/%d/%y", tm); break;
  case 'e': put_num(o, tm->tm_mday, 2, ' ', flag, width); break;
  case 'F': {
    /* %Y-%m-%d, right-aligned in the width (spaces, or zeros with '0') */
    char tmp[64];
    struct out sub = {tmp, sizeof tmp, 0, 0};
    put_num(&sub, year, 1, '0', 0, 0);
    format(&sub, "-%m-%d", tm);
    size_t n = sub.len < sizeof tmp ? sub.len : sizeof tmp - 1;
    put_text(o, tmp, n, width, flag == '0' ? '0' : ' ', 0);
    break;
  }
  case 'g': {
    long y;
    int w;
    iso_week(tm, &y, &w);
    long r = (y % 100 + 100) % 100;
    put_num(o, r, 2, '0', flag, width);
    break;
  }
  case 'G': {
    long y;
    int w;
    iso_week(tm, &y, &w);
    put_num(o, y, 1, '0', flag, width);
    break;
  }
  case 'H': put_num(o, tm->tm_hour, 2, '0', flag, width); break;
  case 'I': put_num(o, hour12, 2, '0', flag, width); break;
  case 'j': put_num(o, tm->tm_yday + 1, 3, '0', flag, width); break;
  case 'k': put_num(o, tm->tm_hour, 2, ' ', flag, width); break;
  case 'l': put_num(o, hour12, 2, ' ', flag, width); break;
  case 'm': put_num(o, tm->tm_mon + 1, 2, '0', flag, width); break;
  case 'M': put_num(o, tm->tm_min, 2, '0', flag, width); break;
  case 'n': put(o, '\n'); break;
  case 'p': put_text(o, tm->tm_hour >= 12 ? "PM" : "AM", 2, width, flag ? flag : ' ', swapcase ? -1 : uc); break;
  case 'P': put_text(o, tm->tm_hour >= 12 ? "pm" : "am", 2, width, flag ? flag : ' ', uc); break;
  case 'r': format(o, "%I:%M:%S %p", tm); break;
  case 'R': format(o, "%H:%M", tm); break;
  case 's': {
    struct tm copy = *tm;
    put_num(o, (long long)timegm(&copy), 1, '0', flag, width);
    break;
  }
  case 'S': put_num(o, tm->tm_sec, 2, '0', flag, width); break;
  case 't': put(o, '\t'); break;
  case 'T': format(o, "%H:%M:%S", tm); break;
  case 'u': put_num(o, tm->tm_wday == 0 ? 7 : tm->tm_wday, 1, '0', flag, width); break;
  case 'U': put_num(o, (tm->tm_yday + 7 - tm->tm_wday) / 7, 2, '0', flag, width); break;
  case 'V': {
    long y;
    int w;
    iso_week(tm, &y, &w);
    put_num(o, w, 2, '0', flag, width);
    break;
  }
  case 'w': put_num(o, tm->tm_wday, 1, '0', flag, width); break;
  case 'W': put_num(o, (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7, 2, '0', flag, width); break;
  case 'x': format(o, "%m/%d/%y", tm); break;
  case 'X': format(o, "%H:%M:%S", tm); break;
  case 'y': {
    long r = year % 100;
    if (r < 0) r += 100;
    put_num(o, r, 2, '0', flag, width);
    break;
  }
  case 'Y': put_num(o, year, 1, '0', flag, width); break;
  case 'z': {
    long off = tm->tm_gmtoff;
    put(o, off < 0 ? '-' : '+');
    if (off < 0) off = -off;
    long hhmm = off / 3600 * 100 + off % 3600 / 60;
    put_num(o, hhmm, 4, '0', flag == '-' ? 0 : flag, width > 1 ? width - 1 : 0);
    break;
  }
  case 'Z': {
    const char *z = tm->tm_zone ? tm->tm_zone : "";
    put_text(o, z, strlen(z), width, flag ? flag : ' ', swapcase ? -1 : uc);
    break;
  }
  case '%': put_text(o, "%", 1, width, flag ? flag : ' ', 0); break;
  default:
    break; /* unknown conversions are copied by the caller */
  }
}

static int known_conversion(char c) {
  return c && strchr("aAbBcCdDeFgGhHIjklmMnpPrRsStTuUVwWxXyYzZ%", c) != NULL;
}

static void format(struct out *o, const char *f, const struct tm *tm) {
  for (; *f; f++) {
    if (*f != '%') {
      put(o, *f);
      continue;
    }
    const char *start = f;
    char flag = 0;
    int upper = 0, swapcase = 0;
    for (;;) {
      char c = f[1];
      if (c == '_' || c == '-' || c == '0') flag = c, f++;
      else if (c == '^') upper = 1, f++;
      else if (c == '#') swapcase = 1, f++;
      else break;
    }
    int width = 0;
    while (f[1] >= '0' && f[1] <= '9') width = width * 10 + (f[1] - '0'), f++;
    while (f[1] == 'E' || f[1] == 'O') f++;
    if (f[1] == 0) {
      /* a lone '%' at the end: glibc copies it */
      for (const char *p = start; p <= f; p++) put(o, *p);
      break;
    }
    f++;
    if (!known_conversion(*f)) {
      /* glibc copies an unknown conversion, flags and width included */
      for (const char *p = start; p <= f; p++) put(o, *p);
      continue;
    }
    spec(o, *f, flag, width, upper, swapcase, tm);
  }
}

size_t strftime(char *restrict s, size_t max, const char *restrict fmt, const struct tm *restrict tm) {
  struct out o = {s, max, 0, 0};
  format(&o, fmt, tm);
  if (o.overflow || o.len >= max) {
    if (max > 0) s[0] = 0; /* contents are unspecified; keep a valid string */
    return 0;
  }
  s[o.len] = 0;
  return o.len;
}

size_t strftime_l(char *restrict s, size_t max, const char *restrict fmt,
                  const struct tm *restrict tm, locale_t l) {
  (void)l;
  return strftime(s, max, fmt, tm);
}
