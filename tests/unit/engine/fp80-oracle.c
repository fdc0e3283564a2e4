/*
 * Native oracle for tests/unit/engine/fp80.test.ts: x86 long double (x87 80-bit extended) as
 * this machine computes it. Reads one operation per line from stdin and prints one result line:
 *
 *   <op> <operand> ...    operands in hex: long double = its 80-bit pattern (20 digits),
 *                         double = 64-bit pattern, float = 32-bit pattern, integers = their
 *                         two's complement bits (128-bit ones too), int = decimal
 *
 * Results are printed the same way (several space-separated when an op has several).
 * Built with -O2 -fno-math-errno -ffp-contract=off: arithmetic is x87 instructions, sqrt is
 * fsqrt, the other <math.h> functions are glibc's (what fmodl, floorl, fmal… give natively).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

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

static double d_of(const char *s) {
  unsigned long long v = (unsigned long long)parse_hex(s);
  double d;
  memcpy(&d, &v, 8);
  return d;
}

static void put_d(double d) {
  unsigned long long v;
  memcpy(&v, &d, 8);
  print_hex(v);
}

static float f_of(const char *s) {
  unsigned v = (unsigned)parse_hex(s);
  float f;
  memcpy(&f, &v, 4);
  return f;
}

static void put_f(float f) {
  unsigned v;
  memcpy(&v, &f, 4);
  print_hex(v);
}

/* Each operation in its own non-inlined function: no constant folding across lines. */
#define NI __attribute__((noinline))
NI static long double op_add(long double a, long double b) { return a + b; }
NI static long double op_sub(long double a, long double b) { return a - b; }
NI static long double op_mul(long double a, long double b) { return a * b; }
NI static long double op_div(long double a, long double b) { return a / b; }
NI static long double op_rem(long double a, long double b) { return fmodl(a, b); }
NI static long double op_neg(long double a) { return -a; }
NI static long double op_sqrt(long double a) { return __builtin_sqrtl(a); }
NI static int op_cmp(long double a, long double b) {
  /* 3 unordered, 2 greater, 1 equal, 0 less */
  return __builtin_isunordered(a, b) ? 3 : a > b ? 2 : a == b ? 1 : 0;
}

int main(void) {
  char line[512];
  setvbuf(stdout, NULL, _IOFBF, 1 << 16);
  while (fgets(line, sizeof line, stdin)) {
    char op[32], a[64] = "", b[64] = "", c[64] = "";
    if (sscanf(line, "%31s %63s %63s %63s", op, a, b, c) < 1) continue;
#define IS(name) (strcmp(op, name) == 0)
    if (IS("add")) put_ld(op_add(ld_of(a), ld_of(b)));
    else if (IS("sub")) put_ld(op_sub(ld_of(a), ld_of(b)));
    else if (IS("mul")) put_ld(op_mul(ld_of(a), ld_of(b)));
    else if (IS("div")) put_ld(op_div(ld_of(a), ld_of(b)));
    else if (IS("rem")) put_ld(op_rem(ld_of(a), ld_of(b)));
    else if (IS("neg")) put_ld(op_neg(ld_of(a)));
    else if (IS("abs")) put_ld(fabsl(ld_of(a)));
    else if (IS("sqrt")) put_ld(op_sqrt(ld_of(a)));
    else if (IS("cmp")) printf("%d", op_cmp(ld_of(a), ld_of(b)));
    else if (IS("copysign")) put_ld(copysignl(ld_of(a), ld_of(b)));
    else if (IS("floor")) put_ld(floorl(ld_of(a)));
    else if (IS("ceil")) put_ld(ceill(ld_of(a)));
    else if (IS("trunc")) put_ld(truncl(ld_of(a)));
    else if (IS("round")) put_ld(roundl(ld_of(a)));
    else if (IS("rint")) put_ld(rintl(ld_of(a)));
    else if (IS("nearbyint")) put_ld(nearbyintl(ld_of(a)));
    else if (IS("fma")) put_ld(fmal(ld_of(a), ld_of(b), ld_of(c)));
    else if (IS("fmin")) put_ld(fminl(ld_of(a), ld_of(b)));
    else if (IS("fmax")) put_ld(fmaxl(ld_of(a), ld_of(b)));
    else if (IS("fpclass")) {
      long double x = ld_of(a);
      unsigned m = 0;
#define CLS(bit) m |= (unsigned)__builtin_isfpclass(x, 1 << bit) << bit
      CLS(0); CLS(1); CLS(2); CLS(3); CLS(4); CLS(5); CLS(6); CLS(7); CLS(8); CLS(9);
      printf("%x", m);
    } else if (IS("frexp")) {
      int e = 0;
      long double m = frexpl(ld_of(a), &e);
      put_ld(m);
      printf(" %d", e);
    } else if (IS("ldexp")) put_ld(ldexpl(ld_of(a), atoi(b)));
    else if (IS("modf")) {
      long double ip = 0;
      long double fr = modfl(ld_of(a), &ip);
      put_ld(fr);
      printf(" ");
      put_ld(ip);
    }
    else if (IS("todouble")) put_d((double)ld_of(a));
    else if (IS("tofloat")) put_f((float)ld_of(a));
    else if (IS("fromdouble")) put_ld((long double)d_of(a));
    else if (IS("fromfloat")) put_ld((long double)f_of(a));
    else if (IS("toi64")) print_hex((unsigned long long)(long long)ld_of(a));
    else if (IS("toi32")) print_hex((unsigned)(int)ld_of(a));
    else if (IS("toi16")) print_hex((unsigned short)(short)ld_of(a));
    else if (IS("toi8")) print_hex((unsigned char)(signed char)ld_of(a));
    else if (IS("tou8")) print_hex((unsigned char)ld_of(a));
    else if (IS("tou16")) print_hex((unsigned short)ld_of(a));
    else if (IS("tou64")) print_hex((unsigned long long)ld_of(a));
    else if (IS("tou32")) print_hex((unsigned)ld_of(a));
    else if (IS("toi128")) print_hex((u128)(i128)ld_of(a));
    else if (IS("tou128")) print_hex((u128)ld_of(a));
    else if (IS("fromi64")) put_ld((long double)(long long)parse_hex(a));
    else if (IS("fromu64")) put_ld((long double)(unsigned long long)parse_hex(a));
    else if (IS("fromi32")) put_ld((long double)(int)parse_hex(a));
    else if (IS("fromi128")) put_ld((long double)(i128)parse_hex(a));
    else if (IS("fromu128")) put_ld((long double)parse_hex(a));
    else printf("?");
    printf("\n");
  }
  return 0;
}
