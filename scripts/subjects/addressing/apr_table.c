/* Driver for APR's string table (tables/apr_tables.c, the header table of httpd) with a
 * symbolic key. Header names, each a separate heap string, are added with apr_table_addn
 * (which keeps the pointer, as httpd does for strings it owns); then a symbolic 4-byte name
 * is looked up. apr_table_get indexes its per-letter index at the key's first byte and scans
 * the entries (in the pool's 8 KB block) from there: the entry a symbolic index reaches holds
 * a pointer to any of the names, so strcasecmp(next_elt->key, key) dereferences a pointer
 * that resolves to several objects. */
#include <apr_general.h>
#include <apr_pools.h>
#include <apr_tables.h>
#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NAMES
#define NAMES 6
#endif

int main(void) {
  apr_pool_t *pool;
  if (apr_pool_initialize() != APR_SUCCESS || apr_pool_create(&pool, NULL) != APR_SUCCESS) return 2;
  apr_table_t *t = apr_table_make(pool, NAMES);
  /* first letters h, h, a, a, c, d: two index slots hold two entries each */
  static const char *names[] = {"host", "href", "acpt", "auth", "cook", "date", "etag", "from"};
  static const char *values[] = {"1", "2", "3", "4", "5", "6", "7", "8"};
  for (int i = 0; i < NAMES && i < 8; i++) {
    char *k = malloc(5);
    memcpy(k, names[i], 5);
    apr_table_addn(t, k, values[i]);
  }
  char key[5];
  klee_make_symbolic(key, sizeof key, "key");
  key[4] = 0;
  const char *v = apr_table_get(t, key);
  if (v == NULL) {
    puts("absent");
    return 0;
  }
  printf("%s\n", v);
  return v[0] - '0';
}
