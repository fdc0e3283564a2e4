/* rand/srand/rand_r/random/srandom: a deterministic linear congruential generator (same
 * sequence on every run and path; NOT glibc's sequence). RAND_MAX is 2^31-1. */
#include "../internal.h"
#include <stdlib.h>

static unsigned long long state = 1;

static int step(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((*s >> 33) & 0x7fffffff);
}

void srand(unsigned seed) { state = seed; }
int rand(void) { return step(&state); }
void srandom(unsigned seed) { state = seed; }
long random(void) { return step(&state); }

int rand_r(unsigned *seed) {
  unsigned long long s = *seed;
  int r = step(&s);
  *seed = (unsigned)s;
  return r;
}
