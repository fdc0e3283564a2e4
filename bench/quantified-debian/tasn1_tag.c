/* libtasn1: asn1_get_tag_der on N symbolic bytes (high tag numbers loop over base-128 bytes). */
#include <klee/klee.h>
#include <libtasn1.h>
#ifndef N
#define N 8
#endif

int main(void) {
  unsigned char der[N];
  klee_make_symbolic(der, sizeof der, "der");
  unsigned char cls;
  int len = 0;
  unsigned long tag = 0;
  int r = asn1_get_tag_der(der, N, &cls, &len, &tag);
  if (r != ASN1_SUCCESS) return 1;
  return tag > 30 ? 2 : 0;
}
