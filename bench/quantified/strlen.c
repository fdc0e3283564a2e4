/* strlen over a symbolic buffer, then a branch on the length. */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static unsigned len(const char *s) {
  unsigned i = 0;
  while (s[i] != 0) i++;
  return i;
}

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  unsigned l = len(s);
  if (l == N) return 2;
  return l > N / 2 ? 1 : 0;
}
