/*
 * klee/klee.h — the API a program uses to talk to tsklee (or to KLEE).
 *
 * The declarations match KLEE's own klee.h, so a program written for KLEE compiles
 * unchanged. Under `tsklee run` these calls are handled by the engine; in a natively
 * compiled program they come from runtime/replay (libtskleeRuntest.a), which reads the
 * inputs of one test from the .ktest file named by the KTEST_FILE environment variable.
 */
#ifndef KLEE_H
#define KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- inputs ---------------------------------------------------------------------------- */

/* Make the nbytes at addr (a whole object) symbolic. The name identifies the object in
 * .ktest files and messages; NULL means "unnamed". */
void klee_make_symbolic(void *addr, size_t nbytes, const char *name);

/* A symbolic int in the signed range [begin, end). */
int klee_range(int begin, int end, const char *name);

/* An unconstrained symbolic int. */
int klee_int(const char *name);

/* A symbolic value in [0, n): the caller compares it; this does not fork n ways by itself. */
uintptr_t klee_choose(uintptr_t n);

/* ---- constraints and queries ----------------------------------------------------------- */

/* Continue only on paths where condition is non-zero. */
void klee_assume(uintptr_t condition);

/* Non-zero if n is symbolic on the current path. */
unsigned klee_is_symbolic(uintptr_t n);

/* Non-zero when running natively against a .ktest (runtime/replay), zero under the engine. */
unsigned klee_is_replay(void);

/* Prefer test inputs where condition holds for object (a hint for test generation). */
void klee_prefer_cex(void *object, uintptr_t condition);
void klee_posix_prefer_cex(void *object, uintptr_t condition);

/* One possible concrete value of expr on the current path (concretizes it). */
#define KLEE_GET_VALUE_PROTO(suffix, type) type klee_get_value##suffix(type expr)

KLEE_GET_VALUE_PROTO(f, float);
KLEE_GET_VALUE_PROTO(d, double);
KLEE_GET_VALUE_PROTO(l, long);
KLEE_GET_VALUE_PROTO(ll, long long);
KLEE_GET_VALUE_PROTO(_i32, int32_t);
KLEE_GET_VALUE_PROTO(_i64, int64_t);

#undef KLEE_GET_VALUE_PROTO

/* ---- ending a path --------------------------------------------------------------------- */

/* End the current path without producing a test. */
__attribute__((noreturn)) void klee_silent_exit(int status);

/* End the current path with an abort error. */
__attribute__((noreturn)) void klee_abort(void);

/* End the current path with an error reported at file:line; suffix names the error file
 * (e.g. "div.err" gives testNNNNNN.div.err). */
__attribute__((noreturn)) void klee_report_error(const char *file, int line, const char *message, const char *suffix);

/* An assert whose failure is reported by the engine (via __assert_fail) the same way on
 * every platform. Unlike assert(), NDEBUG does not remove it. */
#if !defined(__cplusplus) && defined(__GLIBC__)
/* Declared so klee_assert works without <assert.h> (glibc's prototype; compatible with it). */
extern void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
    __attribute__((noreturn));
#else
#include <assert.h> /* declares __assert_fail on glibc and musl, in C++ too */
#endif
#define klee_assert(expr) ((expr) ? (void)(0) : __assert_fail(#expr, __FILE__, __LINE__, __PRETTY_FUNCTION__))

/* ---- memory ---------------------------------------------------------------------------- */

/* Declare an accessible object of nbytes at a fixed address (the caller keeps objects apart). */
void klee_define_fixed_object(void *addr, size_t nbytes);

/* Report an error unless [address, address+size) is accessible (constant address and size,
 * within one object). */
void klee_check_memory_access(const void *address, size_t size);

/* Size of the object ptr points into. */
size_t klee_get_obj_size(void *ptr);

/* Mark an object as global (internal use). */
void klee_mark_global(void *object);

/* ---- control of the exploration -------------------------------------------------------- */

/* Turn forking on (non-zero) or off on the current path. */
void klee_set_forking(unsigned enable);

/* Paths that start at klee_open_merge are merged again at the matching klee_close_merge. */
void klee_open_merge(void);
void klee_close_merge(void);

/* From now on, on this path and the paths it spawns, calls to fn_name go to new_fn_name
 * (same type). klee_alias_function("f", "f") undoes it. */
void klee_alias_function(const char *fn_name, const char *new_fn_name);

/* ---- diagnostics ----------------------------------------------------------------------- */

/* Print msg and the expressions of the following arguments. */
void klee_print_expr(const char *msg, ...);

/* Print the range of values arg can take, labelled with name. */
void klee_print_range(const char *name, int arg);

/* Print the current call stack. */
void klee_stack_trace(void);

/* Log a warning (once per call site for klee_warning_once). */
void klee_warning(const char *message);
void klee_warning_once(const char *message);

/* The errno of the current path. */
int klee_get_errno(void);

#ifdef __cplusplus
}
#endif

#endif /* KLEE_H */
