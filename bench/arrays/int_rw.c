/* Paper 002, not written for tuning: an int array written and read at symbolic indices (a
 * scatter then a gather): 4 writes of input values at input positions, then reads at other
 * input positions. Reads of never-written cells still hold the initial pattern. */
#include <klee/klee.h>
#define LEN 16
int main(void) {
  int a[LEN];
  for (int k = 0; k < LEN; k++) a[k] = 3 * k;
  unsigned char pos[6];
  int val[4];
  klee_make_symbolic(pos, sizeof pos, "pos");
  klee_make_symbolic(val, sizeof val, "val");
  for (int w = 0; w < 4; w++) {
    unsigned p = pos[w] % LEN;
    if (val[w] < 0 || val[w] > 40) val[w] = 40;  /* clamp: values in [0, 40] */
    a[p] = val[w];
  }
  unsigned x = pos[4] % LEN, y = pos[5] % LEN;
  int r = 0;
  if (a[x] > 45) r |= 1;                 /* every cell is ≤ 45: UNSAT */
  if (a[x] < 0) r |= 2;                  /* every cell is ≥ 0: UNSAT */
  if (a[x] + a[y] == 77) r |= 4;
  if (a[x] == 44) r |= 8;               /* 44 is neither 3k nor ≤ 40: UNSAT */
  if (a[y] % 3 == 1) r |= 16;
  return r;
}
