/* apr: apr_cstr_casecmp (ASCII case-insensitive comparison through a case map) of a symbolic string of up to N bytes with "Content-Length". */
#include <klee/klee.h>
#include <apr_cstr.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  int r = apr_cstr_casecmp(s, "Content-Length");
  return r < 0 ? 0 : r == 0 ? 1 : 2;
}
