/* Parses a whole .ktest file read into memory; see ktest-read.h. */
#include "ktest-read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
  const unsigned char *p, *end;
};

static int get_u32(struct cursor *c, unsigned *out) {
  if (c->end - c->p < 4) return 0;
  *out = ((unsigned)c->p[0] << 24) | ((unsigned)c->p[1] << 16) | ((unsigned)c->p[2] << 8) | (unsigned)c->p[3];
  c->p += 4;
  return 1;
}

/* A length-prefixed field as a fresh buffer with a NUL after it (names and args are strings). */
static int get_blob(struct cursor *c, unsigned char **out, size_t *len) {
  unsigned n;
  if (!get_u32(c, &n) || (size_t)(c->end - c->p) < n) return 0;
  *out = malloc((size_t)n + 1);
  if (!*out) return 0;
  memcpy(*out, c->p, n);
  (*out)[n] = 0;
  c->p += n;
  if (len) *len = n;
  return 1;
}

static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  unsigned char *buf = NULL;
  size_t cap = 0, n = 0;
  if (!f) return NULL;
  for (;;) {
    if (n == cap) {
      unsigned char *bigger = realloc(buf, cap ? cap * 2 : 4096);
      if (!bigger) { free(buf); fclose(f); return NULL; }
      buf = bigger;
      cap = cap ? cap * 2 : 4096;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) { free(buf); return NULL; }
  *size = n;
  return buf;
}

struct tsklee_ktest *tsklee_ktest_read(const char *path, const char **error) {
  size_t size = 0;
  unsigned char *data = slurp(path, &size);
  struct tsklee_ktest *t = NULL;
  struct cursor c;
  unsigned i;

  *error = "cannot read the file";
  if (!data) return NULL;
  c.p = data;
  c.end = data + size;
  *error = "not a .ktest file (bad magic)";
  if (size < 5 || (memcmp(data, "KTEST", 5) != 0 && memcmp(data, "BOUT\n", 5) != 0)) goto fail;
  c.p += 5;
  t = calloc(1, sizeof *t);
  *error = "out of memory";
  if (!t) goto fail;
  *error = "truncated .ktest file";
  if (!get_u32(&c, &t->version)) goto fail;
  if (t->version > 3) { *error = "unsupported .ktest version (newer than 3)"; goto fail; }
  if (!get_u32(&c, &t->num_args)) goto fail;
  if (t->num_args > (size_t)(c.end - c.p) / 4) goto fail;
  t->args = calloc(t->num_args ? t->num_args : 1, sizeof *t->args);
  if (!t->args) goto fail;
  for (i = 0; i < t->num_args; i++)
    if (!get_blob(&c, (unsigned char **)&t->args[i], NULL)) goto fail;
  if (t->version >= 2 && (!get_u32(&c, &t->sym_argvs) || !get_u32(&c, &t->sym_argv_len))) goto fail;
  if (!get_u32(&c, &t->num_objects)) goto fail;
  if (t->num_objects > (size_t)(c.end - c.p) / 8) goto fail;
  t->objects = calloc(t->num_objects ? t->num_objects : 1, sizeof *t->objects);
  if (!t->objects) goto fail;
  for (i = 0; i < t->num_objects; i++) {
    struct tsklee_ktest_object *o = &t->objects[i];
    if (!get_blob(&c, (unsigned char **)&o->name, NULL)) goto fail;
    if (!get_blob(&c, &o->bytes, &o->size)) goto fail;
  }
  free(data);
  *error = NULL;
  return t;
fail:
  free(data);
  tsklee_ktest_free(t);
  return NULL;
}

void tsklee_ktest_free(struct tsklee_ktest *t) {
  unsigned i;
  if (!t) return;
  if (t->args)
    for (i = 0; i < t->num_args; i++) free(t->args[i]);
  if (t->objects)
    for (i = 0; i < t->num_objects; i++) {
      free(t->objects[i].name);
      free(t->objects[i].bytes);
    }
  free(t->args);
  free(t->objects);
  free(t);
}
