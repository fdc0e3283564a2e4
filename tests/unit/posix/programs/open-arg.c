#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char c;
  int fd = open(argv[1], O_RDONLY);
  if (fd < 0) return 1;
  if (read(fd, &c, 1) != 1) return 2;
  if (c == '!') return 3;
  return 4;
}
