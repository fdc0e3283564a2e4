/* Paper 002 digest T1/T2 (Fig. 1): a[i] + a[j] > 10 under i + j > 4. Build with -DT2 for {0,0,0,9}. */
#include <klee/klee.h>
#ifdef T2
static unsigned a[4] = {0, 0, 0, 9};
#else
static unsigned a[4] = {0, 0, 0, 5};
#endif
int main(void) {
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i <= 3);
  klee_assume(j <= 3);
  if (i + j > 4) {
    if (a[i] + a[j] > 10) return 1;
    return 2;
  }
  return 0;
}
