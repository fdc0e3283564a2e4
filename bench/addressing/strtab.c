/* Paper 003, not written for tuning: an interned-string table (12 heap strings of different
 * lengths); a symbolic index picks one and the program scans it byte by byte against a
 * symbolic word (a strcmp through a pointer read at a symbolic place, twice). Every
 * dereference of names[i] may hit any of the 12 strings. */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>
static const char *words[12] = {"if", "else", "while", "for", "do", "return",
                                "int", "char", "struct", "void", "goto", "case"};
int main(void) {
  char *names[12];
  for (int k = 0; k < 12; k++) {
    names[k] = malloc(strlen(words[k]) + 1);
    strcpy(names[k], words[k]);
  }
  char w[3];
  klee_make_symbolic(w, sizeof w, "w");
  int hits = 0;
  for (int round = 0; round < 2; round++) {
    unsigned i = klee_range(0, 12, round ? "j" : "i");
    const char *p = names[i];
    int n = 0;
    while (p[n] != 0 && n < 3 && p[n] == w[n]) n++;
    if (n == 3) hits += 10;
    if (p[0] == 'c') hits++;
  }
  return hits;
}
