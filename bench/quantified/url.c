/* A small URL/header parser: scheme up to ':', then "//", host up to '/' or ':', optional port digits. */
#include <klee/klee.h>
#ifndef N
#define N 10
#endif

static unsigned skip_alpha(const char *s, unsigned i) {
  while (s[i] >= 'a' && s[i] <= 'z') i++;
  return i;
}

static unsigned skip_host(const char *s, unsigned i) {
  while (s[i] != 0 && s[i] != '/' && s[i] != ':') i++;
  return i;
}

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  unsigned i = skip_alpha(s, 0);
  if (i == 0 || s[i] != ':') return 1; /* no scheme */
  if (i + 3 > N) return 5;               /* no room for "//" */
  if (s[i + 1] != '/' || s[i + 2] != '/') return 2;
  unsigned h = skip_host(s, i + 3);
  if (h == i + 3) return 3; /* empty host */
  if (s[h] == ':') {
    unsigned p = h + 1;
    while (s[p] >= '0' && s[p] <= '9') p++;
    if (p == h + 1) return 4;
  }
  return 0;
}
