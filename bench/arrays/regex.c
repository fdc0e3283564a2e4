/* A small regex matcher: a DFA for [a-c]+x?[0-9] compiled into a table, run on symbolic text. */
#include <klee/klee.h>
#define N 6
static const unsigned char cls[256] = {['a' ... 'c'] = 1, ['x'] = 2, ['0' ... '9'] = 3};
/* states: 0 start, 1 letters, 2 after x, 3 accept, 4 dead */
static const unsigned char dfa[5][4] = {{4, 1, 4, 4}, {4, 1, 2, 3}, {4, 4, 4, 3}, {4, 4, 4, 4}, {4, 4, 4, 4}};
int main(void) {
  char s[N];
  klee_make_symbolic(s, N, "s");
  unsigned st = 0;
  for (int n = 0; n < N; n++) {
    st = dfa[st][cls[(unsigned char)s[n]]];
    if (st == 3) return n + 1; /* matched a prefix of length n+1 */
    if (st == 4) return 0;
  }
  return 0;
}
