/* Paper 002, not written for tuning: a table of 64 shorts (a quantiser's levels), read at
 * symbolic indices taken from input bytes. Several questions have no answer in the table
 * (a level that is not there, two neighbours out of order), so their queries are UNSAT
 * from the table's values and the index range alone. */
#include <klee/klee.h>
static const short levels[64] = {
  0, 17, 34, 52, 70, 89, 108, 128, 149, 170, 192, 215, 238, 262, 287, 312,
  338, 365, 392, 420, 449, 478, 508, 539, 570, 602, 635, 668, 702, 737, 772, 808,
  845, 882, 920, 959, 998, 1038, 1079, 1120, 1162, 1205, 1248, 1292, 1337, 1382, 1428, 1475,
  1522, 1570, 1619, 1668, 1718, 1769, 1820, 1872, 1925, 1978, 2032, 2087, 2142, 2198};
int main(void) {
  unsigned char in[6];
  klee_make_symbolic(in, sizeof in, "in");
  int score = 0;
  for (int r = 0; r < 3; r++) {
    unsigned i = in[2 * r] & 63, j = in[2 * r + 1] & 63;
    short a = levels[i], b = levels[j];
    if (a == 1000) score += 100;          /* no level is 1000: UNSAT */
    if (i < j && a > b) score += 1000;    /* the table is increasing: UNSAT */
    if (a + b == 2 * 1079) score += 7;    /* i = j = 38, or a pair around it */
    if (a > 2000) score++;
    else if (a < 100) score--;
  }
  return score & 0xff;
}
