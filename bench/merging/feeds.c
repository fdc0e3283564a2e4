/* Paper 001, not written for tuning, where merging should be AVOIDED (QCE's point): a count k
 * of marked bytes among the first N, which then drives M later branches and indexes a table.
 * Merged, k becomes an ite over every count and each later branch a query over it; unmerged,
 * each state's k is concrete and those branches cost no query. Size: -DN=bytes, -DM=rounds. */
#include <klee/klee.h>
#ifndef N
#define N 8
#endif
#ifndef M
#define M 12
#endif
static int weights[N + 1];
int main(void) {
  char s[N + M];
  klee_make_symbolic(s, sizeof s, "s");
  int k = 0;
  for (int i = 0; i < N; i++)
    if (s[i] == '#') k++;
  for (int i = 0; i <= N; i++) weights[i] = i * i;
  int acc = 0;
  for (int j = 0; j < M; j++) {
    /* later uses of k: a branch with k and a load at k per round */
    if (k > (j % (N + 1))) acc += weights[k];
    else acc -= s[N + j] == 'x';
  }
  return acc & 0xff;
}
