/* Paper 002, not written for tuning: an array of 24 records {char kind; short len; int
 * value} (a symbol table), indexed by symbolic bytes; the branches read one field of a
 * record at a symbolic index (access at stride 8 with residues 0, 2, 4). Some combinations
 * do not exist in the table (UNSAT). */
#include <klee/klee.h>
struct rec { char kind; short len; int value; };
static const struct rec recs[24] = {
  {'f', 3, 100}, {'v', 1, -4}, {'f', 5, 250}, {'c', 0, 7}, {'v', 2, 12}, {'f', 8, 900},
  {'c', 0, 1}, {'v', 4, 33}, {'f', 2, 64}, {'c', 0, 99}, {'v', 6, -70}, {'f', 1, 5},
  {'c', 0, 2}, {'v', 3, 48}, {'f', 7, 711}, {'c', 0, 3}, {'v', 5, 21}, {'f', 4, 404},
  {'c', 0, 11}, {'v', 7, -1}, {'f', 6, 606}, {'c', 0, 13}, {'v', 8, 88}, {'f', 9, 999}};
int main(void) {
  unsigned char in[4];
  klee_make_symbolic(in, sizeof in, "in");
  int out = 0;
  for (int r = 0; r < 4; r++) {
    unsigned i = in[r] % 24;
    const struct rec *p = &recs[i];
    if (p->kind == 'c' && p->len != 0) out += 1000;      /* constants have len 0: UNSAT */
    if (p->kind == 'f' && p->value < 0) out += 2000;     /* functions are positive: UNSAT */
    if (p->len > 9) out += 3000;                         /* no len above 9: UNSAT */
    if (p->kind == 'v') out += p->len;
    else if (p->value > 500) out += 2;
  }
  return out & 0xff;
}
