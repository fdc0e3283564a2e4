/* libtasn1: asn1_decode_simple_ber of an OCTET STRING from N symbolic bytes (constructed encodings loop). */
#include <klee/klee.h>
#include <stdlib.h>
#include <libtasn1.h>
#ifndef N
#define N 8
#endif

int main(void) {
  unsigned char der[N];
  klee_make_symbolic(der, sizeof der, "der");
  unsigned char *str = NULL;
  unsigned int str_len = 0, ber_len = 0;
  int r = asn1_decode_simple_ber(ASN1_ETYPE_OCTET_STRING, der, N, &str, &str_len, &ber_len);
  free(str);
  return r == ASN1_SUCCESS ? 0 : 1;
}
