/* memchr-like over a symbolic length n <= N. */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static int find(const unsigned char *s, unsigned n, unsigned char c) {
  for (unsigned i = 0; i < n; i++)
    if (s[i] == c) return (int)i;
  return -1;
}

int main(void) {
  unsigned char s[N];
  unsigned n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= N);
  int i = find(s, n, '/');
  return i < 0 ? 0 : 1;
}
