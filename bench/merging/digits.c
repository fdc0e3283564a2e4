/* Paper 001, not written for tuning: an atoi with validation over N symbolic bytes.
 * Each byte is a digit (value accumulates), a separator (resets nothing, counted) or
 * junk (counted): three ways per byte, so 3^N paths without merging. The value and the
 * counters are used only once, at the end. Size: -DN=bytes. */
#include <klee/klee.h>
#ifndef N
#define N 8
#endif
int main(void) {
  char s[N];
  klee_make_symbolic(s, sizeof s, "s");
  unsigned value = 0;
  int digits = 0, seps = 0, junk = 0;
  for (int i = 0; i < N; i++) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      value = value * 10 + (unsigned)(c - '0');
      digits++;
    } else if (c == ',' || c == '_') {
      seps++;
    } else {
      junk++;
    }
  }
  if (junk > 0) return 1;
  return (int)((value + (unsigned)digits + (unsigned)seps) & 0x7f);
}
