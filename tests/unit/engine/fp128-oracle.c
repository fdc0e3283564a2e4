/*
 * Native oracle for tests/unit/engine/fp128.test.ts: __float128 (IEEE binary128) as this
 * machine computes it — libgcc's soft-fp routines for arithmetic, comparisons and conversions,
 * glibc's libm for the *f128 functions. Reads one operation per line from stdin and prints one
 * result line (with -DQUADMATH the libm operations call libquadmath's *q functions instead):
 *
 *   <op> <operand> ...    operands in hex: __float128 = its 128-bit pattern, long double = its
 *                         80-bit pattern, double/float/_Float16 = their bit patterns, integers =
 *                         their two's complement bits; int = decimal
 *
 * Results are printed the same way (several space-separated when an op has several). The libm
 * functions are called through volatile function pointers, so the call reaches glibc whatever
 * the compiler knows about them (clang 16 lowers llvm.floor.f128 to floorl, a long double
 * function). Conversions to and from odd integer widths use _BitInt(N).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef __float128 Q;
typedef unsigned __int128 u128;
typedef __int128 i128;

/* glibc's *f128 functions, or with -DQUADMATH libquadmath's *q ones (link -lquadmath). */
#ifdef QUADMATH
#define FN(name) name##q
#else
#define FN(name) name##f128
#endif
Q FN(sqrt)(Q);
Q FN(fmod)(Q, Q);
Q FN(fma)(Q, Q, Q);
Q FN(floor)(Q);
Q FN(ceil)(Q);
Q FN(trunc)(Q);
Q FN(round)(Q);
Q FN(rint)(Q);
Q FN(nearbyint)(Q);
Q FN(fmin)(Q, Q);
Q FN(fmax)(Q, Q);
Q FN(copysign)(Q, Q);
Q FN(fabs)(Q);
Q FN(frexp)(Q, int *);
Q FN(ldexp)(Q, int);
Q FN(modf)(Q, Q *);
long FN(lrint)(Q);
long FN(lround)(Q);
#ifndef QUADMATH
Q roundevenf128(Q);
Q fminimumf128(Q, Q);
Q fmaximumf128(Q, Q);
#endif

static Q (*volatile p_sqrt)(Q) = FN(sqrt);
static Q (*volatile p_fmod)(Q, Q) = FN(fmod);
static Q (*volatile p_fma)(Q, Q, Q) = FN(fma);
static Q (*volatile p_floor)(Q) = FN(floor);
static Q (*volatile p_ceil)(Q) = FN(ceil);
static Q (*volatile p_trunc)(Q) = FN(trunc);
static Q (*volatile p_round)(Q) = FN(round);
static Q (*volatile p_rint)(Q) = FN(rint);
static Q (*volatile p_nearbyint)(Q) = FN(nearbyint);
static Q (*volatile p_fmin)(Q, Q) = FN(fmin);
static Q (*volatile p_fmax)(Q, Q) = FN(fmax);
static Q (*volatile p_copysign)(Q, Q) = FN(copysign);
static Q (*volatile p_fabs)(Q) = FN(fabs);
static Q (*volatile p_frexp)(Q, int *) = FN(frexp);
static Q (*volatile p_ldexp)(Q, int) = FN(ldexp);
static Q (*volatile p_modf)(Q, Q *) = FN(modf);
static long (*volatile p_lrint)(Q) = FN(lrint);
static long (*volatile p_lround)(Q) = FN(lround);
#ifndef QUADMATH
static Q (*volatile p_roundeven)(Q) = roundevenf128;
static Q (*volatile p_fminimum)(Q, Q) = fminimumf128;
static Q (*volatile p_fmaximum)(Q, Q) = fmaximumf128;
#endif

static u128 parse_hex(const char *s) {
  u128 v = 0;
  for (; *s; s++) {
    int c = *s;
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) break;
    v = (v << 4) | (u128)d;
  }
  return v;
}

static void print_hex(u128 v) {
  unsigned long long hi = (unsigned long long)(v >> 64), lo = (unsigned long long)v;
  if (hi) printf("%llx%016llx", hi, lo);
  else printf("%llx", lo);
}

static Q q_of(const char *s) {
  u128 v = parse_hex(s);
  Q x;
  memcpy(&x, &v, 16);
  return x;
}

static void put_q(Q x) {
  u128 v;
  memcpy(&v, &x, 16);
  print_hex(v);
}

static long double ld_of(const char *s) {
  u128 v = parse_hex(s);
  long double x = 0;
  memcpy(&x, &v, 10);
  return x;
}

static void put_ld(long double x) {
  u128 v = 0;
  memcpy(&v, &x, 10);
  print_hex(v);
}

#define BITS_OF(T, x) ({ T _x = (x); u128 _v = 0; memcpy(&_v, &_x, sizeof _x); _v; })
#define FROM_BITS(T, s) ({ u128 _v = parse_hex(s); T _x; memcpy(&_x, &_v, sizeof _x); _x; })

/* Each operation in its own non-inlined function: no constant folding across lines. */
#define NI __attribute__((noinline))
NI static Q op_add(Q a, Q b) { return a + b; }
NI static Q op_sub(Q a, Q b) { return a - b; }
NI static Q op_mul(Q a, Q b) { return a * b; }
NI static Q op_div(Q a, Q b) { return a / b; }
NI static Q op_neg(Q a) { return -a; }
NI static int op_cmp(Q a, Q b) {
  /* 3 unordered, 2 greater, 1 equal, 0 less */
  return __builtin_isunordered(a, b) ? 3 : a > b ? 2 : a == b ? 1 : 0;
}

/* Integer conversions of width N, signed (i) and unsigned (u), as put_int/parse bits. */
#define TO_INT(N)                                                                              \
  else if (IS("toi" #N)) print_hex((u128)(unsigned _BitInt(N))(_BitInt(N))q_of(a));         \
  else if (IS("tou" #N)) print_hex((u128)(unsigned _BitInt(N))q_of(a));                     \
  else if (IS("fromi" #N)) put_q((Q)(_BitInt(N))(unsigned _BitInt(N))parse_hex(a));         \
  else if (IS("fromu" #N)) put_q((Q)(unsigned _BitInt(N))parse_hex(a));

int main(void) {
  char line[512];
  setvbuf(stdout, NULL, _IOFBF, 1 << 16);
  while (fgets(line, sizeof line, stdin)) {
    char op[32], a[64] = "", b[64] = "", c[64] = "";
    if (sscanf(line, "%31s %63s %63s %63s", op, a, b, c) < 1) continue;
#define IS(name) (strcmp(op, name) == 0)
    if (IS("add")) put_q(op_add(q_of(a), q_of(b)));
    else if (IS("sub")) put_q(op_sub(q_of(a), q_of(b)));
    else if (IS("mul")) put_q(op_mul(q_of(a), q_of(b)));
    else if (IS("div")) put_q(op_div(q_of(a), q_of(b)));
    else if (IS("rem")) put_q(p_fmod(q_of(a), q_of(b)));
    else if (IS("neg")) put_q(op_neg(q_of(a)));
    else if (IS("abs")) put_q(p_fabs(q_of(a)));
    else if (IS("sqrt")) put_q(p_sqrt(q_of(a)));
    else if (IS("cmp")) printf("%d", op_cmp(q_of(a), q_of(b)));
    else if (IS("copysign")) put_q(p_copysign(q_of(a), q_of(b)));
    else if (IS("floor")) put_q(p_floor(q_of(a)));
    else if (IS("ceil")) put_q(p_ceil(q_of(a)));
    else if (IS("trunc")) put_q(p_trunc(q_of(a)));
    else if (IS("round")) put_q(p_round(q_of(a)));
    else if (IS("rint")) put_q(p_rint(q_of(a)));
    else if (IS("nearbyint")) put_q(p_nearbyint(q_of(a)));
    else if (IS("fma")) put_q(p_fma(q_of(a), q_of(b), q_of(c)));
    else if (IS("fmin")) put_q(p_fmin(q_of(a), q_of(b)));
    else if (IS("fmax")) put_q(p_fmax(q_of(a), q_of(b)));
#ifndef QUADMATH
    else if (IS("roundeven")) put_q(p_roundeven(q_of(a)));
    else if (IS("fminimum")) put_q(p_fminimum(q_of(a), q_of(b)));
    else if (IS("fmaximum")) put_q(p_fmaximum(q_of(a), q_of(b)));
#endif
    else if (IS("lrint")) print_hex((unsigned long)p_lrint(q_of(a)));
    else if (IS("lround")) print_hex((unsigned long)p_lround(q_of(a)));
#if __has_builtin(__builtin_isfpclass)
    else if (IS("fpclass")) {
      Q x = q_of(a);
      unsigned m = 0;
#define CLS(bit) m |= (unsigned)__builtin_isfpclass(x, 1 << bit) << bit
      CLS(0); CLS(1); CLS(2); CLS(3); CLS(4); CLS(5); CLS(6); CLS(7); CLS(8); CLS(9);
      printf("%x", m);
    }
#endif
    else if (IS("frexp")) {
      int e = 0;
      Q m = p_frexp(q_of(a), &e);
      put_q(m);
      printf(" %d", e);
    } else if (IS("ldexp")) put_q(p_ldexp(q_of(a), atoi(b)));
    else if (IS("modf")) {
      Q ip = 0;
      Q fr = p_modf(q_of(a), &ip);
      put_q(fr);
      printf(" ");
      put_q(ip);
    }
    else if (IS("todouble")) print_hex(BITS_OF(double, (double)q_of(a)));
    else if (IS("tofloat")) print_hex(BITS_OF(float, (float)q_of(a)));
    else if (IS("tohalf")) print_hex(BITS_OF(_Float16, (_Float16)q_of(a)));
    else if (IS("tof80")) put_ld((long double)q_of(a));
    else if (IS("fromdouble")) put_q((Q)FROM_BITS(double, a));
    else if (IS("fromfloat")) put_q((Q)FROM_BITS(float, a));
    else if (IS("fromhalf")) put_q((Q)FROM_BITS(_Float16, a));
    else if (IS("fromf80")) put_q((Q)ld_of(a));
    else if (IS("f80tohalf")) print_hex(BITS_OF(_Float16, (_Float16)ld_of(a))); /* libgcc's __truncxfhf2 */
    else if (IS("halftof80")) put_ld((long double)FROM_BITS(_Float16, a)); /* __extendhfxf2 */
    TO_INT(8) TO_INT(16) TO_INT(24) TO_INT(32) TO_INT(40) TO_INT(63) TO_INT(64) TO_INT(65) TO_INT(100) TO_INT(127) TO_INT(128)
    else printf("?");
    printf("\n");
  }
  return 0;
}
