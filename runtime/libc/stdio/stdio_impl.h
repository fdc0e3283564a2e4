/*
 * tsklee libc stdio — private header.
 *
 * FILE is glibc's own `struct _IO_FILE` (from the host headers), so the inline fast paths
 * of <stdio.h> (getc_unlocked/putc_unlocked through _IO_read_ptr/_IO_read_end and
 * _IO_write_ptr/_IO_write_end, feof/ferror through _flags bits 0x10/0x20) work on our
 * streams. Field use:
 *   _flags            _IO_EOF_SEEN (0x10), _IO_ERR_SEEN (0x20) as glibc, plus SF_* below
 *   _IO_buf_base/end  the buffer (malloc'd lazily, or the 1-byte _shortbuf when unbuffered)
 *   _IO_read_ptr/end  unread buffered input while reading (equal otherwise)
 *   _IO_write_base/ptr/end  pending output while writing; _IO_write_end == _IO_write_base
 *                     when line-buffered or unbuffered, so every putc reaches __overflow
 *   _IO_save_base/_IO_backup_base  saved read_ptr/read_end while reading pushed-back
 *                     bytes, which live in _unused2 (up to 20 ungetc's)
 *   _fileno           the fd (-1 for string streams)
 *   _chain            list of every open stream (for fflush(NULL) and exit)
 */
#ifndef TSKLEE_STDIO_IMPL_H
#define TSKLEE_STDIO_IMPL_H
#include "../internal.h"
#include <stdio.h>
#include <stdarg.h>
#include <wchar.h>

/* POSIX model primitives (glibc's in the native test build). */
extern long read(int fd, void *buf, unsigned long n);
extern int open(const char *path, int flags, ...);
extern int close(int fd);
extern long lseek(int fd, long off, int whence);
extern int isatty(int fd);
extern void *malloc(unsigned long n);
extern void free(void *p);

#define SF_READ 0x0100      /* opened for reading */
#define SF_WRITE 0x0200     /* opened for writing */
#define SF_APPEND 0x0400
#define SF_UNBUF 0x0002     /* unbuffered (glibc's _IO_UNBUFFERED bit) */
#define SF_LINEBUF 0x0200000 /* line buffered */
#define SF_MODESET 0x0400000 /* buffering decided */
#define SF_READING 0x0800000
#define SF_WRITING 0x1000000
#define SF_MYBUF 0x2000000   /* buffer malloc'd by us */
#define SF_BACKUP 0x4000000  /* reading pushed-back bytes */
#define SF_STRING 0x8000000  /* string stream (sscanf): no fd */
#define SF_STATIC 0x10000000 /* stdin/stdout/stderr: never freed */

int __tsklee_flush(FILE *f);
size_t __tsklee_fwrite(const void *p, size_t n, FILE *f);
void __tsklee_string_file(FILE *f, const char *s, size_t n);
int __tsklee_vfprintf_out(void *out, const char *fmt, va_list ap);
int __tsklee_vfscanf(FILE *f, const char *fmt, va_list ap);
/* printf flags */
#define F_MINUS 1
#define F_PLUS 2
#define F_SPACE 4
#define F_HASH 8
#define F_ZERO 16

/* A floating-point value to format: m·2^e (cls 0), infinity (1) or NaN (2), of format fmt. */
#define FPV_DOUBLE 0
#define FPV_LDOUBLE 1
#define FPV_FLOAT128 2
struct __tsklee_fpval {
  /* m first: the same offsets whether i128 is 8-aligned (the data layout of clang ≤ 17, whose
   * programs link this library built by clang 19) or 16-aligned */
  unsigned __int128 m;
  int neg, cls;
  int e;
  int fmt;
};
void __tsklee_fp_double(double x, struct __tsklee_fpval *v);
void __tsklee_fp_ldouble(long double x, struct __tsklee_fpval *v);
void __tsklee_fp_float128(__float128 x, struct __tsklee_fpval *v);
/* One %e/%f/%g/%a conversion with its sign and padding, malloc'd (NULL when out of memory). */
char *__tsklee_float_text(const struct __tsklee_fpval *v, int conv, int prec, int flags, long width, size_t *len);
#endif
