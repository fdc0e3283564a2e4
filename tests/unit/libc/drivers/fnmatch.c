/* fnmatch: tsklee vs glibc on hand-written and random patterns, all flag combinations
 * (FNM_EXTMATCH excluded: not supported by tsklee). */
#include "check.h"
#include <fnmatch.h>
#include <sched.h>

extern int tsklee_fnmatch(const char *, const char *, int);
extern int tsklee___sched_cpucount(size_t, const cpu_set_t *);

#define NAME(fmt, ...) (snprintf(name, sizeof name, fmt, __VA_ARGS__), name)
static char name[300];

static void both(const char *p, const char *s, int flags) {
  int g = fnmatch(p, s, flags), o = tsklee_fnmatch(p, s, flags);
  CHECK_INT(NAME("fnmatch(\"%s\",\"%s\",%d)", p, s, flags), g, o);
}

int main(void) {
  verbose_ok = 0;
  static const char *pats[] = {"", "*", "?", "a", "a*", "*a", "*.c", "a?c", "[abc]", "[!abc]", "[^abc]", "[a-c]x", "[]]", "[]a]", "[!]]",
                               "[", "[a", "a[", "\\*", "\\", "a\\", "\\a", "[[:alpha:]]*", "[[:digit:][:upper:]]", "[[:bogus:]]", "[[:alpha:]",
                               "*/*", "a/*", "*/b", ".*", "*.", "a/.*", "?b", "[.]b", "*[/]*", "a*/b", "**", "*?*", "[a-]", "[-a]", "[z-a]",
                               "[\\]]", "[\\", "[[.a.]]", "[[=a=]]", "[[.-.]]", "A*", "[A-C]", "*/", "a/", "a/b/c", "*b*", "x[[:space:]]y"};
  static const char *strs[] = {"", "a", "b", "abc", "aXc", "x.c", ".c", ".", "..", "]", "a]", "[", "a[", "*", "\\", "a\\", "-", "A", "ABC",
                               "a/b", "a/.b", ".a/b", "a/b/c", "/", "a/", "/a", "z", "1", "x y", "x\ty", ".b", "ab", "a.", "aa/b", "a/bb"};
  int flagsets[] = {0, FNM_NOESCAPE, FNM_PATHNAME, FNM_PERIOD, FNM_PATHNAME | FNM_PERIOD, FNM_LEADING_DIR,
                    FNM_PATHNAME | FNM_LEADING_DIR, FNM_CASEFOLD, FNM_CASEFOLD | FNM_PATHNAME | FNM_PERIOD | FNM_NOESCAPE};
  for (unsigned i = 0; i < sizeof pats / sizeof pats[0]; i++)
    for (unsigned j = 0; j < sizeof strs / sizeof strs[0]; j++)
      for (unsigned f = 0; f < sizeof flagsets / sizeof flagsets[0]; f++) both(pats[i], strs[j], flagsets[f]);
  static const char pa[] = "ab./*?[]!-\\A";
  static const char sa[] = "ab./A-";
  for (int iter = 0; iter < 60000; iter++) {
    char p[12], s[12];
    int np = rnd() % 9, ns = rnd() % 9;
    for (int k = 0; k < np; k++) p[k] = pa[rnd() % (sizeof pa - 1)];
    for (int k = 0; k < ns; k++) s[k] = sa[rnd() % (sizeof sa - 1)];
    p[np] = s[ns] = 0;
    both(p, s, flagsets[rnd() % (sizeof flagsets / sizeof flagsets[0])]);
  }
  for (int iter = 0; iter < 200; iter++) {
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int k = 0; k < iter % 40; k++) CPU_SET(rnd() % 1024, &set);
    CHECK_INT(NAME("CPU_COUNT#%d", iter), CPU_COUNT(&set), tsklee___sched_cpucount(sizeof set, &set));
  }
  return summary();
}
