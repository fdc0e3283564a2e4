/* apr: apr_strnatcmp (natural-order comparison: digit runs by value) of a symbolic string of up to N bytes with "a10b". */
#include <klee/klee.h>
#include <apr_strings.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  int r = apr_strnatcmp(s, "a10b");
  return r < 0 ? 0 : r == 0 ? 1 : 2;
}
