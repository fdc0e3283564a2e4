/* strtod, strtof, strtold (C locale: '.' is the radix character).
 *
 * Accepts what glibc accepts: leading isspace(), a sign, decimal numbers with an optional
 * exponent, hexadecimal numbers ("0x1.8p3", the 'p' exponent optional), "inf"/"infinity",
 * "nan" and "nan(n-char-sequence)" (the sequence, when it parses as an integer, becomes the
 * payload), all case-insensitive.
 *
 * Decimal conversion, correctly rounded (round-to-nearest-even): a first approximation
 * (double arithmetic for float/double, 80-bit long double for strtold) is corrected by
 * comparing the exact decimal value with the midpoints between neighbouring candidates, in
 * big-integer arithmetic (AlgorithmR-style). strtod/strtof produce bit patterns and never
 * touch long double. Up to 800 significant digits are kept exactly (every midpoint of two
 * doubles has at most 767); further non-zero digits only act as a sticky bit. When the big
 * integers would not fit (only for long double inputs with extreme exponents) the
 * approximation is returned as is. Hexadecimal input is rounded once, with integer
 * arithmetic for float/double.
 * Cost: big-integer work is proportional to the size of the exponent; under symbolic
 * execution this code is meant for concrete strings (a symbolic digit forks per digit).
 *
 * errno = ERANGE on overflow (±HUGE_VAL) and when the result is tiny (subnormal or 0) and inexact.
 */
#include "../internal.h"
#include <errno.h>
#include <float.h>
#include <stdlib.h>
#include <string.h>

#define KIND_F 0
#define KIND_D 1
#define KIND_LD 2
#define MAXDIG 800

static long double decimal_to_kind(const char *dig, int ndig, long dexp, int sticky, int kind);

/* float and double are produced as bit patterns, with integer and double arithmetic only:
 * no 80-bit long double on their path (symbolic executors often model x87 long double
 * poorly). strtold uses long double. */
struct fmt {
  int p;          /* precision in bits */
  long kmin;      /* exponent of the least significant bit of the smallest subnormal */
  long kmax;      /* same for the largest finite value */
  int expbits;
};
static const struct fmt FMT_F = {24, -149, 104, 8};
static const struct fmt FMT_D = {53, -1074, 971, 11};
static uint64_t decimal_to_bits(const char *dig, int ndig, long dexp, int sticky, const struct fmt *f);
static uint64_t hex_to_bits(uint64_t m, long exp2, const struct fmt *f);
static uint64_t inf_bits(const struct fmt *f) { return ((1ULL << f->expbits) - 1) << (f->p - 1); }

static int lower_eq(const char *s, const char *word) {
  for (; *word; s++, word++)
    if (__tsklee_tolower((unsigned char)*s) != *word) return 0;
  return 1;
}

/* 10^e for 0 <= e, by binary exponentiation (exact up to 10^27). */
static long double pow10_ld(unsigned e) {
  long double r = 1.0L, b = 10.0L;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

/* x * 2^e without libm. */
static long double scale2(long double x, long e) {
  while (e > 0) {
    int k = e > 1000 ? 1000 : (int)e;
    long double p = 1.0L;
    for (int i = 0; i < k / 60; i++) p *= (long double)(1ULL << 60);
    p *= (long double)(1ULL << (k % 60));
    x *= p;
    e -= k;
  }
  while (e < 0) {
    int k = e < -1000 ? 1000 : (int)-e;
    long double p = 1.0L;
    for (int i = 0; i < k / 60; i++) p *= (long double)(1ULL << 60);
    p *= (long double)(1ULL << (k % 60));
    x /= p;
    e += k;
  }
  return x;
}

/* Rounds a long double to the target kind and sets ERANGE as glibc does (overflow, or a
 * tiny inexact result). Returned as a long double holding the rounded value. */
static long double rounded(long double v, int kind) {
  if (kind == KIND_F) return (float)v;
  if (kind == KIND_D) return (double)v;
  return v;
}

static long double finish(long double v, int kind, int inexact) {
  long double r;
  long double maxv, minv;
  if (kind == KIND_F) {
    r = (float)v;
    maxv = FLT_MAX;
    minv = FLT_MIN;
  } else if (kind == KIND_D) {
    r = (double)v;
    maxv = DBL_MAX;
    minv = DBL_MIN;
  } else {
    r = v;
    maxv = LDBL_MAX;
    minv = LDBL_MIN;
  }
  long double a = r < 0 ? -r : r;
  if (a > maxv) errno = ERANGE;
  else if (inexact && a < minv) errno = ERANGE; /* underflow: tiny and inexact */
  return r;
}

/* For KIND_F and KIND_D the result is returned in *bits (sign included) and the return value
 * is meaningless; for KIND_LD the return value is the result. */
static long double convert(const char *nptr, char **endptr, int kind, uint64_t *bits) {
  const struct fmt *f = kind == KIND_F ? &FMT_F : &FMT_D;
  const int fbits = kind == KIND_F ? 32 : 64;
#define SIGN(neg) ((neg) ? 1ULL << (fbits - 1) : 0)
  *bits = 0;
  const char *s = nptr;
  int neg = 0;
  while (__tsklee_isspace((unsigned char)*s)) s++;
  if (*s == '-') neg = 1, s++;
  else if (*s == '+') s++;

  /* inf / infinity / nan */
  if (lower_eq(s, "inf")) {
    s += 3;
    if (lower_eq(s, "inity")) s += 5;
    if (endptr) *endptr = (char *)s;
    if (kind != KIND_LD) {
      *bits = inf_bits(f) | SIGN(neg);
      return 0;
    }
    long double inf = __builtin_infl();
    return neg ? -inf : inf;
  }
  if (lower_eq(s, "nan")) {
    s += 3;
    unsigned long long payload = 0;
    if (*s == '(') {
      const char *p = s + 1;
      while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
             *p == '_')
        p++;
      if (*p == ')') {
        char *e;
        int saved = errno;
        unsigned long long v = strtoull(s + 1, &e, 0);
        errno = saved;
        if (e == p) payload = v;
        s = p + 1;
      }
    }
    if (endptr) *endptr = (char *)s;
    long double r;
    if (kind == KIND_F) {
      union { float f; uint32_t u; } x;
      x.u = 0x7fc00000u | (uint32_t)(payload & 0x3fffffu);
      *bits = x.u | SIGN(neg);
      (void)r;
      return 0;
    }
    if (kind == KIND_D) {
      union { double d; uint64_t u; } x;
      x.u = 0x7ff8000000000000ull | (payload & 0x7ffffffffffffull);
      *bits = x.u | SIGN(neg);
      return 0;
    }
    union { long double ld; struct { uint64_t m; uint16_t se; } p; } x;
    x.p.m = 0xc000000000000000ull | (payload & 0x3fffffffffffffffull);
    x.p.se = (uint16_t)(0x7fff | (neg ? 0x8000 : 0));
    return x.ld;
  }

  /* hexadecimal */
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    const char *p = s + 2;
    unsigned long long m = 0;
    long exp2 = 0;
    int any = 0, sticky = 0;
    for (; __tsklee_digitval((unsigned char)*p) < 16; p++) {
      any = 1;
      int d = __tsklee_digitval((unsigned char)*p);
      if (m < (1ULL << 60)) m = m * 16 + (unsigned)d;
      else {
        exp2 += 4;
        if (d) sticky = 1;
      }
    }
    if (*p == '.') {
      const char *q = p + 1;
      for (; __tsklee_digitval((unsigned char)*q) < 16; q++) {
        any = 1;
        int d = __tsklee_digitval((unsigned char)*q);
        if (m < (1ULL << 60)) {
          m = m * 16 + (unsigned)d;
          exp2 -= 4;
        } else if (d) {
          sticky = 1;
        }
      }
      if (any) p = q;
    }
    if (!any) {
      /* "0x" without digits: the number is "0" */
      if (endptr) *endptr = (char *)s + 1;
      *bits = SIGN(neg);
      return neg ? -0.0L : 0.0L;
    }
    if (*p == 'p' || *p == 'P') {
      const char *q = p + 1;
      int eneg = 0;
      if (*q == '-') eneg = 1, q++;
      else if (*q == '+') q++;
      if (__tsklee_isdigit((unsigned char)*q)) {
        long e = 0;
        for (; __tsklee_isdigit((unsigned char)*q); q++)
          if (e < 100000000) e = e * 10 + (*q - '0');
        exp2 += eneg ? -e : e;
        p = q;
      }
    }
    if (endptr) *endptr = (char *)p;
    if (m == 0) {
      *bits = SIGN(neg);
      return neg ? -0.0L : 0.0L;
    }
    /* normalise m to 64 bits so that the sticky bit lies below every target precision */
    while (m < (1ULL << 63)) {
      m <<= 1;
      exp2--;
    }
    if (sticky) m |= 1;
    if (kind != KIND_LD) {
      *bits = hex_to_bits(m, exp2, f) | SIGN(neg);
      return 0;
    }
    /* Scaling in long double is exact (its exponent range is wider than double's), so the
     * conversion to the target rounds once, also in the subnormal range. */
    long double v = scale2((long double)m, exp2);
    /* exact iff scaling the rounded result back gives m again (also catches rounding in
     * the long double underflow range, where v itself is already rounded) */
    v = finish(v, kind, sticky || scale2(rounded(v, kind), -exp2) != (long double)m);
    return neg ? -v : v;
  }

  /* decimal: keep up to MAXDIG significant digits (a double's exact midpoints need at
   * most 767), remember whether non-zero digits were dropped */
  const char *p = s;
  char dig[MAXDIG];
  int ndig = 0;   /* significant digits in dig */
  long dexp = 0;  /* value = 0.dig... no: value = dig (as an integer) * 10^dexp */
  int any = 0, sticky = 0;
  for (; __tsklee_isdigit((unsigned char)*p); p++) {
    any = 1;
    char d = (char)(*p - '0');
    if (ndig == 0 && d == 0) continue;
    if (ndig < MAXDIG) dig[ndig++] = d;
    else {
      dexp++;
      if (d) sticky = 1;
    }
  }
  if (*p == '.') {
    const char *q = p + 1;
    for (; __tsklee_isdigit((unsigned char)*q); q++) {
      any = 1;
      char d = (char)(*q - '0');
      if (ndig == 0 && d == 0) {
        dexp--;
        continue;
      }
      if (ndig < MAXDIG) {
        dig[ndig++] = d;
        dexp--;
      } else if (d) {
        sticky = 1;
      }
    }
    if (any) p = q;
  }
  if (!any) {
    if (endptr) *endptr = (char *)nptr;
    return 0.0L;
  }
  if (*p == 'e' || *p == 'E') {
    const char *q = p + 1;
    int eneg = 0;
    if (*q == '-') eneg = 1, q++;
    else if (*q == '+') q++;
    if (__tsklee_isdigit((unsigned char)*q)) {
      long e = 0;
      for (; __tsklee_isdigit((unsigned char)*q); q++)
        if (e < 100000000) e = e * 10 + (*q - '0');
      dexp += eneg ? -e : e;
      p = q;
    }
  }
  if (endptr) *endptr = (char *)p;
  while (ndig > 0 && dig[ndig - 1] == 0) ndig--, dexp++;
  if (ndig == 0) {
    *bits = SIGN(neg);
    return neg ? -0.0L : 0.0L;
  }
  if (kind != KIND_LD) {
    *bits = decimal_to_bits(dig, ndig, dexp, sticky, f) | SIGN(neg);
    return 0;
  }
  long double v = decimal_to_kind(dig, ndig, dexp, sticky, kind);
  return neg ? -v : v;
#undef SIGN
}

double strtod(const char *restrict nptr, char **restrict endptr) {
  uint64_t bits;
  convert(nptr, endptr, KIND_D, &bits);
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}
float strtof(const char *restrict nptr, char **restrict endptr) {
  uint64_t bits;
  convert(nptr, endptr, KIND_F, &bits);
  uint32_t b32 = (uint32_t)bits;
  float x;
  memcpy(&x, &b32, sizeof x);
  return x;
}
long double strtold(const char *restrict nptr, char **restrict endptr) {
  uint64_t bits;
  return convert(nptr, endptr, KIND_LD, &bits);
}
double strtod_l(const char *restrict n, char **restrict e, locale_t l) { (void)l; return strtod(n, e); }
float strtof_l(const char *restrict n, char **restrict e, locale_t l) { (void)l; return strtof(n, e); }
long double strtold_l(const char *restrict n, char **restrict e, locale_t l) { (void)l; return strtold(n, e); }
double __strtod_internal(const char *n, char **e, int g) { (void)g; return strtod(n, e); }
double atof(const char *s) { return strtod(s, NULL); }

/* ---- exact decimal refinement ------------------------------------------------------- */

#define LIMBS 720

typedef struct {
  int n;              /* limbs in use (no leading zero limbs) */
  uint32_t w[LIMBS];  /* little-endian */
} big;

static int big_overflow;

static void big_set(big *b, uint64_t v) {
  b->n = 0;
  while (v) {
    b->w[b->n++] = (uint32_t)v;
    v >>= 32;
  }
}

static void big_copy(big *d, const big *s) {
  d->n = s->n;
  for (int i = 0; i < s->n; i++) d->w[i] = s->w[i];
}

static void big_mul_small(big *b, uint32_t f) {
  uint64_t carry = 0;
  for (int i = 0; i < b->n; i++) {
    uint64_t t = (uint64_t)b->w[i] * f + carry;
    b->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) {
    if (b->n == LIMBS) big_overflow = 1;
    else b->w[b->n++] = (uint32_t)carry;
  }
}

static void big_add_small(big *b, uint32_t a) {
  uint64_t carry = a;
  for (int i = 0; i < b->n && carry; i++) {
    uint64_t t = (uint64_t)b->w[i] + carry;
    b->w[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) {
    if (b->n == LIMBS) big_overflow = 1;
    else b->w[b->n++] = (uint32_t)carry;
  }
}

static void big_mul_pow10(big *b, long e) {
  while (e >= 9) {
    big_mul_small(b, 1000000000u);
    e -= 9;
  }
  static const uint32_t p10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  if (e > 0) big_mul_small(b, p10[e]);
}

static void big_shl(big *b, long bits) {
  if (b->n == 0 || bits == 0) return;
  long words = bits / 32;
  int sh = (int)(bits % 32);
  if (b->n + words + 1 > LIMBS) {
    big_overflow = 1;
    return;
  }
  int n = b->n;
  b->w[n + words] = 0;
  for (int i = n - 1; i >= 0; i--) {
    uint32_t x = b->w[i];
    if (sh) {
      b->w[i + words + 1] |= x >> (32 - sh);
      b->w[i + words] = x << sh;
    } else {
      b->w[i + words] = x;
    }
  }
  for (long i = 0; i < words; i++) b->w[i] = 0;
  b->n = (int)(n + words + 1);
  while (b->n > 0 && b->w[b->n - 1] == 0) b->n--;
}

static int big_cmp(const big *a, const big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

/* b = a * v, v < 2^64 */
static void big_mul_u64(big *out, const big *a, uint64_t v) {
  big hi;
  big_copy(out, a);
  big_mul_small(out, (uint32_t)v);
  if (v >> 32) {
    big_copy(&hi, a);
    big_mul_small(&hi, (uint32_t)(v >> 32));
    big_shl(&hi, 32);
    /* out += hi */
    uint64_t carry = 0;
    int n = hi.n > out->n ? hi.n : out->n;
    for (int i = 0; i < n; i++) {
      uint64_t t = carry + (i < out->n ? out->w[i] : 0) + (i < hi.n ? hi.w[i] : 0);
      out->w[i] = (uint32_t)t;
      carry = t >> 32;
    }
    out->n = n;
    if (carry) {
      if (n == LIMBS) big_overflow = 1;
      else out->w[out->n++] = (uint32_t)carry;
    }
  }
}

struct refine {
  big num;   /* digits * 10^max(dexp, 0) */
  big den;   /* 10^max(-dexp, 0) */
  int sticky;
};

/* Sign of (value - M * 2^k). */
static int cmp_value(struct refine *r, uint64_t M, long k) {
  big lhs, rhs;
  big_copy(&lhs, &r->num);
  big_mul_u64(&rhs, &r->den, M);
  if (k >= 0) big_shl(&rhs, k);
  else big_shl(&lhs, -k);
  int c = big_cmp(&lhs, &rhs);
  if (c == 0 && r->sticky) c = 1;
  return c;
}

/* Sign of (value - midpoint between M*2^k and (M+1)*2^k). */
static int cmp_mid_up(struct refine *r, uint64_t M, long k) {
  /* (2M+1) * 2^(k-1); 2M+1 may need 65 bits for long double: then use M*2^k + 2^(k-1)
   * with the exponent shifted by one instead */
  if (M >> 63) {
    /* compare value * 2 vs (2M+1) * 2^k computed as (M + 1/2) ... use (M<<1|1) split */
    big lhs, rhs, one;
    big_copy(&lhs, &r->num);
    big_mul_u64(&rhs, &r->den, M);
    big_shl(&rhs, 1);
    big_copy(&one, &r->den);
    /* rhs += den */
    uint64_t carry = 0;
    int n = one.n > rhs.n ? one.n : rhs.n;
    for (int i = 0; i < n; i++) {
      uint64_t t = carry + (i < rhs.n ? rhs.w[i] : 0) + (i < one.n ? one.w[i] : 0);
      rhs.w[i] = (uint32_t)t;
      carry = t >> 32;
    }
    rhs.n = n;
    if (carry) {
      if (n == LIMBS) big_overflow = 1;
      else rhs.w[rhs.n++] = (uint32_t)carry;
    }
    long kk = k - 1;
    if (kk >= 0) big_shl(&rhs, kk);
    else big_shl(&lhs, -kk);
    int c = big_cmp(&lhs, &rhs);
    if (c == 0 && r->sticky) c = 1;
    return c;
  }
  return cmp_value(r, 2 * M + 1, k - 1);
}


/* Moves the candidate M * 2^k (p-bit format, exponent range kmin..kmax) to the correctly
 * rounded value of the decimal in r. Returns 1 on overflow. */
static int refine_candidate(struct refine *ref_p, uint64_t *Mp_, long *kp_, int p, long kmin, long kmax) {
  const uint64_t top = 1ULL << (p - 1);
  const uint64_t maxm = p == 64 ? ~0ULL : (1ULL << p) - 1;
  uint64_t M = *Mp_;
  long k = *kp_;
#define ref (*ref_p)
  int overflow = 0;
  for (int iter = 0; iter < 64; iter++) {
    int c = cmp_mid_up(&ref, M, k);
    if (c > 0 || (c == 0 && (M & 1))) {
      /* round up to the next candidate */
      if (M == maxm) {
        if (k == kmax) {
          overflow = 1;
          break;
        }
        M = top;
        k++;
      } else {
        M++;
      }
      if (c == 0) break;
      continue;
    }
    if (c == 0) break; /* tie, M even: stay */
    if (M == 0) break;
    uint64_t Mp = M - 1;
    long kp = k;
    if (M == top && k > kmin) {
      Mp = maxm;
      kp = k - 1;
    }
    int c2 = cmp_mid_up(&ref, Mp, kp);
    if (c2 < 0 || (c2 == 0 && !(Mp & 1))) {
      M = Mp;
      k = kp;
      if (c2 == 0) break;
      continue;
    }
    break;
  }
#undef ref
  *Mp_ = M;
  *kp_ = k;
  return overflow;
}

static long double approx(const char *dig, int ndig, long dexp, int sticky) {
  unsigned long long m = 0;
  int used = ndig < 19 ? ndig : 19;
  for (int i = 0; i < used; i++) m = m * 10 + (unsigned)dig[i];
  for (int i = used; i < ndig; i++)
    if (dig[i]) sticky = 1;
  long e = dexp + (ndig - used);
  long mag = e + used;
  if (mag > 4934) return __builtin_infl();
  if (mag < -4952) return 0.0L;
  long double lm = (long double)m;
  if (sticky) lm += 0.5L;
  if (e >= 0) {
    if (e > 4932) return lm * pow10_ld(4932) * pow10_ld((unsigned)(e - 4932));
    return lm * pow10_ld((unsigned)e);
  }
  long k = -e;
  if (k > 4900) return lm / pow10_ld(4900) / pow10_ld((unsigned)(k - 4900));
  return lm / pow10_ld((unsigned)k);
}

static long double decimal_to_kind(const char *dig, int ndig, long dexp, int sticky, int kind) {
  int p;
  long kmin, kmax;
  if (kind == KIND_F) p = 24, kmin = -149, kmax = 104;
  else if (kind == KIND_D) p = 53, kmin = -1074, kmax = 971;
  else p = 64, kmin = -16445, kmax = 16320;
  const uint64_t top = 1ULL << (p - 1);
  const uint64_t maxm = p == 64 ? ~0ULL : (1ULL << p) - 1;

  long double v = approx(dig, ndig, dexp, sticky);
  long double r = rounded(v, kind);

  /* decode r as M * 2^k in the target format */
  uint64_t M;
  long k;
  union {
    long double ld;
    struct {
      uint64_t m;
      uint16_t se;
    } b;
  } u;
  u.ld = r;
  int ex = u.b.se & 0x7fff;
  if (ex == 0x7fff) { /* infinity: start from the largest finite value */
    M = maxm;
    k = kmax;
  } else if (u.b.m == 0) {
    M = 0;
    k = kmin;
  } else {
    long e2 = (ex == 0 ? -16382 : ex - 16383) - 63;
    int shift = 64 - p;
    M = u.b.m >> shift;
    k = e2 + shift;
    if (k < kmin) {
      M >>= (kmin - k);
      k = kmin;
    }
  }

  /* Is the exact comparison affordable? (bits of both sides) */
  long pos10 = dexp > 0 ? dexp : 0, neg10 = dexp < 0 ? -dexp : 0;
  long lbits = (long)((ndig + pos10) * 3.33) + 70 + (k < 0 ? -k + 2 : 0);
  long rbits = (long)(neg10 * 3.33) + 140 + (k > 0 ? k : 0);
  if (lbits > (LIMBS - 4) * 32 || rbits > (LIMBS - 4) * 32) return finish(r, kind, 1);

  struct refine ref;
  big_overflow = 0;
  big_set(&ref.num, 0);
  for (int i = 0; i < ndig; i++) {
    big_mul_small(&ref.num, 10);
    big_add_small(&ref.num, (uint32_t)dig[i]);
  }
  big_mul_pow10(&ref.num, pos10);
  big_set(&ref.den, 1);
  big_mul_pow10(&ref.den, neg10);
  ref.sticky = sticky;

  int overflow = refine_candidate(&ref, &M, &k, p, kmin, kmax);
  if (big_overflow) return finish(r, kind, 1);
  if (overflow) return finish(__builtin_infl(), kind, 1);
  long double res = scale2((long double)M, k);
  int inexact = 1;
  if (M < top) inexact = cmp_value(&ref, M, k) != 0; /* only matters for tiny results */
  return finish(res, kind, inexact);
}

/* ---- float / double as bit patterns --------------------------------------------------- */

/* Bit pattern of M * 2^k (M < 2^p, k >= kmin; M >= 2^(p-1) unless k == kmin). The carry of
 * a mantissa that rounded up to 2^p flows into the exponent field by itself. */
static uint64_t encode(uint64_t M, long k, const struct fmt *f) {
  const uint64_t top = 1ULL << (f->p - 1);
  if (M < top) return M; /* subnormal or zero (then k == kmin) */
  return ((uint64_t)(k - f->kmin + 1) << (f->p - 1)) + (M - top);
}

static int tiny(uint64_t bits, const struct fmt *f) { return bits < (1ULL << (f->p - 1)); }

/* m has its top bit set (and a sticky bit in bit 0); value = m * 2^exp2. */
static uint64_t hex_to_bits(uint64_t m, long exp2, const struct fmt *f) {
  long e = exp2 + 63;                 /* value in [2^e, 2^(e+1)) */
  long emin_norm = f->kmin + f->p - 1;
  if (e > f->kmax + f->p - 1) {
    errno = ERANGE;
    return inf_bits(f);
  }
  long shift = 64 - f->p;
  if (e < emin_norm) shift += emin_norm - e;
  uint64_t keep;
  int up, inexact;
  if (shift >= 65) {
    keep = 0, up = 0, inexact = 1;
  } else if (shift == 64) {
    keep = 0, up = m > (1ULL << 63), inexact = 1;
  } else {
    keep = m >> shift;
    uint64_t rem = m & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    up = rem > half || (rem == half && (keep & 1));
    inexact = rem != 0;
  }
  keep += (uint64_t)up;
  uint64_t bits;
  if (e < emin_norm) bits = keep; /* subnormal; a carry makes it the smallest normal */
  else bits = encode(keep, exp2 + shift, f);
  if ((bits >> (f->p - 1)) >= (1ULL << f->expbits) - 1) {
    errno = ERANGE;
    return inf_bits(f);
  }
  if (inexact && tiny(bits, f)) errno = ERANGE;
  return bits;
}

/* 10^e in double, e <= 308 (exact up to 10^22, a few ulps above). */
static double pow10_d(unsigned e) {
  double r = 1.0, b = 10.0;
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return r;
}

static uint64_t decimal_to_bits(const char *dig, int ndig, long dexp, int sticky, const struct fmt *f) {
  const uint64_t top = 1ULL << (f->p - 1);
  const uint64_t maxm = (1ULL << f->p) - 1;
  unsigned long long m = 0;
  int used = ndig < 19 ? ndig : 19;
  for (int i = 0; i < used; i++) m = m * 10 + (unsigned)dig[i];
  long e10 = dexp + (ndig - used);
  long mag = e10 + used; /* value in [10^(mag-1), 10^mag) */
  if (mag > 310) {
    errno = ERANGE;
    return inf_bits(f);
  }
  if (mag < -345) {
    errno = ERANGE;
    return 0;
  }
  /* first approximation in double */
  double v = (double)m;
  if (e10 >= 0) v *= pow10_d((unsigned)e10);
  else if (e10 >= -300) v /= pow10_d((unsigned)-e10);
  else v = v / 1e300 / pow10_d((unsigned)(-e10 - 300));
  uint64_t M;
  long k;
  if (f->p == 24) {
    float x = (float)v;
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint32_t ex = (u >> 23) & 0xff, fr = u & 0x7fffff;
    if (ex == 0xff) M = maxm, k = f->kmax;
    else if (ex == 0) M = fr, k = f->kmin;
    else M = fr | (uint32_t)top, k = (long)ex + f->kmin - 1;
  } else {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint64_t ex = (u >> 52) & 0x7ff, fr = u & 0xfffffffffffffULL;
    if (ex == 0x7ff) M = maxm, k = f->kmax;
    else if (ex == 0) M = fr, k = f->kmin;
    else M = fr | top, k = (long)ex + f->kmin - 1;
  }

  struct refine ref;
  big_overflow = 0;
  big_set(&ref.num, 0);
  for (int i = 0; i < ndig; i++) {
    big_mul_small(&ref.num, 10);
    big_add_small(&ref.num, (uint32_t)dig[i]);
  }
  big_mul_pow10(&ref.num, dexp > 0 ? dexp : 0);
  big_set(&ref.den, 1);
  big_mul_pow10(&ref.den, dexp < 0 ? -dexp : 0);
  ref.sticky = sticky;
  int overflow = refine_candidate(&ref, &M, &k, f->p, f->kmin, f->kmax);
  if (overflow) {
    errno = ERANGE;
    return inf_bits(f);
  }
  uint64_t bits = encode(M, k, f);
  if (tiny(bits, f) && cmp_value(&ref, M, k) != 0) errno = ERANGE;
  return bits;
}
