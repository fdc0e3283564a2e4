/* Small pieces of glibc that coreutils calls and that need no environment:
 * __sched_cpucount (CPU_COUNT) and iconv, which supports no conversion at all
 * (iconv_open fails with EINVAL, as for an unknown character set; callers fall back). */
#include "../internal.h"
#include <errno.h>
#include <iconv.h>

int __sched_cpucount(size_t setsize, const unsigned long *set) {
  int n = 0;
  for (size_t i = 0; i < setsize / sizeof(unsigned long); i++) {
    unsigned long w = set[i];
    while (w) {
      w &= w - 1;
      n++;
    }
  }
  return n;
}

iconv_t iconv_open(const char *to, const char *from) {
  (void)to;
  (void)from;
  errno = EINVAL;
  return (iconv_t)-1;
}

size_t iconv(iconv_t cd, char **restrict in, size_t *restrict inleft, char **restrict out,
             size_t *restrict outleft) {
  (void)cd, (void)in, (void)inleft, (void)out, (void)outleft;
  errno = EBADF;
  return (size_t)-1;
}

int iconv_close(iconv_t cd) {
  (void)cd;
  errno = EBADF;
  return -1;
}
