/* strncmp-like against a constant of length N: equal prefix length decides. */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static int cmp(const char *a, const char *b, unsigned n) {
  unsigned i = 0;
  while (i < n && a[i] != 0 && a[i] == b[i]) i++;
  if (i == n) return 0;
  return (unsigned char)a[i] - (unsigned char)b[i];
}

int main(void) {
  char s[N + 1];
  char t[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  for (unsigned i = 0; i < N; i++) t[i] = 'x';
  t[N] = 0;
  s[N] = 0;
  int r = cmp(s, t, N);
  return r == 0 ? 0 : r < 0 ? 1 : 2;
}
