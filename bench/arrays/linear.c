/* Paper 002 probe: branches on linear combinations of table reads at symbolic indices and
 * input values that are UNSAT by arithmetic (parity, a two-equation system), not by the
 * range of any one term: the ILP pre-check's case. */
#include <klee/klee.h>
static const int costs[32] = {4, 8, 12, 20, 24, 28, 36, 40, 44, 52, 56, 60, 68, 72, 76, 84,
                              88, 92, 100, 104, 108, 116, 120, 124, 132, 136, 140, 148, 152, 156, 164, 168};
int main(void) {
  unsigned char in[8];
  klee_make_symbolic(in, sizeof in, "in");
  int r = 0;
  for (int k = 0; k < 4; k++) {
    int a = costs[in[2 * k] & 31];
    int x = in[2 * k + 1];
    if (a + 2 * x == 301) r += 1000;            /* a and 2x even: UNSAT */
    if (a + x == 100 && a - x == 130) r += 2000; /* a = 115, x = -15: UNSAT */
    if (a > x) r += 1;
    else r -= 1;
  }
  return r & 0xff;
}
