#include <fcntl.h>
#include <unistd.h>
/* open(O_DIRECTORY) without a mode: O_TMPFILE shares the O_DIRECTORY bit, yet no mode is read */
int main(int argc, char **argv) {
  int fd = open("/tmp", O_RDONLY | O_DIRECTORY);
  if (fd < 0) return 1;
  int f = openat(fd, "A", O_RDONLY | O_DIRECTORY);
  return f < 0 ? 2 : 3;
}
