/* Shared helpers of the libc differential drivers: each driver compares glibc's function
 * (normal name) with tsklee's (tsklee_ prefix, from libtsklee-libc-test.a) and prints one
 * line per check: "ok ..." or "MISMATCH ...", then "SUMMARY checks=N mismatches=M". */
#ifndef TSKLEE_CHECK_H
#define TSKLEE_CHECK_H
#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static long checks, mismatches;
static int verbose_ok = 1;

static void result(int same, const char *what, const char *detail) {
  checks++;
  if (!same) mismatches++;
  if (!same || verbose_ok) printf("%s %s%s%s\n", same ? "ok" : "MISMATCH", what, detail ? " " : "", detail ? detail : "");
}

#define CHECK_INT(what, glibc, ours)                                                        \
  do {                                                                                      \
    long long g_ = (long long)(glibc), o_ = (long long)(ours);                              \
    char d_[160];                                                                           \
    snprintf(d_, sizeof d_, "glibc=%lld tsklee=%lld", g_, o_);                              \
    result(g_ == o_, what, d_);                                                             \
  } while (0)

/* Same sign (for comparison functions). */
#define CHECK_SIGN(what, glibc, ours)                                                       \
  do {                                                                                      \
    long long g_ = (long long)(glibc), o_ = (long long)(ours);                              \
    char d_[160];                                                                           \
    snprintf(d_, sizeof d_, "glibc=%lld tsklee=%lld", g_, o_);                              \
    result((g_ > 0) == (o_ > 0) && (g_ < 0) == (o_ < 0), what, d_);                         \
  } while (0)

#define CHECK_STR(what, glibc, ours)                                                        \
  do {                                                                                      \
    const char *g_ = (glibc), *o_ = (ours);                                                 \
    char d_[600];                                                                           \
    snprintf(d_, sizeof d_, "glibc=\"%.250s\" tsklee=\"%.250s\"", g_ ? g_ : "(null)", o_ ? o_ : "(null)"); \
    result((!g_ && !o_) || (g_ && o_ && strcmp(g_, o_) == 0), what, d_);                    \
  } while (0)

#define CHECK_MEM(what, glibc, ours, n) result(memcmp((glibc), (ours), (n)) == 0, what, NULL)

static int summary(void) {
  printf("SUMMARY checks=%ld mismatches=%ld\n", checks, mismatches);
  return 0;
}

/* Deterministic PRNG for the random cases. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint32_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}
#endif
