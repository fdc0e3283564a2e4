/* strchr-like: the first ':' in a symbolic string, or none. */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static const char *find(const char *s, char c) {
  while (*s != 0) {
    if (*s == c) return s;
    s++;
  }
  return 0;
}

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  const char *p = find(s, ':');
  if (p == 0) return 0;
  return p - s < N / 2 ? 1 : 2;
}
