/*
 * Linux calls coreutils 9 makes that the model answers without new state: truncate (through
 * open and ftruncate), poll (tail -f checks
 * that stdout is still alive), copy_file_range (cat, cp, mv, install try it before read/write;
 * ENOSYS makes them fall back, as on kernels without it) and getrandom (mktemp, shuf, sort -R,
 * shred, gnulib's tempname). getrandom gives a fixed pseudo-random stream, the same on every
 * path: random bytes that are not inputs of the test could not be replayed.
 */
#include "internal.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <unistd.h>

/* Every open descriptor is ready for what it asks (as select); a closed one is POLLNVAL. */
int poll(struct pollfd *fds, nfds_t n, int timeout) {
  int ready = 0;
  for (nfds_t i = 0; i < n; i++) {
    int fd = fds[i].fd;
    fds[i].revents = 0;
    if (fd < 0) continue;
    if (fd >= TK_MAX_FDS || !(__tsklee_env.fds[fd].flags & TK_F_OPEN)) fds[i].revents = POLLNVAL;
    else fds[i].revents = fds[i].events & (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM);
    if (fds[i].revents) ready++;
  }
  if (ready == 0 && timeout > 0) __tsklee_env.clock_ns += (long long)timeout * 1000000LL;
  return ready;
}

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off, size_t len, unsigned flags) {
  errno = ENOSYS;
  return -1;
}

static unsigned long long random_state = 0x9e3779b97f4a7c15ULL;

ssize_t getrandom(void *buf, size_t len, unsigned flags) {
  unsigned char *p = buf;
  for (size_t i = 0; i < len; i++) {
    /* xorshift64* */
    random_state ^= random_state >> 12;
    random_state ^= random_state << 25;
    random_state ^= random_state >> 27;
    p[i] = (unsigned char)((random_state * 0x2545f4914f6cdd1dULL) >> 56);
  }
  return (ssize_t)len;
}

int getentropy(void *buf, size_t len) {
  if (len > 256) {
    errno = EIO;
    return -1;
  }
  getrandom(buf, len, 0);
  return 0;
}

int truncate(const char *path, off_t len) {
  int fd = open(path, O_WRONLY);
  if (fd < 0) return -1;
  int r = ftruncate(fd, len);
  int e = errno;
  close(fd);
  errno = e;
  return r;
}
int truncate64(const char *path, off_t len) { return truncate(path, len); }
