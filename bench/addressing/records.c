/* Paper 003, not written for tuning: a 2 KB heap array of 64 records of 32 bytes whose
 * fields are computed from symbolic input (a parsed configuration), then read at symbolic
 * record indices: a large object read at symbolic offsets (splitting's case). */
#include <klee/klee.h>
#include <stdlib.h>
struct rec { int id; short flags; char name[22]; int score; };
int main(void) {
  unsigned char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  struct rec *rs = malloc(64 * sizeof(struct rec));
  for (int k = 0; k < 64; k++) {
    rs[k].id = k;
    rs[k].flags = (short)(in[k & 7] & 7);
    rs[k].name[0] = (char)('a' + (k & 15));
    rs[k].score = k * 3;
  }
  int r = 0;
  for (int q = 0; q < 2; q++) {
    unsigned i = klee_range(0, 64, q ? "j" : "i");
    if (rs[i].flags == 5) r += 1;
    if (rs[i].score > 150) r += 10;
  }
  return r;
}
