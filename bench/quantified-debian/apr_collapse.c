/* apr: apr_collapse_spaces (copy every byte that is not white space) over a symbolic string of up to N bytes. */
#include <klee/klee.h>
#include <apr_strings.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  char d[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  apr_collapse_spaces(d, s);
  return d[0] == 0;
}
