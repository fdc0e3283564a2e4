/* A large table of values derived from an input (gas's and apr's big tables filled at run
 * time, in small): 4096 bytes, every eighth entry written with seed + k, then read at a
 * symbolic index. The read's array carries 128 symbolic writes: hard for the solver as one
 * 4096-byte array, easy as chunks of a few hundred bytes (paper 003 §4). -DENTRIES=N: a table
 * of N unsigned (default 1024). */
#include <klee/klee.h>
#include <stdlib.h>

#ifndef ENTRIES
#define ENTRIES 1024
#endif

int main(void) {
  unsigned seed = klee_int("seed");
  unsigned *table = calloc(ENTRIES, sizeof(unsigned));
  for (unsigned k = 0; k < ENTRIES; k += 8) table[k] = seed + k;
  unsigned i = klee_range(0, ENTRIES, "i");
  unsigned a = table[i];
  if (a == 7) return 1;
  if (a == 3000) return 2;
  return 0;
}
