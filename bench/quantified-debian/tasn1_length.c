/* libtasn1: asn1_get_length_der on N symbolic bytes (long-form lengths loop over the bytes). */
#include <klee/klee.h>
#include <libtasn1.h>
#ifndef N
#define N 8
#endif

int main(void) {
  unsigned char der[N];
  klee_make_symbolic(der, sizeof der, "der");
  int len = 0;
  long l = asn1_get_length_der(der, N, &len);
  if (l < 0) return 1;
  return l > 127 ? 2 : 0;
}
