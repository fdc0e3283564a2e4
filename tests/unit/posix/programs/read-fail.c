#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
int main(int argc, char **argv) {
  char c;
  int fd = open("A", O_RDONLY);
  if (fd < 0) return 1;
  if (read(fd, &c, 1) < 0) {
    if (errno == EIO) return 2;
    return 3;
  }
  return 0;
}
