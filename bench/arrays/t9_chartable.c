/* Paper 002 digest T9: interval pruning on a char table. */
#include <klee/klee.h>
static const char s[16] = "abcdefghijklmnop";
int main(void) {
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(k >= 12);
  klee_assume(k < 16);
  if (s[k] == 'a') return 1;
  if (s[k] == 'n') return 2;
  return 0;
}
