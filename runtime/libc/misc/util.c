/* Small internal helpers used across the library. */
#include "../internal.h"

void __tsklee_write_stderr(const char *s) {
  unsigned long n = 0;
  while (s[n]) n++;
  while (n > 0) {
    long w = write(2, s, n);
    if (w <= 0) return;
    s += w;
    n -= (unsigned long)w;
  }
}

char *__tsklee_utoa(unsigned long long v, char *buf, int neg) {
  char tmp[24];
  int i = 0;
  do {
    tmp[i++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  int j = 0;
  if (neg) buf[j++] = '-';
  while (i > 0) buf[j++] = tmp[--i];
  buf[j] = 0;
  return buf;
}
