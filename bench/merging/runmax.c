/* Paper 001, not written for tuning: running maximum and minimum of N symbolic ints,
 * with the index of the maximum; each element may raise the max, lower the min, or
 * neither. The results are used only once, at the end. Size: -DN=elements. */
#include <klee/klee.h>
#ifndef N
#define N 8
#endif
int main(void) {
  int a[N];
  klee_make_symbolic(a, sizeof a, "a");
  int mx = a[0], mn = a[0], at = 0;
  for (int i = 1; i < N; i++) {
    if (a[i] > mx) {
      mx = a[i];
      at = i;
    } else if (a[i] < mn) {
      mn = a[i];
    }
  }
  return (mx - mn > 100) + at;
}
