/* The environment: `environ` (and glibc's alias `__environ`) is a NULL-terminated array of
 * "NAME=value" strings. The engine / POSIX model sets it before main (KLEE passes envp);
 * until then it is empty. setenv/putenv grow a malloc'd copy of the array; strings added by
 * setenv are malloc'd and never freed (POSIX allows this, and it keeps old getenv results
 * valid). */
#include "../internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *empty_env[1] = {NULL};
char **environ = empty_env;
/* glibc exports the same variable under these names too; programs use `environ`. */
extern char **__environ __attribute__((alias("environ")));

static char **owned; /* the array we allocated, if environ still points to it */

static size_t name_len(const char *s) {
  size_t n = 0;
  while (s[n] && s[n] != '=') n++;
  return n;
}

/* Index of the entry named name (length len), or -1. */
static long find(const char *name, size_t len) {
  if (!environ) return -1;
  for (long i = 0; environ[i]; i++)
    if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=') return i;
  return -1;
}

char *getenv(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=')) return NULL;
  long i = find(name, len);
  return i < 0 ? NULL : environ[i] + len + 1;
}

char *secure_getenv(const char *name) { return getenv(name); }

/* Adds or replaces an entry; entry is kept (not copied). */
static int put_entry(char *entry, size_t len) {
  long i = find(entry, len);
  if (i >= 0) {
    environ[i] = entry;
    return 0;
  }
  size_t count = 0;
  while (environ && environ[count]) count++;
  char **arr = malloc((count + 2) * sizeof *arr);
  if (!arr) {
    errno = ENOMEM;
    return -1;
  }
  for (size_t k = 0; k < count; k++) arr[k] = environ[k];
  arr[count] = entry;
  arr[count + 1] = NULL;
  if (owned && owned == environ) free(owned);
  environ = owned = arr;
  return 0;
}

int setenv(const char *name, const char *value, int overwrite) {
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=')) {
    errno = EINVAL;
    return -1;
  }
  if (!overwrite && find(name, len) >= 0) return 0;
  size_t vlen = strlen(value);
  char *entry = malloc(len + vlen + 2);
  if (!entry) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(entry, name, len);
  entry[len] = '=';
  memcpy(entry + len + 1, value, vlen + 1);
  return put_entry(entry, len);
}

int putenv(char *string) {
  size_t len = name_len(string);
  if (string[len] != '=') return unsetenv(string) == 0 ? 0 : -1; /* glibc: "NAME" removes */
  /* glibc accepts an empty name ("=x": env - =x succeeds natively); getenv("") never finds it */
  return put_entry(string, len);
}

int unsetenv(const char *name) {
  size_t len = strlen(name);
  if (len == 0 || strchr(name, '=')) {
    errno = EINVAL;
    return -1;
  }
  if (!environ) return 0;
  size_t w = 0;
  for (size_t r = 0; environ[r]; r++) {
    if (strncmp(environ[r], name, len) == 0 && environ[r][len] == '=') continue;
    environ[w++] = environ[r];
  }
  environ[w] = NULL;
  return 0;
}

int clearenv(void) {
  if (owned && owned == environ) free(owned);
  owned = NULL;
  empty_env[0] = NULL;
  environ = empty_env;
  return 0;
}
