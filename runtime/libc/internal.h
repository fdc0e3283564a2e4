/*
 * tsklee libc — private header shared by every source file of runtime/libc.
 *
 * The library is compiled against the HOST glibc headers (programs are too), so every
 * public definition must match glibc's declaration and ABI. Helpers that are not part of
 * the C library API are `static` or carry the `__tsklee_` prefix.
 *
 * Externals this library expects from elsewhere (never defined here):
 *   - write(2)          — the POSIX model (runtime/posix) provides it; used for diagnostics
 *                         (getopt messages, abort message of the fortify checks, psignal…).
 *                         Without the model, stdio/sysfallback.c's weak write sends fds 1/2
 *                         to the engine's __tsklee_write_console.
 *   - _exit(2), abort() — engine special functions (end the state).
 *   - malloc/calloc/realloc/free — engine special functions.
 *   - __assert_fail     — engine special function.
 */
#ifndef TSKLEE_LIBC_INTERNAL_H
#define TSKLEE_LIBC_INTERNAL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <stddef.h>
#include <stdint.h>
#include <limits.h>

/* Provided by the POSIX model (or the weak console fallback). Declared by hand so that no file needs <unistd.h>. */
extern long write(int fd, const void *buf, unsigned long count);
extern void _exit(int status) __attribute__((noreturn));
extern void abort(void) __attribute__((noreturn));

/* Writes a NUL-terminated string to fd 2 (best effort). */
void __tsklee_write_stderr(const char *s);
/* Formats a (possibly negative) integer in base 10 into buf (>= 24 bytes); returns buf. */
char *__tsklee_utoa(unsigned long long v, char *buf, int neg);
/* Reports a fortify failure and aborts. */
void __tsklee_chk_fail(const char *what) __attribute__((noreturn));

/* C-locale character helpers that never go through the tables (for internal use). */
static inline int __tsklee_isspace(int c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
static inline int __tsklee_isdigit(int c) { return c >= '0' && c <= '9'; }
static inline int __tsklee_tolower(int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; }
/* Value of c as a digit in base 36, or 99 if it is not one. */
static inline int __tsklee_digitval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

#endif
