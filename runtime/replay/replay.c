/*
 * libtskleeRuntest: the klee_* API for a natively compiled program, replaying one test.
 *
 * klee_make_symbolic fills each object, in call order, from the next object of the .ktest
 * named by $KTEST_FILE (the variable KLEE's libkleeRuntest reads). The name and the size must
 * match; otherwise, and for a failed klee_assume or an out-of-range klee_range, the program
 * stops with a "tsklee-replay: error: ..." line on stderr and exit status 90
 * (REPLAY_ERROR_EXIT_CODE in src/output/ktest.ts), so that a replay harness can tell a
 * mismatched test from the program's own failures. With $KLEE_RUN_TEST_ERRORS_NON_FATAL set
 * (KLEE's switch) it warns and goes on, zero-filling what is missing.
 *
 * Objects named "model_version" that the program does not ask for are skipped, as KLEE does:
 * they come from the POSIX environment model, not from the program.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klee/klee.h"
#include "ktest-read.h"

#define REPLAY_ERROR_EXIT 90

static struct tsklee_ktest *test_data;
static unsigned next_object;

static void replay_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void replay_error(const char *fmt, ...) {
  va_list ap;
  fputs("tsklee-replay: error: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  if (getenv("KLEE_RUN_TEST_ERRORS_NON_FATAL")) {
    fputs("tsklee-replay: continuing (KLEE_RUN_TEST_ERRORS_NON_FATAL is set)\n", stderr);
    return;
  }
  fflush(NULL);
  exit(REPLAY_ERROR_EXIT);
}

static void load_test(void) {
  const char *path = getenv("KTEST_FILE");
  const char *why = NULL;
  if (!path || !*path) {
    fputs("tsklee-replay: error: KTEST_FILE is not set (it names the .ktest file to replay)\n", stderr);
    exit(REPLAY_ERROR_EXIT);
  }
  test_data = tsklee_ktest_read(path, &why);
  if (!test_data) {
    fprintf(stderr, "tsklee-replay: error: %s: %s\n", path, why ? why : "unreadable");
    exit(REPLAY_ERROR_EXIT);
  }
}

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  if (!name) name = "unnamed";
  if (!test_data) load_test();
  for (;;) {
    if (next_object >= test_data->num_objects) {
      replay_error("out of inputs: the program asks for object '%s' (%zu bytes) but the test has only %u objects", name,
                   nbytes, test_data->num_objects);
      memset(addr, 0, nbytes);
      return;
    }
    struct tsklee_ktest_object *o = &test_data->objects[next_object];
    if (strcmp(o->name, "model_version") == 0 && strcmp(name, "model_version") != 0) {
      next_object++;
      continue;
    }
    unsigned index = next_object++;
    if (strcmp(o->name, name) != 0)
      replay_error("object %u: the program asks for '%s' but the test has '%s'", index, name, o->name);
    memcpy(addr, o->bytes, nbytes < o->size ? nbytes : o->size);
    if (o->size != nbytes) {
      replay_error("object %u ('%s'): the program asks for %zu bytes but the test has %zu", index, name, nbytes, o->size);
      if (o->size < nbytes) memset((char *)addr + o->size, 0, nbytes - o->size);
    }
    return;
  }
}

/* As the engine's klee_range: a one-value range is that value, with no object in the test. */
int klee_range(int begin, int end, const char *name) {
  if (begin >= end) replay_error("klee_range(%d, %d, \"%s\"): invalid range", begin, end, name ? name : "unnamed");
  if (begin + 1 == end) return begin;
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  if (x < begin || x >= end)
    replay_error("klee_range(%d, %d, \"%s\"): the test's value %d is outside the range", begin, end, name ? name : "unnamed", x);
  return x;
}

int klee_int(const char *name) {
  int x;
  klee_make_symbolic(&x, sizeof x, name);
  return x;
}

uintptr_t klee_choose(uintptr_t n) {
  uintptr_t x;
  klee_make_symbolic(&x, sizeof x, "klee_choose");
  if (x >= n) replay_error("klee_choose(%ju): the test's value %ju is out of range", (uintmax_t)n, (uintmax_t)x);
  return x;
}

void klee_assume(uintptr_t condition) {
  if (!condition) replay_error("klee_assume: the condition is false with this test's inputs");
}

unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}

unsigned klee_is_replay(void) { return 1; }

void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

void klee_posix_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}

#define GET_VALUE(suffix, type) \
  type klee_get_value##suffix(type expr) { return expr; }
GET_VALUE(f, float)
GET_VALUE(d, double)
GET_VALUE(l, long)
GET_VALUE(ll, long long)
GET_VALUE(_i32, int32_t)
GET_VALUE(_i64, int64_t)
#undef GET_VALUE

void klee_silent_exit(int status) { exit(status); }

void klee_abort(void) { abort(); }

/* The engine ends the path with testNNNNNN.<suffix>; natively the error is printed and the
 * program aborts, as a failed assert would. */
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  fprintf(stderr, "tsklee-replay: %s:%d: %s (%s)\n", file ? file : "?", line, message ? message : "error",
          suffix ? suffix : "err");
  fflush(NULL);
  abort();
}

void klee_define_fixed_object(void *addr, size_t nbytes) {
  (void)addr;
  (void)nbytes;
}

void klee_check_memory_access(const void *address, size_t size) {
  (void)address;
  (void)size;
}

size_t klee_get_obj_size(void *ptr) {
  (void)ptr;
  /* A native program has no object table; an invented size would silently change behaviour. */
  replay_error("klee_get_obj_size cannot be replayed natively");
  return 0;
}

void klee_mark_global(void *object) { (void)object; }

void klee_set_forking(unsigned enable) { (void)enable; }

void klee_open_merge(void) {}

void klee_close_merge(void) {}

void klee_alias_function(const char *fn_name, const char *new_fn_name) {
  (void)fn_name;
  (void)new_fn_name;
  replay_error("klee_alias_function cannot be replayed natively");
}

void klee_print_expr(const char *msg, ...) { (void)msg; }

void klee_print_range(const char *name, int arg) {
  (void)name;
  (void)arg;
}

void klee_stack_trace(void) {}

void klee_warning(const char *message) { fprintf(stderr, "tsklee-replay: warning: %s\n", message ? message : ""); }

void klee_warning_once(const char *message) { klee_warning(message); }

int klee_get_errno(void) { return errno; }
