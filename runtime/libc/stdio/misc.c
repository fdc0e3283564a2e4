/*
 * tsklee libc — perror, remove, and GNU <error.h> (error, error_at_line and their globals).
 */
#include "stdio_impl.h"
#include <errno.h>
#include <error.h>
#include <stdlib.h>
#include <string.h>

extern int unlink(const char *path);
extern int rmdir(const char *path);
extern char *program_invocation_name;

void perror(const char *s) {
  const char *msg = strerror(errno);
  fflush(stdout);
  if (s && *s) fprintf(stderr, "%s: %s\n", s, msg);
  else fprintf(stderr, "%s\n", msg);
}

int remove(const char *path) {
  int e = errno;
  if (unlink(path) == 0) return 0;
  if (errno == EISDIR || errno == EPERM) {
    errno = e;
    return rmdir(path);
  }
  return -1;
}

unsigned int error_message_count;
int error_one_per_line;
void (*error_print_progname)(void);

static void error_tail(int status, int errnum, const char *fmt, va_list ap) {
  vfprintf(stderr, fmt, ap);
  if (errnum) fprintf(stderr, ": %s", strerror(errnum));
  fputc('\n', stderr);
  fflush(stderr);
  error_message_count++;
  if (status) exit(status);
}

void error(int status, int errnum, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  if (error_print_progname) error_print_progname();
  else fprintf(stderr, "%s: ", program_invocation_name);
  va_start(ap, fmt);
  error_tail(status, errnum, fmt, ap);
  va_end(ap);
}

void error_at_line(int status, int errnum, const char *file, unsigned int line, const char *fmt, ...) {
  static const char *last_file;
  static unsigned int last_line;
  va_list ap;
  if (error_one_per_line) {
    if (last_line == line && (last_file == file || (last_file && file && strcmp(last_file, file) == 0))) return;
    last_file = file;
    last_line = line;
  }
  fflush(stdout);
  if (error_print_progname) error_print_progname();
  else fprintf(stderr, "%s:", program_invocation_name);
  fprintf(stderr, file ? "%s:%u: " : " ", file, line);
  va_start(ap, fmt);
  error_tail(status, errnum, fmt, ap);
  va_end(ap);
}
