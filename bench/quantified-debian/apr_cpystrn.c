/* apr: apr_cpystrn's copy loop (until the NUL or the destination's size) over a symbolic string of up to N bytes. */
#include <klee/klee.h>
#include <apr_strings.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  char d[N + 1];
  unsigned size;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&size, sizeof size, "size");
  klee_assume(size <= N + 1);
  s[N] = 0;
  char *end = apr_cpystrn(d, s, size);
  return (int)(end - d);
}
