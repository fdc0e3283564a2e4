/* libtasn1: asn1_object_id_der, encoding a symbolic dotted-decimal OID text of up to N bytes. */
#include <klee/klee.h>
#include <libtasn1.h>
#ifndef N
#define N 8
#endif

int main(void) {
  char s[N + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[N] = 0;
  unsigned char der[64];
  int der_len = sizeof der;
  int r = asn1_object_id_der(s, der, &der_len, 0);
  return r == ASN1_SUCCESS ? 0 : 1;
}
