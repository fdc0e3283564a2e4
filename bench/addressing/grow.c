/* Paper 003, not written for tuning: three growable byte buffers (a string builder's
 * realloc doubling); symbolic bytes are appended to a buffer chosen by a symbolic selector,
 * so each append resolves a pointer over the three buffers, and a buffer that grows is
 * reallocated (it moves). Then a symbolic position is read back. */
#include <klee/klee.h>
#include <stdlib.h>
struct buf { char *data; unsigned len, cap; };
static void push(struct buf *b, char c) {
  if (b->len == b->cap) {
    b->cap *= 2;
    b->data = realloc(b->data, b->cap);
  }
  b->data[b->len++] = c;
}
int main(void) {
  struct buf bs[3];
  for (int k = 0; k < 3; k++) {
    bs[k].cap = 4;
    bs[k].len = 0;
    bs[k].data = malloc(4);
  }
  char in[6];
  klee_make_symbolic(in, sizeof in, "in");
  for (int k = 0; k < 6; k++) push(&bs[k % 3], in[k]);
  for (int k = 0; k < 6; k++) push(&bs[(k + 1) % 3], (char)('a' + k));
  unsigned sel = klee_range(0, 3, "sel");
  unsigned at = klee_range(0, 4, "at");
  char *d = bs[sel].data;
  int r = 0;
  if (d[at] == 'c') r += 1;
  if (d[at] == in[0]) r += 2;
  return r;
}
