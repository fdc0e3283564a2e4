/*
 * Weak fallbacks for the POSIX primitives stdio uses (read, write, open, close, lseek,
 * isatty, unlink, rmdir), in the bitcode build only.
 *
 * The POSIX model (runtime/posix) defines all of them; its strong definitions replace these
 * when both are linked (llvm-link and tsklee's linker let a strong definition beat a weak
 * one). Without the POSIX model, libc.bc stays self-contained (its only undefined symbols
 * are _exit, abort, free, malloc and the engine's __tsklee_write_console): files cannot be
 * opened (ENOSYS), stdin reads fail, no fd is a terminal — fds 1 and 2 are the console
 * (`tsklee run --libc=tsklee` records what the program prints; runtime/posix/README.md).
 *
 * The native test build (-fPIC, so __PIC__ is defined) omits them: there the library must
 * use glibc's real system calls.
 */
#ifndef __PIC__
#include "stdio_impl.h"
#include <errno.h>

#define WEAK __attribute__((weak))

WEAK long read(int fd, void *buf, unsigned long n) { errno = ENOSYS; return -1; }

void __tsklee_write_console(int fd, const void *buf, unsigned long count);

WEAK long write(int fd, const void *buf, unsigned long n) {
  if (fd != 1 && fd != 2) {
    errno = EBADF;
    return -1;
  }
  if (n > 0) __tsklee_write_console(fd, buf, n);
  return (long)n;
}
WEAK int open(const char *path, int flags, ...) { errno = ENOSYS; return -1; }
WEAK int close(int fd) { errno = ENOSYS; return -1; }
WEAK long lseek(int fd, long off, int whence) { errno = ESPIPE; return -1; }
WEAK int isatty(int fd) { errno = ENOTTY; return 0; }
WEAK int unlink(const char *path) { errno = ENOSYS; return -1; }
WEAK int rmdir(const char *path) { errno = ENOSYS; return -1; }
#else
typedef int tsklee_stdio_sysfallback_empty; /* native build: glibc's system calls */
#endif
