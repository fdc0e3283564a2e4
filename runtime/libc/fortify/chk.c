/* The checked variants that -D_FORTIFY_SOURCE calls when the compiler knows the size of the
 * destination (destlen). A violation prints glibc's message and aborts (the engine reports
 * the abort with its stack). The *printf_chk family belongs to stdio (later). */
#include "../internal.h"
#include <string.h>
#include <stdlib.h>
#include <wchar.h>

/* not declared by glibc 2.36 headers (added in 2.38); defined in string/str.c */
size_t strlcpy(char *restrict, const char *restrict, size_t);
size_t strlcat(char *restrict, const char *restrict, size_t);

void __tsklee_chk_fail(const char *what) {
  __tsklee_write_stderr("*** buffer overflow detected ***: ");
  __tsklee_write_stderr(what);
  __tsklee_write_stderr(" terminated\n");
  abort();
}

void __chk_fail(void) __attribute__((noreturn));
void __chk_fail(void) { __tsklee_chk_fail("program"); }

#define CHECK(cond, name) \
  do {                    \
    if (cond) __tsklee_chk_fail(name); \
  } while (0)

void *__memcpy_chk(void *restrict d, const void *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "memcpy");
  return memcpy(d, s, n);
}
void *__memmove_chk(void *d, const void *s, size_t n, size_t dl) {
  CHECK(n > dl, "memmove");
  return memmove(d, s, n);
}
void *__mempcpy_chk(void *restrict d, const void *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "mempcpy");
  return mempcpy(d, s, n);
}
void *__memset_chk(void *d, int c, size_t n, size_t dl) {
  CHECK(n > dl, "memset");
  return memset(d, c, n);
}
void __explicit_bzero_chk(void *d, size_t n, size_t dl) {
  CHECK(n > dl, "explicit_bzero");
  explicit_bzero(d, n);
}
char *__strcpy_chk(char *restrict d, const char *restrict s, size_t dl) {
  CHECK(strlen(s) >= dl, "strcpy");
  return strcpy(d, s);
}
char *__stpcpy_chk(char *restrict d, const char *restrict s, size_t dl) {
  CHECK(strlen(s) >= dl, "stpcpy");
  return stpcpy(d, s);
}
char *__strncpy_chk(char *restrict d, const char *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "strncpy");
  return strncpy(d, s, n);
}
char *__stpncpy_chk(char *restrict d, const char *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "stpncpy");
  return stpncpy(d, s, n);
}
char *__strcat_chk(char *restrict d, const char *restrict s, size_t dl) {
  CHECK(strlen(d) + strlen(s) >= dl, "strcat");
  return strcat(d, s);
}
char *__strncat_chk(char *restrict d, const char *restrict s, size_t n, size_t dl) {
  size_t sl = strnlen(s, n);
  CHECK(strlen(d) + sl >= dl, "strncat");
  return strncat(d, s, n);
}
size_t __strlcpy_chk(char *restrict d, const char *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "strlcpy");
  return strlcpy(d, s, n);
}
size_t __strlcat_chk(char *restrict d, const char *restrict s, size_t n, size_t dl) {
  CHECK(n > dl, "strlcat");
  return strlcat(d, s, n);
}
size_t __mbstowcs_chk(wchar_t *restrict d, const char *restrict s, size_t n, size_t dl) {
  CHECK(d && n > dl, "mbstowcs");
  return mbstowcs(d, s, n);
}
size_t __wcstombs_chk(char *restrict d, const wchar_t *restrict s, size_t n, size_t dl) {
  CHECK(d && n > dl, "wcstombs");
  return wcstombs(d, s, n);
}
size_t __mbsrtowcs_chk(wchar_t *restrict d, const char **restrict s, size_t n, mbstate_t *ps,
                       size_t dl) {
  CHECK(d && n > dl, "mbsrtowcs");
  return mbsrtowcs(d, s, n, ps);
}
size_t __wcrtomb_chk(char *restrict s, wchar_t wc, mbstate_t *restrict ps, size_t dl) {
  CHECK(dl < 1, "wcrtomb"); /* MB_CUR_MAX is 1 */
  return wcrtomb(s, wc, ps);
}
