/* apr: apr_cstr_count_newlines (\n, \r, \r\n and \n\r each one newline) over a symbolic string of up to N bytes. */
#include <klee/klee.h>
#include <apr_cstr.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  return apr_cstr_count_newlines(s);
}
