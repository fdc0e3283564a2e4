/* Paper 003, not written for tuning: a pool of 16 heap nodes linked in a fixed permutation;
 * a symbolic start node, then two steps along `next`: each step dereferences a pointer that
 * was read at a symbolic place, so it may hit any of the 16 nodes. */
#include <klee/klee.h>
#include <stdlib.h>
struct node { int key; struct node *next; short weight; };
int main(void) {
  struct node *pool[16];
  for (int k = 0; k < 16; k++) pool[k] = malloc(sizeof(struct node));
  for (int k = 0; k < 16; k++) {
    pool[k]->key = k * 5 % 16;
    pool[k]->next = pool[(k * 7 + 3) % 16];
    pool[k]->weight = (short)(k & 3);
  }
  unsigned s = klee_range(0, 16, "start");
  int want;
  klee_make_symbolic(&want, sizeof want, "want");
  struct node *p = pool[s];
  int found = 0;
  for (int step = 0; step < 3; step++) {
    if (p->key == want) found += 1 + p->weight;
    p = p->next;
  }
  return found;
}
