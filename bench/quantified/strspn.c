/* strspn-like: the length of the prefix of s made of characters in accept ("ab"). */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static unsigned span(const char *s, const char *accept) {
  unsigned i = 0;
  while (s[i] != 0) {
    const char *a = accept;
    while (*a != 0 && *a != s[i]) a++;
    if (*a == 0) break;
    i++;
  }
  return i;
}

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  unsigned r = span(s, "a");
  return r > N / 2 ? 1 : 0;
}
