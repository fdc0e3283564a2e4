/* A program using the libc the way coreutils does; linked with libc.bc at several
 * optimisation levels (with _FORTIFY_SOURCE it calls __strcpy_chk, __memcpy_chk,
 * __strncat_chk), it must leave only the engine/POSIX-model externals undefined. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <langinfo.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>
#include <fnmatch.h>
static const struct option longopts[] = {{"all", no_argument, NULL, 'a'}, {NULL, 0, NULL, 0}};
static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }
int main(int argc, char **argv) {
  char buf[16], small[4];
  setlocale(LC_ALL, "");
  int c, n = 0;
  while ((c = getopt_long(argc, argv, "ab:", longopts, NULL)) != -1) n += c;
  if (argc > 1) {
    strcpy(buf, argv[1]);
    memcpy(small, argv[1], strlen(argv[1]) & 3);
    strncat(buf, "x", sizeof buf - strlen(buf) - 1);
    n += (int)strtol(buf, NULL, 0) + (int)strtoumax(buf, NULL, 10) + atoi(buf) + (int)strtod(buf, NULL);
    n += tolower((unsigned char)buf[0]) + toupper((unsigned char)buf[0]) + isalpha((unsigned char)buf[0]) + isspace((unsigned char)small[0]);
    mbstate_t st; memset(&st, 0, sizeof st); wchar_t wc;
    n += (int)mbrtowc(&wc, buf, 1, &st) + iswprint(wc) + (int)MB_CUR_MAX + mbsinit(&st);
    n += strcoll(buf, argv[0]) + fnmatch("*.c", buf, 0) + (getenv("HOME") != NULL) + (int)strspn(buf, "0123456789");
  }
  qsort(argv, argc, sizeof *argv, cmp);
  struct tm tm; time_t t = 0; gmtime_r(&t, &tm); localtime_r(&t, &tm); n += (int)mktime(&tm);
  char out[64]; n += (int)strftime(out, sizeof out, "%Y-%m-%d", &tm);
  signal(SIGPIPE, SIG_IGN); struct sigaction sa; memset(&sa, 0, sizeof sa); sigemptyset(&sa.sa_mask); sigaction(SIGINT, &sa, NULL);
  n += (int)strlen(nl_langinfo(CODESET)) + (int)strlen(localeconv()->decimal_point) + errno + (int)strlen(strerror(ENOENT));
  if (n == 12345) abort();
  atexit(NULL);
  exit(n & 1);
}
