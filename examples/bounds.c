/* A KLEE-style program for trying `tsklee run`: one symbolic input, three paths, one bug. */
#include <klee/klee.h>

static int table[4] = {10, 20, 30, 40};

int lookup(int i) {
  if (i < 0)
    return -1;
  return table[i]; /* out of bounds when i >= 4 */
}

int main(void) {
  int i;
  klee_make_symbolic(&i, sizeof i, "i");
  return lookup(i) > 15;
}
