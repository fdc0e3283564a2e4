/* A packed-struct parser: records {u8 tag; u32 len; u16 kind} read through a symbolic index into a table. */
#include <klee/klee.h>
#pragma pack(1)
struct rec { unsigned char tag; unsigned len; unsigned short kind; };
#pragma pack()
static const struct rec recs[6] = {{1, 10, 3}, {2, 20, 1}, {1, 300, 7}, {3, 40, 1}, {2, 5, 9}, {1, 77, 2}};
int main(void) {
  unsigned char hdr[3];
  klee_make_symbolic(hdr, sizeof hdr, "hdr");
  unsigned total = 0;
  for (int n = 0; n < 3; n++) {
    unsigned i = hdr[n];
    if (i >= 6) return 0;
    if (recs[i].tag == 2) total += recs[i].len;
    else if (recs[i].kind > 5) total += 2 * recs[i].len;
  }
  if (total == 650) return 1;
  return 0;
}
