/* <sys/sysmacros.h> device numbers (the inline functions of older glibc are also exported). */
#include "../internal.h"

unsigned long long gnu_dev_makedev(unsigned int major, unsigned int minor) {
  return ((unsigned long long)(major & 0xfffu) << 8) | ((unsigned long long)(major & ~0xfffu) << 32) |
         (minor & 0xffu) | ((unsigned long long)(minor & ~0xffu) << 12);
}
unsigned int gnu_dev_major(unsigned long long dev) {
  return (unsigned int)(((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfffULL));
}
unsigned int gnu_dev_minor(unsigned long long dev) {
  return (unsigned int)((dev & 0xff) | ((dev >> 12) & ~0xffULL));
}
