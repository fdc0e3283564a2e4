/* A chained hash table with string-like keys (m4's and make's symbol tables in small): 16
 * buckets, 8 entries inserted from concrete names (-DENTRIES=N for another count), then two
 * lookups of a symbolic 3-byte key. A node pointer read from a bucket at a symbolic index may
 * point to any node. */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS 16
#ifndef ENTRIES
#define ENTRIES 8
#endif

typedef struct entry {
  char name[8];
  int value;
  struct entry *next;
} entry_t;

static entry_t *table[BUCKETS];

static unsigned hash(const char *s) {
  unsigned h = 0;
  for (int i = 0; i < 3 && s[i]; i++) h = h * 31 + (unsigned char)s[i];
  return h % BUCKETS;
}

static void insert(const char *name, int value) {
  entry_t *e = calloc(1, sizeof(entry_t));
  strncpy(e->name, name, sizeof e->name - 1);
  e->value = value;
  unsigned h = hash(name);
  e->next = table[h];
  table[h] = e;
}

static entry_t *lookup(const char *key) {
  for (entry_t *e = table[hash(key)]; e; e = e->next)
    if (e->name[0] == key[0] && e->name[1] == key[1] && e->name[2] == key[2]) return e;
  return 0;
}

int main(void) {
  char name[4] = "a00";
  for (int i = 0; i < ENTRIES; i++) {
    name[1] = (char)('0' + i / 10);
    name[2] = (char)('0' + i % 10);
    insert(name, i);
  }
  char key[4];
  klee_make_symbolic(key, sizeof key, "key");
  key[3] = 0;
  int sum = 0;
  entry_t *e = lookup(key);
  if (e) sum += e->value;
  key[0] = 'a';
  e = lookup(key);
  if (e && e->value > 10) sum += 100;
  return sum > 120;
}
