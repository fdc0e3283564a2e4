/* Parallel exploration's bench program: 2^N paths, each doing W iterations of concrete work
 * after its branches, so that exploring (not loading or handing states over) dominates the
 * run. scripts/bench-jobs.mjs builds it with -DN=12 -DW=2000. */
#include <klee/klee.h>
#ifndef N
#define N 12
#endif
#ifndef W
#define W 2000
#endif
int main(void) {
  unsigned char x[N];
  klee_make_symbolic(x, sizeof x, "x");
  unsigned acc = 0;
  for (int i = 0; i < N; i++) acc = x[i] > 100 ? acc * 3u + (unsigned)i : acc + 7u;
  for (unsigned k = 0; k < W; k++) acc = acc * 1103515245u + 12345u;
  return (int)(acc >> 28);
}
