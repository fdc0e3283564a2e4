/* A table-driven lexer: character classes and a transition table, counting tokens by kind. */
#include <klee/klee.h>
#define N 12
enum { C_OTHER, C_ALPHA, C_DIGIT, C_SPACE, C_OP, NC };
enum { S_START, S_IDENT, S_NUM, S_OP, NS };
static const unsigned char cls[256] = {['a' ... 'z'] = C_ALPHA, ['A' ... 'Z'] = C_ALPHA, ['_'] = C_ALPHA, ['0' ... '9'] = C_DIGIT,
                                       [' '] = C_SPACE, ['\t'] = C_SPACE, ['+'] = C_OP, ['-'] = C_OP, ['*'] = C_OP, ['='] = C_OP};
static const unsigned short delta[NS][NC] = {
    {S_START, S_IDENT, S_NUM, S_START, S_OP}, {S_START, S_IDENT, S_IDENT, S_START, S_OP},
    {S_START, S_START, S_NUM, S_START, S_OP}, {S_START, S_IDENT, S_NUM, S_START, S_OP}};
int main(void) {
  unsigned char in[N];
  klee_make_symbolic(in, N, "in");
  unsigned st = S_START, idents = 0, nums = 0, ops = 0;
  for (int n = 0; n < N; n++) {
    unsigned ns = delta[st][cls[in[n]]];
    if (ns != st) {
      if (ns == S_IDENT) idents++;
      else if (ns == S_NUM) nums++;
      else if (ns == S_OP) ops++;
    }
    st = ns;
  }
  if (idents == 2 && nums == 2 && ops == 1) return 1;
  return 0;
}
