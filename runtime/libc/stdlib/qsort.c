/* qsort (deterministic: insertion sort up to 16 elements — stable, few comparisons on
 * nearly-sorted input — heapsort above, O(n log n) worst case without recursion) and
 * bsearch. Under symbolic execution every comparison on symbolic data may fork. */
#include "../internal.h"
#include <stdlib.h>

typedef int (*cmp_r_t)(const void *, const void *, void *);

static void swap_bytes(unsigned char *a, unsigned char *b, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char t = a[i];
    a[i] = b[i];
    b[i] = t;
  }
}

static void sift_down(unsigned char *base, size_t root, size_t n, size_t size, cmp_r_t cmp,
                      void *arg) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size, arg) < 0) child++;
    if (cmp(base + root * size, base + child * size, arg) >= 0) return;
    swap_bytes(base + root * size, base + child * size, size);
    root = child;
  }
}

void qsort_r(void *b, size_t n, size_t size, cmp_r_t cmp, void *arg) {
  unsigned char *base = b;
  if (n < 2 || size == 0) return;
  if (n <= 16) {
    for (size_t i = 1; i < n; i++)
      for (size_t j = i; j > 0 && cmp(base + (j - 1) * size, base + j * size, arg) > 0; j--)
        swap_bytes(base + (j - 1) * size, base + j * size, size);
    return;
  }
  for (size_t i = n / 2; i > 0; i--) sift_down(base, i - 1, n, size, cmp, arg);
  for (size_t end = n - 1; end > 0; end--) {
    swap_bytes(base, base + end * size, size);
    sift_down(base, 0, end, size, cmp, arg);
  }
}

static int call_plain(const void *a, const void *b, void *arg) {
  return ((int (*)(const void *, const void *))arg)(a, b);
}

void qsort(void *b, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  qsort_r(b, n, size, call_plain, (void *)cmp);
}

void *bsearch(const void *key, const void *b, size_t n, size_t size,
              int (*cmp)(const void *, const void *)) {
  const unsigned char *base = b;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp(key, base + mid * size);
    if (c == 0) return (void *)(base + mid * size);
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  return NULL;
}
