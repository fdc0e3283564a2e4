/**
 * A C program with 2^24 paths: it never finishes within a test's time, so interrupt and
 * time-limit tests can stop it anywhere. Every completed path exits with n.
 */
export const ENDLESS_PROGRAM = `#include <klee/klee.h>
int main(void) {
  unsigned v[24]; int n = 0;
  klee_make_symbolic(v, sizeof v, "v");
  for (int i = 0; i < 24; i++) if (v[i] > 1000u * (i + 1)) n++;
  return n;
}
`;
