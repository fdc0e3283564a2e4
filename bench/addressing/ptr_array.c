/* An array of pointers to records (apr's tables of pointers in small): 8 records, a
 * symbolic index picks one twice, and each time a field decides a branch. Every
 * dereference of `recs[i]` may hit any of the 8 records. */
#include <klee/klee.h>
#include <stdlib.h>

typedef struct {
  int id;
  int weight;
  char tag[8];
} rec_t;

int main(void) {
  rec_t *recs[8];
  for (int k = 0; k < 8; k++) {
    recs[k] = malloc(sizeof(rec_t));
    recs[k]->id = k;
    recs[k]->weight = (k * 7) % 8;
    recs[k]->tag[0] = (char)('a' + k);
  }
  int total = 0;
  for (int round = 0; round < 2; round++) {
    unsigned i = klee_range(0, 8, "i");
    rec_t *r = recs[i];
    if (r->weight > 4) total += r->id;
    if (r->tag[0] == 'c') total += 1000;
  }
  return total > 1000;
}
