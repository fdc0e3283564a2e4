#include <unistd.h>
int main(int argc, char **argv) {
  char c;
  if (argc < 2) return 0;
  if (argv[1][0] == '-') return 1;
  if (read(0, &c, 1) == 1 && c == 'y') return 2;
  return 3;
}
