/* A CRC-8 with a 256-entry lookup table over symbolic bytes. */
#include <klee/klee.h>
#define N 4
static unsigned char table[256];
int main(void) {
  for (unsigned k = 0; k < 256; k++) {
    unsigned char c = (unsigned char)k;
    for (int b = 0; b < 8; b++) c = (unsigned char)(c & 0x80 ? (c << 1) ^ 0x07 : c << 1);
    table[k] = c;
  }
  unsigned char in[N];
  klee_make_symbolic(in, N, "in");
  unsigned char crc = 0;
  for (int n = 0; n < N; n++) {
    crc = table[crc ^ in[n]];
    if (crc == 0x5a) return 2 + n;
  }
  if (crc == 0xa5) return 1;
  return 0;
}
