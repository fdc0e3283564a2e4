#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
int main(int argc, char **argv) {
  char buf[4];
  struct stat st;
  int fd = open("A", O_RDONLY);
  if (fd < 0) return 1;
  if (fstat(fd, &st) != 0 || st.st_size != 4) return 2;
  if (read(fd, buf, 2) != 2) return 3;
  if (buf[0] == 'h') {
    if (buf[1] == 'i') return 10;
    return 11;
  }
  return 12;
}
