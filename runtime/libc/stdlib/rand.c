/* rand/srand/random/srandom: glibc's additive feedback generator (its default TYPE_3 state,
 * degree 31, separation 3), so a program's "random" choices replay the same natively;
 * rand_r: glibc's three-step linear congruential generator. RAND_MAX is 2^31-1. */
#include "../internal.h"
#include <stdlib.h>

#define DEGREE 31
#define SEPARATION 3

static unsigned table[DEGREE];
static int front = SEPARATION, rear = 0;
static int seeded = 0;

static unsigned next(void) {
  table[front] += table[rear];
  unsigned out = table[front] >> 1;
  front = (front + 1) % DEGREE;
  rear = (rear + 1) % DEGREE;
  return out;
}

void srandom(unsigned seed) {
  int word = seed == 0 ? 1 : (int)seed;
  table[0] = (unsigned)word;
  /* word = 16807 * word mod (2^31 - 1), by Schrage's method to stay within 32 bits */
  for (int i = 1; i < DEGREE; i++) {
    int hi = word / 127773, lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    table[i] = (unsigned)word;
  }
  front = SEPARATION;
  rear = 0;
  seeded = 1;
  for (int i = 0; i < 10 * DEGREE; i++) next();
}

long random(void) {
  if (!seeded) srandom(1);
  return (long)next();
}

void srand(unsigned seed) { srandom(seed); }
int rand(void) { return (int)random(); }

int rand_r(unsigned *seed) {
  unsigned s = *seed;
  s = s * 1103515245u + 12345u;
  int r = (int)((s / 65536) % 2048);
  s = s * 1103515245u + 12345u;
  r = (r << 10) ^ (int)((s / 65536) % 1024);
  s = s * 1103515245u + 12345u;
  r = (r << 10) ^ (int)((s / 65536) % 1024);
  *seed = s;
  return r;
}
