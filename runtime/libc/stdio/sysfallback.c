/*
 * Weak fallbacks for the POSIX primitives stdio uses (read, open, close, lseek, isatty,
 * unlink, rmdir), in the bitcode build only.
 *
 * The POSIX model (runtime/posix) defines all of them; its strong definitions replace these
 * when both are linked (llvm-link and tsklee's linker let a strong definition beat a weak
 * one). Without the POSIX model, libc.bc stays self-contained (its only undefined symbols
 * remain _exit, abort, free, malloc, write): files cannot be opened (ENOSYS), stdin reads
 * fail, no fd is a terminal — stdout/stderr still work through write().
 *
 * The native test build (-fPIC, so __PIC__ is defined) omits them: there the library must
 * use glibc's real system calls.
 */
#ifndef __PIC__
#include "stdio_impl.h"
#include <errno.h>

#define WEAK __attribute__((weak))

WEAK long read(int fd, void *buf, unsigned long n) { errno = ENOSYS; return -1; }
WEAK int open(const char *path, int flags, ...) { errno = ENOSYS; return -1; }
WEAK int close(int fd) { errno = ENOSYS; return -1; }
WEAK long lseek(int fd, long off, int whence) { errno = ESPIPE; return -1; }
WEAK int isatty(int fd) { errno = ENOTTY; return 0; }
WEAK int unlink(const char *path) { errno = ENOSYS; return -1; }
WEAK int rmdir(const char *path) { errno = ENOSYS; return -1; }
#else
typedef int tsklee_stdio_sysfallback_empty; /* native build: glibc's system calls */
#endif
