/* GNU m4's symbol table (src/symtab.c, linked unchanged) looked up with a symbolic macro name,
 * as m4 does for every word of its input (paper 003 §4.2's m4 subject, in small).
 * symtab_init allocates HASH_SIZE buckets (m4's -H; the paper's runs used 509: its Table 6
 * gives m4's largest split object as 4072 B = 509 * 8), the first NAMES of m4's builtin names
 * are inserted as m4's builtin_init does, then a symbolic KEYLEN-byte name (default 2; 3 or 4
 * left solver queries timing out under both models on this machine) is looked up twice
 * (`ifdef(name)' and a `defn' of a name differing in its first byte): the bucket is read at a
 * symbolic index, and the chain's symbols and their names are reached through pointers read
 * from it. Linked with symtab.c and gnulib's xmalloc.c only; defines what m4.c would
 * (hash_table_size, warning_status, m4_error) since m4.c's main is not linked. */
#include <klee/klee.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "m4.h"

#ifndef HASH_SIZE
#define HASH_SIZE 509
#endif
#ifndef NAMES
#define NAMES 16
#endif
#ifndef KEYLEN
#define KEYLEN 2
#endif

size_t hash_table_size = HASH_SIZE;
int warning_status = 0;

/* m4 1.4.19's builtin_tab names, in its order (builtin.c) */
static const char *const builtins[] = {
  "__file__", "__line__", "__program__", "builtin", "changecom", "changequote", "changeword",
  "debugmode", "debugfile", "decr", "define", "defn", "divert", "divnum", "dnl", "dumpdef",
  "errprint", "esyscmd", "eval", "format", "ifdef", "ifelse", "include", "incr", "index",
  "indir", "len", "m4exit", "m4wrap", "maketemp", "mkstemp", "patsubst", "popdef", "pushdef",
  "regexp", "shift", "sinclude", "substr", "syscmd", "sysval", "traceoff", "traceon",
  "translit", "undefine", "undivert", "unix",
};

int main(void) {
  symtab_init();
  unsigned n = NAMES < sizeof builtins / sizeof *builtins ? NAMES : sizeof builtins / sizeof *builtins;
  for (unsigned i = 0; i < n; i++) {
    symbol *s = lookup_symbol(builtins[i], SYMBOL_INSERT);
    SYMBOL_TYPE(s) = TOKEN_FUNC;
    SYMBOL_MACRO_ARGS(s) = i % 2;
  }
  char name[KEYLEN + 1];
  klee_make_symbolic(name, sizeof name, "name");
  name[KEYLEN] = '\0';
  int found = 0;
  symbol *s = lookup_symbol(name, SYMBOL_LOOKUP);
  if (s != NULL) {
    found = 1 + SYMBOL_MACRO_ARGS(s);
    printf("defined: %s\n", SYMBOL_NAME(s));
  }
  name[0] = 'd';
  s = lookup_symbol(name, SYMBOL_LOOKUP);
  if (s != NULL && SYMBOL_MACRO_ARGS(s)) found += 4;
  return found;
}

/* m4.c's m4_error (only an invalid lookup mode reaches it here) and gnulib's xalloc_die
 * (xalloc-die.c reports through error() and gettext): neither file is linked */
void m4_error(int status, int errnum, const char *format, ...) {
  (void)status, (void)errnum, (void)format;
  abort();
}

void xalloc_die(void) {
  abort();
}
