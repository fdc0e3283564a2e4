/*
 * A reader for KLEE's .ktest files (format: src/output/ktest.ts), for the native replay
 * library. Plain C99, no dependencies beyond libc.
 */
#ifndef TSKLEE_KTEST_READ_H
#define TSKLEE_KTEST_READ_H

#include <stddef.h>

struct tsklee_ktest_object {
  char *name;           /* NUL-terminated copy of the object's name */
  unsigned char *bytes;
  size_t size;
};

struct tsklee_ktest {
  unsigned version;
  unsigned num_args;
  char **args;          /* NUL-terminated copies */
  unsigned sym_argvs, sym_argv_len;
  unsigned num_objects;
  struct tsklee_ktest_object *objects;
};

/* Reads path; on failure returns NULL and points *error at a static description. */
struct tsklee_ktest *tsklee_ktest_read(const char *path, const char **error);

void tsklee_ktest_free(struct tsklee_ktest *t);

#endif
