/* Paper 002 digest B1: a table-driven lexer over N symbolic characters. */
#include <klee/klee.h>
#define N 10
static const unsigned next[4][4] = {{1, 2, 0, 3}, {1, 1, 2, 0}, {3, 2, 1, 0}, {0, 0, 0, 3}};
static const unsigned char cls[128] = {['a' ... 'z'] = 1, ['0' ... '9'] = 2, [' '] = 3};
int main(void) {
  char in[N];
  klee_make_symbolic(in, N, "in");
  unsigned st = 0, acc = 0;
  for (int n = 0; n < N; n++) {
    st = next[st][cls[in[n] & 0x7f]];
    if (st == 3) acc++;
  }
  if (acc == N - 1) return 1;
  return 0;
}
