/* Paper 002, not written for tuning: a ctype-like class table of 256 bytes (bits: 1 alpha,
 * 2 digit, 4 space, 8 upper, 16 punct) read at 6 symbolic characters, as a tokenizer does.
 * Some class combinations never occur (digit and alpha; space and upper), so those
 * branches are UNSAT from the table contents alone. */
#include <klee/klee.h>
static unsigned char cls[256];
static void init(void) {
  for (int c = 0; c < 256; c++) {
    unsigned char v = 0;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) v |= 1;
    if (c >= 'A' && c <= 'Z') v |= 8;
    if (c >= '0' && c <= '9') v |= 2;
    if (c == ' ' || c == '\t' || c == '\n') v |= 4;
    if (c == '.' || c == ',' || c == ';' || c == '!' || c == '?') v |= 16;
    cls[c] = v;
  }
}
int main(void) {
  init();
  unsigned char s[6];
  klee_make_symbolic(s, sizeof s, "s");
  int words = 0, nums = 0, odd = 0, in_word = 0;
  for (int i = 0; i < 6; i++) {
    unsigned char k = cls[s[i]];
    if ((k & 3) == 3) odd++;            /* alpha and digit: UNSAT */
    if ((k & 12) == 12) odd++;          /* space and upper: UNSAT */
    if (k & 1) {
      if (!in_word) words++;
      in_word = 1;
    } else {
      in_word = 0;
      if (k & 2) nums++;
    }
  }
  return odd * 100 + words * 10 + nums;
}
