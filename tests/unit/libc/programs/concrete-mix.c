/* Runs many libc functions on concrete inputs and folds the results into a hash; compiled
 * natively it prints nothing and exits with hash % 200; compiled to bitcode with
 * -DEXPECT=<native exit code> and run by tsklee with libc.bc linked in, it aborts on any
 * difference. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <getopt.h>
#include <time.h>
#include <stdint.h>
static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(void) {
  uint32_t h = 2166136261u;
#define MIX(x) (h = (h ^ (uint32_t)(x)) * 16777619u)
  double d = strtod("3.14159265358979323846", 0); uint64_t u; memcpy(&u, &d, 8); MIX(u); MIX(u >> 32);
  d = strtod("1e-310", 0); memcpy(&u, &d, 8); MIX(u);
  MIX(strtol("  -0x7fffffff", 0, 0)); MIX(strtoul("zz", 0, 36));
  int a[40]; for (int i = 0; i < 40; i++) a[i] = (i * 7919) % 101; qsort(a, 40, sizeof a[0], cmp); for (int i = 0; i < 40; i++) MIX(a[i]);
  char *argv[] = {"prog", "x", "-ab", "val", "--verb", "y", "-c", 0};
  struct option lo[] = {{"verbose", 0, 0, 'v'}, {0, 0, 0, 0}};
  int c; opterr = 0; while ((c = getopt_long(7, argv, "ab:c", lo, 0)) != -1) MIX(c), MIX(optind);
  for (int i = 0; i < 7; i++) MIX(argv[i][0]);
  struct tm tm; time_t t = 1700000000; gmtime_r(&t, &tm); char buf[64]; strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %j %V", &tm);
  for (char *p = buf; *p; p++) MIX(*p);
  MIX(mktime(&tm)); MIX(toupper('q')); MIX(isalpha('\xe9'));
  char s[] = "a,b,,c"; char *save; for (char *tok = strtok_r(s, ",", &save); tok; tok = strtok_r(0, ",", &save)) MIX(tok[0]);
  MIX(strverscmp("a10", "a9") > 0);
#ifdef EXPECT
  if ((int)(h % 200) != EXPECT) abort();
#endif
  return (int)(h % 200);
}
