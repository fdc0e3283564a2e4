/* apr: apr_strtok (tokens separated by spaces and commas, in place) over a symbolic string of up to N bytes; returns the token count. */
#include <klee/klee.h>
#include <apr_strings.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  char *last;
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  int n = 0;
  for (char *t = apr_strtok(s, " ,", &last); t != NULL; t = apr_strtok(NULL, " ,", &last)) n++;
  return n;
}
