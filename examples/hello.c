/* A small program for trying tsklee: `tsklee dis` prints its IR. */
#include <stdio.h>
#include <string.h>

struct point {
  int x, y;
};

static int manhattan(struct point a, struct point b) {
  int dx = a.x > b.x ? a.x - b.x : b.x - a.x;
  int dy = a.y > b.y ? a.y - b.y : b.y - a.y;
  return dx + dy;
}

int classify(const char *s) {
  switch (strlen(s)) {
  case 0:
    return -1;
  case 1:
    return s[0] == 'a';
  default:
    return s[0] + s[1];
  }
}

int main(int argc, char **argv) {
  struct point p = {1, 2}, q = {argc, 7};
  int d = manhattan(p, q);
  printf("distance %d, class %d\n", d, classify(argc > 1 ? argv[1] : ""));
  return d > 10;
}
