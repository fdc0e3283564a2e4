/*
 * tsklee libc — floating-point conversions of the printf family (%e %f %g %a and upper
 * case) for double, x87 long double and binary128 (__float128: strfromf128,
 * quadmath_snprintf). Exact: the value m·2^e is turned into its complete decimal expansion
 * with a base-10^9 big integer (m·5^-e or m·2^e), then rounded half-to-even at the wanted
 * digit, like glibc's in round-to-nearest mode.
 */
#include "stdio_impl.h"
#include <string.h>

/* ---------- exact decimal expansion ---------- */

/* Digits of m·2^e: returns a malloc'd string of decimal digits (no leading zeros; "" for
 * m == 0) and *dp such that value = 0.DIGITS × 10^dp. */
static char *decimal(unsigned __int128 m, int e, int *dp, int *len) {
  int k = e < 0 ? -e : e;
  /* limbs needed: digits of m (39) + k·log10(5 or 2) */
  size_t maxl = (size_t)(39 + (k * 7) / 10 + 2) / 9 + 3;
  uint32_t *L = malloc(maxl * sizeof *L);
  size_t n = 0;
  char *d;
  if (!L) return NULL;
  while (m) { L[n++] = (uint32_t)(m % 1000000000u); m /= 1000000000u; }
  while (k > 0 && n) {
    uint32_t mul;
    int step;
    if (e < 0) { step = k >= 13 ? 13 : k; mul = 1; for (int i = 0; i < step; i++) mul *= 5; }
    else { step = k >= 29 ? 29 : k; mul = 1u << step; }
    unsigned long long c = 0;
    for (size_t i = 0; i < n; i++) {
      unsigned long long t = (unsigned long long)L[i] * mul + c;
      L[i] = (uint32_t)(t % 1000000000u);
      c = t / 1000000000u;
    }
    while (c) { L[n++] = (uint32_t)(c % 1000000000u); c /= 1000000000u; }
    k -= step;
  }
  d = malloc(n * 9 + 2);
  if (!d) { free(L); return NULL; }
  int p = 0;
  if (n) {
    char t[10];
    uint32_t top = L[n - 1];
    int tl = 0;
    while (top) { t[tl++] = (char)('0' + top % 10); top /= 10; }
    while (tl) d[p++] = t[--tl];
    for (size_t i = n - 1; i-- > 0;) {
      uint32_t v = L[i];
      for (int j = 8; j >= 0; j--) { d[p + j] = (char)('0' + v % 10); v /= 10; }
      p += 9;
    }
  }
  d[p] = 0;
  free(L);
  *len = p;
  *dp = p - (e < 0 ? -e : 0);
  return d;
}

/* Keeps `keep` significant digits of d (length *len, point *dp), rounding half to even.
 * The result has exactly max(keep,0) digits (zero padded), *dp may grow by one. */
static void round_digits(char *d, int *len, int *dp, int keep, char *outd) {
  int n = *len;
  if (keep < 0) { *len = 0; return; } /* below half a unit of the last kept place: 0 */
  int up = 0;
  if (keep < n) {
    char r = d[keep];
    if (r > '5') up = 1;
    else if (r == '5') {
      int rest = 0;
      for (int i = keep + 1; i < n; i++) if (d[i] != '0') { rest = 1; break; }
      if (rest) up = 1;
      else up = keep > 0 ? ((d[keep - 1] - '0') & 1) : 0;
    }
  }
  for (int i = 0; i < keep; i++) outd[i] = i < n ? d[i] : '0';
  if (up) {
    int i = keep - 1;
    while (i >= 0 && outd[i] == '9') outd[i--] = '0';
    if (i >= 0) outd[i]++;
    else {
      /* carry out of the top: 1000…, one more integer digit */
      if (keep > 0) { outd[0] = '1'; }
      (*dp)++;
      if (keep == 0) { /* value rounds up to 10^dp: represent as digit '1' shifted */
        *len = -1; /* signal: a single '1' at position dp-1 */
        return;
      }
    }
  }
  *len = keep;
}

void __tsklee_fp_double(double x, struct __tsklee_fpval *v) {
  uint64_t b;
  memcpy(&b, &x, 8);
  v->neg = (int)(b >> 63);
  int ex = (int)((b >> 52) & 0x7ff);
  uint64_t fr = b & ((1ULL << 52) - 1);
  v->fmt = FPV_DOUBLE;
  if (ex == 0x7ff) { v->cls = fr ? 2 : 1; v->m = 0; v->e = 0; return; }
  v->cls = 0;
  if (ex == 0) { v->m = fr; v->e = -1074; }
  else { v->m = fr | (1ULL << 52); v->e = ex - 1075; }
}

void __tsklee_fp_ldouble(long double x, struct __tsklee_fpval *v) {
  unsigned char b[16];
  memcpy(b, &x, 10);
  uint64_t mant;
  memcpy(&mant, b, 8);
  unsigned se = (unsigned)b[8] | ((unsigned)b[9] << 8);
  v->neg = (int)(se >> 15);
  int ex = (int)(se & 0x7fff);
  v->fmt = FPV_LDOUBLE;
  if (ex == 0x7fff) { v->cls = (mant << 1) ? 2 : 1; v->m = 0; v->e = 0; return; }
  v->cls = 0;
  v->m = mant;
  v->e = (ex == 0 ? 1 : ex) - 16383 - 63;
}

void __tsklee_fp_float128(__float128 x, struct __tsklee_fpval *v) {
  unsigned __int128 b;
  memcpy(&b, &x, 16);
  v->neg = (int)(b >> 127);
  int ex = (int)((b >> 112) & 0x7fff);
  unsigned __int128 fr = b & (((unsigned __int128)1 << 112) - 1);
  v->fmt = FPV_FLOAT128;
  if (ex == 0x7fff) { v->cls = fr ? 2 : 1; v->m = 0; v->e = 0; return; }
  v->cls = 0;
  if (ex == 0) { v->m = fr; v->e = -16494; }
  else { v->m = fr | ((unsigned __int128)1 << 112); v->e = ex - 16383 - 112; }
}

/* Writes the formatted number body (without sign) into a malloc'd string. */
static char *fmt_float(const struct __tsklee_fpval *v, int conv, int prec, int flags, size_t *outlen) {
  int upper = conv >= 'A' && conv <= 'Z';
  int lc = conv | 0x20;
  char *res;
  size_t rl = 0;
  if (v->cls) {
    res = malloc(4);
    if (!res) return NULL;
    memcpy(res, v->cls == 1 ? (upper ? "INF" : "inf") : (upper ? "NAN" : "nan"), 4);
    *outlen = 3;
    return res;
  }
  if (lc == 'a') {
    /* hex: double → leading digit 1 (0 when subnormal/zero) + 13 hex digits (52 bits);
     * long double → leading = top nibble of the 64-bit mantissa, then 15 hex digits;
     * binary128 → leading digit 1 (0 when subnormal/zero) + 28 hex digits (112 bits) */
    unsigned __int128 m = v->m, frac;
    int lead, nd, ex;
    if (v->fmt == FPV_DOUBLE) {
      lead = (int)(m >> 52);
      frac = m & ((1ULL << 52) - 1);
      nd = 13;
      ex = m == 0 ? 0 : (lead ? v->e + 52 : -1022);
    } else if (v->fmt == FPV_FLOAT128) {
      lead = (int)(m >> 112);
      frac = m & (((unsigned __int128)1 << 112) - 1);
      nd = 28;
      ex = m == 0 ? 0 : (lead ? v->e + 112 : -16382);
    } else {
      lead = (int)(m >> 60);
      frac = m & ((1ULL << 60) - 1);
      nd = 15;
      ex = m == 0 ? 0 : v->e + 60;
    }
    char hx[32];
    const char *digs = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    for (int i = nd - 1; i >= 0; i--) { hx[i] = digs[(int)(frac & 15)]; frac >>= 4; }
    int used = nd;
    if (prec < 0) { while (used > 0 && hx[used - 1] == '0') used--; }
    else if (prec < nd) {
      /* round half to even at digit prec */
      int dv = __tsklee_digitval(hx[prec]);
      int rest = 0;
      for (int i = prec + 1; i < nd; i++) if (hx[i] != '0') rest = 1;
      int last = prec > 0 ? __tsklee_digitval(hx[prec - 1]) : lead;
      int up = dv > 8 || (dv == 8 && (rest || (last & 1)));
      used = prec;
      if (up) {
        int i = prec - 1;
        while (i >= 0 && (hx[i] == 'f' || hx[i] == 'F')) hx[i--] = '0';
        if (i >= 0) hx[i] = digs[__tsklee_digitval(hx[i]) + 1];
        else lead++;
      }
    }
    int fd = prec < 0 ? used : prec;
    res = malloc((size_t)fd + 40);
    if (!res) return NULL;
    res[rl++] = '0';
    res[rl++] = upper ? 'X' : 'x';
    res[rl++] = lead < 16 ? digs[lead] : '1'; /* lead 16 only after a long double carry */
    if (lead >= 16) ex += 4;
    if (fd > 0 || (flags & F_HASH)) res[rl++] = '.';
    for (int i = 0; i < fd; i++) res[rl++] = i < used ? hx[i] : '0';
    res[rl++] = upper ? 'P' : 'p';
    res[rl++] = ex < 0 ? '-' : '+';
    char eb[12];
    int el = 0;
    unsigned ue = (unsigned)(ex < 0 ? -ex : ex);
    do { eb[el++] = (char)('0' + ue % 10); ue /= 10; } while (ue);
    while (el) res[rl++] = eb[--el];
    *outlen = rl;
    return res;
  }
  int dp, len;
  char *d = decimal(v->m, v->e, &dp, &len);
  if (!d) return NULL;
  int iszero = len == 0;
  if (prec < 0) prec = 6;
  int strip = 0;
  if (lc == 'g') {
    int P = prec == 0 ? 1 : prec;
    int X;
    if (iszero) X = 0;
    else {
      char *tmp = malloc((size_t)P + 1);
      int l2 = len, dp2 = dp;
      if (!tmp) { free(d); return NULL; }
      round_digits(d, &l2, &dp2, P, tmp);
      free(tmp);
      X = dp2 - 1;
    }
    if (P > X && X >= -4) { lc = 'f'; prec = P - 1 - X; }
    else if (!iszero && X == P && dp - 1 < P) { lc = 'e'; prec = 0; } /* glibc: rounding carried into e-style */
    else { lc = 'e'; prec = P - 1; }
    strip = !(flags & F_HASH);
  }
  if (lc == 'e') {
    int keep = prec + 1;
    char *r = malloc((size_t)keep + 40);
    if (!r) { free(d); return NULL; }
    int ex;
    if (iszero) { memset(r, '0', (size_t)keep); ex = 0; }
    else {
      int l2 = len, dp2 = dp;
      round_digits(d, &l2, &dp2, keep, r);
      ex = dp2 - 1;
    }
    int fd = prec;
    if (strip) while (fd > 0 && r[fd] == '0') fd--;
    res = malloc((size_t)fd + 40);
    if (!res) { free(r); free(d); return NULL; }
    res[rl++] = r[0];
    if (fd > 0 || (flags & F_HASH)) res[rl++] = '.';
    memcpy(res + rl, r + 1, (size_t)fd);
    rl += (size_t)fd;
    res[rl++] = upper ? 'E' : 'e';
    res[rl++] = ex < 0 ? '-' : '+';
    unsigned ue = (unsigned)(ex < 0 ? -ex : ex);
    char eb[12];
    int el = 0;
    do { eb[el++] = (char)('0' + ue % 10); ue /= 10; } while (ue);
    if (el < 2) eb[el++] = '0';
    while (el) res[rl++] = eb[--el];
    free(r);
    free(d);
    *outlen = rl;
    return res;
  }
  /* 'f' */
  {
    int keep = dp + prec; /* digits up to prec fractional places */
    int l2 = len, dp2 = dp;
    char *r = malloc((size_t)(keep > 0 ? keep : 0) + 2);
    if (!r) { free(d); return NULL; }
    if (iszero) { l2 = 0; dp2 = 0; }
    else round_digits(d, &l2, &dp2, keep, r);
    /* digits r[0..l2) represent 0.r × 10^dp2; l2 == -1: the value is 10^(dp2-1) */
    if (l2 == -1) { r[0] = '1'; l2 = 1; }
    int ip = dp2 > 0 ? dp2 : 0; /* integer digits */
    res = malloc((size_t)ip + (size_t)prec + 8);
    if (!res) { free(r); free(d); return NULL; }
    if (ip == 0) res[rl++] = '0';
    for (int i = 0; i < ip; i++) res[rl++] = i < l2 ? r[i] : '0';
    size_t pointat = rl;
    res[rl++] = '.';
    for (int i = 0; i < prec; i++) {
      /* fractional digit i has weight 10^-(i+1); r[j] has weight 10^(dp2-1-j) => j = dp2 + i */
      int j = dp2 + i;
      res[rl++] = (j >= 0 && j < l2) ? r[j] : '0';
    }
    if (strip) {
      while (rl > pointat + 1 && res[rl - 1] == '0') rl--;
      if (rl == pointat + 1) rl--;
    } else if (prec == 0 && !(flags & F_HASH)) rl--;
    free(r);
    free(d);
    *outlen = rl;
    return res;
  }
}

/* Sign, padding (width, '-' and '0' flags) and body of one conversion, as a malloc'd string. */
char *__tsklee_float_text(const struct __tsklee_fpval *v, int c, int prec, int flags, long width, size_t *len) {
  size_t bl;
  char *body = fmt_float(v, c, prec, flags, &bl);
  if (!body) return NULL;
  char sign = v->neg ? '-' : (flags & F_PLUS) ? '+' : (flags & F_SPACE) ? ' ' : 0;
  long total = (long)bl + (sign ? 1 : 0);
  long padn = width > total ? width - total : 0;
  char *r = malloc((size_t)total + (size_t)padn + 1);
  if (!r) { free(body); return NULL; }
  size_t n = 0;
  int zp = (flags & F_ZERO) && !(flags & F_MINUS) && v->cls == 0;
  if (!(flags & F_MINUS) && !zp) { memset(r, ' ', (size_t)padn); n += (size_t)padn; }
  if (sign) r[n++] = sign;
  if (zp) {
    size_t skip = ((c | 0x20) == 'a') ? 2 : 0;
    memcpy(r + n, body, skip);
    n += skip;
    memset(r + n, '0', (size_t)padn);
    n += (size_t)padn;
    memcpy(r + n, body + skip, bl - skip);
    n += bl - skip;
  } else {
    memcpy(r + n, body, bl);
    n += bl;
  }
  if (flags & F_MINUS) { memset(r + n, ' ', (size_t)padn); n += (size_t)padn; }
  r[n] = 0;
  free(body);
  *len = n;
  return r;
}
