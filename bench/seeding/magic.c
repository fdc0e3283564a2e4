/*
 * A bug that needs the right input twice over: a header of HEADER bytes whose letters must
 * score exactly HEADER * 3 / 2 (lower case 1, upper case 2, anything else 0: each byte forks
 * five ways), then a 4-byte magic number. scripts/bench-seeding.mjs times the first error
 * with and without a seed that has both.
 */
#include <klee/klee.h>
#include <assert.h>

#ifndef HEADER
#define HEADER 8
#endif

int main(void) {
  unsigned char in[HEADER + 4];
  klee_make_symbolic(in, sizeof in, "in");
  int score = 0;
  for (int i = 0; i < HEADER; i++) {
    if (in[i] >= 'a' && in[i] <= 'z') score += 1;
    else if (in[i] >= 'A' && in[i] <= 'Z') score += 2;
  }
  if (score != HEADER * 3 / 2) return 1;
  unsigned magic = in[HEADER] | in[HEADER + 1] << 8 | in[HEADER + 2] << 16 | (unsigned)in[HEADER + 3] << 24;
  if (magic == 0x4b4c4545u) assert(0 && "magic");
  return 0;
}
