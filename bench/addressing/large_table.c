/* A large table read at symbolic offsets (gas's and m4's big arrays in small): 4096 bytes of
 * 32-bit entries, a few of them non-zero, looked up at two symbolic indices. */
#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  unsigned *table = calloc(1024, sizeof(unsigned));
  table[17] = 5;
  table[300] = 7;
  table[1000] = 9;
  unsigned i = klee_range(0, 1024, "i");
  unsigned j = klee_range(0, 1024, "j");
  unsigned a = table[i];
  if (a == 7) return 1;
  unsigned b = table[j];
  if (a + b == 14) return 2;
  return 0;
}
