/* A base64 decoder with a 256-entry reverse table; checks the decoded bytes. */
#include <klee/klee.h>
#define N 8
static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static signed char rev[256];
int main(void) {
  for (int k = 0; k < 256; k++) rev[k] = -1;
  for (int k = 0; k < 64; k++) rev[(unsigned char)alphabet[k]] = (signed char)k;
  unsigned char in[N], out[N];
  klee_make_symbolic(in, N, "in");
  int o = 0;
  for (int n = 0; n + 3 < N; n += 4) {
    int a = rev[in[n]], b = rev[in[n + 1]], c = rev[in[n + 2]], d = rev[in[n + 3]];
    if (a < 0 || b < 0 || c < 0 || d < 0) return 2;
    unsigned v = (unsigned)a << 18 | (unsigned)b << 12 | (unsigned)c << 6 | (unsigned)d;
    out[o++] = (unsigned char)(v >> 16);
    out[o++] = (unsigned char)(v >> 8);
    out[o++] = (unsigned char)v;
  }
  if (out[0] == 'k' && out[1] == 'l' && out[3] == 'e') return 1;
  return 0;
}
