/* Paper 003 probe: writes through a pointer that may hit any of 6 heap objects (a merged
 * segment), then reads through the original pointers, frees one and reallocs another:
 * the objects moved into the segment must stay the objects the other pointers see. */
#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  int *objs[6];
  for (int k = 0; k < 6; k++) {
    objs[k] = malloc((k + 2) * sizeof(int));
    for (int m = 0; m < k + 2; m++) objs[k][m] = 10 * k + m;
  }
  int *keep2 = objs[2], *keep4 = objs[4];
  unsigned i = klee_range(0, 6, "i");
  unsigned j = klee_range(0, 2, "j");
  objs[i][j] = -1;
  int r = 0;
  if (keep2[1] == -1) r += 1;
  if (keep4[0] == -1) r += 2;
  objs[3] = realloc(objs[3], 40 * sizeof(int));
  objs[3][30] = 7;
  if (objs[3][0] == -1) r += 4;
  free(objs[1]);
  if (objs[5][1] < 0) r += 8;
  printf("%d %d %d\n", r, keep2[0], objs[0][j]);
  return r;
}
