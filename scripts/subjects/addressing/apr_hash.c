/* Driver for APR's hash table (tables/apr_hash.c) with a symbolic key: the shape of the
 * paper's apr benchmark. NAMES names (default 4, at most 16: the forking model's time grows
 * fast with them), each a separate heap string (as an application's keys are: apr_hash_set
 * stores the pointer, not a copy), are inserted into a table made in
 * an APR pool; then a symbolic 3-byte name is looked up twice. The bucket array and the
 * entries live in the pool's 8 KB block; the entry a symbolic bucket index reads holds a
 * pointer to any of the key strings, so memcmp(he->key, key) dereferences a pointer
 * that resolves to many objects (forks in KLEE's model, a segment with merging).
 * apr_hash_make_custom with APR's own hash function: no per-table random seed, so a run is
 * deterministic and replays natively. */
#include <apr_general.h>
#include <apr_hash.h>
#include <apr_pools.h>
#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NAMES
#define NAMES 4
#endif

int main(void) {
  apr_pool_t *pool;
  if (apr_pool_initialize() != APR_SUCCESS || apr_pool_create(&pool, NULL) != APR_SUCCESS) return 2;
  apr_hash_t *ht = apr_hash_make_custom(pool, apr_hashfunc_default);
  static const char *names[16] = {"cat", "dog", "emu", "fox", "gnu", "hen", "ibx", "jay",
                                     "kea", "lyx", "mol", "nag", "owl", "pig", "ram", "yak"};
  for (int i = 0; i < NAMES; i++) {
    char *k = malloc(4);
    memcpy(k, names[i], 4);
    int *v = malloc(sizeof *v);
    *v = i + 1;
    apr_hash_set(ht, k, APR_HASH_KEY_STRING, v);
  }
  char key[4];
  klee_make_symbolic(key, sizeof key, "key");
  key[3] = 0;
  const int *v = apr_hash_get(ht, key, 3);
  if (v == NULL) {
    puts("absent");
    return 0;
  }
  /* a second lookup of the same key: the path now knows which entry it is */
  const int *w = apr_hash_get(ht, key, APR_HASH_KEY_STRING);
  printf("%s -> %d\n", w == v ? "same" : "other", *v);
  return *v > 8 ? 1 : 0;
}
